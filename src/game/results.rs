//! The engine's side of the season reports: who each reader is, the report
//! model of a processed or stored phase, and the text each reader gets (built
//! by `crate::report`). Also the short board listings `LIST` shows.

use std::fmt::Write;

use super::model::GameState;
use super::process::rules_for;
use super::variants::Variant;
use crate::docs::{PositionDoc, PowerOrderDoc};
use crate::judge::{Adjudication, Countries, Position};
use crate::map::Map;
use crate::orders::PowerOrder;
use crate::report::{self, GameInfo, PhaseInput, PhaseReport, Public, Recipient, Replay};
use crate::store::PhaseRecord;

/// How a reader takes part in the game: master, the player of a power, or
/// else an observer.
pub(crate) fn recipient(
    map: &Map,
    state: &GameState,
    address: &str,
    zone: chrono_tz::Tz,
) -> Recipient {
    let mine = |m: &&super::model::Member| m.address.eq_ignore_ascii_case(address);
    let role = if state.masters().any(|m| mine(&m)) {
        report::Role::Master
    } else if let Some(p) = state
        .players()
        .find(|m| mine(m))
        .and_then(|m| m.power.as_deref())
        .and_then(|p| map.power(p))
    {
        report::Role::Player(p)
    } else {
        report::Role::Observer
    };
    Recipient::new(role, zone)
}

fn info(state: &GameState, judge: &str, seq: u32) -> GameInfo {
    let mut variant = state.settings.variant.clone();
    if let Some(first) = variant.get(..1) {
        variant = first.to_uppercase() + &variant[1..];
    }
    GameInfo {
        game: state.name.clone(),
        judge: judge.to_string(),
        variant,
        seq,
    }
}

/// The report of a phase just adjudicated; `state` is the game after it.
pub(crate) fn report_of(
    variant: &dyn Variant,
    map: &Map,
    state: &GameState,
    judge: &str,
    before: &Position,
    adjudication: &Adjudication,
    seq: u32,
) -> PhaseReport {
    let over = state.status == super::model::Status::Finished;
    let mut report = PhaseReport::build_under(
        map,
        &rules_for(state),
        &PhaseInput {
            info: info(state, judge, seq),
            before,
            adjudication,
            deadline: if over { None } else { state.clock.deadline },
            game_over: over,
        },
    );
    report.sections = variant.report_sections(state);
    variant.edit_report(state, &mut report);
    report
}

/// The text `who` receives. The standard game hides nothing.
pub(crate) fn text_for(map: &Map, phase: &PhaseReport, who: &Recipient) -> String {
    report::report_text(map, phase, &Public, who)
}

/// A stored phase, reported again (for `HISTORY`); `None` if unreadable.
pub(crate) fn replay(
    variant: &dyn Variant,
    state: &GameState,
    judge: &str,
    record: &PhaseRecord,
    seq: u32,
) -> Option<PhaseReport> {
    let map = variant.map(state);
    let before: PositionDoc = serde_json::from_str(&record.position_before).ok()?;
    let after: PositionDoc = serde_json::from_str(&record.position_after).ok()?;
    let orders: Vec<PowerOrderDoc> = serde_json::from_str(&record.orders).ok()?;
    let before = before.to_position(map).ok()?;
    let after = after.to_position(map).ok()?;
    let orders: Vec<PowerOrder> = orders
        .iter()
        .filter_map(|o| o.to_power_order(map).ok())
        .collect();
    if let Some(adjudication) = variant.replay_adjudication(state, &before, &orders, &after) {
        let mut report = PhaseReport::build_under(
            map,
            &rules_for(state),
            &PhaseInput {
                info: info(state, judge, seq),
                before: &before,
                adjudication: &adjudication,
                deadline: None,
                game_over: false,
            },
        );
        variant.edit_report(state, &mut report);
        variant.edit_history_report(state, &record.phase, &mut report);
        report.sections = variant.history_sections(state, &record.phase);
        return Some(report);
    }
    let mut report = PhaseReport::replay(
        map,
        &rules_for(state),
        &Replay {
            info: info(state, judge, seq),
            allegiance: &Countries,
            before: &before,
            orders: &orders,
            after: Some(&after),
            deadline: None,
            game_over: false,
        },
    );
    report.sections = variant.history_sections(state, &record.phase);
    variant.edit_history_report(state, &record.phase, &mut report);
    Some(report)
}

/// `Supply centers:` and one line per power that owns any.
pub(crate) fn centers(p: &PositionDoc) -> String {
    let mut by_power: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (sc, owner) in &p.owners {
        by_power
            .entry(owner.as_str())
            .or_default()
            .push(sc.as_str());
    }
    let mut out = String::from("Supply centers:\n");
    for (power, list) in &by_power {
        let units = p.units.iter().filter(|u| u.power == *power).count();
        let _ = writeln!(
            out,
            "  {power:<10} {:>2} centers, {units:>2} units: {}",
            list.len(),
            list.join(" ")
        );
    }
    out
}

/// The units on the board, one power per line.
pub(crate) fn units(p: &PositionDoc) -> String {
    let mut by_power: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for u in &p.units {
        by_power
            .entry(u.power.as_str())
            .or_default()
            .push(format!("{} {}", u.kind, u.at));
    }
    let mut out = String::new();
    for (power, list) in &by_power {
        let _ = writeln!(out, "  {power:<10} {}", list.join(", "));
    }
    out
}
