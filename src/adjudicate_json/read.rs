//! Reading a position document, field by field, with the path of every defect.
//!
//! One reader, two sources: the scanned strings of a well-formed line (`doc.rs`,
//! the fast way) and a `serde_json::Value` (any document; its shape is checked
//! here as each field is reached). The checks run in one fixed order, so the
//! first defect named is the same whichever source the document came from.

use serde_json::Value;

use super::canonical;
use super::doc::{DislodgedDoc, Doc, ListsField};
use super::places::Places;
use super::{Entry, InputError, Request};
use crate::judge::{Dislodged, Position, Unit};
use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::orders::{Order, PowerOrder};
use crate::phase::{Phase, PhaseKind};

/// Reads one order text in a phase of this kind: the order, the power the text
/// names if it names one (`France: A Par - Bur`), or why it cannot be read.
pub type OrderReader<'a> =
    &'a dyn Fn(&Map, PhaseKind, &str) -> Result<(Option<Power>, Order), String>;

const FIELDS: [&str; 8] = [
    "variant",
    "phase",
    "units",
    "supply_centers",
    "home_centers",
    "dislodged",
    "contested",
    "orders",
];

/// Reads a document. `parse` reads one order text (the order grammar).
pub fn read_request<'v>(
    map: &Map,
    doc: &'v Value,
    parse: OrderReader<'_>,
) -> Result<Request<'v>, InputError> {
    read(map, &Places::new(map), doc, parse)
}

/// A field of the document: left out, of the wrong JSON type, or given.
pub(super) enum Field<T> {
    Absent,
    Wrong,
    Given(T),
}

/// The fields of the contract, in the order of `FIELDS`.
#[derive(Copy, Clone)]
pub(super) enum Name {
    Variant,
    Phase,
    Units,
    SupplyCenters,
    HomeCenters,
    Dislodged,
    Contested,
    Orders,
}

impl Name {
    fn key(self) -> &'static str {
        FIELDS[self as usize]
    }
}

/// `(key as written, its list or `None` when it is not a list)` per power.
type Lists<'s, T> = Vec<(&'s str, Option<&'s [T]>)>;

