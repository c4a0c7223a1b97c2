//! Reading a position document, field by field, with the path of every defect.
//!
//! Any document, as a `serde_json::Value`: its shape is checked here as each
//! field is reached, in one fixed order, so the first defect is the one named.
//! The items (a unit, a center, an order) are read by `Reader` and gathered by
//! `Gathered`, which the scanner of plain documents (`plain.rs`) uses too: so
//! both ways in read an item alike.

use serde_json::Value;

use super::canonical;
use super::places::{Places, same};
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
#[derive(Copy, Clone, Debug, PartialEq)]
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
    pub const ALL: [Name; 8] = [
        Name::Variant,
        Name::Phase,
        Name::Units,
        Name::SupplyCenters,
        Name::HomeCenters,
        Name::Dislodged,
        Name::Contested,
        Name::Orders,
    ];

    pub fn key(self) -> &'static str {
        FIELDS[self as usize]
    }

    /// The field whose name starts with `letter`: each starts with a letter
    /// of its own.
    pub fn starting(letter: u8) -> Option<Name> {
        Some(match letter {
            b'v' => Name::Variant,
            b'p' => Name::Phase,
            b'u' => Name::Units,
            b's' => Name::SupplyCenters,
            b'h' => Name::HomeCenters,
            b'd' => Name::Dislodged,
            b'c' => Name::Contested,
            b'o' => Name::Orders,
            _ => return None,
        })
    }

    /// The field called `key`.
    pub fn of(key: &str) -> Option<Name> {
        let i = FIELDS
            .iter()
            .position(|f| same(f.as_bytes(), key.as_bytes()))?;
        Some(Name::ALL[i])
    }
}

/// Reads a document: every field checked in one fixed order, so the first
/// defect is the one named.
pub(super) fn read<'v>(
    map: &Map,
    places: &Places,
    doc: &'v Value,
    parse: OrderReader<'_>,
) -> Result<Request<'v>, InputError> {
    let top = doc
        .as_object()
        .ok_or_else(|| InputError::new("document", "expected a JSON object"))?;
    if let Some(key) = top.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(InputError::new(
            key,
            format!("unknown field (expected one of {})", FIELDS.join(", ")),
        ));
    }
    let get = |name: Name| top.get(name.key());
    read_variant(value_text(get(Name::Variant)))?;
    let phase = read_phase(value_text(get(Name::Phase)))?;
    let reader = Reader { map, places };
    let mut got = Gathered::new(map, places, Spare::default());
    reader.units(&mut got, get(Name::Units))?;
    reader.owners(&mut got, get(Name::SupplyCenters), phase)?;
    reader.homes(&mut got, get(Name::HomeCenters))?;
    reader.dislodged(&mut got, get(Name::Dislodged))?;
    got.contested = reader.province_list("contested", get(Name::Contested))?;
    reader.orders(&mut got, get(Name::Orders), phase.kind, parse)?;
    Ok(got.request(phase, false))
}

