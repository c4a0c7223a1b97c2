//! The clock of the current phase: its deadline and grace, counted from the
//! game's schedule and its players' absences. Used by the engine and by the
//! variants alike; it knows no variant.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::EngineError;
use super::model::GameState;
use super::orders_check::{missing_orders, owes_orders};
use super::process::{orders_of, position_of};
use super::variants::Variant;
use crate::docs::power_name;
use crate::judge::Position;
use crate::map::{Map, Power};
use crate::schedule::{self, Absence, PhaseSchedule};

/// Powers that have a player, in map order.
pub(crate) fn played_powers(map: &Map, state: &GameState) -> Vec<(Power, String)> {
    (0..map.powers().len() as u8)
        .map(Power)
        .map(|p| (p, power_name(map, p)))
        .filter(|(_, name)| state.player_of(name).is_some())
        .collect()
}

/// Absences of the players who owe orders in this position.
fn absences(map: &Map, state: &GameState, position: &Position) -> Vec<Absence> {
    played_powers(map, state)
        .into_iter()
        .filter(|(p, _)| owes_orders(map, position, *p))
        .filter_map(|(_, name)| state.player_of(&name))
        .flat_map(|m| m.absences.iter().cloned())
        .collect()
}

/// The current phase's schedule, the game's time zone, and the absences of
/// the players who owe orders in it: what a deadline is worked out from.
fn calendar(
    map: &Map,
    state: &GameState,
) -> Result<(PhaseSchedule, Tz, Vec<Absence>), EngineError> {
    let position = position_of(map, state)?;
    let settings = &state.settings.schedule;
    let sched = settings.for_kind(position.phase.kind).clone();
    Ok((sched, settings.tz(), absences(map, state, &position)))
}

/// Sets the deadline of the current phase, counted from `now`.
pub(crate) fn schedule(
    map: &Map,
    state: &mut GameState,
    now: DateTime<Utc>,
) -> Result<(), EngineError> {
    let (sched, tz, absent) = calendar(map, state)?;
    let deadline = schedule::next_deadline(&sched, tz, now, &absent);
    state.clock.deadline = Some(deadline);
    state.clock.grace = Some(schedule::grace_end(&sched, deadline));
    state.clock.late_notice_sent = false;
    state.clock.explicit = false;
    state.clock.started = Some(now);
    state.clock.held_from = None;
    Ok(())
}

/// Re-checks the current deadline against absences (after `SET ABSENCE`).
pub(crate) fn reschedule_for_absences(map: &Map, state: &mut GameState) -> Result<(), EngineError> {
    let Some(deadline) = state.clock.deadline else {
        return Ok(());
    };
    let (sched, tz, absent) = calendar(map, state)?;
    let pushed = schedule::push_past_absences(&sched, tz, deadline, &absent);
    if pushed != deadline {
        state.clock.deadline = Some(pushed);
        state.clock.grace = Some(schedule::grace_end(&sched, pushed));
    }
    Ok(())
}

/// Powers with a player that still owe orders.
pub fn late_powers(
    variant: &dyn Variant,
    map: &Map,
    state: &GameState,
) -> Result<Vec<String>, EngineError> {
    let position = position_of(map, state)?;
    let mut late = Vec::new();
    for (p, name) in played_powers(map, state) {
        if owes_orders(map, &position, p)
            && missing_orders(map, &position, p, &orders_of(map, state, &name)?) > 0
            && !variant.orders_given_otherwise(state, &name)
        {
            late.push(name);
        }
    }
    Ok(late)
}
