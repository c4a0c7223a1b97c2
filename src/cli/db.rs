//! `legate db ...`: maintenance of the database file.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::store;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(clap::Subcommand)]
enum DbCommand {
    /// Create the database if needed and bring its schema up to date.
    Migrate {
        /// The database file.
        #[arg(long, default_value = "legate.db")]
        database: PathBuf,
    },
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        DbCommand::Migrate { database } => migrate(&database),
    }
}

fn migrate(database: &std::path::Path) -> ExitCode {
    match store::migrate(database) {
        Ok((before, after)) if before == after => {
            println!("{}: schema version {after}, up to date", database.display());
            ExitCode::SUCCESS
        }
        Ok((before, after)) => {
            println!("{}: schema version {before} -> {after}", database.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("legate db migrate: {e}");
            ExitCode::FAILURE
        }
    }
}
