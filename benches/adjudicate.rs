//! Adjudication speed: one movement phase, order validation included.
//! (a) Spring 1901 with all 22 units ordered; (b) a crowded middle game with 30+
//! units, support chains, two convoys and a circular move; (c) a batch of 1000
//! phases, for throughput; (d) one JSON document through the `legate adjudicate
//! --batch` path (read, parse the orders, adjudicate, write), positions per second.
//! `scripts/bench_adjudicate.py` runs (a) and (b) many times over and reports the
//! medians across the runs, as the README's Speed table gives them.
//!
//! End to end, stdin to stdout, with the release binary:
//! `python3 -c 'import json; l = json.dumps(json.load(open("config/examples/spring1901.json"))); print("\n".join([l] * 20000))' > /tmp/batch.jsonl`
//! then `time target/release/legate adjudicate --batch < /tmp/batch.jsonl > /dev/null`.

use criterion::{Criterion, Throughput, black_box, criterion_group};
use legate::adjudicate_json::Batch;
use legate::grammar::parse_order_in;
use legate::judge::{Countries, Position, Rules, Unit, adjudicate};
use legate::map::{Map, UnitKind};
use legate::orders::PowerOrder;
use legate::phase::{Phase, PhaseKind, Season};

fn orders(map: &Map, lines: &[&str]) -> Vec<PowerOrder> {
    lines
        .iter()
        .map(|l| {
            let (power, text) = l.split_once(':').expect("power: order");
            let parsed = parse_order_in(map, text.trim(), Some(PhaseKind::Movement)).expect(l);
            PowerOrder {
                power: map.power(power).expect(power),
                order: parsed.order,
            }
        })
        .collect()
}

fn spring_1901(map: &Map) -> (Position, Vec<PowerOrder>) {
    let lines = [
        "England: F LON - NTH",
        "England: F EDI - NWG",
        "England: A LVP - YOR",
        "France: A PAR - BUR",
        "France: A MAR S A PAR - BUR",
        "France: F BRE - MAO",
        "Germany: A BER - KIE",
        "Germany: A MUN - RUH",
        "Germany: F KIE - DEN",
        "Italy: A VEN H",
        "Italy: A ROM - APU",
        "Italy: F NAP - ION",
        "Austria: A VIE - GAL",
        "Austria: A BUD - SER",
        "Austria: F TRI - ALB",
        "Russia: A MOS - UKR",
        "Russia: A WAR - GAL",
        "Russia: F SEV - BLA",
        "Russia: F STP/SC - BOT",
        "Turkey: A CON - BUL",
        "Turkey: A SMY - CON",
        "Turkey: F ANK - BLA",
    ];
    (Position::initial(map), orders(map, &lines))
}

