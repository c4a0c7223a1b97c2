//! Reminders of a paused game (njudge: "Periodic messages will be sent to
//! remind of the pause state"): every three days, as njudge's judges do,
//! each player and master is told the game waits for its master's `RESUME`.

use chrono::{DateTime, Duration, Utc};

use super::EngineError;
use super::model::GameState;
use super::notice;
use super::work::Work;

/// How often a paused game reminds its members (njudge: "Remind every 3 days
/// that game is paused").
pub fn every() -> Duration {
    Duration::days(3)
}

/// A paused game's first reminder, `every()` after `now`.
pub fn paused_at(state: &mut GameState, now: DateTime<Utc>) {
    state.clock.pause_reminder = Some(now + every());
}

/// When a paused game next reminds its members.
pub fn next_reminder(state: &GameState) -> Option<DateTime<Utc>> {
    state.next_pause_reminder()
}

/// Sends the reminder if it is due, and sets the next. Processes nothing.
pub fn remind(work: &mut Work<'_, '_>, key: &str) -> Result<usize, EngineError> {
    let now = work.now;
    let g = work.game(key);
    if next_reminder(&g.state).is_none_or(|at| now < at) {
        return Ok(0);
    }
    let (state, id) = (g.state.clone(), g.row.id);
    let subject = notice::subject(&work.judge, &state, "Pause reminder");
    let body = format!(
        "{} is paused: no phase is processed and no deadline passes until its master \
         sends RESUME (or TERMINATE to end it).\n",
        state.name
    );
    for m in state.players().chain(state.masters()) {
        let tz = work.zone_of(&m.address);
        let text = format!(
            ":: Judge: {}  Game: {}\n{}\n\n{body}",
            work.judge,
            state.name,
            notice::deadline_line(&state, tz, now)
        );
        work.send(&m.address, subject.clone(), text, Some(id), false);
    }
    work.game_mut(key).state.clock.pause_reminder = Some(now + every());
    Ok(0)
}
