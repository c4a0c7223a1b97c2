//! `legate db ...`: maintenance of the database file.

use std::path::{Path, PathBuf};
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
    /// Write a consistent copy of the database (safe while the judge runs).
    Backup {
        /// The database file.
        #[arg(long, default_value = "legate.db")]
        database: PathBuf,
        /// Where to write the copy; must not exist yet.
        #[arg(long)]
        to: PathBuf,
    },
}

pub fn run(args: Args) -> ExitCode {
    match args.command {
        DbCommand::Migrate { database } => migrate(&database),
        DbCommand::Backup { database, to } => backup(&database, &to),
    }
}

fn migrate(database: &Path) -> ExitCode {
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

fn backup(database: &Path, to: &Path) -> ExitCode {
    if !database.exists() {
        eprintln!("legate db backup: {} does not exist", database.display());
        return ExitCode::FAILURE;
    }
    match store::Store::open(database).and_then(|s| s.backup_to(to)) {
        Ok(()) => {
            println!("{}: copied to {}", database.display(), to.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("legate db backup: {e}");
            ExitCode::FAILURE
        }
    }
}
