//! Is an order legal for the unit it names, "not knowing any orders yet" (DATC 4.E.1)?
//! Also applies the coast and unit-type readings of DATC 4.B and 4.C.

use super::board::Board;
use crate::judge::geometry;
use crate::judge::{Allegiance, Reason, Rules, Unit};
use crate::map::{Location, Map, Province, Terrain, UnitKind};
use crate::orders::{Order, PowerOrder, UnitSpec};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    Hold,
    Move,
    SupportHold,
    SupportMove,
    Convoy,
}

/// A legal order, reduced to what the resolver needs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Checked {
    pub act: Act,
    pub to: Location,
    pub from: Province,
    pub via_convoy: bool,
}

impl Checked {
    fn new(act: Act, to: Location, from: Province) -> Checked {
        Checked {
            act,
            to,
            from,
            via_convoy: false,
        }
    }
}

/// The ordered unit's province and the checked order, or why it is void.
/// `map` is the map the order's reach is checked on; `game` the game's map,
/// on which a supported move need only be possible (they differ only when the
/// order names its own map, see `judge::maps`).
#[inline]
pub(crate) fn check<A: Allegiance + ?Sized>(
    map: &Map,
    game: &Map,
    rules: &Rules,
    allegiance: &A,
    board: &Board,
    po: &PowerOrder,
) -> Result<(Province, Checked), Reason> {
    let spec = po.order.unit().ok_or(Reason::WrongPhase)?;
    let unit = ordered_unit(rules, allegiance, board, po, spec)?;
    let here = unit.location.province;
    let checked = match po.order {
        Order::Hold { .. } => Checked::new(Act::Hold, unit.location, here),
        Order::Move { to, via_convoy, .. } => {
            let to = destination(map, rules, board, &unit, to, via_convoy)?;
            Checked {
                act: Act::Move,
                to,
                from: here,
                via_convoy,
            }
        }
        Order::SupportHold { supported, .. } => {
            let s = supported.location.province;
            if s == here {
                return Err(Reason::SupportSelf);
            }
            board.unit(s).ok_or(Reason::NoSupportedUnit { at: s })?;
            if !map.reaches(unit.kind, unit.location, s) {
                return Err(Reason::SupportUnreachable { to: s });
            }
            Checked::new(Act::SupportHold, Location::from(s), s)
        }
        Order::SupportMove { supported, to, .. } => {
            let to = support_target(map, game, board, &unit, supported, to)?;
            Checked::new(Act::SupportMove, to, supported.location.province)
        }
        Order::Convoy { army, to, .. } => {
            convoy_order(map, board, &unit, army, to)?;
            Checked::new(
                Act::Convoy,
                Location::from(to.province),
                army.location.province,
            )
        }
        Order::Disband { .. } | Order::Build { .. } | Order::Remove { .. } | Order::Waive => {
            return Err(Reason::WrongPhase);
        }
    };
    Ok((here, checked))
}

/// The unit the order is for, if this power may order it (DATC 4.B.5, 4.C.2).
#[inline]
fn ordered_unit<A: Allegiance + ?Sized>(
    rules: &Rules,
    allegiance: &A,
    board: &Board,
    po: &PowerOrder,
    spec: UnitSpec,
) -> Result<Unit, Reason> {
    let at = spec.location.province;
    let unit = board.unit(at).ok_or(Reason::NoUnit { at })?;
    if !allegiance.may_order(po.power, &unit) {
        return Err(Reason::ForeignUnit { owner: unit.power });
    }
    if spec.kind.is_some_and(|k| k != unit.kind) && !rules.ignore_wrong_unit_kind {
        return Err(Reason::WrongUnitKind);
    }
    if spec.location.coast.is_some()
        && spec.location.coast != unit.location.coast
        && !rules.ignore_wrong_unit_coast
    {
        return Err(Reason::CoastUnreachable { to: at });
    }
    Ok(unit)
}

/// Where a move goes, coast settled (DATC 4.B.1-4.B.3, 4.B.6): one border
/// crossed as [`step_target`] says, or an army's move by convoy.
#[inline]
fn destination(
    map: &Map,
    rules: &Rules,
    board: &Board,
    unit: &Unit,
    to: Location,
    via_convoy: bool,
) -> Result<Location, Reason> {
    let _ = via_convoy; // an army may be convoyed without saying so; a fleet never is
    match step_target(map, rules, unit, to) {
        Err(Reason::NotAdjacent { to: dest })
            if unit.kind == UnitKind::Army
                && convoyable(map, board, unit.location.province, dest, None) =>
        {
            Ok(Location::from(dest))
        }
        settled => settled,
    }
}

/// Where `unit` goes when ordered over one border to `to`, coast settled, or
/// why it cannot go there. Moves and retreats are both checked by it, so a
/// coast the unit cannot reach is refused alike in both phases.
#[inline]
pub(crate) fn step_target(
    map: &Map,
    rules: &Rules,
    unit: &Unit,
    to: Location,
) -> Result<Location, Reason> {
    let here = unit.location.province;
    let dest = to.province;
    if dest.0 as usize >= map.province_count() {
        return Err(Reason::NotAdjacent { to: dest });
    }
    if dest == here {
        return Err(Reason::MoveToSelf);
    }
    match map.terrain(dest) {
        Terrain::Impassable => return Err(Reason::Impassable { to: dest }),
        Terrain::Sea if unit.kind == UnitKind::Army => return Err(Reason::ArmyToSea { to: dest }),
        Terrain::Inland if unit.kind == UnitKind::Fleet => {
            return Err(Reason::FleetInland { to: dest });
        }
        _ => {}
    }
    match unit.kind {
        UnitKind::Army if to.coast.is_some() && !rules.ignore_irrelevant_coast => {
            Err(Reason::CoastUnreachable { to: dest })
        }
        UnitKind::Army if map.army_adjacent(here, dest) => Ok(Location::from(dest)),
        UnitKind::Army => Err(Reason::NotAdjacent { to: dest }),
        UnitKind::Fleet => fleet_destination(map, rules, unit.location, to),
    }
}

