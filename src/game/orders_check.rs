//! Orders against the board: who may order what, which orders are illegal,
//! which powers still owe orders, and how a new mail's orders merge with the
//! ones already given.

use crate::judge::{Allegiance, Countries, Position, Reason, Rules, Verdict, adjudicate};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder};
use crate::phase::PhaseKind;

/// Why one order is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderProblem {
    /// No unit (or dislodged unit, in a retreat phase) there.
    NoUnit,
    /// The unit there belongs to another power.
    NotYours,
    /// The order cannot be carried out on this board (the judge's reason).
    Illegal(Reason),
    /// This kind of order is not given in this phase.
    WrongPhase,
}

/// Is this reason a mistake in the order itself (as opposed to an outcome that
/// depends on the other orders, such as an unmatched support)?
pub fn is_illegal(reason: &Reason) -> bool {
    use Reason::*;
    matches!(
        reason,
        NoUnit { .. }
            | ForeignUnit { .. }
            | WrongPhase
            | NotAdjacent { .. }
            | ArmyToSea { .. }
            | FleetInland { .. }
            | Impassable { .. }
            | CoastUnreachable { .. }
            | CoastNeeded { .. }
            | MoveToSelf
            | SupportSelf
            | SupportUnreachable { .. }
            | SupportedMoveImpossible { .. }
            | NoSupportedUnit { .. }
            | ConvoyByArmy
            | ConvoyFromCoast
            | ConvoyOfFleet { .. }
            | ConvoyNotOnRoute
            | WrongUnitKind
            | RetreatBlocked { .. }
            | NotHomeCenter { .. }
            | CenterNotOwned { .. }
            | Occupied { .. }
            | FleetBuildInland { .. }
            | ArmyBuildAtSea { .. }
            | NoBuildsLeft
            | NoRemovalsLeft
    )
}

/// Can this kind of order be given in a phase of this kind?
pub fn fits_phase(kind: PhaseKind, order: &Order) -> bool {
    match order {
        Order::Hold { .. }
        | Order::SupportHold { .. }
        | Order::SupportMove { .. }
        | Order::Convoy { .. } => kind == PhaseKind::Movement,
        Order::Move { .. } => kind != PhaseKind::Adjustment,
        Order::Disband { .. } => kind == PhaseKind::Retreat,
        Order::Build { .. } | Order::Waive => kind == PhaseKind::Adjustment,
        // `DISBAND` in an adjustment phase is a removal; a removal is never a retreat.
        Order::Remove { .. } => kind == PhaseKind::Adjustment,
    }
}

/// The unit an order commands belongs to `power`? (Builds and waives name no
/// existing unit; the adjudicator checks them.)
fn ownership(position: &Position, power: Power, order: &Order) -> Result<(), OrderProblem> {
    let Some(spec) = order.unit() else {
        return Ok(());
    };
    if matches!(order, Order::Build { .. }) {
        return Ok(());
    }
    let p = spec.location.province;
    let unit = match position.phase.kind {
        PhaseKind::Retreat => position.dislodged_at(p).map(|d| d.unit),
        _ => position.unit_at(p).copied(),
    };
    match unit {
        None => Err(OrderProblem::NoUnit),
        Some(u) if !Countries.may_order(power, &u) => Err(OrderProblem::NotYours),
        Some(_) => Ok(()),
    }
}

/// The key under which a later order replaces an earlier one: the unit's province.
fn unit_key(order: &Order) -> Option<u8> {
    order.unit().map(|u| u.location.province.0)
}

/// A power's order set after a new batch: in movement and retreat phases each
/// new order replaces the earlier order for the same unit; in an adjustment
/// phase the new batch replaces the whole set, since builds and waives have no
/// unit to key them by.
pub fn merge(kind: PhaseKind, existing: &[Order], new: &[Order]) -> Vec<Order> {
    if kind == PhaseKind::Adjustment && !new.is_empty() {
        return new.to_vec();
    }
    let mut out: Vec<Order> = existing.to_vec();
    for o in new {
        match unit_key(o) {
            Some(k) => match out.iter().position(|e| unit_key(e) == Some(k)) {
                Some(i) => out[i] = *o,
                None => out.push(*o),
            },
            None => out.push(*o),
        }
    }
    out
}