/// What a document says, gathered item by item, with the checks that concern
/// more than one item. Both readers gather into it: the `Value` reader, which
/// names each defect, and the scanner of plain documents (`plain.rs`).
pub(super) struct Gathered<'s> {
    pub units: Vec<Unit>,
    /// The provinces of `units` (a set of the first 128: the others are looked
    /// for in the list).
    taken: ProvinceSet,
    owners: Vec<Option<Power>>,
    pub homes: Vec<ProvinceSet>,
    pub dislodged: Vec<Dislodged>,
    pub contested: ProvinceSet,
    orders: Vec<PowerOrder>,
    entries: Vec<(Power, Entry<'s>)>,
    reasons: Vec<String>,
    /// Order texts kept until the phase is known, to be read then (the
    /// scanner's, which may meet the orders first).
    pub stash: Vec<(Power, &'s str)>,
}

impl<'s> Gathered<'s> {
    /// Nothing gathered yet, in the lists of `spare`.
    pub fn new(map: &Map, places: &Places, spare: Spare) -> Gathered<'s> {
        let Spare {
            mut units,
            mut owners,
            mut homes,
            mut orders,
            entries,
            stash,
        } = spare;
        units.clear();
        owners.clear();
        owners.resize(map.province_count(), None);
        homes.clear();
        homes.extend_from_slice(&places.homes);
        orders.clear();
        Gathered {
            units,
            taken: ProvinceSet::EMPTY,
            owners,
            homes,
            dislodged: Vec::new(),
            contested: ProvinceSet::EMPTY,
            orders,
            entries: recycle(entries),
            reasons: Vec::new(),
            stash: recycle(stash),
        }
    }

    /// A unit, unless its province is taken already.
    #[inline(always)]
    pub fn unit(&mut self, map: &Map, unit: Unit) -> Result<(), String> {
        let p = unit.province();
        let maybe_taken = p.0 >= 128 || self.taken.contains(p);
        self.taken.insert(p);
        if maybe_taken && let Some(other) = self.units.iter().find(|u| u.province() == p) {
            return Err(occupied(map, p, other.power));
        }
        self.units.push(unit);
        Ok(())
    }

    /// `power` owns the center `p`, unless another power does (`Err`).
    #[inline(always)]
    pub fn owner(&mut self, power: Power, p: Province) -> Result<(), Power> {
        let slot = &mut self.owners[p.0 as usize];
        if let Some(other) = *slot {
            return Err(other);
        }
        *slot = Some(power);
        Ok(())
    }

    /// A dislodged unit, unless it is one of the two faults below.
    pub fn dislodged(&mut self, d: Dislodged) -> Result<(), DislodgedFault> {
        if d.attacker_from == d.unit.province() {
            return Err(DislodgedFault::AttackerInPlace);
        }
        if self
            .dislodged
            .iter()
            .any(|x| x.unit.province() == d.unit.province())
        {
            return Err(DislodgedFault::Twice);
        }
        self.dislodged.push(d);
        Ok(())
    }

    /// The order `text` of `power`: read, or kept as unread with why.
    #[inline]
    pub fn order(
        &mut self,
        reader: Reader<'_>,
        kind: PhaseKind,
        parse: OrderReader<'_>,
        power: Power,
        text: &'s str,
    ) {
        // The contract's spelling, read without the grammar.
        if let Some(order) = canonical::read(reader.map, reader.places, kind, text) {
            self.read(power, order, text);
            return;
        }
        let why = match parse(reader.map, kind, text) {
            Ok((Some(named), _)) if named != power => format!(
                "the order is for {}",
                reader.map.power_info(named).name.to_uppercase()
            ),
            Ok((_, order)) => {
                self.read(power, order, text);
                return;
            }
            Err(why) => why,
        };
        let entry = Entry::Unread {
            text,
            why: self.reasons.len(),
        };
        self.reasons.push(why);
        self.entries.push((power, entry));
    }

    /// `order` of `power`, read from `text`.
    #[inline(always)]
    fn read(&mut self, power: Power, order: Order, text: &'s str) {
        let index = self.orders.len();
        self.orders.push(PowerOrder { power, order });
        self.entries.push((power, Entry::Read { index, text }));
    }

    /// The request for `phase`; `plain`: read by the scanner.
    pub fn request(self, phase: Phase, plain: bool) -> Request<'s> {
        let retreat = phase.kind == PhaseKind::Retreat;
        Request {
            position: Position {
                phase,
                units: self.units,
                dislodged: if retreat { self.dislodged } else { Vec::new() },
                contested: if retreat {
                    self.contested
                } else {
                    ProvinceSet::EMPTY
                },
                owners: self.owners,
                homes: self.homes,
            },
            orders: self.orders,
            entries: self.entries,
            reasons: self.reasons,
            stash: self.stash,
            plain,
        }
    }
}

/// The kind of unit of the letter `A` or `F`, in either case.
#[inline(always)]
fn unit_kind(letter: u8) -> Option<UnitKind> {
    match letter {
        b'A' | b'a' => Some(UnitKind::Army),
        b'F' | b'f' => Some(UnitKind::Fleet),
        _ => None,
    }
}