fn fleet_destination(
    map: &Map,
    rules: &Rules,
    from: Location,
    to: Location,
) -> Result<Location, Reason> {
    let dest = to.province;
    let coasts = map.coasts(dest);
    if coasts.is_empty() {
        if to.coast.is_some() && !rules.ignore_irrelevant_coast {
            return Err(Reason::CoastUnreachable { to: dest });
        }
        let plain = Location::from(dest);
        return if map.fleet_adjacent(from, plain) {
            Ok(plain)
        } else {
            Err(Reason::NotAdjacent { to: dest })
        };
    }
    // A coast the province does not have is unknown garbage (4.B.6).
    let named = to.coast.filter(|c| coasts.contains(c));
    if named.is_none() && to.coast.is_some() && !rules.ignore_irrelevant_coast {
        return Err(Reason::CoastUnreachable { to: dest });
    }
    if let Some(c) = named {
        let loc = Location::new(dest, Some(c));
        if map.fleet_adjacent(from, loc) {
            return Ok(loc);
        }
    }
    let mut reachable = coasts
        .iter()
        .map(|&c| Location::new(dest, Some(c)))
        .filter(|&l| map.fleet_adjacent(from, l));
    let first = reachable.next();
    let second = reachable.next();
    match (named, first, second) {
        (_, None, _) => Err(Reason::NotAdjacent { to: dest }),
        (Some(_), Some(only), None) if rules.correct_impossible_coast => Ok(only),
        (Some(_), Some(_), _) => Err(Reason::CoastUnreachable { to: dest }),
        (None, Some(only), None) if rules.infer_single_coast => Ok(only),
        (None, Some(_), _) => Err(Reason::CoastNeeded { to: dest }),
    }
}

/// A support of a move: the supporter must reach the destination province, and the
/// supported unit must be able to make the move (by land or convoy).
#[inline]
fn support_target(
    map: &Map,
    game: &Map,
    board: &Board,
    unit: &Unit,
    supported: UnitSpec,
    to: Location,
) -> Result<Location, Reason> {
    let here = unit.location.province;
    let s = supported.location.province;
    let dest = to.province;
    if dest.0 as usize >= map.province_count() {
        return Err(Reason::SupportUnreachable { to: dest });
    }
    if s == here {
        return Err(Reason::SupportSelf);
    }
    if s == dest {
        return Err(Reason::MoveToSelf);
    }
    let target = board.unit(s).ok_or(Reason::NoSupportedUnit { at: s })?;
    if !map.reaches(unit.kind, unit.location, dest) {
        return Err(Reason::SupportUnreachable { to: dest });
    }
    let can = match target.kind {
        UnitKind::Army => {
            game.terrain(dest) != Terrain::Sea
                && (game.army_adjacent(s, dest) || convoyable(game, board, s, dest, Some(here)))
        }
        UnitKind::Fleet => game.reaches(UnitKind::Fleet, target.location, dest),
    };
    if !can {
        return Err(Reason::SupportedMoveImpossible { to: dest });
    }
    // A coast is kept only where it means something: a fleet into a multi-coast province.
    let coast = match target.kind {
        UnitKind::Fleet => to.coast.filter(|c| map.coasts(dest).contains(c)),
        UnitKind::Army => None,
    };
    Ok(Location::new(dest, coast))
}

fn convoy_order(
    map: &Map,
    board: &Board,
    unit: &Unit,
    army: UnitSpec,
    to: Location,
) -> Result<(), Reason> {
    if unit.kind != UnitKind::Fleet {
        return Err(Reason::ConvoyByArmy);
    }
    let here = unit.location.province;
    if map.terrain(here) != Terrain::Sea {
        return Err(Reason::ConvoyFromCoast);
    }
    let a = army.location.province;
    let target = board.unit(a).ok_or(Reason::NoSupportedUnit { at: a })?;
    if target.kind != UnitKind::Army {
        return Err(Reason::ConvoyOfFleet { at: a });
    }
    let dest = to.province;
    if dest.0 as usize >= map.province_count() || map.terrain(dest) != Terrain::Coastal {
        return Err(Reason::ConvoyNotOnRoute);
    }
    // A fleet touching both ends is a route by itself; otherwise look for a route.
    let around = map.fleet_neighbours(Location::from(here));
    let alone = around.contains(a) && around.contains(dest);
    if !alone && !geometry::route_seas(map, board.seas, a, dest, board.seas).contains(here) {
        return Err(Reason::ConvoyNotOnRoute);
    }
    Ok(())
}

/// Could an army in `from` be convoyed to `to` with the fleets on the board (less
/// `without`, a fleet busy supporting)? Both ends must be coastal and fleets must
/// stand in a chain between them (DATC 6.D.31, 6.D.32).
fn convoyable(
    map: &Map,
    board: &Board,
    from: Province,
    to: Province,
    without: Option<Province>,
) -> bool {
    let mut fleets = board.fleets;
    if let Some(w) = without {
        fleets.remove(w);
    }
    from != to
        && map.terrain(from) == Terrain::Coastal
        && map.terrain(to) == Terrain::Coastal
        && geometry::joined(map, from, to, fleets)
}
