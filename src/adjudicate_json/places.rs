//! The map's upper-case codes (`PAR`, `STP/NC`) both ways: read without the
//! spelling table, and written as ready-made JSON strings.
//!
//! Reading: a code as `Map::location_code` writes it, in any letter case, is
//! found by its letters, and a province's name as the map writes it (`Paris`)
//! by a search of the names; what either means is what `Map::lookup` gives for
//! that text, taken once when the table is made (`Map::lookup` ignores letter
//! case), so the fast ways and the spelling table cannot disagree. Any other
//! spelling (`stp(nc)`, `Mid-Atlantic Ocean`) is left to `Map::lookup`.
//! Powers likewise: their names and adjectives as the map writes them, and the
//! names in upper and lower case.

use super::plain::is_plain;
use crate::map::{Coast, Location, Map, Power, Province, ProvinceSet, UnitKind};

/// Three upper-case letters: 26³ slots.
const SLOTS: usize = 26 * 26 * 26;

pub struct Places {
    /// Can orders in the contract's spelling be read without the grammar
    /// (`canonical::usable`)?
    pub plain_orders: bool,
    /// Are the map's codes (`STP/NC`) and names (provinces, coasts, powers)
    /// and the units' (`Army`) plain JSON text, nothing in them to escape?
    /// Then so is a default order's text, and the explanation of an order
    /// whose text is (`report::why`'s own words are).
    pub plain_names: bool,
    /// Slot of a three-letter code → what it reads as.
    by_letters: Vec<Code3>,
    /// Per province code: what `Map::lookup` reads it as, and the same for each of
    /// its coast codes (`(letters after the slash, location)`).
    codes: Vec<Code>,
    /// Per province: its code as a JSON string, quotes included (`"PAR"`).
    province_json: Vec<Ready>,
    /// Per province: its code (`PAR`).
    province_code: Vec<Box<str>>,
    /// Per province: `"A PAR"` and `"F PAR"` as JSON strings.
    unit_json: Vec<[Ready; 2]>,
    /// Per province: `(coast, "STP/NC" as a JSON string)`.
    coast_json: Vec<Vec<(Coast, Ready)>>,
    /// Provinces' names as the map writes them, with what `Map::lookup` reads
    /// them as, sorted by name.
    names: Vec<(Box<str>, Location)>,
    /// Per `spelling_slot`: the place in `names` + 1 of its one name; 0 for
    /// none, `SEVERAL` when names share the slot (then the sorted list is
    /// searched).
    name_slots: Vec<u8>,
    /// Powers as the map writes them (name, adjective, name in upper and in
    /// lower case), with what `Map::power` reads them as.
    powers: Vec<(Box<str>, Power)>,
    /// Per power: its home centers on the map (a document's `home_centers`
    /// replaces them power by power).
    pub homes: Vec<ProvinceSet>,
    /// Per `power_slot`: the place in `powers` + 1 of its one spelling; 0 for
    /// none, `SEVERAL` when spellings share the slot.
    power_slots: Vec<u8>,
    /// How many of `powers` are the names in upper case, which come first.
    upper_names: usize,
}

/// `power_slots` entry of a slot that several spellings share.
const SEVERAL: u8 = u8::MAX;

/// Slots of `power_slots`.
const POWER_SLOTS: usize = 1024;