/// A document as the reader sees it: each field with its JSON type checked,
/// nothing more (the reader makes the messages).
pub(super) trait Source<'s> {
    /// A string of a list (a `Value` may be something else).
    type Item: Item + 's;
    type Dislodged: DislodgedItem + 's;
    /// Are its strings free of what JSON escapes (as the scanner takes them)?
    const PLAIN: bool;
    /// `Err`: not an object; else a key that is not a field of the contract
    /// (the first in key order).
    fn unknown_field(&'s self) -> Result<Option<&'s str>, ()>;
    fn text(&'s self, field: Name) -> Field<&'s str>;
    fn lists(&'s self, field: Name) -> Field<Lists<'s, Self::Item>>;
    fn dislodged(&'s self) -> Field<Lists<'s, Self::Dislodged>>;
    fn list(&'s self, field: Name) -> Field<&'s [Self::Item]>;
}

pub(super) trait Item {
    fn text(&self) -> Option<&str>;
}

pub(super) trait DislodgedItem {
    /// `Err(None)`: not an object; `Err(Some(key))`: the first unknown key.
    fn shape(&self) -> Result<(), Option<&str>>;
    fn unit(&self) -> Field<&str>;
    fn attacker_from(&self) -> Field<&str>;
    /// `None` when neither true, false nor null.
    fn via_convoy(&self) -> Option<bool>;
}

/// Reads a document from either source.
pub(super) fn read<'s, S: Source<'s>>(
    map: &Map,
    places: &Places,
    doc: &'s S,
    parse: OrderReader<'_>,
) -> Result<Request<'s>, InputError> {
    match doc.unknown_field() {
        Err(()) => return Err(InputError::new("document", "expected a JSON object")),
        Ok(Some(key)) => {
            return Err(InputError::new(
                key,
                format!("unknown field (expected one of {})", FIELDS.join(", ")),
            ));
        }
        Ok(None) => {}
    }
    read_variant(doc.text(Name::Variant))?;
    let phase = read_phase(doc.text(Name::Phase))?;
    let reader = Reader { map, places };
    let units = reader.units(doc.lists(Name::Units))?;
    let owners = reader.owners(doc.lists(Name::SupplyCenters), phase)?;
    let homes = reader.homes(doc.lists(Name::HomeCenters))?;
    let dislodged = reader.dislodged(doc.dislodged())?;
    let contested = reader.province_list("contested", doc.list(Name::Contested))?;
    let (orders, order_texts, entries) =
        reader.orders(doc.lists(Name::Orders), phase.kind, parse)?;
    let retreat = phase.kind == PhaseKind::Retreat;
    let position = Position {
        phase,
        units,
        dislodged: if retreat { dislodged } else { Vec::new() },
        contested: if retreat {
            contested
        } else {
            ProvinceSet::EMPTY
        },
        owners,
        homes,
    };
    Ok(Request {
        position,
        orders,
        order_texts,
        entries,
        plain: S::PLAIN,
    })
}

fn read_variant(value: Field<&str>) -> Result<(), InputError> {
    match value {
        Field::Absent => Ok(()),
        Field::Given(s) if s.eq_ignore_ascii_case("standard") => Ok(()),
        Field::Given(s) => Err(InputError::new(
            "variant",
            format!("unknown variant {s:?} (only \"standard\")"),
        )),
        Field::Wrong => Err(InputError::new("variant", "expected a string")),
    }
}

fn read_phase(value: Field<&str>) -> Result<Phase, InputError> {
    let text = match value {
        Field::Absent => return Err(InputError::new("phase", "missing")),
        Field::Given(s) => s,
        Field::Wrong => {
            return Err(InputError::new(
                "phase",
                "expected a string such as \"S1901M\"",
            ));
        }
    };
    if let Some(phase) = plain_phase(text) {
        return Ok(phase);
    }
    text.parse::<Phase>().map_err(|_| {
        InputError::new(
            "phase",
            format!("not a phase: {text:?} (expected e.g. S1901M, F1901R, W1901A)"),
        )
    })
}

/// `S1901M` as programs write it, read without `Phase::from_str`'s
/// upper-case copy; `None` leaves any other text to it (which reads this
/// form alike).
pub(super) fn plain_phase(text: &str) -> Option<Phase> {
    use crate::phase::Season;
    let [season, digits @ .., kind] = text.as_bytes() else {
        return None;
    };
    let season = match *season {
        b'S' => Season::Spring,
        b'F' => Season::Fall,
        b'W' => Season::Winter,
        _ => return None,
    };
    let kind = match *kind {
        b'M' => PhaseKind::Movement,
        b'R' => PhaseKind::Retreat,
        b'A' => PhaseKind::Adjustment,
        _ => return None,
    };
    if digits.len() != 4 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let year = digits
        .iter()
        .fold(0u16, |year, d| year * 10 + u16::from(d - b'0'));
    let phase = Phase::new(season, year, kind);
    phase.is_valid().then_some(phase)
}

struct Reader<'m> {
    map: &'m Map,
    places: &'m Places,
}

/// `(key as written, power, items)` per power, every key checked.
type PerPower<'s, T> = Vec<(&'s str, Power, &'s [T])>;

/// `field.KEY[i]`: where an item is, spelled only for an error.
fn at(field: &str, key: &str, i: usize) -> String {
    format!("{field}.{key}[{i}]")
}

fn string<I: Item>(path: impl FnOnce() -> String, item: &I) -> Result<&str, InputError> {
    item.text()
        .ok_or_else(|| InputError::new(path(), "expected a string"))
}

impl Reader<'_> {
    fn per_power<'s, T>(
        &self,
        field: &str,
        value: Field<Lists<'s, T>>,
    ) -> Result<PerPower<'s, T>, InputError> {
        let lists = match value {
            Field::Absent => return Ok(Vec::new()),
            Field::Wrong => {
                return Err(InputError::new(
                    field,
                    "expected an object of powers, such as {\"FRANCE\": [...]}",
                ));
            }
            Field::Given(lists) => lists,
        };
        let mut out = Vec::with_capacity(lists.len());
        for (name, items) in lists {
            let path = || format!("{field}.{name}");
            let power = self
                .power(name)
                .ok_or_else(|| InputError::new(path(), format!("unknown power {name:?}")))?;
            let items = items.ok_or_else(|| InputError::new(path(), "expected a list"))?;
            out.push((name, power, items));
        }
        Ok(out)
    }

    fn power(&self, name: &str) -> Option<Power> {
        self.places.power(self.map, name)
    }

    fn location(&self, text: &str) -> Result<Location, String> {
        self.places
            .lookup(self.map, text)
            .ok_or_else(|| format!("unknown province {text:?}"))
    }

    fn province(&self, text: &str) -> Result<Province, String> {
        let loc = self.location(text)?;
        if loc.coast.is_some() {
            return Err(format!("{text:?}: expected a province, without a coast"));
        }
        Ok(loc.province)
    }

    /// A supply center, spelled `text`.
    fn center(&self, text: &str) -> Result<Province, String> {
        // A code of a center, as the contract writes it.
        if let &[a, b, c] = text.as_bytes()
            && let Some(loc) = self.places.code3([a, b, c])
            && loc.coast.is_none()
            && self.map.is_supply_center(loc.province)
        {
            return Ok(loc.province);
        }
        let p = self.province(text)?;
        if !self.map.is_supply_center(p) {
            return Err(format!("{text:?} is not a supply center"));
        }
        Ok(p)
    }

    /// `"A PAR"`, `"F STP/SC"`.
    fn unit(&self, power: Power, text: &str) -> Result<Unit, String> {
        if let Some(unit) = self.plain_unit(power, text) {
            return Ok(unit);
        }
        // `A PAR` as the contract writes it, cut without a search; any other
        // spelling is cut at its first white space.
        let plain = match text.as_bytes() {
            [kind, b' ', place @ ..] if kind.is_ascii_alphabetic() => {
                !place.is_empty()
                    && place
                        .iter()
                        .all(|c| c.is_ascii_alphanumeric() || *c == b'/')
            }
            _ => false,
        };
        let (kind, place) = if plain {
            (&text[..1], &text[2..])
        } else {
            text.trim().split_once(char::is_whitespace).ok_or_else(|| {
                format!("{text:?}: expected a unit such as \"A PAR\" or \"F STP/SC\"")
            })?
        };
        let kind = if kind.eq_ignore_ascii_case("a") || kind.eq_ignore_ascii_case("army") {
            UnitKind::Army
        } else if kind.eq_ignore_ascii_case("f") || kind.eq_ignore_ascii_case("fleet") {
            UnitKind::Fleet
        } else {
            return Err(format!("{text:?}: the unit type is A or F"));
        };
        let location = self.location(place)?;
        if !self.map.can_stand(kind, location) {
            let place = self.map.location_code(location);
            return Err(match kind {
                UnitKind::Fleet if !self.map.coasts(location.province).is_empty() => {
                    format!("a fleet in {place} must name its coast")
                }
                UnitKind::Army if location.coast.is_some() => {
                    format!("an army stands in a province, not on a coast ({place})")
                }
                _ => format!(
                    "{} {place}: no {} can stand there",
                    kind.letter(),
                    kind.name().to_lowercase()
                ),
            });
        }
        Ok(Unit {
            power,
            kind,
            location,
        })
    }

    /// A unit as the contract writes it (`A PAR`, `f stp/sc`), where it can
    /// stand: read as `unit` reads it, without its other spellings and
    /// messages. `None` for anything else.
    #[inline]
    fn plain_unit(&self, power: Power, text: &str) -> Option<Unit> {
        let kind = match text.as_bytes() {
            [b'A' | b'a', b' ', ..] => UnitKind::Army,
            [b'F' | b'f', b' ', ..] => UnitKind::Fleet,
            _ => return None,
        };
        let location = match *text.as_bytes() {
            [_, _, a, b, c] => self.places.code3([a, b, c])?,
            _ => self.places.code(text.get(2..)?)?,
        };
        self.map.can_stand(kind, location).then_some(Unit {
            power,
            kind,
            location,
        })
    }

    fn units<I: Item>(&self, value: Field<Lists<'_, I>>) -> Result<Vec<Unit>, InputError> {
        if let Field::Absent = value {
            return Err(InputError::new("units", "missing"));
        }
        let mut units: Vec<Unit> = Vec::with_capacity(40);
        // The provinces taken so far (a set of the first 128: the others are
        // looked for in the list).
        let mut taken = ProvinceSet::EMPTY;
        for (key, power, items) in self.per_power("units", value)? {
            for (i, item) in items.iter().enumerate() {
                let path = || at("units", key, i);
                let unit = self
                    .unit(power, string(path, item)?)
                    .map_err(|m| InputError::new(path(), m))?;
                let p = unit.province();
                let maybe_taken = p.0 >= 128 || taken.contains(p);
                taken.insert(p);
                if maybe_taken && let Some(other) = units.iter().find(|u| u.province() == p) {
                    let name = &self.map.power_info(other.power).name;
                    return Err(InputError::new(
                        path(),
                        format!(
                            "{} is already occupied by a {} unit",
                            self.map.location_code(unit.province().into()),
                            name
                        ),
                    ));
                }
                units.push(unit);
            }
        }
        Ok(units)
    }

    fn owners<I: Item>(
        &self,
        value: Field<Lists<'_, I>>,
        phase: Phase,
    ) -> Result<Vec<Option<Power>>, InputError> {
        if matches!(value, Field::Absent) && phase.kind == PhaseKind::Adjustment {
            return Err(InputError::new(
                "supply_centers",
                "missing (an adjustment phase needs the owners)",
            ));
        }
        let mut owners = vec![None; self.map.province_count()];
        for (key, power, items) in self.per_power("supply_centers", value)? {
            for (i, item) in items.iter().enumerate() {
                let path = || at("supply_centers", key, i);
                let text = string(path, item)?;
                let p = self.center(text).map_err(|m| InputError::new(path(), m))?;
                let slot = &mut owners[p.0 as usize];
                if let Some(other) = *slot {
                    let what = format!(
                        "{text:?} is also owned by {}",
                        self.map.power_info(other).name
                    );
                    return Err(InputError::new(path(), what));
                }
                *slot = Some(power);
            }
        }
        Ok(owners)
    }

    fn homes<I: Item>(&self, value: Field<Lists<'_, I>>) -> Result<Vec<ProvinceSet>, InputError> {
        let mut homes = self.places.homes.clone();
        for (key, power, items) in self.per_power("home_centers", value)? {
            let mut set = ProvinceSet::EMPTY;
            for (i, item) in items.iter().enumerate() {
                let path = || at("home_centers", key, i);
                let text = string(path, item)?;
                set.insert(self.center(text).map_err(|m| InputError::new(path(), m))?);
            }
            homes[power.0 as usize] = set;
        }
        Ok(homes)
    }

    fn dislodged<D: DislodgedItem>(
        &self,
        value: Field<Lists<'_, D>>,
    ) -> Result<Vec<Dislodged>, InputError> {
        let mut out: Vec<Dislodged> = Vec::new();
        for (key, power, items) in self.per_power("dislodged", value)? {
            for (i, item) in items.iter().enumerate() {
                let field = at("dislodged", key, i);
                match item.shape() {
                    Ok(()) => {}
                    Err(None) => {
                        return Err(InputError::new(
                            &field,
                            "expected {\"unit\": \"A MUN\", \"attacker_from\": \"BUR\"}",
                        ));
                    }
                    Err(Some(key)) => {
                        return Err(InputError::new(format!("{field}.{key}"), "unknown field"));
                    }
                }
                let unit_field = format!("{field}.unit");
                let unit = match item.unit() {
                    Field::Absent => return Err(InputError::new(&unit_field, "missing")),
                    Field::Wrong => return Err(InputError::new(&unit_field, "expected a string")),
                    Field::Given(text) => self
                        .unit(power, text)
                        .map_err(|m| InputError::new(&unit_field, m))?,
                };
                let from_field = format!("{field}.attacker_from");
                let attacker_from = match item.attacker_from() {
                    Field::Absent => return Err(InputError::new(&from_field, "missing")),
                    Field::Wrong => return Err(InputError::new(&from_field, "expected a string")),
                    Field::Given(text) => self
                        .province(text)
                        .map_err(|m| InputError::new(&from_field, m))?,
                };
                let via_convoy = item.via_convoy().ok_or_else(|| {
                    InputError::new(format!("{field}.via_convoy"), "expected true or false")
                })?;
                if attacker_from == unit.province() {
                    return Err(InputError::new(
                        from_field,
                        "the attacker cannot come from the unit's own province",
                    ));
                }
                if out.iter().any(|d| d.unit.province() == unit.province()) {
                    return Err(InputError::new(
                        unit_field,
                        "two dislodged units in one province",
                    ));
                }
                out.push(Dislodged {
                    unit,
                    attacker_from,
                    via_convoy,
                });
            }
        }
        Ok(out)
    }

    fn province_list<I: Item>(
        &self,
        field: &str,
        value: Field<&[I]>,
    ) -> Result<ProvinceSet, InputError> {
        let items = match value {
            Field::Absent => return Ok(ProvinceSet::EMPTY),
            Field::Wrong => {
                return Err(InputError::new(field, "expected a list of provinces"));
            }
            Field::Given(items) => items,
        };
        let mut set = ProvinceSet::EMPTY;
        for (i, item) in items.iter().enumerate() {
            let path = || format!("{field}[{i}]");
            let text = string(path, item)?;
            set.insert(
                self.province(text)
                    .map_err(|m| InputError::new(path(), m))?,
            );
        }
        Ok(set)
    }

    #[allow(clippy::type_complexity)]
    fn orders<'s, I: Item>(
        &self,
        value: Field<Lists<'s, I>>,
        kind: PhaseKind,
        parse: OrderReader<'_>,
    ) -> Result<(Vec<PowerOrder>, Vec<&'s str>, Vec<(Power, Entry<'s>)>), InputError> {
        let lists = self.per_power("orders", value)?;
        let count = lists.iter().map(|(_, _, items)| items.len()).sum();
        let mut orders = Vec::with_capacity(count);
        let mut texts = Vec::with_capacity(count);
        let mut entries = Vec::with_capacity(count);
        for (key, power, items) in lists {
            for (i, item) in items.iter().enumerate() {
                let text = string(|| at("orders", key, i), item)?;
                let read = match canonical::read(self.map, self.places, kind, text) {
                    Some(order) => Ok((None, order)),
                    None => parse(self.map, kind, text),
                };
                match read {
                    Ok((Some(named), _)) if named != power => {
                        let why = format!(
                            "the order is for {}",
                            self.map.power_info(named).name.to_uppercase()
                        );
                        entries.push((power, Entry::Unread { text, why }));
                    }
                    Ok((_, order)) => {
                        entries.push((
                            power,
                            Entry::Read {
                                index: orders.len(),
                            },
                        ));
                        orders.push(PowerOrder { power, order });
                        texts.push(text);
                    }
                    Err(why) => entries.push((power, Entry::Unread { text, why })),
                }
            }
        }
        Ok((orders, texts, entries))
    }
}

