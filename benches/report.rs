//! What one results mail costs: the report text, the board as SVG and as PNG,
//! for the opening phase. `cargo bench --bench report`. Goal: the PNG (the
//! dearest part) well under a second, so a phase with a dozen recipients is
//! reported in seconds.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use legate::grammar::parse_order_in;
use legate::judge::{Countries, Position, Rules, adjudicate};
use legate::map::Map;
use legate::orders::PowerOrder;
use legate::report::{self, GameInfo, Layout, PhaseInput, PhaseReport, Public, Recipient, Role};

const ORDERS: &[&str] = &[
    "England: F LON - NTH",
    "England: F EDI - NWG",
    "England: A LVP - YOR",
    "France: F BRE - MAO",
    "France: A PAR - BUR",
    "France: A MAR S A PAR - BUR",
    "Germany: F KIE - DEN",
    "Germany: A BER - KIE",
    "Germany: A MUN - BUR",
    "Austria: F TRI - ALB",
    "Austria: A BUD - SER",
    "Austria: A VIE - GAL",
    "Russia: A WAR - GAL",
    "Russia: F SEV - BLA",
    "Russia: F STP/SC - BOT",
    "Turkey: F ANK - BLA",
    "Turkey: A CON - BUL",
];

fn model(map: &Map) -> PhaseReport {
    let before = Position::initial(map);
    let orders: Vec<PowerOrder> = ORDERS
        .iter()
        .filter_map(|line| {
            let (power, text) = line.split_once(':')?;
            let parsed = parse_order_in(map, text, Some(before.phase.kind)).ok()?;
            Some(PowerOrder {
                power: map.power(power)?,
                order: parsed.order,
            })
        })
        .collect();
    let adjudication = adjudicate(map, &Rules::default(), &Countries, &before, &orders);
    let info = GameInfo {
        game: "bench".into(),
        judge: "LEGATE".into(),
        variant: "Standard".into(),
        seq: 1,
    };
    PhaseReport::build(
        map,
        &PhaseInput {
            info,
            before: &before,
            adjudication: &adjudication,
            deadline: None,
            game_over: false,
        },
    )
}

fn bench(c: &mut Criterion) {
    let map = Map::standard();
    let layout = Layout::standard();
    let model = model(map);
    let who = Recipient::new(Role::Observer, chrono_tz::Tz::UTC);
    c.bench_function("report text", |b| {
        b.iter(|| report::report_text(map, black_box(&model), &Public, &who))
    });
    c.bench_function("board svg", |b| {
        b.iter(|| report::board_svg(map, layout, black_box(&model), &Public, &who))
    });
    let mut group = c.benchmark_group("board png");
    group.sample_size(10);
    group.bench_function("1000 px", |b| {
        b.iter(|| report::board_png(map, layout, black_box(&model), &Public, &who))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
