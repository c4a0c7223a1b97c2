//! Orders spelled as the contract spells them (`A PAR - BUR`, `F NTH C A LON -
//! BEL`, `F MAO S A PAR - BRE`, `BUILD F STP/NC`, `WAIVE`), read without the
//! grammar: the fast way for the orders programs write.
//!
//! Only forms the grammar reads plainly are taken: the words and codes of the
//! map in any letter case, one space between words, no power, no other word. The one choice the
//! grammar makes from context is left to it: a province with coasts named
//! without one, where a fleet goes or where a word follows (`F MAO - SPA`,
//! `A SPA H`). `None` sends the text to the grammar, which reads everything
//! else. The test beside this module compares both readers on every code of
//! the map in every place of every form.

use super::places::{Places, same};
use crate::map::{Location, Map, UnitKind};
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;

/// The words of the forms read here. If a power is called by one of them, the
/// grammar could read it as the power's name: then nothing is read here.
const WORDS: [&str; 11] = [
    "A", "F", "H", "S", "C", "D", "VIA", "CONVOY", "BUILD", "REMOVE", "WAIVE",
];

/// Words of the forms that may follow a place, none of them a coast as the
/// grammar reads a coast after a space (`nc`, `north coast`).
const NOT_COASTS: [&str; 10] = ["-", "H", "h", "D", "d", "S", "s", "VIA", "via", "Via"];

/// Can the forms be read without the grammar on this map?
pub fn usable(map: &Map) -> bool {
    WORDS.iter().all(|w| map.power(w).is_none())
}

/// The words of a text cut at single spaces (as `str::split(' ')`, without
/// its searcher).
struct Split<'t> {
    rest: Option<&'t str>,
}

impl<'t> Iterator for Split<'t> {
    type Item = &'t str;