// The two sources.

impl Item for Value {
    fn text(&self) -> Option<&str> {
        self.as_str()
    }
}

impl Item for &str {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

fn value_text(value: Option<&Value>) -> Field<&str> {
    match value {
        None => Field::Absent,
        Some(Value::String(s)) => Field::Given(s),
        Some(_) => Field::Wrong,
    }
}

impl DislodgedItem for Value {
    fn shape(&self) -> Result<(), Option<&str>> {
        let object = self.as_object().ok_or(None)?;
        match object
            .keys()
            .find(|k| !["unit", "attacker_from", "via_convoy"].contains(&k.as_str()))
        {
            Some(key) => Err(Some(key)),
            None => Ok(()),
        }
    }

    fn unit(&self) -> Field<&str> {
        value_text(self.get("unit"))
    }

    fn attacker_from(&self) -> Field<&str> {
        value_text(self.get("attacker_from"))
    }

    fn via_convoy(&self) -> Option<bool> {
        match self.get("via_convoy") {
            None | Some(Value::Null) => Some(false),
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => None,
        }
    }
}

fn value_lists(value: Option<&Value>) -> Field<Lists<'_, Value>> {
    match value.map(Value::as_object) {
        None => Field::Absent,
        Some(None) => Field::Wrong,
        Some(Some(object)) => Field::Given(
            object
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_array().map(Vec::as_slice)))
                .collect(),
        ),
    }
}

