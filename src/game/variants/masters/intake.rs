//! Orders the Masters variant takes itself, kept until the deadline:
//! variable-control orders for units of powers in civil disorder (MR2), and
//! every adjustment order (builds, removals, rebels, annexation, aid), since
//! copies count as votes and eligibility is judged only at the deadline.
//!
//! A new mail replaces what the writer's earlier mails said: for the same
//! units (variable control), or the whole adjustment list. Copies in one mail
//! stay copies.

use super::{Mark, MastersGame, cd_great};
use crate::docs::{OrderDoc, order_text};
use crate::game::EngineError;
use crate::game::describe;
use crate::game::model::GameState;
use crate::game::orders_check::check_orders;
use crate::game::process::{self, position_of, rules_for};
use crate::game::variants::Answer;
use crate::game::work::Work;
use crate::grammar::{VariantOrder, variant_canonical};
use crate::judge::{Position, Unit};
use crate::map::{Map, Power};
use crate::orders::Order;
use crate::phase::PhaseKind;
use crate::store::NewOrder;
use crate::variant::masters::{AdjustmentOrder, Rule};

/// Which mail this is: a new one replaces what earlier ones said.
fn mail_mark(work: &Work<'_, '_>, sender: &str) -> String {
    format!("{sender}|{}|{:?}", work.now.to_rfc3339(), work.inbound)
}

/// The unit an order of this phase is for.
fn unit_for(position: &Position, order: &Order) -> Option<Unit> {
    let at = order.unit()?.province();
    match position.phase.kind {
        PhaseKind::Retreat => position.dislodged_at(at).map(|d| d.unit),
        _ => position.unit_at(at).copied(),
    }
}

/// Orders of `power`'s player the variant takes: one answer per order,
/// `None` for those left to the generic way (the player's own units).
pub(crate) fn take_power_orders(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    power: &str,
    orders: &[(String, Order)],
) -> Result<Vec<Option<Answer>>, EngineError> {
    let mark = mail_mark(work, sender);
    let state = &work.game(key).state;
    let Some(game) = state.masters.as_ref() else {
        return Ok(vec![None; orders.len()]);
    };
    let map = super::game_map(state);
    let position = position_of(map, state)?;
    let Some(writer) = map.power(power) else {
        return Ok(vec![None; orders.len()]);
    };
    let mut answers = Vec::new();
    let mut taken = Vec::new();
    for (text, order) in orders {
        let answer = match position.phase.kind {
            PhaseKind::Adjustment => Some(adjustment_order(map, order)),
            _ => control_order(map, state, game, &position, writer, order),
        };
        if let Some(Ok((_, stored))) = &answer {
            taken.push((text.clone(), stored.clone()));
        }
        answers.push(answer.map(|a| a.map(|(msg, _)| msg)));
    }
    let phase = position.phase.kind;
    for (text, stored) in taken {
        record(work, key, sender, power, &mark, &text, phase, stored)?;
    }
    Ok(answers)
}

/// What is kept of a taken order.
#[derive(Clone, Debug)]
enum Stored {
    /// The unit's location code, the order, its canonical text.
    Control(String, OrderDoc, String),
    Adjustment(String),
}

type Taken = Result<(String, Stored), String>;

/// A standard adjustment order, kept for the Masters resolution.
fn adjustment_order(map: &Map, order: &Order) -> Taken {
    if AdjustmentOrder::from_order(order).is_none() {
        return Err("not an adjustment order: this is the adjustment phase".into());
    }
    let canon = order_text(map, order);
    Ok((
        format!("Accepted: {canon} (Masters adjustments are resolved at the deadline)"),
        Stored::Adjustment(canon),
    ))
}

/// A variable-control order, if the unit is one the writer may try to control.
fn control_order(
    map: &Map,
    state: &GameState,
    game: &MastersGame,
    position: &Position,
    writer: Power,
    order: &Order,
) -> Option<Taken> {
    let unit = unit_for(position, order)?;
    let cd = cd_great(map, state);
    if unit.power == writer || !game.rules.in_civil_disorder(unit.power, &cd) {
        return None;
    }
    let owner = game.rules.name(map, position, unit.power);
    if !game.rules.options.has(Rule::VariableControl) {
        return Some(Err(format!(
            "that unit is {owner}'s: orders for units in civil disorder need Variable Control (MR2), which this game does not play"
        )));
    }
    let rules = rules_for(state);
    let problems = check_orders(map, &rules, position, unit.power, &[*order]);
    if let Some(Some(problem)) = problems.first() {
        return Some(Err(describe::problem(map, Some(unit.province()), problem)));
    }
    let canon = order_text(map, order);
    let at = map.location_code(unit.location);
    Some(Ok((
        format!(
            "Accepted for {owner} by variable control (MR2): {canon}; eligibility and your count of orders are checked at the deadline"
        ),
        Stored::Control(at, OrderDoc::from_order(map, order), canon),
    )))
}

