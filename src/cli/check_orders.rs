//! `legate check-orders`: how the grammar reads a mail body, one JSON object per line.
//!
//! ```text
//! {"line":1,"input":"A Par-Bur","parsed":"A PAR - BUR"}
//! {"line":2,"input":"A Parris-Bur","error":"line 2, col 3: unknown province ...","column":3}
//! {"line":3,"input":"Hello!","ignored":true,"reason":"preamble"}
//! ```

use std::io::{Read, Write};
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::grammar::{BodyLine, Entry, Ignored, entry_canonical, item_canonical, parse_body_in};
use crate::map::Map;
use crate::phase::Phase;

#[derive(clap::Args)]
pub struct Args {
    /// Variant whose map names the provinces (standard, gtd, masters, twilight, agora,
    /// or any map in config/maps/).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Phase the orders are for (S1901M, F1901R, W1901A): decides what `D` means.
    #[arg(long)]
    phase: Option<Phase>,
}

/// Other spellings of the variants' names.
const ALIASES: &[(&str, &str)] = &[("grand-tournament", "gtd"), ("twilight-zone", "twilight")];

fn load_map(variant: &str) -> Result<&'static Map, String> {
    let name = variant.to_ascii_lowercase();
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name.as_str(), |(_, v)| v);
    // The judge's own variants read orders with the map their games use
    // (Masters Rules: with the minor powers).
    if let Ok(map) = crate::game::process::map_for(name) {
        return Ok(map);
    }
    if !variant
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!("not a variant name: {variant:?}"));
    }
    let path = format!("config/maps/{variant}.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("unknown variant {variant:?} ({path}: {e})"))?;
    let map = Map::from_toml(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(Box::leak(Box::new(map)))
}

fn ignored_reason(i: Ignored) -> &'static str {
    match i {
        Ignored::Blank => "blank",
        Ignored::Comment => "comment",
        Ignored::Quoted => "quoted",
        Ignored::Preamble => "preamble",
        Ignored::Signature => "signature",
        Ignored::AfterEnd => "after end",
        Ignored::Closing => "closing",
    }
}

/// A JSON string literal.
fn js(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

/// The JSON object for one body line, keys in the order a reader expects
/// (`line`, `input`, then what the line is).
fn line_json(map: &Map, l: &BodyLine) -> String {
    let mut s = format!("{{\"line\":{},\"input\":{}", l.line, js(&l.text));
    match &l.entry {
        Entry::Orders(_) | Entry::Command(_) => {
            s.push_str(&format!(
                ",\"parsed\":{}",
                js(&entry_canonical(map, &l.entry).unwrap_or_default())
            ));
        }
        Entry::BlockText => s.push_str(",\"ignored\":true,\"reason\":\"block text\""),
        Entry::Refused { by } => s.push_str(&format!(
            ",\"error\":\"not applied because line {by} was refused\",\"refused_by\":{by}"
        )),
        Entry::Ignored(why) => s.push_str(&format!(
            ",\"ignored\":true,\"reason\":{}",
            js(ignored_reason(*why))
        )),
        Entry::Error {
            error,
            orders,
            more,
        } => {
            s.push_str(&format!(",\"error\":{}", js(&error.to_string())));
            if let Some(c) = error.column {
                s.push_str(&format!(",\"column\":{c}"));
            }
            if !more.is_empty() {
                let rest: Vec<String> = more.iter().map(|e| js(&e.to_string())).collect();
                s.push_str(&format!(",\"more_errors\":[{}]", rest.join(",")));
            }
            if !orders.is_empty() {
                let good: Vec<String> = orders.iter().map(|i| item_canonical(map, i)).collect();
                s.push_str(&format!(",\"parsed\":{}", js(&good.join("; "))));
            }
        }
    }
    s.push('}');
    s
}

pub fn run(args: Args) -> ExitCode {
    let map = match load_map(&args.variant) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}", json!({ "error": e }));
            return ExitCode::from(2);
        }
    };
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("{}", json!({ "error": format!("reading stdin: {e}") }));
        return ExitCode::from(2);
    }
    let text = String::from_utf8_lossy(&bytes);
    let body = parse_body_in(map, &text, args.phase);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let trailing_newline = text.ends_with('\n');
    let count = body.lines.len();
    for (i, l) in body.lines.iter().enumerate() {
        // The empty "line" after a final newline is not a line of the input.
        if trailing_newline && i + 1 == count && l.text.is_empty() {
            break;
        }
        if writeln!(out, "{}", line_json(map, l)).is_err() {
            return ExitCode::SUCCESS; // stdout closed (e.g. piped to head)
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_json_object_per_line() {
        let map = Map::standard();
        let body = parse_body_in(
            map,
            "Hello\nSIGNON Fmygame secret\nA Par-Bur\nA Parris - Gas",
            None,
        );
        let out: Vec<String> = body.lines.iter().map(|l| line_json(map, l)).collect();
        assert_eq!(
            out,
            [
                r#"{"line":1,"input":"Hello","ignored":true,"reason":"preamble"}"#,
                r#"{"line":2,"input":"SIGNON Fmygame secret","parsed":"SIGNON F mygame ****"}"#,
                r#"{"line":3,"input":"A Par-Bur","parsed":"A PAR - BUR"}"#,
                r#"{"line":4,"input":"A Parris - Gas","error":"line 4, col 3: unknown province \"Parris\" - did you mean Paris (PAR)?","column":3}"#,
            ]
        );
        for o in &out {
            assert!(serde_json::from_str::<Value>(o).is_ok(), "{o}");
        }
    }

    #[test]
    fn masters_orders_are_read_with_the_minor_powers() {
        let map = load_map("Masters").expect("masters");
        let body = parse_body_in(map, "Portugal A Por S A Spa", None);
        let out = line_json(map, &body.lines[0]);
        assert!(
            out.contains(r#""parsed":"PORTUGAL: A POR S A SPA""#),
            "{out}"
        );
        let standard = load_map("standard").expect("standard");
        let body = parse_body_in(standard, "Portugal A Por S A Spa", None);
        assert!(line_json(standard, &body.lines[0]).contains("error"));
        assert!(std::ptr::eq(
            load_map("twilight-zone").unwrap(),
            load_map("twilight").unwrap()
        ));
        assert!(load_map("narnia").is_err());
    }
}
