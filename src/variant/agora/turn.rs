//! Orders for a whole turn at once (section 15: "Each set of orders should
//! specify what eir units will do and how they will retreat and disband if
//! necessary ... conditionals for the creation and destruction of units").
//!
//! One submission per power holds its movement orders, its retreat instructions
//! and its builds and removals, the last two possibly conditional. The turn is
//! resolved by the judge phase after phase with no new round of orders: the
//! movement, then the retreats (if any unit can retreat), then, after a Fall,
//! the adjustments (if any are due). What is missing defaults as the judge
//! defaults, which is what sections 22-24 say: no retreat disbands, no build
//! waives, missing removals follow the civil-disorder order.

use crate::grammar::Condition;
use crate::judge::{
    Adjudication, Allegiance, Countries, Dislodged, Position, Rules, adjudicate,
    retreat_options_with,
};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder};
use crate::phase::{Phase, PhaseKind};

use super::civil_disorder;

/// Orders that apply when `condition` holds on the board at the time of their
/// phase (`otherwise` when it does not); no condition: always.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditional {
    pub condition: Option<Condition>,
    pub then: Vec<Order>,
    pub otherwise: Vec<Order>,
}

impl Conditional {
    pub fn always(orders: Vec<Order>) -> Conditional {
        Conditional {
            condition: None,
            then: orders,
            otherwise: Vec::new(),
        }
    }

    pub fn when(condition: Condition, then: Vec<Order>, otherwise: Vec<Order>) -> Conditional {
        Conditional {
            condition: Some(condition),
            then,
            otherwise,
        }
    }
}

/// One power's orders for the whole turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOrders {
    pub power: Power,
    pub movement: Vec<Order>,
    /// Retreats (`A MUN - BOH`) and disbands (`A MUN D`) in order of preference:
    /// for each dislodged unit, the first one that names it and is possible.
    pub retreats: Vec<Conditional>,
    /// Builds, removals and waives in order of priority: the judge carries out
    /// the first legal ones, as many as are due.
    pub adjustments: Vec<Conditional>,
}

impl TurnOrders {
    pub fn new(power: Power) -> TurnOrders {
        TurnOrders {
            power,
            movement: Vec::new(),
            retreats: Vec::new(),
            adjustments: Vec::new(),
        }
    }
}

/// One phase as played: the orders the judge was given and what it decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedPhase {
    pub phase: Phase,
    pub orders: Vec<PowerOrder>,
    pub adjudication: Adjudication,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnResult {
    pub phases: Vec<PlayedPhase>,
    /// The board at the start of the next turn.
    pub after: Position,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    #[error("a turn starts with a movement phase, not {0}")]
    NotMovement(Phase),
}

/// Resolves a whole turn from one set of orders per power. `collapsed` powers
/// are in civil disorder: their orders, if any, are ignored (section 24).
pub fn resolve(
    map: &Map,
    rules: &Rules,
    position: &Position,
    orders: &[TurnOrders],
    collapsed: &[Power],
) -> Result<TurnResult, TurnError> {
    if position.phase.kind != PhaseKind::Movement {
        return Err(TurnError::NotMovement(position.phase));
    }
    let movement: Vec<PowerOrder> = orders
        .iter()
        .flat_map(|t| {
            t.movement.iter().map(|&order| PowerOrder {
                power: t.power,
                order,
            })
        })
        .collect();
    let mut phases = vec![play(map, rules, position, &movement, collapsed)];
    // At most a retreat and an adjustment follow a movement phase.
    for _ in 0..2 {
        let board = &phases[phases.len() - 1].adjudication.after;
        let given = match board.phase.kind {
            PhaseKind::Movement => break,
            PhaseKind::Retreat => retreat_orders(map, rules, board, orders),
            PhaseKind::Adjustment => active(board, orders, |t| &t.adjustments),
        };
        let next = play(map, rules, board, &given, collapsed);
        phases.push(next);
    }
    let after = phases[phases.len() - 1].adjudication.after.clone();
    Ok(TurnResult { phases, after })
}

fn play(
    map: &Map,
    rules: &Rules,
    board: &Position,
    orders: &[PowerOrder],
    collapsed: &[Power],
) -> PlayedPhase {
    let orders = civil_disorder::strip(orders, collapsed);
    let adjudication = adjudicate(map, rules, &Countries, board, &orders);
    PlayedPhase {
        phase: board.phase,
        orders,
        adjudication,
    }
}

/// The orders of one group whose conditions select them on `board`, in order.
fn active(
    board: &Position,
    orders: &[TurnOrders],
    group: impl Fn(&TurnOrders) -> &Vec<Conditional>,
) -> Vec<PowerOrder> {
    let mut out = Vec::new();
    for t in orders {
        for c in group(t) {
            let on = c
                .condition
                .as_ref()
                .is_none_or(|k| holds(k, board, t.power));
            let chosen = if on { &c.then } else { &c.otherwise };
            out.extend(chosen.iter().map(|&order| PowerOrder {
                power: t.power,
                order,
            }));
        }
    }
    out
}

/// For each dislodged unit, the first of its owner's retreat instructions that
/// names it and is possible; none means it is disbanded (section 22).
fn retreat_orders(
    map: &Map,
    rules: &Rules,
    board: &Position,
    orders: &[TurnOrders],
) -> Vec<PowerOrder> {
    let given = active(board, orders, |t| &t.retreats);
    first_possible_retreats(map, rules, board, &given)
}

/// For each dislodged unit on `board`, the first of the `given` retreats and
/// disbands that names it, is its owner's and is possible; none: the unit is
/// disbanded (section 22).
pub fn first_possible_retreats(
    map: &Map,
    rules: &Rules,
    board: &Position,
    given: &[PowerOrder],
) -> Vec<PowerOrder> {
    board
        .dislodged
        .iter()
        .filter_map(|d| {
            given
                .iter()
                .find(|po| {
                    Countries.may_order(po.power, &d.unit)
                        && possible(map, rules, board, d, &po.order)
                })
                .copied()
        })
        .collect()
}

fn possible(map: &Map, rules: &Rules, board: &Position, d: &Dislodged, order: &Order) -> bool {
    let here = d.unit.province();
    match *order {
        Order::Disband { unit } => unit.province() == here,
        Order::Move { unit, to, .. } => {
            unit.province() == here
                && retreat_options_with(map, rules, board, d).iter().any(|l| {
                    l.province == to.province && (to.coast.is_none() || to.coast == l.coast)
                })
        }
        _ => false,
    }
}

/// Does the condition hold for `power` on `board` (units on the board only)?
pub fn holds(c: &Condition, board: &Position, power: Power) -> bool {
    match c {
        Condition::Unit(spec) => board.unit_at(spec.province()).is_some_and(|u| {
            u.power == spec.power.unwrap_or(power) && spec.kind.is_none_or(|k| k == u.kind)
        }),
        Condition::Not(a) => !holds(a, board, power),
        Condition::And(a, b) => holds(a, board, power) && holds(b, board, power),
        Condition::Or(a, b) => holds(a, board, power) || holds(b, board, power),
    }
}
