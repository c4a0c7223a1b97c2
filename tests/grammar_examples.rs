//! Runs every example in `grammar/examples/*.txt`, so the written specification
//! can never drift from the parser.
//!
//! Format, one example per line (`#` comments and blank lines skipped):
//! ```text
//! input => CANONICAL            the line must parse and print as CANONICAL
//! input => (ignored)            the line must be ignored
//! input !! error message        the line must fail with exactly this message
//! @phase W1901A                 following lines are read for this phase (`@phase none`)
//! ```
//! A line that gives several entries (split by `\\`) prints them joined by ` \\ `;
//! after an error, each line refused with it shows as `(not applied: line N was refused)`.
//! Every canonical form is parsed again and must print the same, and orders must
//! come back equal. `GRAMMAR_BLESS=1 cargo test --test pure grammar_examples::` rewrites
//! the expectations from the parser (review the diff before committing).

use std::fmt::Write as _;
use std::path::Path;

use legate::grammar::{BodyLine, Entry, entry_canonical, parse_line};
use legate::map::Map;
use legate::phase::Phase;

fn render(map: &Map, lines: &[BodyLine]) -> (bool, String) {
    if let Some(e) = lines.iter().find_map(|l| match &l.entry {
        Entry::Error { error, .. } => Some(error),
        _ => None,
    }) {
        if !lines
            .iter()
            .any(|l| matches!(l.entry, Entry::Refused { .. }))
        {
            return (false, e.to_string());
        }
        // A refused block: every entry, the lines refused with its header
        // saying so, and what follows the block read as usual.
        let parts: Vec<String> = lines
            .iter()
            .filter_map(|l| match &l.entry {
                Entry::Error { error, .. } => Some(error.to_string()),
                Entry::Refused { by } => Some(format!("(not applied: line {by} was refused)")),
                other => entry_canonical(map, other),
            })
            .collect();
        return (false, parts.join(" \\\\ "));
    }
    let parts: Vec<String> = lines
        .iter()
        .filter_map(|l| entry_canonical(map, &l.entry))
        .collect();
    if parts.is_empty() {
        (true, "(ignored)".into())
    } else {
        (true, parts.join(" \\\\ "))
    }
}

fn orders_of(lines: &[BodyLine]) -> Vec<Entry> {
    lines
        .iter()
        .filter(|l| matches!(l.entry, Entry::Orders(_)))
        .map(|l| l.entry.clone())
        .collect()
}

struct Outcome {
    examples: usize,
    failures: Vec<String>,
    blessed: String,
}

fn run_file(map: &Map, path: &Path) -> Outcome {
    let text = std::fs::read_to_string(path).expect("example file is readable");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
    let mut out = Outcome {
        examples: 0,
        failures: Vec::new(),
        blessed: String::new(),
    };
    let mut phase: Option<Phase> = None;
    for (i, raw) in text.lines().enumerate() {
        let loc = format!("{name}:{}", i + 1);
        let t = raw.trim_end();
        if t.is_empty() || t.starts_with('#') {
            let _ = writeln!(out.blessed, "{raw}");
            continue;
        }
        if let Some(p) = t.strip_prefix("@phase ") {
            phase = if p.trim() == "none" {
                None
            } else {
                Some(p.trim().parse().expect("valid @phase"))
            };
            let _ = writeln!(out.blessed, "{raw}");
            continue;
        }
        let (input, want_ok, want) = match (t.rsplit_once(" => "), t.rsplit_once(" !! ")) {
            (Some((a, _)), Some((b, w))) if b.len() > a.len() => (b, false, w),
            (Some((a, w)), _) => (a, true, w),
            (None, Some((b, w))) => (b, false, w),
            (None, None) => {
                out.failures
                    .push(format!("{loc}: no `=>` or `!!` in {t:?}"));
                continue;
            }
        };
        out.examples += 1;
        let lines = parse_line(map, input, phase);
        let (ok, got) = render(map, &lines);
        let _ = writeln!(
            out.blessed,
            "{input} {} {got}",
            if ok { "=>" } else { "!!" }
        );
        if ok != want_ok || got != want {
            let sign = |b| if b { "=>" } else { "!!" };
            out.failures.push(format!(
                "{loc}: {input:?}\n    want {} {want}\n    got  {} {got}",
                sign(want_ok),
                sign(ok)
            ));
            continue;
        }
        if ok && got != "(ignored)" {
            let again = parse_line(map, &got, phase);
            let (ok2, got2) = render(map, &again);
            if !ok2 || got2 != got {
                out.failures
                    .push(format!("{loc}: canonical {got:?} reads back as {got2:?}"));
            } else if orders_of(&again) != orders_of(&lines) {
                out.failures.push(format!(
                    "{loc}: canonical {got:?} reads back as different orders"
                ));
            }
        }
    }
    out
}

#[test]
fn every_example_parses_as_written() {
    let map = Map::standard();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("grammar/examples exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let bless = std::env::var_os("GRAMMAR_BLESS").is_some();
    let mut total = 0;
    let mut failures = Vec::new();
    for f in &files {
        let o = run_file(map, f);
        total += o.examples;
        failures.extend(o.failures);
        if bless {
            std::fs::write(f, o.blessed).expect("example file is writable");
        }
    }
    assert!(
        files.len() >= 10,
        "expected the example files, found {}",
        files.len()
    );
    assert!(total >= 300, "expected hundreds of examples, found {total}");
    assert!(
        failures.is_empty() || bless,
        "{} of {total} examples fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