    #[inline]
    fn next(&mut self) -> Option<&'t str> {
        let rest = self.rest?;
        match rest.bytes().position(|b| b == b' ') {
            Some(i) => {
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// Is `word` the keyword `key`, in any letter case (as the grammar reads it)?
#[inline]
fn is(word: Option<&str>, key: &str) -> bool {
    word.is_some_and(|w| w.eq_ignore_ascii_case(key))
}

/// Is `word` the dash of a move?
#[inline]
fn dash(word: Option<&str>) -> bool {
    word.is_some_and(|w| same(w.as_bytes(), b"-"))
}

/// The order `text` spells in a phase of this kind, or `None` for the grammar.
pub fn read(map: &Map, places: &Places, kind: PhaseKind, text: &str) -> Option<Order> {
    if !places.plain_orders {
        return None;
    }
    let reader = Words { map, places };
    if let Some(order) = reader.short(kind, text) {
        return Some(order);
    }
    read_words(&reader, kind, text)
}

/// `read` word by word: every form.
fn read_words(reader: &Words, kind: PhaseKind, text: &str) -> Option<Order> {
    let mut words = Split { rest: Some(text) };
    let first = words.next();
    let order = if is(first, "WAIVE") {
        Order::Waive
    } else if is(first, "BUILD") {
        let unit = reader.unit(words.next()?, words.next()?, None)?;
        // A fleet built where coasts differ must name one: the grammar's error.
        if unit.kind == Some(UnitKind::Fleet) && reader.needs_coast(unit.location) {
            return None;
        }
        Order::Build { unit }
    } else if is(first, "REMOVE") {
        Order::Remove {
            unit: reader.unit(words.next()?, words.next()?, None)?,
        }
    } else {
        let place = words.next()?;
        let verb = words.next();
        let unit = reader.unit(first?, place, verb)?;
        if is(verb, "H") {
            Order::Hold { unit }
        } else if is(verb, "D") {
            match kind {
                PhaseKind::Adjustment => Order::Remove { unit },
                _ => Order::Disband { unit },
            }
        } else if dash(verb) {
            let to_text = words.next()?;
            let via = words.next();
            let to = reader.place(to_text, via)?;
            if unit.kind == Some(UnitKind::Fleet) && reader.needs_coast(to) {
                return None;
            }
            let via_convoy = match via {
                None => false,
                via if is(via, "VIA") && is(words.next(), "CONVOY") => true,
                Some(_) => return None,
            };
            Order::Move {
                unit,
                to,
                via_convoy,
            }
        } else if is(verb, "S") || is(verb, "C") {
            let (letter, place, after) = (words.next()?, words.next()?, words.next());
            let other = reader.unit(letter, place, after)?;
            match after {
                None if is(verb, "S") => Order::SupportHold {
                    unit,
                    supported: other,
                },
                after if dash(after) => {
                    let to = reader.place(words.next()?, None)?;
                    if is(verb, "S") {
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
        } else {
            return None;
        }
    };
    if words.next().is_some() {
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
    #[inline]
    fn unit(&self, letter: &str, place: &str, after: Option<&str>) -> Option<UnitSpec> {
        let kind = if letter.eq_ignore_ascii_case("A") {
            UnitKind::Army
        } else if letter.eq_ignore_ascii_case("F") {
            UnitKind::Fleet
        } else {
            return None;
        };
        Some(UnitSpec::new(kind, self.place(place, after)?))
    }

    /// A code of the map followed by `after`. A province with coasts named
    /// without one is taken only at the end or before a word that cannot be
    /// a coast (the grammar would try `nc`, `north coast` ... as its coast).
    #[inline]
    fn place(&self, code: &str, after: Option<&str>) -> Option<Location> {
        let loc = self.places.code(code)?;
        if self.needs_coast(loc)
            && !after.is_none_or(|w| NOT_COASTS.iter().any(|k| same(w.as_bytes(), k.as_bytes())))
        {
            return None;
        }
        Some(loc)
    }

    /// The commonest orders, every place a three-letter code that needs no
    /// coast (`A PAR H`, `A PAR - BUR`, `A PAR S A BUR`, `A PAR S A BUR -
    /// MAR`, `F NTH C A LON - BEL`), read at their fixed places in the text:
    /// what `read_words` reads, in one look. `None`: `read_words` reads it.
    #[inline]
    fn short(&self, kind: PhaseKind, text: &str) -> Option<Order> {
        let b = text.as_bytes();
        let spaces = |at: &[usize]| at.iter().all(|&i| b.get(i) == Some(&b' '));
        let unit = |letter: u8, at: usize| {
            // The letter read here as `read::unit_kind` reads it, not by a
            // call to it: sharing it counted some 600 more instructions per
            // phase in the batch bench (the compiler then inlines otherwise).
            let kind = match letter {
                b'A' | b'a' => UnitKind::Army,
                b'F' | b'f' => UnitKind::Fleet,
                _ => return None,
            };
            Some(UnitSpec::new(kind, self.short_place(b, at)?))
        };
        let order = match (b.len(), b.get(6)) {
            (7, Some(b'H' | b'h')) if spaces(&[1, 5]) => Order::Hold {
                unit: unit(b[0], 2)?,
            },
            (7, Some(b'D' | b'd')) if spaces(&[1, 5]) => {
                let unit = unit(b[0], 2)?;
                match kind {
                    PhaseKind::Adjustment => Order::Remove { unit },
                    _ => Order::Disband { unit },
                }
            }
            (11, Some(b'-')) if spaces(&[1, 5, 7]) => Order::Move {
                unit: unit(b[0], 2)?,
                to: self.short_place(b, 8)?,
                via_convoy: false,
            },
            (13, Some(b'S' | b's')) if spaces(&[1, 5, 7, 9]) => Order::SupportHold {
                unit: unit(b[0], 2)?,
                supported: unit(b[8], 10)?,
            },
            (19, Some(&verb)) if spaces(&[1, 5, 7, 9, 13, 15]) && b[14] == b'-' => {
                let (own, other) = (unit(b[0], 2)?, unit(b[8], 10)?);
                let to = self.short_place(b, 16)?;
                match verb {
                    b'S' | b's' => Order::SupportMove {
                        unit: own,
                        supported: other,
                        to,
                    },
                    b'C' | b'c' => Order::Convoy {
                        unit: own,
                        army: other,
                        to,
                    },
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(order)
    }

    /// The three-letter code at `at`, if it names a place that needs no coast.
    #[inline(always)]
    fn short_place(&self, text: &[u8], at: usize) -> Option<Location> {
        let &[a, b, c] = text.get(at..at + 3)? else {
            return None;
        };
        let facts = self.places.code3([a, b, c])?;
        if facts.needs_coast {
            return None;
        }
        facts.location
    }

    #[inline]
    fn needs_coast(&self, loc: Location) -> bool {
        loc.coast.is_none() && !self.map.coasts(loc.province).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::{Places, Words, read_words};
    use crate::map::Map;
    use crate::phase::PhaseKind;

    /// The fixed-place reading takes only what the word-by-word reading reads,
    /// and reads it the same: over 200,000 texts of the short forms' lengths,
    /// from every code of the map (with and without coasts, in both cases),
    /// odd letters and words, in every phase kind.
    #[test]
    fn short_orders_read_as_word_by_word() {
        let map = Map::standard();
        let places = Places::new(map);
        let reader = Words {
            map,
            places: &places,
        };
        let mut codes: Vec<String> = Vec::new();
        for p in map.provinces() {
            let code = map.location_code(p.into());
            codes.push(code.to_lowercase());
            for &c in map.coasts(p) {
                codes.push(map.location_code(crate::map::Location::new(p, Some(c))));
            }
            codes.push(code);
        }
        codes.extend(["XYZ", "PA ", "P/R", "NC", "-"].map(String::from));
        let letters = ["A", "a", "F", "f", "X", "-"];
        let verbs = ["H", "h", "D", "d", "-", "S", "s", "C", "c", "X", " "];
        let mut seed: u64 = 7;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let (mut taken, mut texts) = (0, 0);
        for _ in 0..200_000 {
            let (l1, l2) = (letters[next(letters.len())], letters[next(letters.len())]);
            let (v1, v2) = (verbs[next(verbs.len())], verbs[next(verbs.len())]);
            let (u, v, w) = (next(codes.len()), next(codes.len()), next(codes.len()));
            let (u, v, w) = (&codes[u], &codes[v], &codes[w]);
            let text = match next(5) {
                0 => format!("{l1} {u} {v1}"),
                1 => format!("{l1} {u} {v1} {v}"),
                2 => format!("{l1} {u} {v1} {l2} {v}"),
                _ => format!("{l1} {u} {v1} {l2} {v} {v2} {w}"),
            };
            for kind in [
                PhaseKind::Movement,
                PhaseKind::Retreat,
                PhaseKind::Adjustment,
            ] {
                texts += 1;
                if let Some(order) = reader.short(kind, &text) {
                    taken += 1;
                    assert_eq!(Some(order), read_words(&reader, kind, &text), "{text:?}");
                }
            }
        }
        assert!(
            taken > texts / 20,
            "{taken} of {texts} read at fixed places"
        );
    }
}
