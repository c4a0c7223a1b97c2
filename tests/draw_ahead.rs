//! Several games due at once: the deadline pass draws their board pictures
//! on a second thread ahead of the games' transactions. Every results mail
//! must still carry the picture of its own board (the PNG drawn from the SVG
//! it is sent with).

use chrono::{DateTime, Duration, Utc};
use legate::game::{Engine, EngineConfig};
use legate::store::Store;

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2027-03-01T09:00:00Z")
        .expect("time")
        .with_timezone(&Utc)
}

/// `games` standard games, started, with some orders in and NMR set, so a
/// pass after the grace processes each with the missing units holding.
fn judge_with_games(path: &std::path::Path, games: usize) -> Engine {
    let mut engine = Engine::open(path, EngineConfig::default()).expect("engine");
    let now = t0();
    for g in 0..games {
        let name = format!("ahead{g}");
        let master = format!("gm{g}@players.test");
        let a = engine
            .apply_text(
                &master,
                &format!("CREATE ?{name} gm-secret standard\nSET NMR\n"),
                None,
                now,
            )
            .expect("create");
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        for power in POWERS {
            let address = format!("{}{g}@players.test", power.to_lowercase());
            let a = engine
                .apply_text(
                    &address,
                    &format!("SIGNON ?{name} pw-{power}\nSET PREFERENCE {power}\n"),
                    None,
                    now,
                )
                .expect("sign on");
            assert_eq!(a.errors, 0, "{}", a.reply_body);
        }
        // Different orders in different games, so the boards differ.
        let orders = match g % 3 {
            0 => "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
            1 => "A Par-Pic\nA Mar-Bur\nF Bre-Eng",
            _ => "A Par-Gas\nA Mar H\nF Bre-Mid",
        };
        let address = format!("france{g}@players.test");
        let a = engine
            .apply_text(
                &address,
                &format!("SIGNON F{name} pw-France\n{orders}\n"),
                None,
                now,
            )
            .expect("orders");
        assert_eq!(a.errors, 0, "{}", a.reply_body);
    }
    engine
}

/// Every results mail's files: (game id, PNG bytes, SVG text).
fn results_pictures(path: &std::path::Path) -> Vec<(i64, Vec<u8>, String)> {
    let mut store = Store::open(path).expect("store");
    store
        .transaction(|tx| {
            let mut out = Vec::new();
            for id in 1..=tx.outbox_count()? as i64 {
                let Some(mail) = tx.outbox(legate::store::OutboxId(id))? else {
                    continue;
                };
                if !mail.subject.ends_with("results") {
                    continue;
                }
                let files = &mail.attachments;
                assert_eq!(files.len(), 2, "{}", mail.subject);
                assert_eq!(files[0].content_type, "image/png");
                let svg = String::from_utf8(files[1].bytes.clone()).expect("svg text");
                out.push((mail.game.map_or(0, |g| g.0), files[0].bytes.clone(), svg));
            }
            Ok::<_, legate::store::StoreError>(out)
        })
        .expect("outbox")
}

#[test]
fn pictures_drawn_ahead_are_the_pictures_of_each_mails_own_board() {
    const GAMES: usize = 7;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("legate.db");
    let mut engine = judge_with_games(&path, GAMES);
    let processed = engine
        .process_due(t0() + Duration::days(30))
        .expect("deadline pass");
    assert_eq!(processed, GAMES);
    drop(engine);

    let pictures = results_pictures(&path);
    assert_eq!(pictures.len(), GAMES * 8, "seven players and a master each");
    let mut boards = std::collections::BTreeSet::new();
    for (game, png, svg) in &pictures {
        let drawn = legate::report::png::render(svg, Some(1000)).expect("png");
        assert!(
            drawn == *png,
            "game {game}: the PNG is not its SVG's picture"
        );
        boards.insert(svg.clone());
    }
    // Each game's title names it: one board per game, the same for its readers.
    assert_eq!(boards.len(), GAMES, "one board per game");
}
