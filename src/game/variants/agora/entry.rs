//! The close of entry (section 1) on the clock: play begins by itself, or the
//! Gamemaster is told that too few entered.

use chrono::{DateTime, Utc};
use serde_json::json;

use super::super::super::EngineError;
use super::super::super::model::{GameState, Status};
use super::super::super::work::Work;
use super::super::Next;
use super::{UNPUBLISHED, deliver};
use crate::variant::agora::Notice;
use crate::variant::agora::tournament::{CAP, MIN_TO_PLAY, Stage};

/// When the clock must call for a forming tournament: when entry closes, once
/// the regulations are published (the window counts from publication).
pub(crate) fn wakeup(state: &GameState) -> Option<DateTime<Utc>> {
    let agora = state.agora.as_ref()?;
    let unpublished = agora.regulations.current().text == UNPUBLISHED;
    if state.status != Status::Forming
        || agora.tournament.stage != Stage::Entry
        || agora.too_few_told
        || unpublished
    {
        return None;
    }
    Some(agora.tournament.entry_closes())
}

/// Entry has closed: with enough contestants play begins (powers by lot,
/// section 6) and, fewer than seven having entered, the Gamemaster is
/// reminded e may end the tournament (section 2); with too few, the game
/// waits for the Gamemaster.
pub(crate) fn closed(work: &mut Work<'_, '_>, key: &str) -> Result<Next, EngineError> {
    let now = work.now;
    let state = &work.game(key).state;
    let Some(at) = wakeup(state).filter(|at| *at <= now) else {
        return Ok(Next::Nothing);
    };
    let Some(agora) = state.agora.as_ref() else {
        return Ok(Next::Nothing);
    };
    let n = agora.tournament.contestants.len();
    let gm = agora.tournament.gamemaster.clone();
    let when = at.format("%Y-%m-%d %H:%M UTC");
    let id = work.game(key).row.id;
    work.event(
        Some(id),
        "agora.entry_closed",
        json!({ "contestants": n, "begins": agora.tournament.enough_to_play() }),
    )?;
    if !agora.tournament.enough_to_play() {
        if let Some(a) = work.game_mut(key).state.agora.as_mut() {
            a.too_few_told = true;
        }
        let notices = vec![
            Notice::public(format!(
                "Entry closed at {when} with {n} contestant(s), too few to play \
                 (at least {MIN_TO_PLAY}); the Gamemaster decides what follows (section 2)."
            )),
            Notice::private(
                &gm,
                format!(
                    "Entry closed at {when} with {n} contestant(s): play does not begin by \
                     itself with fewer than {MIN_TO_PLAY}. You may add consenting persons \
                     (ADD CONTESTANT <address> <password> CONSENTED) and send FORCE BEGIN, or \
                     replace the regulations and end the tournament (END TOURNAMENT ... \
                     ENDREGULATIONS), since fewer than seven entered (section 2)."
                ),
            ),
        ];
        deliver(work, key, notices)?;
        return Ok(Next::Nothing);
    }
    let mut notices = vec![Notice::public(format!(
        "Entry closed at {when} with {n} contestants: play begins, Great Powers drawn by \
         lot (section 6); powers no contestant plays are in civil disorder (section 24)."
    ))];
    if n < CAP {
        notices.push(Notice::private(
            &gm,
            format!(
                "Entry closed with {n} contestants and play has begun. Fewer than seven \
                 entered, so you may still replace the regulations and end the tournament \
                 (END TOURNAMENT ... ENDREGULATIONS, section 2)."
            ),
        ));
    }
    deliver(work, key, notices)?;
    Ok(Next::Start)
}