/// A slot for a power's spelling or a province's name, from its length and
/// its first, second, third and last bytes (`FRANCE`, `France` and `French`
/// differ there), mixed by one multiplication: the standard map's names and
/// spellings fall into slots of their own but for a few.
#[inline]
fn power_slot(name: &[u8]) -> Option<usize> {
    let (&first, &last) = (name.first()?, name.last()?);
    let at = |i: usize| u64::from(name.get(i).copied().unwrap_or(0));
    let key = u64::from(first)
        | at(1) << 8
        | at(2) << 16
        | u64::from(last) << 24
        | (name.len() as u64) << 32;
    let bits = POWER_SLOTS.trailing_zeros();
    Some((key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize)
}

/// Is `a` the same text as `b`? Compared inline: names, keys and words are
/// a few bytes long, too short for a library call to pay off.
#[inline]
pub(super) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// A province code: what it reads as, and what each of its coast codes reads as
/// (`(letters after the slash, location)`).
type Code = (Option<Location>, Vec<([u8; 2], Location)>);

/// Per byte: a letter of either case as 0..26, anything else as `NOT_LETTER`.
static LETTERS: [u8; 256] = {
    let mut table = [NOT_LETTER; 256];
    let mut i = 0;
    while i < 26 {
        table[b'a' as usize + i] = i as u8;
        table[b'A' as usize + i] = i as u8;
        i += 1;
    }
    table
};

const NOT_LETTER: u8 = 0x80;

#[inline]
fn slot(code: &[u8]) -> Option<usize> {
    let [a, b, c] = *code else { return None };
    let [a, b, c] = [a, b, c].map(|x| LETTERS[usize::from(x)]);
    // One test for the three: `NOT_LETTER` is the only value with its bit.
    if (a | b | c) & NOT_LETTER != 0 {
        return None;
    }
    Some((usize::from(a) * 26 + usize::from(b)) * 26 + usize::from(c))
}

/// Are `map`'s names (provinces, coasts, powers) and the units' plain JSON
/// text? (Its codes are checked as `Places::new` makes them.)
fn plain_names(map: &Map) -> bool {
    let provinces = map.provinces().map(|p| map.name(p));
    let coasts = map
        .provinces()
        .flat_map(|p| map.coasts(p).iter().map(|c| c.name()));
    let powers = map.powers().iter().map(|info| info.name.as_str());
    let units = [UnitKind::Army, UnitKind::Fleet].map(UnitKind::name);
    let mut names = provinces.chain(coasts).chain(powers).chain(units);
    names.all(is_plain)
}

/// `text` as a JSON string.
pub(super) fn json(text: &str) -> Box<str> {
    // Serialising a string cannot fail.
    serde_json::to_string(text)
        .unwrap_or_default()
        .into_boxed_str()
}

impl Places {
    pub fn new(map: &Map) -> Places {
        let mut places = Places {
            plain_orders: super::canonical::usable(map),
            plain_names: plain_names(map),
            by_letters: vec![Code3::default(); SLOTS],
            codes: Vec::new(),
            province_json: Vec::with_capacity(map.province_count()),
            province_code: Vec::with_capacity(map.province_count()),
            unit_json: Vec::with_capacity(map.province_count()),
            coast_json: Vec::with_capacity(map.province_count()),
            names: Vec::new(),
            name_slots: vec![0; POWER_SLOTS],
            powers: Vec::new(),
            homes: map
                .powers()
                .iter()
                .map(|info| info.home_centers.iter().copied().collect())
                .collect(),
            power_slots: vec![0; POWER_SLOTS],
            upper_names: 0,
        };
        // Upper-case names first: the contract's spelling.
        type Spelling = fn(&crate::map::PowerInfo) -> String;
        let spellings: [Spelling; 4] = [
            |info| info.name.to_uppercase(),
            |info| info.name.clone(),
            |info| info.adjective.clone(),
            |info| info.name.to_lowercase(),
        ];
        for (n, spelling) in spellings.into_iter().enumerate() {
            for info in map.powers() {
                let spelled = spelling(info);
                if let Some(p) = map.power(&spelled) {
                    places.powers.push((spelled.into_boxed_str(), p));
                }
            }
            if n == 0 {
                places.upper_names = places.powers.len();
            }
        }
        for (i, (spelled, _)) in places.powers.iter().enumerate() {
            let Some(slot) = power_slot(spelled.as_bytes()) else {
                continue;
            };
            let entry = &mut places.power_slots[slot];
            *entry = match *entry {
                0 if i + 1 < usize::from(SEVERAL) => (i + 1) as u8,
                // The same spelling twice: the first is found first.
                j if j != SEVERAL
                    && j != 0
                    && *places.powers[usize::from(j) - 1].0 == **spelled =>
                {
                    j
                }
                _ => SEVERAL,
            };
        }
        for p in map.provinces() {
            let code = map.location_code(p.into());
            places.plain_names &= is_plain(&code);
            let mut read = Vec::new();
            let mut written = Vec::new();
            for &c in map.coasts(p) {
                let full = map.location_code(Location::new(p, Some(c)));
                places.plain_names &= is_plain(&full);
                written.push((c, Ready::new(json(&full))));
                let tail = full
                    .strip_prefix(code.as_str())
                    .and_then(|t| t.strip_prefix('/'));
                if let (Some(&[x, y]), Some(loc)) = (tail.map(str::as_bytes), map.lookup(&full)) {
                    read.push(([x, y], loc));
                }
            }
            if let Some(i) = slot(code.as_bytes())
                && places.by_letters[i].index == 0
            {
                let location = map.lookup(&code);
                places.codes.push((location, read));
                places.by_letters[i] = Code3::new(map, location, places.codes.len() as u16);
            }
            // `"A ` and the code's JSON string from its first character on
            // (a string escapes character by character).
            let code_json = json(&code);
            places
                .unit_json
                .push([UnitKind::Army, UnitKind::Fleet].map(|kind| {
                    let mut unit = String::with_capacity(code_json.len() + 2);
                    unit.push('"');
                    unit.push(kind.letter());
                    unit.push(' ');
                    unit.push_str(&code_json[1..]);
                    Ready::new(unit.into_boxed_str())
                }));
            places.province_json.push(Ready::new(code_json));
            places.province_code.push(code.into_boxed_str());
            places.coast_json.push(written);
            let name = map.name(p);
            if let Some(loc) = map.lookup(name) {
                places.names.push((name.into(), loc));
            }
        }
        places.names.sort();
        places.names.dedup_by(|a, b| a.0 == b.0);
        for (i, (name, _)) in places.names.iter().enumerate() {
            let Some(slot) = power_slot(name.as_bytes()) else {
                continue;
            };
            let entry = &mut places.name_slots[slot];
            // Names are unique after `dedup_by`: a slot taken twice is shared.
            *entry = match *entry {
                0 if i + 1 < usize::from(SEVERAL) => (i + 1) as u8,
                _ => SEVERAL,
            };
        }
        places
    }

    /// The powers' names in upper case (`FRANCE`), as the contract spells
    /// the keys of its objects, each with what `Map::power` reads it as.
    pub fn keys(&self) -> impl Iterator<Item = (&str, Power)> {
        let upper = self.powers.get(..self.upper_names).unwrap_or_default();
        upper.iter().map(|(key, p)| (&**key, *p))
    }

    /// What `Map::power` reads `name` as, the usual spellings first.
    #[inline]
    pub fn power(&self, map: &Map, name: &str) -> Option<Power> {
        let bytes = name.as_bytes();
        let found = match power_slot(bytes).and_then(|slot| self.power_slots.get(slot)) {
            Some(0) => None,
            Some(&i) if i != SEVERAL => self
                .powers
                .get(usize::from(i) - 1)
                .filter(|(spelled, _)| same(spelled.as_bytes(), bytes))
                .map(|&(_, p)| p),
            _ => self
                .powers
                .iter()
                .find(|(spelled, _)| same(spelled.as_bytes(), bytes))
                .map(|&(_, p)| p),
        };
        found.or_else(|| map.power(name))
    }

    /// The place a code names (`PAR`, `STP/NC`), when `text` is exactly a code
    /// of the map; `None` for any other text, which may still be a spelling.
    #[inline]
    pub fn code(&self, text: &str) -> Option<Location> {
        let b = text.as_bytes();
        let (head, tail) = match b.len() {
            3 => (b, None),
            6 if b[3] == b'/' => (&b[..3], Some([b[4], b[5]])),
            _ => return None,
        };
        let i = self.by_letters.get(slot(head)?)?.index as usize;
        let (plain, coasts) = self.codes.get(i.checked_sub(1)?)?;
        match tail {
            None => *plain,
            Some(tail) => coasts
                .iter()
                .find(|(letters, _)| letters.eq_ignore_ascii_case(&tail))
                .map(|&(_, loc)| loc),
        }
    }

    /// `code` for a province's three letters (`PAR`, `par`), without
    /// the checks of a text's length and of a coast, with what the forms
    /// read in one look ask of its place.
    #[inline]
    pub fn code3(&self, letters: [u8; 3]) -> Option<&Code3> {
        self.by_letters.get(slot(&letters)?)
    }

    /// What `Map::lookup` reads `text` as, codes and names first.
    #[inline]
    pub fn lookup(&self, map: &Map, text: &str) -> Option<Location> {
        self.code(text)
            .or_else(|| self.name(text))
            .or_else(|| map.lookup(text))
    }

    /// A province's name as the map writes it (`Paris`): found by its slot,
    /// or searched for when its slot is shared.
    #[inline]
    fn name(&self, text: &str) -> Option<Location> {
        let bytes = text.as_bytes();
        match self.name_slots.get(power_slot(bytes)?) {
            Some(0) | None => None,
            Some(&i) if i != SEVERAL => self
                .names
                .get(usize::from(i) - 1)
                .filter(|(name, _)| same(name.as_bytes(), bytes))
                .map(|&(_, loc)| loc),
            _ => {
                let i = self.names.binary_search_by(|(n, _)| (**n).cmp(text)).ok()?;
                Some(self.names[i].1)
            }
        }
    }

    /// `loc`'s code as a JSON string, when the table has it.
    #[inline]
    fn known(&self, loc: Location) -> Option<&Ready> {
        let p = loc.province.0 as usize;
        let text = match loc.coast {
            None => self.province_json.get(p)?,
            Some(c) => &self.coast_json.get(p)?.iter().find(|(k, _)| *k == c)?.1,
        };
        Some(text)
    }

    /// `loc` as `Map::location_code` writes it, as a JSON string.
    #[inline]
    pub fn write(&self, map: &Map, out: &mut Vec<u8>, loc: Location) {
        match self.known(loc) {
            Some(text) => text.write(out),
            None => super::write::string(out, &map.location_code(loc)),
        }
    }

    /// `loc` as `Map::location_code` writes it (`STP/NC`), appended to `out`.
    pub fn write_code(&self, map: &Map, out: &mut String, loc: Location) {
        match (loc.coast, self.province_code.get(loc.province.0 as usize)) {
            (None, Some(code)) => out.push_str(code),
            _ => out.push_str(&map.location_code(loc)),
        }
    }

    /// `"A PAR"`, `"F STP/NC"`: a string escapes character by character, so
    /// the escaped code follows `"A `.
    #[inline(always)]
    pub fn write_unit(&self, map: &Map, out: &mut Vec<u8>, kind: UnitKind, loc: Location) {
        if loc.coast.is_none()
            && let Some(units) = self.unit_json.get(loc.province.0 as usize)
        {
            let i = match kind {
                UnitKind::Army => 0,
                UnitKind::Fleet => 1,
            };
            units[i].write(out);
            return;
        }
        self.write_unit_on_coast(map, out, kind, loc);
    }

    /// `write_unit` for a fleet on a coast (or a place the table lacks).
    #[inline(never)]
    fn write_unit_on_coast(&self, map: &Map, out: &mut Vec<u8>, kind: UnitKind, loc: Location) {
        out.push(b'"');
        out.push(kind.letter() as u8);
        out.push(b' ');
        match self.known(loc) {
            Some(text) => out.extend_from_slice(&text.as_bytes()[1..]),
            None => {
                let mark = out.len();
                super::write::string(out, &map.location_code(loc));
                out.remove(mark);
            }
        }
    }

    /// The province `p` as a JSON string.
    #[inline]
    pub fn write_province(&self, map: &Map, out: &mut Vec<u8>, p: Province) {
        self.write(map, out, p.into());
    }
}

/// What a province's three-letter code reads as, with the map's answers
/// about that place, asked once when the table is made.
#[derive(Copy, Clone, Default)]
pub(super) struct Code3 {
    /// What `Map::lookup` reads the code as.
    pub location: Option<Location>,
    /// Place in `codes` + 1 (0: not a code).
    index: u16,
    /// `Map::can_stand` for an army and for a fleet.
    pub army_stands: bool,
    pub fleet_stands: bool,
    /// A supply center, named without a coast.
    pub center: bool,
    /// A province with coasts, named without one.
    pub needs_coast: bool,
}

impl Code3 {
    fn new(map: &Map, location: Option<Location>, index: u16) -> Code3 {
        let facts = |f: &dyn Fn(Location) -> bool| location.is_some_and(f);
        Code3 {
            location,
            index,
            army_stands: facts(&|l| map.can_stand(UnitKind::Army, l)),
            fleet_stands: facts(&|l| map.can_stand(UnitKind::Fleet, l)),
            center: facts(&|l| l.coast.is_none() && map.is_supply_center(l.province)),
            needs_coast: facts(&|l| l.coast.is_none() && !map.coasts(l.province).is_empty()),
        }
    }

    /// The place, if a unit of this kind can stand there.
    #[inline(always)]
    pub fn standing(&self, kind: UnitKind) -> Option<Location> {
        let stands = match kind {
            UnitKind::Army => self.army_stands,
            UnitKind::Fleet => self.fleet_stands,
        };
        if stands { self.location } else { None }
    }
}

/// A ready-made JSON string. Most are a few bytes long: those are kept in a
/// fixed array and copied whole, a copy of known size without a call, and the
/// buffer cut back to their length.
pub(super) enum Ready {
    Short([u8; 16], u8),
    Long(Box<str>),
}

impl Ready {
    pub fn new(text: Box<str>) -> Ready {
        let mut bytes = [0u8; 16];
        match bytes.get_mut(..text.len()) {
            Some(head) => {
                head.copy_from_slice(text.as_bytes());
                Ready::Short(bytes, text.len() as u8)
            }
            None => Ready::Long(text),
        }
    }

    #[inline]
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Ready::Short(bytes, len) => {
                let end = out.len() + usize::from(*len);
                out.extend_from_slice(bytes);
                out.truncate(end);
            }
            Ready::Long(text) => out.extend_from_slice(text.as_bytes()),
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Ready::Short(bytes, len) => &bytes[..usize::from(*len)],
            Ready::Long(text) => text.as_bytes(),
        }
    }
}
