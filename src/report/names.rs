//! Orders and units in the words of the results listing: full province names,
//! coasts as `(north coast)`, `Army`/`Fleet`, and the classic order keywords.

use std::fmt;

use crate::judge::{Position, Resolution, Verdict};
use crate::map::{Location, Map, Power, Province, Terrain, UnitKind};
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;

/// `France`; a power the map does not know is named by its number.
pub fn power_name(map: &Map, power: Power) -> String {
    map.powers()
        .get(power.0 as usize)
        .map_or_else(|| format!("Power {}", power.0), |p| p.name.clone())
}

/// `French`.
pub fn power_adjective(map: &Map, power: Power) -> String {
    map.powers()
        .get(power.0 as usize)
        .map_or_else(|| format!("Power {}", power.0), |p| p.adjective.clone())
}

/// The unit type an order means: as written, else the unit on the board, else
/// what can stand there (a fleet at sea, an army on land).
pub fn kind_of(map: &Map, before: &Position, spec: &UnitSpec) -> UnitKind {
    if let Some(kind) = spec.kind {
        return kind;
    }
    let p = spec.province();
    let on_board = match before.phase.kind {
        PhaseKind::Retreat => before.dislodged_at(p).map(|d| d.unit.kind),
        _ => before.unit_at(p).map(|u| u.kind),
    };
    on_board.unwrap_or(match map.terrain(p) {
        Terrain::Sea => UnitKind::Fleet,
        _ => UnitKind::Army,
    })
}

/// `Fleet St Petersburg (south coast)`.
pub fn unit_name(map: &Map, kind: UnitKind, loc: Location) -> String {
    let mut name = String::new();
    // Writing to a `String` cannot fail.
    let _ = write_unit_name(&mut name, map, kind, loc);
    name
}

/// `unit_name`, written onto `out` (`Map::location_name`'s form of the place).
pub fn write_unit_name<W: fmt::Write>(
    out: &mut W,
    map: &Map,
    kind: UnitKind,
    loc: Location,
) -> fmt::Result {
    out.write_str(kind.name())?;
    out.write_char(' ')?;
    out.write_str(map.name(loc.province))?;
    if let Some(c) = loc.coast {
        out.write_str(" (")?;
        out.write_str(c.name())?;
        out.write_char(')')?;
    }
    Ok(())
}

/// A unit named by an order, with the coast it stands on filled in from the board.
fn spec_name(map: &Map, before: &Position, spec: &UnitSpec) -> String {
    let kind = kind_of(map, before, spec);
    let mut loc = spec.location;
    if loc.coast.is_none()
        && let Some(u) = before.unit_at(loc.province)
        && u.kind == kind
    {
        loc = u.location;
    }
    unit_name(map, kind, loc)
}

/// The order in results form, without power and full stop. `route` lists the
/// convoying fleets of a convoyed move, in order.
pub fn order_text(map: &Map, before: &Position, order: &Order, route: &[Province]) -> String {
    let unit = |s: &UnitSpec| spec_name(map, before, s);
    let place = |l: Location| map.location_name(l);
    match order {
        Order::Hold { unit: u } => format!("{} HOLD", unit(u)),
        Order::Move {
            unit: u,
            to,
            via_convoy,
        } => {
            let mut text = unit(u);
            for p in route {
                text.push_str(" -> ");
                text.push_str(map.name(*p));
            }
            // A convoy asked for but not ordered keeps its intent in the text,
            // so the line still reads back as the order given.
            let via = if *via_convoy && route.is_empty() && before.phase.kind == PhaseKind::Movement
            {
                " via convoy"
            } else {
                ""
            };
            format!("{text} -> {}{via}", place(*to))
        }
        Order::SupportHold { unit: u, supported } => {
            format!("{} SUPPORT {}", unit(u), unit(supported))
        }
        Order::SupportMove {
            unit: u,
            supported,
            to,
        } => format!("{} SUPPORT {} -> {}", unit(u), unit(supported), place(*to)),
        Order::Convoy { unit: u, army, to } => {
            format!("{} CONVOY {} -> {}", unit(u), unit(army), place(*to))
        }
        Order::Disband { unit: u } => format!("{} DISBAND", unit(u)),
        Order::Build { unit: u } => format!("Builds {}", unit(u)),
        Order::Remove { unit: u } => format!("Removes the {}", unit(u)),
        Order::Waive => "Build waived".to_string(),
    }
}

/// The fleets that carried (or were to carry) an army from `from` to `to`, in the
/// order the army passes them. Empty when the fleets ordered make no route.
pub fn convoy_route(map: &Map, all: &[Resolution], from: Province, to: Province) -> Vec<Province> {
    let fleets: Vec<Province> = all
        .iter()
        .filter(|r| r.verdict != Verdict::Void)
        .filter_map(|r| match r.order {
            Order::Convoy {
                unit,
                army,
                to: dest,
            } if army.province() == from && dest.province == to => Some(unit.province()),
            _ => None,
        })
        .collect();
    shortest_route(map, &fleets, from, to)
}

/// Breadth-first search over the convoying fleets, from the fleets bordering
/// `from` to one bordering `to`.
fn shortest_route(map: &Map, fleets: &[Province], from: Province, to: Province) -> Vec<Province> {
    let borders = |sea: Province, land: Province| map.fleet_neighbours(sea.into()).contains(land);
    let mut came_from: Vec<Option<usize>> = vec![None; fleets.len()];
    let mut seen = vec![false; fleets.len()];
    let mut queue = std::collections::VecDeque::new();
    for (i, f) in fleets.iter().enumerate() {
        if borders(*f, from) {
            seen[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        if borders(fleets[i], to) {
            let mut path = vec![fleets[i]];
            let mut at = i;
            while let Some(prev) = came_from[at] {
                path.push(fleets[prev]);
                at = prev;
            }
            path.reverse();
            return path;
        }
        for j in 0..fleets.len() {
            if !seen[j] && borders(fleets[i], fleets[j]) {
                seen[j] = true;
                came_from[j] = Some(i);
                queue.push_back(j);
            }
        }
    }
    Vec::new()
}
