//! A variant that exists only in the tests, to show the seam: a variant is a
//! unit struct implementing `Variant`, with only the hooks it changes, and one
//! line in the registry (`ALL`, under `cfg(test)`). Nothing else in the
//! engine knows it, yet a game of it is created and played by mail.

use super::Variant;
use crate::game::model::GameState;

/// The toy: the standard game, whose every season report says it is a toy.
pub struct Toy;

/// The line the toy adds to each report.
pub const LINE: &str = "This is a toy game: only its reports differ from the standard game.";

impl Variant for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn report_sections(&self, _state: &GameState) -> Vec<String> {
        vec![LINE.to_string()]
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Utc};

    use super::LINE;
    use crate::game::model::Status;
    use crate::game::{Applied, Engine, EngineConfig};
    use crate::store::OutboxMail;

    const POWERS: [&str; 7] = [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
    ];

    fn now() -> DateTime<Utc> {
        "2026-03-02T10:00:00Z".parse().expect("time")
    }

    fn mail(engine: &mut Engine, from: &str, body: &str) -> Applied {
        let applied = engine.apply_text(from, body, None, now()).expect("applied");
        assert_eq!(applied.errors, 0, "{}", applied.reply_body);
        applied
    }

    fn outbox(engine: &mut Engine) -> Vec<OutboxMail> {
        let later = "2999-01-01T00:00:00Z".parse().expect("time");
        engine
            .store()
            .transaction(|tx| tx.queued_outbox(later, 1_000_000))
            .expect("outbox")
    }

    #[test]
    fn a_toy_game_is_created_and_played_through_the_engine() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut engine =
            Engine::open(dir.path().join("legate.db"), EngineConfig::default()).expect("engine");
        let mut n = 0u8;
        engine.set_secret_source(move || {
            n = n.wrapping_add(1);
            [n; 32]
        });
        let created = mail(&mut engine, "gm@judge.test", "CREATE ?play gm-pw toy\n");
        assert!(
            created.reply_body.contains("(toy) created"),
            "{}",
            created.reply_body
        );
        for power in POWERS {
            let address = format!("{}@players.test", power.to_lowercase());
            mail(
                &mut engine,
                &address,
                &format!("SIGNON ?play pw-{power}\nSET PREFERENCE {power}\n"),
            );
        }
        let state = engine
            .store()
            .transaction(|tx| tx.game_by_name("play"))
            .expect("game")
            .expect("the game exists");
        let state: crate::game::model::GameState =
            serde_json::from_str(&state.state).expect("state");
        assert_eq!(state.settings.variant, "toy");
        assert_eq!(state.status, Status::Active, "seven players start it");

        let played = mail(
            &mut engine,
            "gm@judge.test",
            "SIGNON Mplay gm-pw\nPROCESS\n",
        );
        assert_eq!(played.processed, 1);
        let results: Vec<OutboxMail> = outbox(&mut engine)
            .into_iter()
            .filter(|m| m.subject.ends_with("S1901M results"))
            .collect();
        assert_eq!(results.len(), 8, "seven players and the master");
        for m in &results {
            assert!(m.body.contains(LINE), "{}", m.body);
            let files = engine
                .store()
                .transaction(|tx| tx.outbox_attachments(m.id))
                .expect("attachments");
            assert_eq!(files.len(), 2, "the board picture, PNG and SVG");
        }
    }
}
