//! How fast the grammar reads orders. Goal: at least one million order lines a
//! second. `cargo bench --bench grammar`; lines/s = lines per iteration / median.

use criterion::{Criterion, Throughput, black_box, criterion_group};
use legate::grammar::{parse_body, parse_order};
use legate::map::Map;

/// A season's worth of typical lines: abbreviations, full names, coasts, supports,
/// convoys, prefixes and results-mail lines.
const LINES: &[&str] = &[
    "A Par - Bur",
    "F Bre - Mao",
    "A Mar S A Par - Bur",
    "F Lon - Nth",
    "F Edi - Nwg",
    "A Lvp - Yor",
    "F Kie - Den",
    "A Ber - Kie",
    "A Mun - Ruh",
    "F Nap - Ion",
    "A Rom - Apu",
    "A Ven H",
    "F Tri - Alb",
    "A Vie - Gal",
    "A Bud - Ser",
    "F Sev - Bla",
    "A Mos - Ukr",
    "A War - Gal",
    "F StP/sc - Bot",
    "F Ank - Bla",
    "A Con - Bul",
    "A Smy - Arm",
    "France: Army Paris -> Burgundy.  (*bounce*)",
    "F Nth C A Lon - Bel",
    "A Lon - Bel via convoy",
    "F Mid-Atlantic Ocean - Spain (north coast)",
    "F Gas - Spa",
    "A Mun S FRENCH A Par - Bur",
    "ENGLAND: F LON S F NTH",
    "F North Sea convoys Army London -> Norway",
];

fn body(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(LINES[i % LINES.len()]);
        s.push('\n');
    }
    s
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let n = 1000;
    let text = body(n);
    let mut g = c.benchmark_group("grammar");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("parse_body 1000 order lines", |b| {
        b.iter(|| parse_body(map, black_box(&text)))
    });
    g.bench_function("parse_order 1000 lines", |b| {
        b.iter(|| {
            for l in text.lines() {
                let _ = black_box(parse_order(map, black_box(l)));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);

/// `LEGATE_COUNT=N` parses the 1000-line body N times with `parse_body` and
/// nothing else, for instruction counts: `valgrind --tool=callgrind` with N=1 and
/// N=11, the difference over 10 000 is the cost of one line, whatever the load.
fn main() {
    if let Some(n) = std::env::var("LEGATE_COUNT")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        let map = Map::standard();
        let text = body(1000);
        for _ in 0..n {
            black_box(parse_body(map, black_box(&text)));
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
