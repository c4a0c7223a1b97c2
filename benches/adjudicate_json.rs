//! The JSON path against the judge it wraps, over the same phases in the same run.
//!
//! `fixtures/adjudicate-json/games.jsonl`: 300-odd phases of eight games played with
//! random legal orders (openings, crowded middle games, convoys, retreats,
//! adjustments; produced by `tests/adjudicate_json.rs`). Two benches over the
//! whole file, each counting one element per phase:
//! - `json_vs_core/core`: `judge::adjudicate` on each phase, already read;
//! - `json_vs_core/json_batch`: each line as `legate adjudicate --batch` handles
//!   it, stdin and stdout aside (the lines are cut once, before the runs): the
//!   JSON read, the orders parsed, the phase adjudicated, the result written
//!   as one output line.
//!
//! After the run it prints both medians per phase and their ratio. Instruction
//! counts, whatever the machine's load: `LEGATE_COUNT=N` runs the file N times and
//! nothing else (`LEGATE_COUNT_ONLY=core|json` for one of the two) under
//! `valgrind --tool=callgrind`; see `scripts/bench_adjudicate_json.sh`, which also
//! counts the release binary itself on the same file. `LEGATE_COUNT_KIND=M`, `R`
//! or `A` keeps the file's movement, retreat or adjustment phases only.

use criterion::{Criterion, Throughput, black_box, criterion_group};
use legate::adjudicate_json::{Batch, read_request};
use legate::grammar::parse_order_in;
use legate::judge::{Countries, Position, Rules, adjudicate};
use legate::map::{Map, Power};
use legate::orders::{Order, PowerOrder};
use legate::phase::PhaseKind;

const GAMES: &str = include_str!("../fixtures/adjudicate-json/games.jsonl");

fn read_order(map: &Map, kind: PhaseKind, text: &str) -> Result<(Option<Power>, Order), String> {
    parse_order_in(map, text, Some(kind))
        .map(|p| (p.power, p.order))
        .map_err(|e| e.detail())
}

/// Every phase of the file, read once: what the core is given.
fn phases(map: &Map) -> Vec<(Position, Vec<PowerOrder>)> {
    lines()
        .into_iter()
        .map(|line| {
            let doc: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let request = read_request(map, &doc, &read_order).expect("a valid position");
            (request.position, request.orders)
        })
        .collect()
}

/// The lines of the file, cut once: finding them is reading stdin, which the
/// benches leave aside. With `LEGATE_COUNT_KIND` set, the phases of that kind.
fn lines() -> Vec<&'static str> {
    let kind = std::env::var("LEGATE_COUNT_KIND").unwrap_or_default();
    GAMES
        .lines()
        .filter(|line| kind.is_empty() || phase_kind(line) == kind)
        .collect()
}

/// The last letter of a line's phase (`M`, `R`, `A`).
fn phase_kind(line: &str) -> String {
    let doc: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
    let phase = doc["phase"].as_str().unwrap_or_default();
    phase.chars().last().map(String::from).unwrap_or_default()
}

/// The batch path over the whole file, into one output buffer (as `--batch`
/// writes each result and a newline).
fn json_batch(batch: &Batch, lines: &[&str], out: &mut Vec<u8>) {
    out.clear();
    for line in lines {
        batch.adjudicate(line, out).expect("a valid position");
        out.push(b'\n');
    }
}

fn core(map: &Map, rules: &Rules, phases: &[(Position, Vec<PowerOrder>)]) {
    for (position, orders) in phases {
        black_box(adjudicate(
            map,
            rules,
            &Countries,
            black_box(position),
            black_box(orders),
        ));
    }
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let rules = Rules::default();
    let phases = phases(map);
    let batch = Batch::new(map, Rules::default(), &read_order);
    let lines = lines();
    let mut out = Vec::new();
    let mut group = c.benchmark_group("json_vs_core");
    group.throughput(Throughput::Elements(phases.len() as u64));
    group.bench_function("core", |b| b.iter(|| core(map, &rules, &phases)));
    group.bench_function("json_batch", |b| {
        b.iter(|| {
            json_batch(&batch, &lines, &mut out);
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);

/// Criterion's median of one bench of this run, in nanoseconds per file.
fn median(name: &str) -> Option<f64> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/criterion/json_vs_core")
        .join(name)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
    doc["median"]["point_estimate"].as_f64()
}

fn main() {
    let map = Map::standard();
    let rules = Rules::default();
    if let Some(n) = std::env::var("LEGATE_COUNT")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        let only = std::env::var("LEGATE_COUNT_ONLY").unwrap_or_default();
        let phases = phases(map);
        let batch = Batch::new(map, Rules::default(), &read_order);
        let lines = lines();
        let mut out = Vec::new();
        for _ in 0..n {
            if only != "json" {
                core(map, &rules, &phases);
            }
            if only != "core" {
                json_batch(&batch, &lines, &mut out);
                black_box(out.len());
            }
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    let lines = lines().len() as f64;
    if let (Some(core), Some(json)) = (median("core"), median("json_batch")) {
        println!(
            "per phase ({lines} phases): core {:.2} µs ({:.0} phases/s), JSON path {:.2} µs ({:.0} phases/s), ratio {:.2}",
            core / lines / 1000.0,
            lines * 1e9 / core,
            json / lines / 1000.0,
            lines * 1e9 / json,
            json / core
        );
    }
}
