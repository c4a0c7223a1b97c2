//! MR4 Annexation: instead of a build, a power makes a center it owns, and owned at
//! the previous adjustment, a home center: builds there from the next adjustment on.

use crate::judge::Position;
use crate::map::{Map, Power, Province};

use super::options::Rule;
use super::outcome::Reason;
use super::roster::MastersState;

/// MR4 a, b: may `writer` annex `at` now? Occupation does not matter (MR4 b).
/// Before the first adjustment nothing was owned "in the previous Adjustments
/// phase", so nothing can be annexed then.
pub fn check(
    map: &Map,
    state: &MastersState,
    position: &Position,
    writer: Power,
    at: Province,
) -> Result<(), Reason> {
    if !state.options.has(Rule::Annexation) {
        return Err(Reason::RuleOff(Rule::Annexation));
    }
    if !map.is_supply_center(at) {
        return Err(Reason::NotSupplyCenter { at });
    }
    if position.owner(at) != Some(writer) {
        return Err(Reason::CenterNotOwned { at });
    }
    if position.home_of(writer).contains(at) {
        return Err(Reason::AlreadyHome { at });
    }
    let before = state
        .previous_owners
        .as_ref()
        .and_then(|o| o.get(at.0 as usize).copied().flatten());
    if before != Some(writer) {
        return Err(Reason::NotOwnedBefore { at });
    }
    Ok(())
}
