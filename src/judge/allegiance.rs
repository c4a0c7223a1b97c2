//! Who may order a unit, and which units count as one owner's for the rules that
//! forbid dislodging (or helping to dislodge) one's own units. Variants replace it:
//! in Grand Tournament Diplomacy the commanding player, not the country, is the owner.

use super::position::Unit;
use crate::map::Power;

pub trait Allegiance {
    /// May `power` order this unit?
    fn may_order(&self, power: Power, unit: &Unit) -> bool {
        unit.power == power
    }

    /// Do these two units have the same owner (DATC 6.D.10-6.D.13, 6.E.3)?
    fn same_owner(&self, a: &Unit, b: &Unit) -> bool {
        a.power == b.power
    }
}

/// The standard allegiance: each country orders and owns its own units.
#[derive(Copy, Clone, Debug, Default)]
pub struct Countries;

impl Allegiance for Countries {}
