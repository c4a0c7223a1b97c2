//! Where a unit can be built: the checks every build shares (the standard rules'
//! and the rebels'), made here because Masters builds are resolved outside the judge.

use crate::judge::{Position, Unit};
use crate::map::{Location, Map, Power, Terrain, UnitKind};
use crate::orders::UnitSpec;

use super::outcome::Reason;

/// The unit kind and location a build of `spec` makes, if one can stand there.
/// Without a type: an army inland, a fleet where a coast is named (as the judge).
pub fn placement(map: &Map, spec: UnitSpec) -> Result<(UnitKind, Location), Reason> {
    let at = spec.province();
    let terrain = map.terrain(at);
    let coasts = map.coasts(at);
    let coast = spec.location.coast.filter(|c| coasts.contains(c));
    let kind = match spec.kind {
        Some(k) => k,
        None if terrain == Terrain::Inland => UnitKind::Army,
        None if coast.is_some() => UnitKind::Fleet,
        None => return Err(Reason::WrongUnitKind { at }),
    };
    let location = match kind {
        UnitKind::Army => Location::from(at),
        UnitKind::Fleet if coasts.is_empty() => Location::from(at),
        UnitKind::Fleet => match coast {
            Some(c) => Location::new(at, Some(c)),
            None => return Err(Reason::CoastNeeded { at }),
        },
    };
    if !map.can_stand(kind, location) {
        return Err(Reason::WrongUnitKind { at });
    }
    Ok((kind, location))
}

/// A standard build for `power`: an owned, empty home center (MR4 c keeps this
/// test for annexed centers: "so long as the Power still owns" it).
pub fn home_build(
    map: &Map,
    position: &Position,
    power: Power,
    spec: UnitSpec,
) -> Result<Unit, Reason> {
    let at = spec.province();
    if !map.is_supply_center(at) || !position.home_of(power).contains(at) {
        return Err(Reason::NotHomeCenter { at });
    }
    if position.owner(at) != Some(power) {
        return Err(Reason::CenterNotOwned { at });
    }
    if position.unit_at(at).is_some() {
        return Err(Reason::Occupied { at });
    }
    let (kind, location) = placement(map, spec)?;
    Ok(Unit {
        power,
        kind,
        location,
    })
}
