//! Helpers for the judge's unit tests: positions and orders from short text.

use super::{Adjudication, Countries, Dislodged, Position, Rules, Unit, adjudicate};
use crate::grammar::parse_order_in;
use crate::map::{Map, Power, UnitKind};
use crate::orders::PowerOrder;
use crate::phase::Phase;

pub fn map() -> &'static Map {
    Map::standard()
}

/// `"France: A PAR"` → the unit.
pub fn unit(text: &str) -> Unit {
    let (power, rest) = text.split_once(':').expect("power: unit");
    let (kind, place) = rest.trim().split_once(' ').expect("kind place");
    Unit {
        power: power_of(power),
        kind: if kind == "F" {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        },
        location: map().lookup(place).expect(place),
    }
}

pub fn power_of(name: &str) -> Power {
    map().power(name.trim()).expect(name)
}

/// A position in `phase` with these units; centers as at the start of the game.
pub fn position(phase: &str, units: &[&str]) -> Position {
    let mut p = Position::initial(map());
    p.phase = phase.parse::<Phase>().expect(phase);
    p.units = units.iter().map(|u| unit(u)).collect();
    p
}

/// `"France: A PAR - BUR"` → the order, read for the phase of `position`.
pub fn orders(position: &Position, lines: &[&str]) -> Vec<PowerOrder> {
    lines
        .iter()
        .map(|l| {
            let (power, text) = l.split_once(':').expect("power: order");
            let parsed = parse_order_in(map(), text.trim(), Some(position.phase.kind)).expect(l);
            PowerOrder {
                power: power_of(power),
                order: parsed.order,
            }
        })
        .collect()
}

pub fn play(rules: &Rules, position: &Position, lines: &[&str]) -> Adjudication {
    adjudicate(map(), rules, &Countries, position, &orders(position, lines))
}

/// Movement under the 2023 rules, from Spring 1901.
pub fn movement(units: &[&str], lines: &[&str]) -> Adjudication {
    play(&Rules::default(), &position("S1901M", units), lines)
}

/// The result texts of the given orders, in order.
pub fn results(adj: &Adjudication) -> Vec<String> {
    adj.resolutions
        .iter()
        .filter(|r| !r.defaulted)
        .map(|r| r.result_text())
        .collect()
}

/// Where the unit of `text` ("France: A PAR") is after the phase, as a location code.
pub fn units_after(adj: &Adjudication) -> Vec<String> {
    let mut v: Vec<String> = adj
        .after
        .units
        .iter()
        .map(|u| format!("{} {}", u.kind.letter(), map().location_code(u.location)))
        .collect();
    v.sort();
    v
}

pub fn dislodged(unit_text: &str, from: &str, via_convoy: bool) -> Dislodged {
    Dislodged {
        unit: unit(unit_text),
        attacker_from: map().lookup(from).expect(from).province,
        via_convoy,
    }
}
