//! The outcome of each order and why. `Reason` is `Copy` and holds only provinces,
//! powers and strengths, so the resolver never allocates to explain itself.

use crate::map::{Power, Province};
use crate::orders::Order;

/// What became of an order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Done as ordered (a move moved, a support was given, a build built).
    Ok,
    /// A move (or retreat) that did not get through.
    Bounce,
    /// A support that was cut.
    Cut,
    /// Illegal, or not matched by the supported/convoyed unit's order: the unit holds.
    Void,
    /// A move by convoy with no convoy route ordered.
    NoConvoy,
    /// A move by convoy whose convoy was disrupted; or a convoy order whose fleet was
    /// dislodged or could not convoy.
    Disrupted,
    /// The unit was disbanded (retreat phase) or removed (adjustment).
    Disband,
    /// Any other failure (a build that could not be made, a convoy that was not used).
    Failed,
}

/// Why an order got its verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Nothing to explain.
    None,

    // --- void: the order is illegal for the unit ---
    /// No unit in that province.
    NoUnit { at: Province },
    /// The unit there may not be ordered by this power.
    ForeignUnit { owner: Power },
    /// A later order to the same unit replaced this one.
    Replaced,
    /// Several different orders to one unit: it holds (DATC 4.D.3 c).
    Conflicting,
    /// This kind of order is not given in this phase.
    WrongPhase,
    /// The destination does not border the unit's province.
    NotAdjacent { to: Province },
    /// An army may not enter a sea.
    ArmyToSea { to: Province },
    /// A fleet may not enter an inland province.
    FleetInland { to: Province },
    /// Nobody may enter this province.
    Impassable { to: Province },
    /// The fleet cannot reach that coast.
    CoastUnreachable { to: Province },
    /// The fleet can reach two coasts there and the order names none.
    CoastNeeded { to: Province },
    /// A unit cannot move (or be supported to move) to where it is.
    MoveToSelf,
    /// A unit cannot support itself.
    SupportSelf,
    /// The supporting unit cannot reach the province it supports into.
    SupportUnreachable { to: Province },
    /// The supported move cannot be made by the supported unit, even by convoy.
    SupportedMoveImpossible { to: Province },
    /// No unit in the province a support or convoy names.
    NoSupportedUnit { at: Province },
    /// Only a fleet may convoy.
    ConvoyByArmy,
    /// A fleet can only convoy from a sea.
    ConvoyFromCoast,
    /// Only an army can be convoyed.
    ConvoyOfFleet { at: Province },
    /// This fleet lies on no possible convoy route for that move.
    ConvoyNotOnRoute,
    /// The order's unit type does not match the unit.
    WrongUnitKind,

    // --- void: not matched ---
    /// The supported unit was not ordered to do what the support says.
    SupportNotMatched { supported: Province },
    /// The army was not ordered to make the move the convoy says.
    ConvoyNotMatched { army: Province },
    /// The army named the convoy path it takes (Agora section 17), and this fleet
    /// is not on it.
    ConvoyOffNamedPath { army: Province },

    // --- movement outcomes ---
    /// A move stopped by a unit whose strength was at least as great: `by` is where
    /// that unit stands (for a rival mover, where it came from).
    Bounced {
        by: Province,
        strength: u8,
        opposing: u8,
    },
    /// The move would have dislodged a unit of its own side.
    OwnUnit { at: Province },
    /// The support was cut by the unit from `by`.
    CutBy { by: Province },
    /// The convoy was disrupted: the fleet in `fleet` was dislodged.
    DisruptedBy { fleet: Province },
    /// No fleets ordered to convoy along any route to the destination.
    NoConvoyRoute,
    /// The convoy was part of a paradox and the fleets hold (Szykman / 1971).
    Paradox,
    /// An army with a convoy ordered to its adjacent destination took the land route.
    LandRoute,
    /// The unit had no order and held.
    Unordered,

    // --- retreats ---
    /// Another unit retreated to the same province: both are disbanded.
    RetreatClash { with: Province },
    /// The retreat destination is occupied, contested, or the attacker's origin.
    RetreatBlocked { to: Province },
    /// Dislodged with nowhere to go.
    NoRetreat,

    // --- adjustments ---
    /// Build not in a home center of the builder.
    NotHomeCenter { at: Province },
    /// The home center is not owned by the builder now.
    CenterNotOwned { at: Province },
    /// A unit already stands there (or another build went there first).
    Occupied { at: Province },
    /// A fleet cannot be built in an inland province.
    FleetBuildInland { at: Province },
    /// An army cannot be built at sea (or on a coast of a multi-coast province).
    ArmyBuildAtSea { at: Province },
    /// The power may not build (no surplus of centers) or has used all its builds.
    NoBuildsLeft,
    /// The power needs no more removals.
    NoRemovalsLeft,
    /// A build the power was entitled to and did not order.
    Waived,
    /// A removal chosen by the civil-disorder rule.
    CivilDisorder,
}

/// The outcome of one order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resolution {
    pub power: Power,
    pub order: Order,
    pub verdict: Verdict,
    /// The unit was dislodged this phase (whatever its order did).
    pub dislodged: bool,
    /// Where the dislodging attack came from.
    pub dislodged_by: Option<Province>,
    pub reason: Reason,
    /// Not an order the player gave: the default for a unit without a valid order.
    pub defaulted: bool,
}

impl Resolution {
    /// The judge's short result: `ok`, `bounce`, `cut`, `dislodged`, `void`,
    /// `no convoy`, `disrupted`, `disband`, `bounce, dislodged` ...
    pub fn result_text(&self) -> String {
        let base = match self.verdict {
            Verdict::Ok => "ok",
            Verdict::Bounce => "bounce",
            Verdict::Cut => "cut",
            Verdict::Void => "void",
            Verdict::NoConvoy => "no convoy",
            Verdict::Disrupted => "disrupted",
            Verdict::Disband => "disband",
            Verdict::Failed => "failed",
        };
        match (self.dislodged, self.verdict) {
            (false, _) => base.to_string(),
            (true, Verdict::Ok) => "dislodged".to_string(),
            (true, _) => format!("{base}, dislodged"),
        }
    }
}
