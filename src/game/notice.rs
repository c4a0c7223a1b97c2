//! The mail the engine sends about a game: subjects, the deadline line every
//! game mail opens with, and the same text to everyone in the game. Used by
//! the engine and by the variants alike; it knows no variant.

use chrono::{DateTime, Utc};

use super::EngineError;
use super::model::{GameState, Status};
use super::work::Work;
use crate::schedule;

/// `judge:game - phase what`, the subject of a mail about a game.
pub(crate) fn subject(judge: &str, state: &GameState, what: &str) -> String {
    let phase = state.phase_name().unwrap_or("");
    let mut s = format!("{judge}:{}", state.name);
    if !phase.is_empty() {
        s.push_str(" - ");
        s.push_str(phase);
    }
    if !what.is_empty() {
        s.push(' ');
        s.push_str(what);
    }
    s
}

/// `:: Deadline: S1901M Mon Nov 23 2026 23:30 GMT (2 days, 1 hour)`, in `tz`.
pub(crate) fn deadline_line(state: &GameState, tz: chrono_tz::Tz, now: DateTime<Utc>) -> String {
    match (state.status, state.clock.deadline, state.phase_name()) {
        (Status::Active, Some(d), Some(p)) => {
            format!(
                ":: Deadline: {p} {} ({})",
                schedule::format_in(d, tz),
                schedule::format_remaining(now, d)
            )
        }
        (Status::Paused, _, Some(p)) => format!(":: Deadline: {p} (the game is paused)"),
        (Status::Finished, _, _) => ":: Deadline: none (the game is over)".to_string(),
        (Status::Forming, _, _) => ":: Deadline: none (the game is forming)".to_string(),
        _ => ":: Deadline: none".to_string(),
    }
}

/// Sends `body` to everyone in the game, each with the deadline in their zone.
pub(crate) fn broadcast(
    work: &mut Work<'_, '_>,
    state: &GameState,
    subject: &str,
    body: &str,
    game: Option<crate::store::GameId>,
) -> Result<(), EngineError> {
    for to in state.audience() {
        let tz = work.zone_of(&to);
        let text = format!(
            ":: Judge: {}  Game: {}\n{}\n\n{body}",
            work.judge,
            state.name,
            deadline_line(state, tz, work.now)
        );
        work.send(&to, subject.to_string(), text, game, false);
    }
    Ok(())
}
