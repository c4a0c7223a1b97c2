//! Orders spelled as the contract spells them (`A PAR - BUR`, `F NTH C A LON -
//! BEL`, `F MAO S A PAR - BRE`, `BUILD F STP/NC`, `WAIVE`), read without the
//! grammar: the fast way for the orders programs write.
//!
//! Only forms the grammar reads plainly are taken: upper-case words and codes of
//! the map, one space between words, no power, no other word. The one choice the
//! grammar makes from context is left to it: a province with coasts named
//! without one, where a fleet goes or where a word follows (`F MAO - SPA`,
//! `A SPA H`). `None` sends the text to the grammar, which reads everything
//! else. The test beside this module compares both readers on every code of
//! the map in every place of every form.

use super::places::Places;
use crate::map::{Location, Map, UnitKind};
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;

/// The words of the forms read here. If a power is called by one of them, the
/// grammar could read it as the power's name: then nothing is read here.
const WORDS: [&str; 11] = [
    "A", "F", "H", "S", "C", "D", "VIA", "CONVOY", "BUILD", "REMOVE", "WAIVE",
];

/// Can the forms be read without the grammar on this map?
pub fn usable(map: &Map) -> bool {
    WORDS.iter().all(|w| map.power(w).is_none())
}

/// The order `text` spells in a phase of this kind, or `None` for the grammar.
pub fn read(map: &Map, places: &Places, kind: PhaseKind, text: &str) -> Option<Order> {
    if !places.plain_orders {
        return None;
    }
    let mut words = text.split(' ');
    let mut next = || words.next();
    let reader = Words { map, places };
    let order = match next()? {
        "WAIVE" => Order::Waive,
        "BUILD" => {
            let unit = reader.unit(next()?, next()?, None)?;
            // A fleet built where coasts differ must name one: the grammar's error.
            if unit.kind == Some(UnitKind::Fleet) && reader.needs_coast(unit.location) {
                return None;
            }
            Order::Build { unit }
        }
        "REMOVE" => Order::Remove {
            unit: reader.unit(next()?, next()?, None)?,
        },
        letter @ ("A" | "F") => {
            let place = next()?;
            let verb = next();
            let unit = reader.unit(letter, place, verb)?;
            match verb? {
                "H" => Order::Hold { unit },
                "D" if kind == PhaseKind::Adjustment => Order::Remove { unit },
                "D" => Order::Disband { unit },
                "-" => {
                    let to_text = next()?;
                    let via = next();
                    let to = reader.place(to_text, via)?;
                    if unit.kind == Some(UnitKind::Fleet) && reader.needs_coast(to) {
                        return None;
                    }
                    let via_convoy = match via {
                        None => false,
                        Some("VIA") if next()? == "CONVOY" => true,
                        Some(_) => return None,
                    };
                    Order::Move {
                        unit,
                        to,
                        via_convoy,
                    }
                }
                verb @ ("S" | "C") => {
                    let (letter, place, after) = (next()?, next()?, next());
                    let other = reader.unit(letter, place, after)?;
                    match (verb, after) {
                        ("S", None) => Order::SupportHold {
                            unit,
                            supported: other,
                        },
                        (_, Some("-")) => {
                            let to = reader.place(next()?, None)?;
                            if verb == "S" {
                                Order::SupportMove {
                                    unit,
                                    supported: other,
                                    to,
                                }
                            } else {
                                Order::Convoy {
                                    unit,
                                    army: other,
                                    to,
                                }
                            }
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    if next().is_some() {
        return None;
    }
    Some(order)
}

struct Words<'a> {
    map: &'a Map,
    places: &'a Places,
}

impl Words<'_> {
    /// `A PAR`, followed by `after`.
    fn unit(&self, letter: &str, place: &str, after: Option<&str>) -> Option<UnitSpec> {
        let kind = match letter {
            "A" => UnitKind::Army,
            "F" => UnitKind::Fleet,
            _ => return None,
        };
        Some(UnitSpec::new(kind, self.place(place, after)?))
    }

    /// A code of the map followed by `after`. A province with coasts named
    /// without one is taken only before `-` or at the end (the grammar would
    /// try a following word as its coast).
    fn place(&self, code: &str, after: Option<&str>) -> Option<Location> {
        let loc = self.places.code(code)?;
        if self.needs_coast(loc) && !matches!(after, None | Some("-")) {
            return None;
        }
        Some(loc)
    }

    fn needs_coast(&self, loc: Location) -> bool {
        loc.coast.is_none() && !self.map.coasts(loc.province).is_empty()
    }
}
