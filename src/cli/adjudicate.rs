//! `legate adjudicate`: one phase, JSON in, JSON out (see docs/adjudicate-json.md).
//! With `--batch`, JSON Lines: one position per input line, one result per output line.

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::adjudicate_json::Batch;
use crate::grammar::parse_order_in;
use crate::judge::{Edition, Rules};
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
    let batch = Batch::new(Map::standard(), rules, &read_order);
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if !args.batch {
        let mut text = String::new();
        if let Err(e) = stdin.lock().read_to_string(&mut text) {
            return fail(&json!({ "error": format!("stdin: {e}") }));
        }
        let mut line = Vec::new();
        return match batch.adjudicate(&text, &mut line) {
            Ok(()) => {
                // Pretty-printed: the same document, read back.
                let result: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
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
    let mut input = stdin.lock();
    // Both kept from one line to the next.
    let (mut text, mut line) = (String::new(), Vec::new());
    let mut malformed = false;
    let mut n = 0;
    loop {
        text.clear();
        match input.read_line(&mut text) {
            Ok(0) => break,
            Ok(_) => n += 1,
            Err(e) => {
                let _ = out.flush();
                return fail(&json!({ "error": format!("stdin line {}: {e}", n + 1) }));
            }
        }
        // A line ends at LF or CRLF, as `BufRead::lines` cuts it.
        let doc = text.strip_suffix('\n').unwrap_or(&text);
        let doc = doc.strip_suffix('\r').unwrap_or(doc);
        if doc.trim().is_empty() {
            continue;
        }
        line.clear();
        if let Err(e) = batch.adjudicate(doc, &mut line) {
            malformed = true;
            line.clear();
            error_line(&mut line, &e.to_string(), n);
        }
        line.push(b'\n');
        if out.write_all(&line).is_err() {
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

/// `{"error":"...","line":N}`
fn error_line(out: &mut Vec<u8>, error: &str, n: usize) {
    // Writing to a vector cannot fail.
    let _ = serde_json::to_writer(&mut *out, &json!({ "error": error, "line": n }));
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
