//! The canonical form of an order: upper case, three-letter codes, one spelling
//! per keyword. It is what check-orders prints and what `adjudicate` reads back.

use std::fmt::Write;

use crate::map::Map;
use crate::orders::{Order, UnitSpec};

use super::lexicon::{power_adjective, power_name};
use super::order::{ConvoyRoute, ParsedOrder};

/// `A PAR - BUR`, `F STP/SC - BOT`, `A LON - BEL VIA CONVOY`, `F NTH C A LON - BEL`,
/// `A MAR S A PAR - BUR`, `F LON S F NTH`, `A MUN D`, `BUILD F STP/NC`,
/// `REMOVE A PAR`, `WAIVE`. A nationality given in the order is printed as the
/// upper-case adjective (`A MUN S FRENCH A PAR - BUR`).
pub fn canonical(map: &Map, order: &Order) -> String {
    let mut s = String::with_capacity(24);
    let u = |s: &mut String, unit: &UnitSpec| write_unit(map, s, unit);
    match order {
        Order::Hold { unit } => {
            u(&mut s, unit);
            s.push_str(" H");
        }
        Order::Move {
            unit,
            to,
            via_convoy,
        } => {
            u(&mut s, unit);
            s.push_str(" - ");
            s.push_str(&map.location_code(*to));
            if *via_convoy {
                s.push_str(" VIA CONVOY");
            }
        }
        Order::SupportHold { unit, supported } => {
            u(&mut s, unit);
            s.push_str(" S ");
            u(&mut s, supported);
        }
        Order::SupportMove {
            unit,
            supported,
            to,
        } => {
            u(&mut s, unit);
            s.push_str(" S ");
            u(&mut s, supported);
            s.push_str(" - ");
            s.push_str(&map.location_code(*to));
        }
        Order::Convoy { unit, army, to } => {
            u(&mut s, unit);
            s.push_str(" C ");
            u(&mut s, army);
            s.push_str(" - ");
            s.push_str(&map.location_code(*to));
        }
        Order::Disband { unit } => {
            u(&mut s, unit);
            s.push_str(" D");
        }
        Order::Build { unit } => {
            s.push_str("BUILD ");
            u(&mut s, unit);
        }
        Order::Remove { unit } => {
            s.push_str("REMOVE ");
            u(&mut s, unit);
        }
        Order::Waive => s.push_str("WAIVE"),
    }
    s
}

/// `[NATIONALITY ]A|F LOC`
pub(crate) fn write_unit(map: &Map, s: &mut String, unit: &UnitSpec) {
    if let Some(p) = unit.power {
        s.push_str(&power_adjective(map, p));
        s.push(' ');
    }
    if let Some(k) = unit.kind {
        s.push(k.letter());
        s.push(' ');
    }
    s.push_str(&map.location_code(unit.location));
}

/// The canonical form of a move with the convoy route it names:
/// `A LON - NTH - NWG - NWY` (the route says "by convoy"; no `VIA CONVOY`).
/// Any other order, or no route: [`canonical`].
pub fn canonical_routed(map: &Map, order: &Order, route: Option<&ConvoyRoute>) -> String {
    let (Order::Move { unit, to, .. }, Some(route)) = (order, route) else {
        return canonical(map, order);
    };
    let mut s = String::with_capacity(32);
    write_unit(map, &mut s, unit);
    for sea in route.seas() {
        s.push_str(" - ");
        s.push_str(&map.abbr(*sea).to_ascii_uppercase());
    }
    s.push_str(" - ");
    s.push_str(&map.location_code(*to));
    s
}

/// The canonical form with the line's power prefix and Twilight Zone map:
/// `FRANCE: A PAR - BUR (GERMAN MAP)`, `A LON - NTH - BEL`.
pub fn canonical_parsed(map: &Map, parsed: &ParsedOrder) -> String {
    let mut s = String::new();
    if let Some(p) = parsed.power {
        let _ = write!(s, "{}: ", power_name(map, p));
    }
    s.push_str(&canonical_routed(map, &parsed.order, parsed.route.as_ref()));
    if let Some(p) = parsed.map {
        let _ = write!(s, " ({} MAP)", power_name(map, p));
    }
    s
}
