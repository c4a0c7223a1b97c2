//! Masters adjustment orders and what became of them, with the reason reports print.

use crate::grammar::VariantOrder;
use crate::map::{Power, Province};
use crate::orders::{Order, UnitSpec};

use super::options::Rule;

/// An order of a Masters adjustment phase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AdjustmentOrder {
    /// `BUILD A PAR`: for the writer's power, or for a power in civil disorder (MR2 e).
    Build(UnitSpec),
    /// `REMOVE A YOR` / `DISBAND A YOR`: required, voluntary (MR5), or for a power in
    /// civil disorder (MR2 e).
    Remove(UnitSpec),
    /// `WAIVE`
    Waive,
    /// `BUILD REBEL A MOS` (MR3)
    BuildRebel(UnitSpec),
    /// `ANNEX SER` (MR4)
    Annex(Province),
    /// `AID ITALY` (MR6)
    Aid(Power),
    /// `AID REBEL A ARM` (MR6)
    AidRebel(UnitSpec),
}

impl AdjustmentOrder {
    /// The adjustment orders of the standard language.
    pub fn from_order(order: &Order) -> Option<AdjustmentOrder> {
        match *order {
            Order::Build { unit } => Some(AdjustmentOrder::Build(unit)),
            Order::Remove { unit } | Order::Disband { unit } => Some(AdjustmentOrder::Remove(unit)),
            Order::Waive => Some(AdjustmentOrder::Waive),
            _ => None,
        }
    }

    /// The Masters variant orders (`BUILD REBEL`, `ANNEX`, `AID`, `AID REBEL`).
    pub fn from_variant(order: &VariantOrder) -> Option<AdjustmentOrder> {
        match *order {
            VariantOrder::BuildRebel { unit } => Some(AdjustmentOrder::BuildRebel(unit)),
            VariantOrder::Annex { province } => Some(AdjustmentOrder::Annex(province)),
            VariantOrder::Aid { power } => Some(AdjustmentOrder::Aid(power)),
            VariantOrder::AidRebel { unit } => Some(AdjustmentOrder::AidRebel(unit)),
            _ => None,
        }
    }
}

/// What became of an adjustment order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Carried out (a unit built or removed, a center annexed, aid given, a build waived).
    Done,
    /// A vote or copy that was counted; the order it backed is reported on its own.
    Counted,
    /// Valid, but not followed: out-voted, or a tie (MR3 c, MR2 e).
    NotFollowed,
    /// Not a valid order.
    Void,
    /// Not written: a default (civil-disorder removal, unused build).
    Default,
}

/// Why an adjustment order got its verdict.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Reason {
    #[error("")]
    None,
    #[error("{} ({}) is not played in this game", .0.title(), .0.code())]
    RuleOff(Rule),
    #[error("a power in civil disorder writes no orders for others (MR2 f)")]
    WriterInCivilDisorder,
    #[error(
        "not eligible: a unit of the writer stands on or next to a center of that power (MR2 a)"
    )]
    NotEligible { controlled: Power },
    #[error("one build or removal order per adjustment of that power (MR2 e)")]
    OverAdjustments,
    #[error("no builds left")]
    NoBuildsLeft,
    #[error("no removals left")]
    NoRemovalsLeft,
    #[error("not a home center")]
    NotHomeCenter { at: Province },
    #[error("the center is not owned")]
    CenterNotOwned { at: Province },
    #[error("a unit is already there")]
    Occupied { at: Province },
    #[error("no unit of that kind can be built there")]
    WrongUnitKind { at: Province },
    #[error("a coast must be named")]
    CoastNeeded { at: Province },
    #[error("no unit there")]
    NoUnit { at: Province },
    #[error("not a unit of the writer's power")]
    ForeignUnit { owner: Power },
    #[error("the same order again")]
    Duplicate,
    #[error("a copy of the same order: one more vote (MR3 c)")]
    Copy,
    #[error("a build made with aid received (MR6 b)")]
    WithAid,
    #[error("rebels may be raised only in another power's supply center (MR3 a)")]
    NotOthersCenter { at: Province },
    #[error("a unit of the owner stands on or next to the center (MR3 b)")]
    OwnerNear { at: Province, owner: Power },
    #[error("no more rebels can be raised: every power number is in use")]
    RebelLimit,
    #[error("not a supply center")]
    NotSupplyCenter { at: Province },
    #[error("annexation needs the center owned now and at the previous adjustment (MR4 a)")]
    NotOwnedBefore { at: Province },
    #[error("already a home center")]
    AlreadyHome { at: Province },
    #[error("aid to oneself")]
    AidToSelf,
    #[error("no such power or rebel on the board")]
    NoRecipient,
    #[error("written {votes} times against {against}")]
    OutVoted { votes: u32, against: u32 },
    #[error("a tie, {votes} against {votes}: neither is followed (MR3 c)")]
    Tied { votes: u32 },
    #[error("the unit is raised as a rebel power of its own")]
    Raised { rebel: Power },
    #[error("a required removal")]
    Required,
    #[error("a voluntary disband (MR5)")]
    Voluntary,
    #[error("disbands of units in civil disorder only as far as losses require (MR5 c)")]
    NotBeyondLosses,
    #[error("removed by the civil-disorder rule")]
    CivilDisorder,
    #[error("a build not used")]
    Unused,
    #[error("aid given: one more center for this adjustment (MR6)")]
    AidGiven { to: Power },
}

/// One adjustment order (or default) and its outcome.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The player who wrote it; `None` for a default.
    pub writer: Option<Power>,
    pub order: AdjustmentOrder,
    /// The power whose adjustment it is: the writer, a power in civil disorder, the
    /// recipient of aid, the new rebel, the owner of a removed unit.
    pub power: Power,
    pub verdict: Verdict,
    pub reason: Reason,
}
