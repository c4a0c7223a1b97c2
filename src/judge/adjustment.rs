//! The adjustment phase: builds, removals, civil disorder.

use super::{Adjudication, Allegiance, Position, Rules};
use crate::map::Map;
use crate::orders::PowerOrder;

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
