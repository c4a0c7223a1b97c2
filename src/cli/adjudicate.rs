//! `legate adjudicate`: one phase, JSON in, JSON out (see docs/adjudicate-json.md).
//! With `--batch`, JSON Lines: one position per input line, one result per output line.

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::adjudicate_json::{InputError, read_request, write_result};
use crate::grammar::parse_order_in;
use crate::judge::{Countries, Edition, Rules, adjudicate};
use crate::map::{Map, Power};
use crate::orders::Order;
use crate::phase::PhaseKind;

#[derive(clap::Args)]
pub struct Args {
    /// Rulebook edition where editions differ (DATC chapter 4).
    #[arg(long, default_value = "2023", value_parser = ["2023", "2000", "1971"])]
    rules: String,
    /// JSON Lines: one position per line in, one result per line out.
    #[arg(long)]
    batch: bool,
}

pub fn run(args: Args) -> ExitCode {
    let rules = match args.rules.parse::<Edition>() {
        Ok(edition) => Rules::preset(edition),
        Err(e) => return fail(&json!({ "error": format!("--rules: {e}") })),
    };
    let map = Map::standard();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if !args.batch {
        let mut text = String::new();
        if let Err(e) = stdin.lock().read_to_string(&mut text) {
            return fail(&json!({ "error": format!("stdin: {e}") }));
        }
        return match one(map, &rules, &text) {
            Ok(result) => {
                let written = serde_json::to_writer_pretty(&mut out, &result).is_ok()
                    && writeln!(out).is_ok();
                if written && out.flush().is_ok() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => fail(&e.to_json()),
        };
    }
    let mut malformed = false;
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                let _ = out.flush();
                return fail(&json!({ "error": format!("stdin line {}: {e}", n + 1) }));
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let result = one(map, &rules, &line).unwrap_or_else(|e| {
            malformed = true;
            json!({ "error": e.to_string(), "line": n + 1 })
        });
        if serde_json::to_writer(&mut out, &result).is_err() || writeln!(out).is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    if malformed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Adjudicates one document.
fn one(map: &Map, rules: &Rules, text: &str) -> Result<Value, InputError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| InputError {
        field: "document".into(),
        message: format!("not valid JSON: {e}"),
    })?;
    let request = read_request(map, &doc, &read_order)?;
    let done = adjudicate(map, rules, &Countries, &request.position, &request.orders);
    Ok(write_result(map, rules, &request, &done))
}

fn read_order(map: &Map, kind: PhaseKind, text: &str) -> Result<(Option<Power>, Order), String> {
    parse_order_in(map, text, Some(kind))
        .map(|p| (p.power, p.order))
        .map_err(|e| e.detail())
}

/// Prints a one-line error document and exits 2.
fn fail(error: &Value) -> ExitCode {
    println!("{error}");
    ExitCode::from(2)
}
