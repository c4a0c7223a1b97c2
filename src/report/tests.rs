//! Tests of the picture and the model on hand-made adjudications (the full
//! reports are tested on real adjudications in `tests/report_snapshots.rs`).

use super::*;
use crate::judge::{Adjudication, Position, Reason, Resolution, Unit, Verdict};
use crate::map::{Map, UnitKind};
use crate::orders::{Order, UnitSpec};

fn loc(code: &str) -> crate::map::Location {
    Map::standard().lookup(code).unwrap()
}

fn res(power: &str, order: Order, verdict: Verdict, reason: Reason) -> Resolution {
    Resolution {
        power: Map::standard().power(power).unwrap(),
        order,
        verdict,
        dislodged: false,
        dislodged_by: None,
        reason,
        defaulted: false,
    }
}

fn mv(from: &str, to: &str) -> Order {
    Order::Move {
        unit: UnitSpec::at(loc(from)),
        to: loc(to),
        via_convoy: false,
    }
}

/// Spring 1901 with a bounce, a support and a move, the units moved by hand.
pub(super) fn sample() -> PhaseReport {
    let map = Map::standard();
    let before = Position::initial(map);
    let mut after = before.clone();
    let moved = [
        ("par", "bur"),
        ("bre", "mao"),
        ("stp/sc", "bot"),
        ("con", "bul"),
    ];
    for (from, to) in moved {
        let u = after
            .units
            .iter_mut()
            .find(|u| u.location == loc(from))
            .unwrap();
        u.location = loc(to);
    }
    after.phase = after.phase.successor().successor();
    let bounce = Reason::Bounced {
        by: loc("mun").province,
        strength: 1,
        opposing: 1,
    };
    let resolutions = vec![
        res("France", mv("par", "bur"), Verdict::Ok, Reason::None),
        res("France", mv("bre", "mao"), Verdict::Ok, Reason::None),
        res(
            "France",
            Order::SupportMove {
                unit: UnitSpec::at(loc("mar")),
                supported: UnitSpec::at(loc("par")),
                to: loc("bur"),
            },
            Verdict::Ok,
            Reason::None,
        ),
        res("Germany", mv("ber", "mun"), Verdict::Bounce, bounce),
        res("Russia", mv("stp/sc", "bot"), Verdict::Ok, Reason::None),
        res("Turkey", mv("con", "bul"), Verdict::Ok, Reason::None),
        res(
            "Italy",
            Order::Hold {
                unit: UnitSpec::new(UnitKind::Army, loc("ven")),
            },
            Verdict::Ok,
            Reason::None,
        ),
    ];
    let adjudication = Adjudication { resolutions, after };
    let input = PhaseInput {
        info: GameInfo {
            game: "sample".into(),
            judge: "LEGATE".into(),
            variant: "Standard".into(),
            seq: 1,
        },
        before: &before,
        adjudication: &adjudication,
        deadline: None,
        game_over: false,
    };
    PhaseReport::build(map, &input)
}

#[test]
fn sample_picture_is_a_small_png() {
    let report = sample();
    let svg = svg::render(Map::standard(), Layout::standard(), &report);
    assert!(svg.starts_with("<svg"));
    let png = png::render(&svg, Some(1000)).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() < 300 * 1024, "{} bytes", png.len());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sample-board.png"), &png).unwrap();
    std::fs::write(dir.join("sample-board.svg"), &svg).unwrap();
}

#[test]
fn orders_name_units_in_full() {
    let report = sample();
    let texts: Vec<&str> = report.orders.iter().map(|o| o.text.as_str()).collect();
    assert!(
        texts.contains(&"Army Marseilles SUPPORT Army Paris -> Burgundy"),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Fleet St Petersburg (south coast) -> Gulf of Bothnia"),
        "{texts:?}"
    );
    let unit: Option<Unit> = report.orders[0].unit;
    assert!(unit.is_some());
}