/// Why a unit cannot stand in `p`: `other`'s unit is there.
#[cold]
fn occupied(map: &Map, p: Province, other: Power) -> String {
    format!(
        "{} is already occupied by a {} unit",
        map.location_code(p.into()),
        map.power_info(other).name
    )
}

/// The lists of a request done with, kept for the next document to read
/// into (a batch reads one document after another).
#[derive(Default)]
pub struct Spare {
    units: Vec<Unit>,
    owners: Vec<Option<Power>>,
    homes: Vec<ProvinceSet>,
    orders: Vec<PowerOrder>,
    entries: Vec<(Power, Entry<'static>)>,
    stash: Vec<(Power, &'static str)>,
}

/// `list` emptied, as a list of items of another lifetime: the texts of one
/// document are gone before the next is read, but the room for them is kept
/// (collecting a list's own iterator into items of the same size reuses its
/// allocation).
fn recycle<T, U>(list: Vec<T>) -> Vec<U> {
    list.into_iter().filter_map(|_| None).collect()
}

impl Spare {
    /// The lists of `request`, to be read into again.
    pub fn of(request: Request) -> Spare {
        Spare {
            units: request.position.units,
            owners: request.position.owners,
            homes: request.position.homes,
            orders: request.orders,
            entries: recycle(request.entries),
            stash: recycle(request.stash),
        }
    }
}

/// What makes a dislodged unit wrong besides its own fields.
pub(super) enum DislodgedFault {
    /// Its attacker came from its own province.
    AttackerInPlace,
    /// Another dislodged unit is in its province.
    Twice,
}

pub(super) fn read_variant(value: Field<&str>) -> Result<(), InputError> {
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

pub(super) fn read_phase(value: Field<&str>) -> Result<Phase, InputError> {
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

/// Reads the items of a document, one by one.
#[derive(Copy, Clone)]
pub(super) struct Reader<'m> {
    pub map: &'m Map,
    pub places: &'m Places,
}

/// `(key as written, power, items)` per power, every key checked.
type PerPower<'v> = Vec<(&'v str, Power, &'v [Value])>;

/// `field.KEY[i]`: where an item is, spelled only for an error.
fn at(field: &str, key: &str, i: usize) -> String {
    format!("{field}.{key}[{i}]")
}

fn string(path: impl FnOnce() -> String, item: &Value) -> Result<&str, InputError> {
    item.as_str()
        .ok_or_else(|| InputError::new(path(), "expected a string"))
}

impl Reader<'_> {
    fn per_power<'v>(
        &self,
        field: &str,
        value: Option<&'v Value>,
    ) -> Result<PerPower<'v>, InputError> {
        let lists = match value.map(Value::as_object) {
            None => return Ok(Vec::new()),
            Some(None) => {
                return Err(InputError::new(
                    field,
                    "expected an object of powers, such as {\"FRANCE\": [...]}",
                ));
            }
            Some(Some(lists)) => lists,
        };
        let mut out = Vec::with_capacity(lists.len());
        for (name, items) in lists {
            let path = || format!("{field}.{name}");
            let power = self
                .power(name)
                .ok_or_else(|| InputError::new(path(), format!("unknown power {name:?}")))?;
            let items = items
                .as_array()
                .ok_or_else(|| InputError::new(path(), "expected a list"))?;
            out.push((name.as_str(), power, items.as_slice()));
        }
        Ok(out)
    }

    #[inline(always)]
    pub fn power(&self, name: &str) -> Option<Power> {
        self.places.power(self.map, name)
    }

    fn location(&self, text: &str) -> Result<Location, String> {
        self.places
            .lookup(self.map, text)
            .ok_or_else(|| format!("unknown province {text:?}"))
    }

    pub fn province(&self, text: &str) -> Result<Province, String> {
        let loc = self.location(text)?;
        if loc.coast.is_some() {
            return Err(format!("{text:?}: expected a province, without a coast"));
        }
        Ok(loc.province)
    }