impl<'s> Source<'s> for Value {
    type Item = Value;
    type Dislodged = Value;
    const PLAIN: bool = false;

    fn unknown_field(&'s self) -> Result<Option<&'s str>, ()> {
        let top = self.as_object().ok_or(())?;
        Ok(top
            .keys()
            .find(|k| !FIELDS.contains(&k.as_str()))
            .map(String::as_str))
    }

    fn text(&'s self, field: Name) -> Field<&'s str> {
        value_text(self.get(field.key()))
    }

    fn lists(&'s self, field: Name) -> Field<Lists<'s, Value>> {
        value_lists(self.get(field.key()))
    }

    fn dislodged(&'s self) -> Field<Lists<'s, Value>> {
        value_lists(self.get(Name::Dislodged.key()))
    }

    fn list(&'s self, field: Name) -> Field<&'s [Value]> {
        match self.get(field.key()).map(Value::as_array) {
            None => Field::Absent,
            Some(None) => Field::Wrong,
            Some(Some(items)) => Field::Given(items),
        }
    }
}

impl DislodgedItem for DislodgedDoc<'_> {
    fn shape(&self) -> Result<(), Option<&str>> {
        Ok(())
    }

    fn unit(&self) -> Field<&str> {
        Field::Given(self.unit)
    }

    fn attacker_from(&self) -> Field<&str> {
        Field::Given(self.attacker_from)
    }

    fn via_convoy(&self) -> Option<bool> {
        Some(self.via_convoy)
    }
}

fn doc_lists<'s, T: 's>(
    lists: Option<impl Iterator<Item = (&'s str, &'s [T])>>,
) -> Field<Lists<'s, T>> {
    match lists {
        None => Field::Absent,
        Some(lists) => Field::Given(lists.map(|(k, items)| (k, Some(items))).collect()),
    }
}

impl<'s, 'a: 's> Source<'s> for Doc<'a> {
    type Item = &'a str;
    type Dislodged = DislodgedDoc<'a>;
    const PLAIN: bool = true;

    fn unknown_field(&'s self) -> Result<Option<&'s str>, ()> {
        Ok(None)
    }

    fn text(&'s self, field: Name) -> Field<&'s str> {
        let value = match field {
            Name::Variant => self.variant,
            Name::Phase => self.phase,
            _ => return Field::Absent,
        };
        match value {
            None => Field::Absent,
            Some(s) => Field::Given(s),
        }
    }

    fn lists(&'s self, field: Name) -> Field<Lists<'s, &'a str>> {
        doc_lists(self.lists(match field {
            Name::Units => ListsField::Units,
            Name::SupplyCenters => ListsField::SupplyCenters,
            Name::HomeCenters => ListsField::HomeCenters,
            Name::Orders => ListsField::Orders,
            _ => return Field::Absent,
        }))
    }

    fn dislodged(&'s self) -> Field<Lists<'s, DislodgedDoc<'a>>> {
        doc_lists(Doc::dislodged(self))
    }

    fn list(&'s self, field: Name) -> Field<&'s [&'a str]> {
        match (field, self.contested()) {
            (Name::Contested, Some(items)) => Field::Given(items),
            _ => Field::Absent,
        }
    }
}
