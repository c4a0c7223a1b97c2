//! The retreat phase.

use super::{Adjudication, Allegiance, Dislodged, Position, Rules};
use crate::map::{Location, Map};
use crate::orders::PowerOrder;

/// Where a dislodged unit may retreat: an adjacent province it can enter, empty,
/// not left empty by a standoff, and not the attacker's origin (unless the attack
/// came by convoy and the rules allow it, DATC 4.A.5).
pub fn retreat_options(map: &Map, position: &Position, d: &Dislodged) -> Vec<Location> {
    let _ = (map, position, d);
    todo!()
}

pub(super) fn adjudicate(
    map: &Map,
    rules: &Rules,
    allegiance: &dyn Allegiance,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    let _ = (map, rules, allegiance, position, orders);
    todo!()
}
