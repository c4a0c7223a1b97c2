//! The vocabulary of orders, shared by the grammar (which produces them), the
//! adjudicator (which resolves them) and the reports (which print them).
//!
//! An order is what a player wrote, made exact: provinces resolved, the unit type
//! and nationality kept only when the player gave them. Whether the order is legal
//! for the unit on the board is the adjudicator's question, not this module's.
//! Every type here is `Copy`: no heap allocation per order.

use crate::map::{Location, Power, Province, UnitKind};

/// A unit as an order names it: where it is, and optionally its type and its
/// nationality (`A Mun S FRENCH A Par-Bur`). Missing parts are filled from the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnitSpec {
    pub kind: Option<UnitKind>,
    pub location: Location,
    pub power: Option<Power>,
}

impl UnitSpec {
    pub fn at(location: Location) -> UnitSpec {
        UnitSpec {
            kind: None,
            location,
            power: None,
        }
    }

    pub fn new(kind: UnitKind, location: Location) -> UnitSpec {
        UnitSpec {
            kind: Some(kind),
            location,
            power: None,
        }
    }

    pub fn province(&self) -> Province {
        self.location.province
    }
}

/// One order, for any phase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// `A PAR H`
    Hold { unit: UnitSpec },
    /// `A PAR - BUR`, `A LON - BEL VIA CONVOY`. In a retreat phase, a retreat.
    /// A written convoy route (`A LON - NTH - BEL`) is read as `via_convoy`; the
    /// fleets are not kept (DATC 4.A.6: the route is the convoying fleets' business).
    Move {
        unit: UnitSpec,
        to: Location,
        via_convoy: bool,
    },
    /// `F LON S A YOR` (support to hold)
    SupportHold { unit: UnitSpec, supported: UnitSpec },
    /// `F LON S A YOR - NTH`
    SupportMove {
        unit: UnitSpec,
        supported: UnitSpec,
        to: Location,
    },
    /// `F NTH C A LON - BEL`
    Convoy {
        unit: UnitSpec,
        army: UnitSpec,
        to: Location,
    },
    /// `A MUN D` in a retreat phase.
    Disband { unit: UnitSpec },
    /// `BUILD A PAR`, `BUILD F STP/NC`.
    Build { unit: UnitSpec },
    /// `REMOVE F TRI` (also `DISBAND` in an adjustment phase).
    Remove { unit: UnitSpec },
    /// `WAIVE`: one build not used.
    Waive,
}

impl Order {
    /// The unit the order is for (`None` for `WAIVE`). For a build, the unit to be built.
    pub fn unit(&self) -> Option<UnitSpec> {
        match *self {
            Order::Hold { unit }
            | Order::Move { unit, .. }
            | Order::SupportHold { unit, .. }
            | Order::SupportMove { unit, .. }
            | Order::Convoy { unit, .. }
            | Order::Disband { unit }
            | Order::Build { unit }
            | Order::Remove { unit } => Some(unit),
            Order::Waive => None,
        }
    }
}

/// An order together with the power that gave it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PowerOrder {
    pub power: Power,
    pub order: Order,
}