    /// A supply center, spelled `text`. Inlined: most are codes, read at once.
    #[inline(always)]
    pub fn center(&self, text: &str) -> Result<Province, String> {
        match self.plain_center(text) {
            Some(p) => Ok(p),
            None => self.any_center(text),
        }
    }

    /// `center` in any spelling, or why it is not one.
    #[inline(never)]
    fn any_center(&self, text: &str) -> Result<Province, String> {
        let p = self.province(text)?;
        if !self.map.is_supply_center(p) {
            return Err(format!("{text:?} is not a supply center"));
        }
        Ok(p)
    }

    /// `"A PAR"`, `"F STP/SC"`. Inlined: most are read at once.
    #[inline(always)]
    pub fn unit(&self, power: Power, text: &str) -> Result<Unit, String> {
        match self.plain_unit(power, text) {
            Some(unit) => Ok(unit),
            None => self.any_unit(power, text),
        }
    }

    /// `unit` in any spelling, or why it is not one.
    #[inline(never)]
    fn any_unit(&self, power: Power, text: &str) -> Result<Unit, String> {
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

    /// The code of a center, as the contract writes it (`PAR`): read as
    /// `center` reads it, without its other spellings and messages. `None`
    /// for anything else.
    #[inline(always)]
    fn plain_center(&self, text: &str) -> Option<Province> {
        let &[a, b, c] = text.as_bytes() else {
            return None;
        };
        self.center_code([a, b, c])
    }

    /// The center whose code is these three letters (`PAR`, `par`).
    #[inline(always)]
    pub fn center_code(&self, code: [u8; 3]) -> Option<Province> {
        let facts = self.places.code3(code)?;
        if facts.center {
            Some(facts.location?.province)
        } else {
            None
        }
    }

    /// A unit as the contract writes it (`A PAR`, `f stp/sc`), where it can
    /// stand: read as `unit` reads it, without its other spellings and
    /// messages. `None` for anything else.
    #[inline(always)]
    fn plain_unit(&self, power: Power, text: &str) -> Option<Unit> {
        match *text.as_bytes() {
            [kind, b' ', a, b, c] => self.unit_code(power, kind, [a, b, c]),
            [kind, b' ', ..] => {
                let location = self.places.code(text.get(2..)?)?;
                self.standing(power, unit_kind(kind)?, location)
            }
            _ => None,
        }
    }

    /// `power`'s unit of kind `A` or `F` (either case) at the province of
    /// these three letters, where it can stand.
    #[inline(always)]
    pub fn unit_code(&self, power: Power, kind: u8, code: [u8; 3]) -> Option<Unit> {
        let kind = unit_kind(kind)?;
        let location = self.places.code3(code)?.standing(kind)?;
        Some(Unit {
            power,
            kind,
            location,
        })
    }

    #[inline(always)]
    fn standing(&self, power: Power, kind: UnitKind, location: Location) -> Option<Unit> {
        self.map.can_stand(kind, location).then_some(Unit {
            power,
            kind,
            location,
        })
    }

    fn units(&self, got: &mut Gathered, value: Option<&Value>) -> Result<(), InputError> {
        if value.is_none() {
            return Err(InputError::new("units", "missing"));
        }
        for (key, power, items) in self.per_power("units", value)? {
            for (i, item) in items.iter().enumerate() {
                let path = || at("units", key, i);
                self.unit(power, string(path, item)?)
                    .and_then(|unit| got.unit(self.map, unit))
                    .map_err(|m| InputError::new(path(), m))?;
            }
        }
        Ok(())
    }

    fn owners(
        &self,
        got: &mut Gathered,
        value: Option<&Value>,
        phase: Phase,
    ) -> Result<(), InputError> {
        if value.is_none() && phase.kind == PhaseKind::Adjustment {
            return Err(InputError::new(
                "supply_centers",
                "missing (an adjustment phase needs the owners)",
            ));
        }
        for (key, power, items) in self.per_power("supply_centers", value)? {
            for (i, item) in items.iter().enumerate() {
                let path = || at("supply_centers", key, i);
                let text = string(path, item)?;
                self.center(text)
                    .and_then(|p| {
                        got.owner(power, p).map_err(|other| {
                            let name = &self.map.power_info(other).name;
                            format!("{text:?} is also owned by {name}")
                        })
                    })
                    .map_err(|m| InputError::new(path(), m))?;
            }
        }
        Ok(())
    }

    fn homes(&self, got: &mut Gathered, value: Option<&Value>) -> Result<(), InputError> {
        for (key, power, items) in self.per_power("home_centers", value)? {
            let mut set = ProvinceSet::EMPTY;
            for (i, item) in items.iter().enumerate() {
                let path = || at("home_centers", key, i);
                let text = string(path, item)?;
                set.insert(self.center(text).map_err(|m| InputError::new(path(), m))?);
            }
            got.homes[power.0 as usize] = set;
        }
        Ok(())
    }

    fn dislodged(&self, got: &mut Gathered, value: Option<&Value>) -> Result<(), InputError> {
        for (key, power, items) in self.per_power("dislodged", value)? {
            for (i, item) in items.iter().enumerate() {
                let field = at("dislodged", key, i);
                let object = item.as_object().ok_or_else(|| {
                    InputError::new(
                        &field,
                        "expected {\"unit\": \"A MUN\", \"attacker_from\": \"BUR\"}",
                    )
                })?;
                if let Some(key) = object
                    .keys()
                    .find(|k| !["unit", "attacker_from", "via_convoy"].contains(&k.as_str()))
                {
                    return Err(InputError::new(format!("{field}.{key}"), "unknown field"));
                }
                let unit_field = format!("{field}.unit");
                let unit = match value_text(object.get("unit")) {
                    Field::Absent => return Err(InputError::new(&unit_field, "missing")),
                    Field::Wrong => return Err(InputError::new(&unit_field, "expected a string")),
                    Field::Given(text) => self
                        .unit(power, text)
                        .map_err(|m| InputError::new(&unit_field, m))?,
                };
                let from_field = format!("{field}.attacker_from");
                let attacker_from = match value_text(object.get("attacker_from")) {
                    Field::Absent => return Err(InputError::new(&from_field, "missing")),
                    Field::Wrong => return Err(InputError::new(&from_field, "expected a string")),
                    Field::Given(text) => self
                        .province(text)
                        .map_err(|m| InputError::new(&from_field, m))?,
                };
                let via_convoy = match object.get("via_convoy") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => {
                        return Err(InputError::new(
                            format!("{field}.via_convoy"),
                            "expected true or false",
                        ));
                    }
                };
                let d = Dislodged {
                    unit,
                    attacker_from,
                    via_convoy,
                };
                got.dislodged(d).map_err(|fault| match fault {
                    DislodgedFault::AttackerInPlace => InputError::new(
                        &from_field,
                        "the attacker cannot come from the unit's own province",
                    ),
                    DislodgedFault::Twice => {
                        InputError::new(&unit_field, "two dislodged units in one province")
                    }
                })?;
            }
        }
        Ok(())
    }

    fn province_list(&self, field: &str, value: Option<&Value>) -> Result<ProvinceSet, InputError> {
        let items = match value.map(Value::as_array) {
            None => return Ok(ProvinceSet::EMPTY),
            Some(None) => {
                return Err(InputError::new(field, "expected a list of provinces"));
            }
            Some(Some(items)) => items,
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

    fn orders<'v>(
        &self,
        got: &mut Gathered<'v>,
        value: Option<&'v Value>,
        kind: PhaseKind,
        parse: OrderReader<'_>,
    ) -> Result<(), InputError> {
        for (key, power, items) in self.per_power("orders", value)? {
            for (i, item) in items.iter().enumerate() {
                let text = string(|| at("orders", key, i), item)?;
                got.order(*self, kind, parse, power, text);
            }
        }
        Ok(())
    }
}

/// A field that must be a string: left out, of another JSON type, or given.
pub(super) fn value_text(value: Option<&Value>) -> Field<&str> {
    match value {
        None => Field::Absent,
        Some(Value::String(s)) => Field::Given(s),
        Some(_) => Field::Wrong,
    }
}
