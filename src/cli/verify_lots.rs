//! `legate verify-lots <game>`: re-check every draw by lot of a game against
//! its published commitment, once the secret is revealed.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::game::audit::audit_lots;
use crate::store::Store;

#[derive(clap::Args)]
pub struct Args {
    /// The game's name.
    game: String,
    /// The database file.
    #[arg(long, default_value = "legate.db")]
    database: PathBuf,
    /// The game's secret in hex (as announced at the end of the game); by
    /// default the stored one, once revealed.
    #[arg(long)]
    secret: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    let mut store = match Store::open(&args.database) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("legate verify-lots: {e}");
            return ExitCode::from(2);
        }
    };
    let audit = match audit_lots(&mut store, &args.game, args.secret.as_deref()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("legate verify-lots: {e}");
            return ExitCode::from(2);
        }
    };
    println!("Game {}: commitment {}", audit.game, audit.commitment);
    for (i, d) in audit.draws.iter().enumerate() {
        println!(
            "draw {}: {} among [{}] -> {}",
            i + 1,
            d.purpose,
            d.candidates.join(", "),
            d.winner()
        );
    }
    if audit.problems.is_empty() {
        println!(
            "All {} draw(s) check out against the commitment.",
            audit.draws.len()
        );
        ExitCode::SUCCESS
    } else {
        for p in &audit.problems {
            println!("PROBLEM: {p}");
        }
        ExitCode::FAILURE
    }
}
