//! The tournament as turns are played: who ceases to be a contestant, the draw
//! clock, and the winners announced with notice (sections 3, 9, 16).

use serde_json::json;

use super::super::super::EngineError;
use super::super::super::model::{Outcome, Role};
use super::super::super::work::Work;
use super::super::Next;
use super::{deliver, suspend, suspended};
use crate::docs::power_name;
use crate::game::clock::schedule;
use crate::judge::Position;
use crate::phase::{PhaseKind, Season};
use crate::variant::agora::person;

/// After a phase is processed: when a turn is complete (the board is at a
/// movement phase again), contestants who cease stop playing their powers,
/// the draw clock counts a Fall, and a sole survivor is given notice of victory.
pub(crate) fn after_phase(
    work: &mut Work<'_, '_>,
    key: &str,
    after: &Position,
) -> Result<(), EngineError> {
    let now = work.now;
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let Some(agora) = g.state.agora.as_mut() else {
        return Ok(());
    };
    if after.phase.kind != PhaseKind::Movement {
        return Ok(());
    }
    let fall_year = (after.phase.season == Season::Spring).then(|| after.phase.year - 1);
    let notices = agora.after_turn(map, after, fall_year, now);
    let still: Vec<String> = agora
        .tournament
        .contestants
        .iter()
        .map(|c| c.person.clone())
        .collect();
    let pending = agora.victory.pending.as_ref().map(|p| p.at);
    // Those who ceased watch the rest of the game; their powers are in civil
    // disorder (section 24).
    for m in g
        .state
        .members
        .iter_mut()
        .filter(|m| m.role == Role::Player && !still.contains(&person(&m.address)))
    {
        m.role = Role::Observer;
        m.power = None;
    }
    if let Some(at) = pending {
        suspend(&mut g.state, at);
    }
    deliver(work, key, notices)
}

/// The clock's call for an Agora game: a declared draw or announced winners
/// whose notice has run are carried out and end the game. `None`: the clock
/// goes on as for any game; `Some(n)`: handled, `n` phases processed.
pub(crate) fn due(work: &mut Work<'_, '_>, key: &str) -> Result<Option<Next>, EngineError> {
    let now = work.now;
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let Some(agora) = g.state.agora.as_mut() else {
        return Ok(None);
    };
    if !suspended(agora) {
        return Ok(None);
    }
    let notices = agora.tick(now);
    let winners = agora.victory.winners.clone();
    let powers: Vec<String> = winners
        .iter()
        .flatten()
        .filter_map(|w| {
            agora
                .tournament
                .contestants
                .iter()
                .find(|c| &c.person == w)
                .and_then(|c| c.power)
        })
        .map(|p| power_name(map, p))
        .collect();
    // A lapsed draw lets play go on.
    if !suspended(agora) {
        let id = g.row.id;
        schedule(map, &mut g.state, now)?;
        deliver(work, key, notices)?;
        work.event(Some(id), "agora.resumed", json!({}))?;
        return Ok(Some(Next::Nothing));
    }
    deliver(work, key, notices)?;
    if let Some(winners) = winners {
        let id = work.game(key).row.id;
        work.event(
            Some(id),
            "agora.winners_announced",
            json!({ "winners": winners }),
        )?;
        let outcome = match powers.as_slice() {
            [one] => Outcome::Solo { power: one.clone() },
            _ => Outcome::Draw { powers },
        };
        return Ok(Some(Next::End(outcome)));
    }
    Ok(Some(Next::Nothing))
}