/// A Masters adjustment order (`BUILD REBEL`, `ANNEX`, `AID`) from `sender`.
pub(crate) fn take_variant_order(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    power: Option<&str>,
    order: &VariantOrder,
) -> Result<Answer, EngineError> {
    let mark = mail_mark(work, sender);
    let state = &work.game(key).state;
    let Some(game) = state.masters.as_ref() else {
        return Ok(Err("not an order of this game".into()));
    };
    let map = super::game_map(state);
    let canon = variant_canonical(map, order);
    let Some(adj) = AdjustmentOrder::from_variant(order) else {
        return Ok(Err(format!(
            "{canon} is not a Masters Rules order; the line was not applied"
        )));
    };
    let needs = match adj {
        AdjustmentOrder::BuildRebel(_) => Rule::Rebellion,
        AdjustmentOrder::Annex(_) => Rule::Annexation,
        _ => Rule::ForeignAid,
    };
    if !game.rules.options.has(needs) {
        return Ok(Err(format!(
            "{} ({}) is not played in this game",
            needs.title(),
            needs.code()
        )));
    }
    // The power signed on as: the player's own, or the one the master became.
    let Some(power) = power.map(str::to_string).or_else(|| {
        state
            .players()
            .find(|m| m.address.eq_ignore_ascii_case(sender))
            .and_then(|m| m.power.clone())
    }) else {
        return Ok(Err("only the player of a power gives this order".into()));
    };
    let position = position_of(map, state)?;
    if position.phase.kind != PhaseKind::Adjustment {
        return Ok(Err(format!(
            "{canon} is an adjustment order; the game is in {}",
            position.phase
        )));
    }
    let phase = position.phase.kind;
    // The line as written is not passed to variant orders: its canonical form
    // stands for it in the record of orders given.
    record(
        work,
        key,
        sender,
        &power,
        &mark,
        &canon,
        phase,
        Stored::Adjustment(canon.clone()),
    )?;
    Ok(Ok(format!(
        "Accepted: {canon} (Masters adjustments are resolved at the deadline)"
    )))
}

/// Keeps one taken order: in the game's Masters state, and in the store's
/// record of orders given.
#[allow(clippy::too_many_arguments)]
fn record(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    power: &str,
    mark: &str,
    text: &str,
    kind: PhaseKind,
    stored: Stored,
) -> Result<(), EngineError> {
    let now = work.now;
    let inbound = work.inbound;
    let g = work.game_mut(key);
    let id = g.row.id;
    let phase = g.state.phase_name().unwrap_or("").to_string();
    let canon = match &stored {
        Stored::Control(_, _, c) | Stored::Adjustment(c) => c.clone(),
    };
    let Some(game) = g.state.masters.as_mut() else {
        return Ok(());
    };
    let fresh = game.marks.get(power).is_none_or(|m| m.mail != mark);
    if fresh {
        game.marks.insert(
            power.to_string(),
            Mark {
                mail: mark.to_string(),
                units: Vec::new(),
            },
        );
        if kind == PhaseKind::Adjustment {
            game.adjustment.remove(power);
        }
    }
    match stored {
        Stored::Control(at, doc, _) => {
            let m = game.marks.entry(power.to_string()).or_default();
            if !m.units.contains(&at) {
                m.units.push(at.clone());
                if let Some(list) = game.control.get_mut(power) {
                    list.retain(|(unit, _)| *unit != at);
                }
            }
            game.control
                .entry(power.to_string())
                .or_default()
                .push((at, doc));
        }
        Stored::Adjustment(c) => game
            .adjustment
            .entry(power.to_string())
            .or_default()
            .push(c),
    }
    mirror(&mut g.state, power);
    work.tx.insert_order(&NewOrder {
        game: id,
        phase: &phase,
        power,
        text,
        canonical: Some(&canon),
        submitter: sender,
        submitted_at: now,
        inbound,
    })?;
    Ok(())
}

/// The writer's adjustment orders as the generic engine counts them (so it
/// knows who still owes orders): builds in the writer's home centers as
/// builds, rebel builds, annexations and aid (each uses a build) as `WAIVE`,
/// removals of the writer's own units as removals; votes for powers in civil
/// disorder use none of the writer's own adjustments (MR2 e).
fn mirror(state: &mut GameState, power: &str) {
    let map = super::game_map(state);
    let (Some(game), Ok(position), Some(writer)) = (
        state.masters.as_ref(),
        position_of(map, state),
        map.power(power),
    ) else {
        return;
    };
    if position.phase.kind != PhaseKind::Adjustment {
        return;
    }
    let orders: Vec<Order> = game
        .adjustment
        .get(power)
        .into_iter()
        .flatten()
        .filter_map(|t| super::play::parse_adjustment(map, &position, t))
        .filter_map(|o| match o {
            AdjustmentOrder::Remove(spec) => position
                .unit_at(spec.province())
                .filter(|u| u.power == writer)
                .map(|_| Order::Remove { unit: spec }),
            // A build elsewhere is a vote for a power in civil disorder (MR2 e).
            AdjustmentOrder::Build(spec) => position
                .home_of(writer)
                .contains(spec.province())
                .then_some(Order::Build { unit: spec }),
            _ => Some(Order::Waive),
        })
        .collect();
    process::set_orders(map, state, writer, &orders);
}
