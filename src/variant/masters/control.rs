//! MR2 Variable Control in movement and retreat phases: players write orders for
//! units of powers in civil disorder; each such unit does what it was told most
//! often.
//!
//! The sequence, per writer (in power order, so the order submissions arrive in
//! does not matter), then per unit:
//! 1. Orders for the writer's own units pass through; so do orders for units no
//!    variable control reaches (the judge voids them as foreign).
//! 2. A variable-control order needs MR2, a writer not in civil disorder (MR2 f),
//!    a unit of a power in civil disorder, an order of the phase, and an eligible
//!    writer: no unit of the writer on or next to (as for support) any center that
//!    power owns now (MR2 a).
//! 3. Movement: the writer's own orders (one per unit ordered) and variable-control
//!    orders together may not exceed the centers the writer owns (MR2 b, c); own
//!    orders count first, variable-control ones in the order written, each copy
//!    one order. Retreats: one order per writer per unit, no limit (MR2 d).
//! 4. Each unit takes the order written most times; a tie gives it no order, so it
//!    holds (movement) or is disbanded (retreat), as a unit without orders does.

use std::collections::BTreeMap;

use crate::judge::{Position, Unit};
use crate::map::{Map, Power, Province};
use crate::orders::{Order, PowerOrder, UnitSpec};
use crate::phase::PhaseKind;

use super::options::Rule;
use super::roster::MastersState;

/// What one player wrote this phase, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    pub writer: Power,
    pub orders: Vec<Order>,
}

/// Why a variable-control order was not counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("variable control (MR2) is not played in this game")]
    Off,
    #[error("a power in civil disorder writes no variable-control orders (MR2 f)")]
    WriterInCivilDisorder,
    #[error(
        "not eligible: a unit of the writer stands on or next to a center of that power (MR2 a)"
    )]
    NotEligible { controlled: Power },
    #[error("more orders than the {limit} supply centers the writer owns (MR2 b)")]
    OverLimit { limit: u32 },
    #[error("one retreat or disband order per player for each unit (MR2 d)")]
    SecondRetreatOrder,
    #[error("not an order of this phase")]
    WrongPhase,
}

/// A variable-control order that was not counted, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub writer: Power,
    pub order: Order,
    pub why: Rejection,
}

/// One order given to a controlled unit, with its votes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub order: Order,
    pub votes: u32,
    /// Votes per writer, by power index.
    pub writers: Vec<(Power, u32)>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This order was written most often and is carried out.
    Ordered(Order),
    /// Two or more orders tied for most votes: the unit gets no order.
    Tied,
}

/// The record reports print for one controlled unit: every order it received,
/// with counts, most votes first, and what was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub unit: Unit,
    pub candidates: Vec<Candidate>,
    pub decision: Decision,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ControlResult {
    /// The orders for the judge: every writer's own orders (as the writer's), then
    /// the orders decided for controlled units (as their owners').
    pub orders: Vec<PowerOrder>,
    /// One per controlled unit that received any counted order, by province.
    pub tallies: Vec<Tally>,
    pub rejected: Vec<Rejected>,
}

/// MR2 a: may `writer` write for `controlled`? No unit of `writer` may occupy, or
/// be able to move into, any center `controlled` owns in `position`.
pub fn eligible(map: &Map, position: &Position, writer: Power, controlled: Power) -> bool {
    let centers = position.centers_of(controlled);
    !position
        .units
        .iter()
        .filter(|u| u.power == writer)
        .any(|u| {
            centers.contains(u.province())
                || centers.iter().any(|c| map.reaches(u.kind, u.location, c))
        })
}

/// The unit an order of this phase is for: on the board, or dislodged in a retreat.
fn unit_for(position: &Position, order: &Order) -> Option<Unit> {
    let at = order.unit()?.province();
    match position.phase.kind {
        PhaseKind::Retreat => position.dislodged_at(at).map(|d| d.unit),
        _ => position.unit_at(at).copied(),
    }
}

fn fits_phase(kind: PhaseKind, order: &Order) -> bool {
    match kind {
        PhaseKind::Movement => matches!(
            order,
            Order::Hold { .. }
                | Order::Move { .. }
                | Order::SupportHold { .. }
                | Order::SupportMove { .. }
                | Order::Convoy { .. }
        ),
        PhaseKind::Retreat => matches!(order, Order::Move { .. } | Order::Disband { .. }),
        PhaseKind::Adjustment => false,
    }
}

/// One spelling per order, so that `A Por S (Spanish) A Spa` and `A Por S A Spa`
/// are the same vote: unit types from the board, nationalities dropped.
pub fn normalize(position: &Position, order: Order) -> Order {
    let fix = |s: UnitSpec, own: Option<Unit>| UnitSpec {
        kind: own
            .or_else(|| position.unit_at(s.province()).copied())
            .map_or(s.kind, |u| Some(u.kind)),
        location: s.location,
        power: None,
    };
    let me = unit_for(position, &order);
    match order {
        Order::Hold { unit } => Order::Hold {
            unit: fix(unit, me),
        },
        Order::Move {
            unit,
            to,
            via_convoy,
        } => Order::Move {
            unit: fix(unit, me),
            to,
            via_convoy,
        },
        Order::SupportHold { unit, supported } => Order::SupportHold {
            unit: fix(unit, me),
            supported: fix(supported, None),
        },
        Order::SupportMove {
            unit,
            supported,
            to,
        } => Order::SupportMove {
            unit: fix(unit, me),
            supported: fix(supported, None),
            to,
        },
        Order::Convoy { unit, army, to } => Order::Convoy {
            unit: fix(unit, me),
            army: fix(army, None),
            to,
        },
        Order::Disband { unit } => Order::Disband {
            unit: fix(unit, me),
        },
        other => other,
    }
}

