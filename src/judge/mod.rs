//! The adjudicator: resolves one phase (movement, retreat or adjustment) of a
//! position under a set of `Rules`, and says why each order did what it did.
//!
//! Pure: no I/O. The movement resolver works on fixed arrays indexed by province
//! and never allocates per order.

mod adjustment;
mod allegiance;
mod geometry;
mod maps;
mod movement;
mod position;
mod reason;
mod retreat;
mod rules;
mod transition;

#[cfg(test)]
mod testing;

pub use adjustment::{home_build, placement, removal_order};
pub use allegiance::{Allegiance, Countries};
pub use maps::OrderMaps;
pub use position::{Dislodged, Position, Unit};
pub use reason::{Reason, Resolution, Verdict};
pub use retreat::{retreat_options, retreat_options_with};
pub use rules::{
    AdjacentConvoy, CivilDisorder, ConvoyParadox, DislodgedBounce, Edition, EditionParseError,
    MultiRoute, MultipleOrders, Rules,
};

use crate::map::Map;
use crate::orders::PowerOrder;
use crate::phase::PhaseKind;

/// The result of one phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// One per input order, in input order; then one per unit that had no valid
    /// order (its default: hold, disband, civil-disorder removal; or a waived build),
    /// marked `defaulted`.
    pub resolutions: Vec<Resolution>,
    /// The position after the phase. `after.phase` is the phase actually played
    /// next: phases where nothing can happen are skipped.
    pub after: Position,
}

/// Adjudicates the phase `position.phase` with the given orders.
pub fn adjudicate<A: Allegiance + ?Sized>(
    map: &Map,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    adjudicate_with(map, None, rules, allegiance, position, orders)
}

/// [`adjudicate`] where each order may name the map its reach is checked on
/// (see [`OrderMaps`]); `map` is the game's map for everything else.
pub fn adjudicate_on<A: Allegiance + ?Sized>(
    map: &Map,
    maps: &OrderMaps<'_>,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    adjudicate_with(map, Some(maps), rules, allegiance, position, orders)
}

fn adjudicate_with<A: Allegiance + ?Sized>(
    map: &Map,
    maps: Option<&OrderMaps<'_>>,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    match position.phase.kind {
        PhaseKind::Movement => movement::adjudicate(map, maps, rules, allegiance, position, orders),
        PhaseKind::Retreat => retreat::adjudicate(map, maps, rules, allegiance, position, orders),
        PhaseKind::Adjustment => adjustment::adjudicate(map, rules, allegiance, position, orders),
    }
}
