//! MR3 Rebellion: instead of a build of his own, a player raises a rebel unit in
//! another power's supply center that no unit of its owner occupies or borders.
//! The conflict with the owner's own build is settled in `adjustment`.

use crate::judge::Position;
use crate::map::{Location, Map, Power, UnitKind};
use crate::orders::UnitSpec;

use super::build::placement;
use super::options::Rule;
use super::outcome::Reason;
use super::roster::MastersState;

/// MR3 a, b: the unit a rebel build of `writer` would raise (kind, location).
/// The center must be another power's, empty (no unit is built on another), and
/// neither occupied by nor next to (as for support) a unit of its owner.
pub fn check(
    map: &Map,
    state: &MastersState,
    position: &Position,
    writer: Power,
    spec: UnitSpec,
) -> Result<(UnitKind, Location), Reason> {
    if !state.options.has(Rule::Rebellion) {
        return Err(Reason::RuleOff(Rule::Rebellion));
    }
    let at = spec.province();
    if !map.is_supply_center(at) {
        return Err(Reason::NotSupplyCenter { at });
    }
    let owner = match position.owner(at) {
        Some(o) if o != writer => o,
        _ => return Err(Reason::NotOthersCenter { at }),
    };
    if position.unit_at(at).is_some() {
        return Err(Reason::Occupied { at });
    }
    let near = position
        .units
        .iter()
        .any(|u| u.power == owner && map.reaches(u.kind, u.location, at));
    if near {
        return Err(Reason::OwnerNear { at, owner });
    }
    placement(map, spec)
}
