//! Where a unit can be built: the judge's checks (`judge::home_build`,
//! `judge::placement`), with their refusals in Masters terms, because Masters
//! builds are resolved outside the judge.

use crate::judge::{self, Position, Unit};
use crate::map::{Location, Map, Power, UnitKind};
use crate::orders::UnitSpec;

use super::outcome::Reason;

/// The unit kind and location a build of `spec` makes, if one can stand there.
pub fn placement(map: &Map, spec: UnitSpec) -> Result<(UnitKind, Location), Reason> {
    judge::placement(map, spec).map_err(|r| refusal(r, spec))
}

/// A standard build for `power`: an owned, empty home center (MR4 c keeps this
/// test for annexed centers: "so long as the Power still owns" it).
pub fn home_build(
    map: &Map,
    position: &Position,
    power: Power,
    spec: UnitSpec,
) -> Result<Unit, Reason> {
    judge::home_build(map, position, power, spec).map_err(|r| refusal(r, spec))
}

/// The judge's refusal of a build as a Masters reason: a unit that cannot
/// stand there is the wrong kind, whichever way round.
fn refusal(reason: judge::Reason, spec: UnitSpec) -> Reason {
    let at = spec.province();
    match reason {
        judge::Reason::NotHomeCenter { at } => Reason::NotHomeCenter { at },
        judge::Reason::CenterNotOwned { at } => Reason::CenterNotOwned { at },
        judge::Reason::Occupied { at } => Reason::Occupied { at },
        judge::Reason::CoastNeeded { to } => Reason::CoastNeeded { at: to },
        // The judge's build checks refuse for no other reason.
        _ => Reason::WrongUnitKind { at },
    }
}
