//! The `legate` command line. Each subcommand lives in its own file with its
//! argument struct and a `run` function; this file only dispatches.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod adjudicate;
mod bench;
mod check_config;
mod check_orders;
mod db;
mod demo;
mod render;
mod run;
mod verify_lots;

#[derive(Parser)]
#[command(
    name = "legate",
    version,
    about = "An email judge for Diplomacy and its variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Adjudicate one phase: position and orders as JSON on stdin, result on stdout.
    Adjudicate(adjudicate::Args),
    /// Capacity figures on this machine: ingest, deadlines, pictures (docs/capacity.md).
    Bench(bench::Args),
    /// Try the configuration before running: database, mail in, mail out; one line each.
    CheckConfig(check_config::Args),
    /// Read mail-body text on stdin and print how each line is understood (JSON lines).
    CheckOrders(check_orders::Args),
    /// Database maintenance (`legate db migrate`).
    Db(db::Args),
    /// Play a short scripted game through local mail folders and show the judge's mail.
    Demo(demo::Args),
    /// Run the judge: read mail, apply it, process deadlines, send the answers.
    Run(run::Args),
    /// Draw the board of a stored phase as PNG or SVG.
    Render(render::Args),
    /// Re-check every draw by lot of a game against its published commitment.
    VerifyLots(verify_lots::Args),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Adjudicate(args) => adjudicate::run(args),
        Command::Bench(args) => bench::run(args),
        Command::CheckConfig(args) => check_config::run(args),
        Command::CheckOrders(args) => check_orders::run(args),
        Command::Db(args) => db::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Render(args) => render::run(args),
        Command::Run(args) => run::run(args),
        Command::VerifyLots(args) => verify_lots::run(args),
    }
}
