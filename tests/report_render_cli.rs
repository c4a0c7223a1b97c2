//! `legate render` on a stored phase and on a position file.

use std::path::Path;
use std::process::Command;

use chrono::{TimeZone, Utc};
use legate::docs::{PositionDoc, PowerOrderDoc};
use legate::grammar::parse_order_in;
use legate::judge::{Countries, Position, Rules, adjudicate};
use legate::map::Map;
use legate::orders::PowerOrder;
use legate::store::{NewGame, NewPhase, Store, StoreError};

const ORDERS: [&str; 4] = [
    "France: A PAR - BUR",
    "Germany: A MUN - BUR",
    "England: F LON - NTH",
    "Russia: F STP/SC - BOT",
];

fn spring_orders(map: &Map, before: &Position) -> Vec<PowerOrder> {
    ORDERS
        .iter()
        .map(|line| {
            let (power, order) = line.split_once(':').unwrap();
            let parsed = parse_order_in(map, order, Some(before.phase.kind)).unwrap();
            PowerOrder {
                power: map.power(power).unwrap(),
                order: parsed.order,
            }
        })
        .collect()
}

/// A database with one game, `demo`, and its Spring 1901 processed.
fn stored_game(path: &Path) {
    let map = Map::standard();
    let before = Position::initial(map);
    let orders = spring_orders(map, &before);
    let done = adjudicate(map, &Rules::default(), &Countries, &before, &orders);
    let before_doc = PositionDoc::from_position(map, &before);
    let after_doc = PositionDoc::from_position(map, &done.after);
    let order_docs: Vec<PowerOrderDoc> = orders
        .iter()
        .map(|o| PowerOrderDoc::from_power_order(map, o))
        .collect();
    let now = Utc.with_ymd_and_hms(2026, 11, 1, 12, 0, 0).unwrap();
    let mut store = Store::open(path).unwrap();
    store
        .transaction(|tx| {
            let game = tx.insert_game(
                &NewGame {
                    name: "demo",
                    variant: "standard",
                    rules_preset: "2023",
                    settings: "{}",
                    state: "{}",
                    lot_commitment: None,
                    lot_secret: None,
                },
                now,
            )?;
            tx.insert_phase(&NewPhase {
                game,
                phase: "S1901M",
                position_before: &json(&before_doc),
                orders: &json(&order_docs),
                results: "[]",
                position_after: &json(&after_doc),
                processed_at: now,
            })?;
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

fn legate(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(args)
        .output()
        .unwrap()
}

fn is_png(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"\x89PNG\r\n\x1a\n") && b.len() < 300 * 1024)
}

#[test]
fn renders_a_stored_phase() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("legate.db");
    stored_game(&db);
    let db = db.to_str().unwrap();
    let png = dir.path().join("board.png");
    let out = legate(&[
        "render",
        "--game",
        "demo",
        "--database",
        db,
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(is_png(&png));

    let svg = dir.path().join("board.svg");
    let out = legate(&[
        "render",
        "--game",
        "demo",
        "--phase",
        "S1901M",
        "--database",
        db,
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    // The bounce in Burgundy is drawn as two failed (dashed) moves.
    assert!(text.contains("demo"), "title");
    assert!(
        text.matches("stroke-dasharray=\"7 5\"").count() >= 2,
        "{text}"
    );
}

#[test]
fn a_missing_phase_or_game_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("legate.db");
    stored_game(&db);
    let db = db.to_str().unwrap();
    let png = dir.path().join("x.png");
    let png = png.to_str().unwrap();
    let out = legate(&[
        "render",
        "--game",
        "demo",
        "--phase",
        "F1905M",
        "--database",
        db,
        "-o",
        png,
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("F1905M"));
    let out = legate(&["render", "--game", "nosuch", "--database", db, "-o", png]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nosuch"));
}

#[test]
fn renders_a_position_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pos.json");
    std::fs::write(
        &file,
        r#"{"phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
            "supply_centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"]},
            "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}"#,
    )
    .unwrap();
    let png = dir.path().join("board.png");
    let out = legate(&[
        "render",
        "--position",
        file.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(is_png(&png));
}