fn middle_game(map: &Map) -> (Position, Vec<PowerOrder>) {
    let units = [
        ("England", "F NTH"),
        ("England", "F ENG"),
        ("England", "A LON"),
        ("England", "F NWG"),
        ("England", "A NWY"),
        ("England", "F BAR"),
        ("England", "F IRI"),
        ("France", "A BRE"),
        ("France", "A PIC"),
        ("France", "F MAO"),
        ("France", "A BUR"),
        ("France", "A PAR"),
        ("France", "A SPA"),
        ("Germany", "A RUH"),
        ("Germany", "A MUN"),
        ("Germany", "A KIE"),
        ("Germany", "F HEL"),
        ("Italy", "F ION"),
        ("Italy", "A TUN"),
        ("Italy", "F TYS"),
        ("Italy", "A VEN"),
        ("Austria", "A VIE"),
        ("Austria", "A BUD"),
        ("Austria", "A SER"),
        ("Austria", "F GRE"),
        ("Russia", "A GAL"),
        ("Russia", "F SEV"),
        ("Russia", "A UKR"),
        ("Russia", "A MOS"),
        ("Turkey", "F BLA"),
        ("Turkey", "A ARM"),
        ("Turkey", "A BUL"),
        ("Turkey", "A CON"),
        ("Turkey", "F AEG"),
    ];
    let lines = [
        // Convoy one: London to Belgium, supported.
        "England: F NTH C A LON - BEL",
        "England: A LON - BEL",
        "England: F ENG S A LON - BEL",
        "England: F NWG S F NTH",
        "England: F BAR - STP/NC",
        "England: A NWY S F BAR - STP",
        "England: F IRI - MAO",
        // Support chain into Burgundy against a supported hold.
        "Germany: A RUH - BUR",
        "Germany: A MUN S A RUH - BUR",
        "Germany: A KIE - HOL",
        "Germany: F HEL S F NTH",
        "France: A BUR H",
        "France: A PAR S A BUR",
        "France: A PIC - BEL",
        "France: A BRE S A PIC - BEL",
        "France: F MAO S F IRI - NAO",
        "France: A SPA - MAR",
        // Convoy two: Tunis to Greece through the Ionian, against a supported hold.
        "Italy: F ION C A TUN - GRE",
        "Italy: A TUN - GRE",
        "Italy: F TYS - ION",
        "Italy: A VEN - TRI",
        "Austria: F GRE H",
        "Austria: A SER S F GRE",
        // A circular move across two powers.
        "Austria: A VIE - BUD",
        "Austria: A BUD - GAL",
        "Russia: A GAL - VIE",
        // The Black Sea fight.
        "Russia: F SEV H",
        "Russia: A UKR S F SEV",
        "Russia: A MOS - STP",
        "Turkey: F BLA - SEV",
        "Turkey: A ARM S F BLA - SEV",
        "Turkey: A BUL - RUM",
        "Turkey: A CON S A BUL - RUM",
        "Turkey: F AEG S F GRE - ION",
    ];
    let mut position = Position::initial(map);
    position.phase = Phase::new(Season::Fall, 1905, PhaseKind::Movement);
    position.units = units
        .iter()
        .map(|(power, unit)| {
            let (kind, place) = unit.split_once(' ').expect("unit");
            Unit {
                power: map.power(power).expect(power),
                kind: if kind == "F" {
                    UnitKind::Fleet
                } else {
                    UnitKind::Army
                },
                location: map.lookup(place).expect(place),
            }
        })
        .collect();
    (position, orders(map, &lines))
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let rules = Rules::default();
    let (opening, opening_orders) = spring_1901(map);
    let (middle, middle_orders) = middle_game(map);
    assert!(middle.units.len() >= 30);

    c.bench_function("spring_1901_22_orders", |b| {
        b.iter(|| {
            adjudicate(
                map,
                &rules,
                &Countries,
                black_box(&opening),
                black_box(&opening_orders),
            )
        })
    });
    c.bench_function("middle_game_34_units", |b| {
        b.iter(|| {
            adjudicate(
                map,
                &rules,
                &Countries,
                black_box(&middle),
                black_box(&middle_orders),
            )
        })
    });
    let mut group = c.benchmark_group("batch");
    group.throughput(Throughput::Elements(1000));
    group.bench_function("1000_phases", |b| {
        b.iter(|| {
            for i in 0..500 {
                let _ = black_box(i);
                black_box(adjudicate(
                    map,
                    &rules,
                    &Countries,
                    &opening,
                    &opening_orders,
                ));
                black_box(adjudicate(map, &rules, &Countries, &middle, &middle_orders));
            }
        })
    });
    group.finish();

    // The `--batch` loop minus stdin/stdout: one line of the example in, one out.
    let line = serde_json::to_string(
        &serde_json::from_str::<serde_json::Value>(include_str!(
            "../config/examples/spring1901.json"
        ))
        .expect("example is JSON"),
    )
    .expect("JSON");
    let read_order = |map: &Map, kind: PhaseKind, text: &str| {
        parse_order_in(map, text, Some(kind))
            .map(|p| (p.power, p.order))
            .map_err(|e| e.detail())
    };
    let batch = Batch::new(map, Rules::default(), &read_order);
    let mut out = Vec::new();
    let mut group = c.benchmark_group("json_batch");
    group.throughput(Throughput::Elements(1));
    group.bench_function("spring_1901_line", |b| {
        b.iter(|| {
            out.clear();
            batch
                .adjudicate(black_box(&line), &mut out)
                .expect("valid request");
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);

/// `LEGATE_COUNT=N` runs each of the two positions N times and nothing else, for
/// instruction counts: `valgrind --tool=callgrind` with N=1 and N=1001, the
/// difference over 1000 is the cost of one phase, whatever the machine's load.
/// `LEGATE_COUNT_ONLY=spring|middle` restricts it to one position.
fn main() {
    if let Some(n) = std::env::var("LEGATE_COUNT")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
    {
        count(n);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

fn count(n: u32) {
    let map = Map::standard();
    let rules = Rules::default();
    let (opening, opening_orders) = spring_1901(map);
    let (middle, middle_orders) = middle_game(map);
    let only = std::env::var("LEGATE_COUNT_ONLY").unwrap_or_default();
    for _ in 0..n {
        if only != "middle" {
            black_box(adjudicate(
                map,
                &rules,
                &Countries,
                black_box(&opening),
                black_box(&opening_orders),
            ));
        }
        if only != "spring" {
            black_box(adjudicate(
                map,
                &rules,
                &Countries,
                black_box(&middle),
                black_box(&middle_orders),
            ));
        }
    }
}