/// Votes gathered so far: per unit province, per order, per writer.
type Votes = BTreeMap<Province, (Unit, Vec<(Order, BTreeMap<Power, u32>)>)>;

fn add_vote(votes: &mut Votes, unit: Unit, order: Order, writer: Power) {
    let entry = votes
        .entry(unit.province())
        .or_insert_with(|| (unit, Vec::new()));
    match entry.1.iter_mut().find(|(o, _)| *o == order) {
        Some((_, w)) => *w.entry(writer).or_insert(0) += 1,
        None => entry.1.push((order, BTreeMap::from([(writer, 1)]))),
    }
}

/// Why `writer` may not write `order` for `unit` (before counting the limit).
fn check(
    map: &Map,
    state: &MastersState,
    position: &Position,
    cd_great: &[Power],
    writer: Power,
    unit: &Unit,
    order: &Order,
) -> Result<(), Rejection> {
    if !state.options.has(Rule::VariableControl) {
        return Err(Rejection::Off);
    }
    if state.in_civil_disorder(writer, cd_great) {
        return Err(Rejection::WriterInCivilDisorder);
    }
    if !fits_phase(position.phase.kind, order) {
        return Err(Rejection::WrongPhase);
    }
    if !eligible(map, position, writer, unit.power) {
        return Err(Rejection::NotEligible {
            controlled: unit.power,
        });
    }
    Ok(())
}

/// Variable control for one movement or retreat phase (see the module doc).
pub fn resolve(
    map: &Map,
    state: &MastersState,
    position: &Position,
    cd_great: &[Power],
    submissions: &[Submission],
) -> ControlResult {
    let mut result = ControlResult::default();
    let mut votes = Votes::new();
    let mut sorted: Vec<&Submission> = submissions.iter().collect();
    sorted.sort_by_key(|s| s.writer);
    for sub in sorted {
        gather(map, state, position, cd_great, sub, &mut votes, &mut result);
    }
    for (_, (unit, candidates)) in votes {
        let tally = decide(unit, candidates);
        if let Decision::Ordered(order) = tally.decision {
            result.orders.push(PowerOrder {
                power: unit.power,
                order,
            });
        }
        result.tallies.push(tally);
    }
    result
}

/// One writer's orders: own ones passed through, controlled ones checked and voted.
fn gather(
    map: &Map,
    state: &MastersState,
    position: &Position,
    cd_great: &[Power],
    sub: &Submission,
    votes: &mut Votes,
    result: &mut ControlResult,
) {
    let writer = sub.writer;
    let controlled = |u: &Option<Unit>| {
        u.filter(|u| u.power != writer && state.in_civil_disorder(u.power, cd_great))
    };
    let mut own = std::collections::BTreeSet::new();
    for order in &sub.orders {
        let unit = unit_for(position, order);
        if controlled(&unit).is_none() {
            if unit.is_some_and(|u| u.power == writer) {
                own.insert(unit.map(|u| u.province()));
            }
            result.orders.push(PowerOrder {
                power: writer,
                order: *order,
            });
        }
    }
    let limit = position.centers_of(writer).len();
    let mut left = limit.saturating_sub(own.len() as u32);
    let retreat = position.phase.kind == PhaseKind::Retreat;
    let mut retreat_voted = std::collections::BTreeSet::new();
    for order in &sub.orders {
        let Some(unit) = controlled(&unit_for(position, order)) else {
            continue;
        };
        let verdict = check(map, state, position, cd_great, writer, &unit, order).and_then(|()| {
            if retreat {
                retreat_voted
                    .insert(unit.province())
                    .then_some(())
                    .ok_or(Rejection::SecondRetreatOrder)
            } else if left == 0 {
                Err(Rejection::OverLimit { limit })
            } else {
                left -= 1;
                Ok(())
            }
        });
        match verdict {
            Ok(()) => add_vote(votes, unit, normalize(position, *order), writer),
            Err(why) => result.rejected.push(Rejected {
                writer,
                order: *order,
                why,
            }),
        }
    }
}

/// Most votes wins; equal most votes: no order. Candidates are listed most votes
/// first, then by a fixed key, so reports list them alike every time.
fn decide(unit: Unit, candidates: Vec<(Order, BTreeMap<Power, u32>)>) -> Tally {
    let mut list: Vec<Candidate> = candidates
        .into_iter()
        .map(|(order, w)| Candidate {
            order,
            votes: w.values().sum(),
            writers: w.into_iter().collect(),
        })
        .collect();
    list.sort_by(|a, b| {
        b.votes
            .cmp(&a.votes)
            .then_with(|| format!("{:?}", a.order).cmp(&format!("{:?}", b.order)))
    });
    let decision = match list.as_slice() {
        [first, second, ..] if first.votes == second.votes => Decision::Tied,
        [first, ..] => Decision::Ordered(first.order),
        [] => Decision::Tied,
    };
    Tally {
        unit,
        candidates: list,
        decision,
    }
}