/// Checks a power's whole order set for the current phase. Returns one entry
/// per order: `None` when it is acceptable.
pub fn check_orders(
    map: &Map,
    rules: &Rules,
    position: &Position,
    power: Power,
    orders: &[Order],
) -> Vec<Option<OrderProblem>> {
    let mut problems: Vec<Option<OrderProblem>> = orders
        .iter()
        .map(|o| {
            if !fits_phase(position.phase.kind, o) {
                return Some(OrderProblem::WrongPhase);
            }
            ownership(position, power, o).err()
        })
        .collect();
    // The adjudicator knows every other rule: resolve the set alone and keep the
    // verdicts that say the order itself is wrong.
    let batch: Vec<PowerOrder> = orders
        .iter()
        .zip(&problems)
        .filter(|(_, p)| p.is_none())
        .map(|(o, _)| PowerOrder { power, order: *o })
        .collect();
    if batch.is_empty() {
        return problems;
    }
    let adjudication = adjudicate(map, rules, &Countries, position, &batch);
    let mut resolutions = adjudication.resolutions.iter().filter(|r| !r.defaulted);
    for slot in problems.iter_mut().filter(|p| p.is_none()) {
        if let Some(r) = resolutions.next()
            && r.verdict != Verdict::Ok
            && is_illegal(&r.reason)
        {
            *slot = Some(OrderProblem::Illegal(r.reason));
        }
    }
    problems
}

/// What a power must still order, if anything: the number of orders missing.
pub fn missing_orders(map: &Map, position: &Position, power: Power, orders: &[Order]) -> usize {
    match position.phase.kind {
        PhaseKind::Movement => {
            let ordered = |p| orders.iter().any(|o| unit_key(o) == Some(p));
            position
                .units
                .iter()
                .filter(|u| u.power == power && !ordered(u.province().0))
                .count()
        }
        PhaseKind::Retreat => {
            let ordered = |p| orders.iter().any(|o| unit_key(o) == Some(p));
            position
                .dislodged
                .iter()
                .filter(|d| d.unit.power == power && !ordered(d.unit.province().0))
                .count()
        }
        PhaseKind::Adjustment => {
            let need = adjustment_need(map, position, power);
            if need > 0 {
                let given = orders
                    .iter()
                    .filter(|o| matches!(o, Order::Build { .. } | Order::Waive))
                    .count();
                (need as usize).saturating_sub(given)
            } else {
                let given = orders
                    .iter()
                    .filter(|o| matches!(o, Order::Remove { .. }))
                    .count();
                ((-need) as usize).saturating_sub(given)
            }
        }
    }
}

/// Builds (positive) or removals (negative) a power may or must make; builds
/// are limited to its free home centers that it owns.
pub fn adjustment_need(map: &Map, position: &Position, power: Power) -> i32 {
    let _ = map;
    let centers = position.centers_of(power).len() as i32;
    let units = position.unit_count(power) as i32;
    let delta = centers - units;
    if delta <= 0 {
        return delta;
    }
    let free = position
        .home_of(power)
        .iter()
        .filter(|&h| position.owner(h) == Some(power) && position.unit_at(h).is_none())
        .count() as i32;
    delta.min(free)
}

/// Does `power` have anything to order in this phase?
pub fn owes_orders(map: &Map, position: &Position, power: Power) -> bool {
    match position.phase.kind {
        PhaseKind::Movement => position.unit_count(power) > 0,
        PhaseKind::Retreat => position.dislodged.iter().any(|d| d.unit.power == power),
        PhaseKind::Adjustment => adjustment_need(map, position, power) != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Location, Province};
    use crate::orders::UnitSpec;

    fn at(p: u8) -> UnitSpec {
        UnitSpec::at(Location::from(Province(p)))
    }

    #[test]
    fn a_later_order_replaces_the_same_units_order_only() {
        let old = [Order::Hold { unit: at(1) }, Order::Hold { unit: at(2) }];
        let new = [Order::Move {
            unit: at(1),
            to: Province(3).into(),
            via_convoy: false,
        }];
        let merged = merge(PhaseKind::Movement, &old, &new);
        assert_eq!(merged, [new[0], old[1]]);
    }

    #[test]
    fn adjustment_orders_replace_the_whole_set() {
        let old = [Order::Build { unit: at(1) }, Order::Waive];
        let new = [Order::Waive];
        assert_eq!(merge(PhaseKind::Adjustment, &old, &new), new);
        assert_eq!(merge(PhaseKind::Adjustment, &old, &[]), old);
    }
}
