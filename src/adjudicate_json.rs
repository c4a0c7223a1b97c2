//! The JSON form of one phase to adjudicate and of its result: the stable machine
//! interface of `legate adjudicate` (see `docs/adjudicate-json.md`).
//!
//! Pure: it turns a `serde_json::Value` into a `Position` and orders, and an
//! `Adjudication` back into a `Value`. Reading never panics: every defect of the
//! document becomes an `InputError` naming the field, such as
//! `units.FRANCE[1]: unknown province "XYZ"`. An order text the grammar cannot
//! read is not a defect of the document: it is an order that fails (`void`).

use std::collections::BTreeMap;

use serde_json::{Map as JsonObject, Value, json};

use crate::judge::{Adjudication, Dislodged, Position, Resolution, Unit, Verdict};
use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::orders::{Order, PowerOrder, UnitSpec};
use crate::phase::{Phase, PhaseKind};

/// A defect of the input document: which field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InputError {
    /// A path into the document: `units.FRANCE[1]`, `phase`, `dislodged.GERMANY[0].unit`.
    pub field: String,
    pub message: String,
}

impl InputError {
    fn new(field: impl Into<String>, message: impl Into<String>) -> InputError {
        InputError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The one-line error document: `{"error": "units.FRANCE[1]: ..."}`.
    pub fn to_json(&self) -> Value {
        json!({ "error": self.to_string() })
    }
}

/// What one order of the document became before adjudication.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// Read; `orders[index]` of the request.
    Read { index: usize },
    /// The grammar could not read it; the text and why.
    Unread { text: String, why: String },
}

/// A document, read: the position, the orders that could be read, and for each
/// power the orders as written, in the document's order.
#[derive(Debug, Clone)]
pub struct Request {
    pub position: Position,
    pub orders: Vec<PowerOrder>,
    /// The text of `orders[i]` as written.
    pub order_texts: Vec<String>,
    entries: Vec<(Power, Entry)>,
}

impl Request {
    /// Orders the grammar could not read: `(power, text, why)`.
    pub fn unread(&self) -> impl Iterator<Item = (Power, &str, &str)> {
        self.entries.iter().filter_map(|(p, e)| match e {
            Entry::Unread { text, why } => Some((*p, text.as_str(), why.as_str())),
            Entry::Read { .. } => None,
        })
    }
}

/// Reads one order text in a phase of this kind: the order, the power the text
/// names if it names one (`France: A Par - Bur`), or why it cannot be read.
pub type OrderReader<'a> =
    &'a dyn Fn(&Map, PhaseKind, &str) -> Result<(Option<Power>, Order), String>;

/// Reads a document. `parse` reads one order text (the order grammar).
pub fn read_request(map: &Map, doc: &Value, parse: OrderReader<'_>) -> Result<Request, InputError> {
    let top = doc
        .as_object()
        .ok_or_else(|| InputError::new("document", "expected a JSON object"))?;
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
    if let Some(key) = top.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(InputError::new(
            key.as_str(),
            format!("unknown field (expected one of {})", FIELDS.join(", ")),
        ));
    }
    read_variant(top.get("variant"))?;
    let phase = read_phase(top.get("phase"))?;
    let reader = Reader { map };
    let units = reader.units(top.get("units"))?;
    let owners = reader.owners(top.get("supply_centers"), phase)?;
    let homes = reader.homes(top.get("home_centers"))?;
    let dislodged = reader.dislodged(top.get("dislodged"))?;
    let contested = reader.province_list("contested", top.get("contested"))?;
    let (orders, order_texts, entries) = reader.orders(top.get("orders"), phase.kind, parse)?;
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
    })
}

fn read_variant(value: Option<&Value>) -> Result<(), InputError> {
    match value {
        None => Ok(()),
        Some(Value::String(s)) if s.eq_ignore_ascii_case("standard") => Ok(()),
        Some(Value::String(s)) => Err(InputError::new(
            "variant",
            format!("unknown variant {s:?} (only \"standard\")"),
        )),
        Some(_) => Err(InputError::new("variant", "expected a string")),
    }
}

fn read_phase(value: Option<&Value>) -> Result<Phase, InputError> {
    let text = match value {
        None => return Err(InputError::new("phase", "missing")),
        Some(Value::String(s)) => s,
        Some(_) => {
            return Err(InputError::new(
                "phase",
                "expected a string such as \"S1901M\"",
            ));
        }
    };
    text.parse::<Phase>().map_err(|_| {
        InputError::new(
            "phase",
            format!("not a phase: {text:?} (expected e.g. S1901M, F1901R, W1901A)"),
        )
    })
}

struct Reader<'m> {
    map: &'m Map,
}

/// `{"POWER": [...], ...}` as `(field path of the power, power, items)`.
type PerPower<'v> = Vec<(String, Power, &'v Vec<Value>)>;

impl Reader<'_> {
    fn per_power<'v>(
        &self,
        field: &str,
        value: Option<&'v Value>,
    ) -> Result<PerPower<'v>, InputError> {
        let Some(value) = value else {
            return Ok(Vec::new());
        };
        let object = value.as_object().ok_or_else(|| {
            InputError::new(
                field,
                "expected an object of powers, such as {\"FRANCE\": [...]}",
            )
        })?;
        let mut out = Vec::with_capacity(object.len());
        for (name, items) in object {
            let path = format!("{field}.{name}");
            let power = self
                .map
                .power(name)
                .ok_or_else(|| InputError::new(&path, format!("unknown power {name:?}")))?;
            let items = items
                .as_array()
                .ok_or_else(|| InputError::new(&path, "expected a list"))?;
            out.push((path, power, items));
        }
        Ok(out)
    }

    fn string<'v>(field: &str, value: &'v Value) -> Result<&'v str, InputError> {
        value
            .as_str()
            .ok_or_else(|| InputError::new(field, "expected a string"))
    }

    fn province(&self, field: &str, text: &str) -> Result<Province, InputError> {
        let loc = self.location(field, text)?;
        if loc.coast.is_some() {
            return Err(InputError::new(
                field,
                format!("{text:?}: expected a province, without a coast"),
            ));
        }
        Ok(loc.province)
    }

    fn location(&self, field: &str, text: &str) -> Result<Location, InputError> {
        self.map
            .lookup(text)
            .ok_or_else(|| InputError::new(field, format!("unknown province {text:?}")))
    }

    /// `"A PAR"`, `"F STP/SC"`.
    fn unit(&self, field: &str, power: Power, text: &str) -> Result<Unit, InputError> {
        let trimmed = text.trim();
        let (kind, place) = trimmed.split_once(char::is_whitespace).ok_or_else(|| {
            InputError::new(
                field,
                format!("{text:?}: expected a unit such as \"A PAR\" or \"F STP/SC\""),
            )
        })?;
        let kind = match kind.to_ascii_uppercase().as_str() {
            "A" | "ARMY" => UnitKind::Army,
            "F" | "FLEET" => UnitKind::Fleet,
            _ => {
                return Err(InputError::new(
                    field,
                    format!("{text:?}: the unit type is A or F"),
                ));
            }
        };
        let location = self.location(field, place)?;
        if !self.map.can_stand(kind, location) {
            let place = self.map.location_code(location);
            let why = match kind {
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
            };
            return Err(InputError::new(field, why));
        }
        Ok(Unit {
            power,
            kind,
            location,
        })
    }

    fn units(&self, value: Option<&Value>) -> Result<Vec<Unit>, InputError> {
        let Some(value) = value else {
            return Err(InputError::new("units", "missing"));
        };
        let mut units: Vec<Unit> = Vec::new();
        for (path, power, items) in self.per_power("units", Some(value))? {
            for (i, item) in items.iter().enumerate() {
                let field = format!("{path}[{i}]");
                let unit = self.unit(&field, power, Self::string(&field, item)?)?;
                if let Some(other) = units.iter().find(|u| u.province() == unit.province()) {
                    let name = &self.map.power_info(other.power).name;
                    return Err(InputError::new(
                        field,
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

    fn owners(
        &self,
        value: Option<&Value>,
        phase: Phase,
    ) -> Result<Vec<Option<Power>>, InputError> {
        if value.is_none() && phase.kind == PhaseKind::Adjustment {
            return Err(InputError::new(
                "supply_centers",
                "missing (an adjustment phase needs the owners)",
            ));
        }
        let mut owners = vec![None; self.map.province_count()];
        for (path, power, items) in self.per_power("supply_centers", value)? {
            for (i, item) in items.iter().enumerate() {
                let field = format!("{path}[{i}]");
                let text = Self::string(&field, item)?;
                let p = self.province(&field, text)?;
                if !self.map.is_supply_center(p) {
                    return Err(InputError::new(
                        field,
                        format!("{text:?} is not a supply center"),
                    ));
                }
                let slot = &mut owners[p.0 as usize];
                if let Some(other) = *slot {
                    let what = format!(
                        "{text:?} is also owned by {}",
                        self.map.power_info(other).name
                    );
                    return Err(InputError::new(field, what));
                }
                *slot = Some(power);
            }
        }
        Ok(owners)
    }

    fn homes(&self, value: Option<&Value>) -> Result<Vec<ProvinceSet>, InputError> {
        let mut homes: Vec<ProvinceSet> = self
            .map
            .powers()
            .iter()
            .map(|info| info.home_centers.iter().copied().collect())
            .collect();
        for (path, power, items) in self.per_power("home_centers", value)? {
            let mut set = ProvinceSet::EMPTY;
            for (i, item) in items.iter().enumerate() {
                let field = format!("{path}[{i}]");
                let text = Self::string(&field, item)?;
                let p = self.province(&field, text)?;
                if !self.map.is_supply_center(p) {
                    return Err(InputError::new(
                        field,
                        format!("{text:?} is not a supply center"),
                    ));
                }
                set.insert(p);
            }
            homes[power.0 as usize] = set;
        }
        Ok(homes)
    }

    fn dislodged(&self, value: Option<&Value>) -> Result<Vec<Dislodged>, InputError> {
        let mut out: Vec<Dislodged> = Vec::new();
        for (path, power, items) in self.per_power("dislodged", value)? {
            for (i, item) in items.iter().enumerate() {
                let field = format!("{path}[{i}]");
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
                let unit_text = object
                    .get("unit")
                    .ok_or_else(|| InputError::new(&unit_field, "missing"))?;
                let unit = self.unit(&unit_field, power, Self::string(&unit_field, unit_text)?)?;
                let from_field = format!("{field}.attacker_from");
                let from_text = object
                    .get("attacker_from")
                    .ok_or_else(|| InputError::new(&from_field, "missing"))?;
                let attacker_from =
                    self.province(&from_field, Self::string(&from_field, from_text)?)?;
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

    fn province_list(&self, field: &str, value: Option<&Value>) -> Result<ProvinceSet, InputError> {
        let Some(value) = value else {
            return Ok(ProvinceSet::EMPTY);
        };
        let items = value
            .as_array()
            .ok_or_else(|| InputError::new(field, "expected a list of provinces"))?;
        let mut set = ProvinceSet::EMPTY;
        for (i, item) in items.iter().enumerate() {
            let path = format!("{field}[{i}]");
            set.insert(self.province(&path, Self::string(&path, item)?)?);
        }
        Ok(set)
    }

    #[allow(clippy::type_complexity)]
    fn orders(
        &self,
        value: Option<&Value>,
        kind: PhaseKind,
        parse: OrderReader<'_>,
    ) -> Result<(Vec<PowerOrder>, Vec<String>, Vec<(Power, Entry)>), InputError> {
        let mut orders = Vec::new();
        let mut texts = Vec::new();
        let mut entries = Vec::new();
        for (path, power, items) in self.per_power("orders", value)? {
            for (i, item) in items.iter().enumerate() {
                let field = format!("{path}[{i}]");
                let text = Self::string(&field, item)?;
                match parse(self.map, kind, text) {
                    Ok((Some(named), _)) if named != power => {
                        let why = format!(
                            "the order is for {}",
                            self.map.power_info(named).name.to_uppercase()
                        );
                        entries.push((
                            power,
                            Entry::Unread {
                                text: text.to_string(),
                                why,
                            },
                        ));
                    }
                    Ok((_, order)) => {
                        entries.push((
                            power,
                            Entry::Read {
                                index: orders.len(),
                            },
                        ));
                        orders.push(PowerOrder { power, order });
                        texts.push(text.to_string());
                    }
                    Err(why) => entries.push((
                        power,
                        Entry::Unread {
                            text: text.to_string(),
                            why,
                        },
                    )),
                }
            }
        }
        Ok((orders, texts, entries))
    }
}

/// The result document of an adjudicated request.
pub fn write_result(map: &Map, request: &Request, done: &Adjudication) -> Value {
    let power_key = |p: Power| {
        map.powers()
            .get(p.0 as usize)
            .map_or_else(|| format!("POWER{}", p.0), |i| i.name.to_uppercase())
    };
    let mut results: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (power, entry) in &request.entries {
        let item = match entry {
            Entry::Read { index } => match done.resolutions.get(*index) {
                Some(r) => result_item(map, &request.order_texts[*index], r, false),
                None => json!({ "order": request.order_texts[*index], "result": "void" }),
            },
            Entry::Unread { text, why } => {
                json!({ "order": text, "result": "void", "reason": why })
            }
        };
        results.entry(power_key(*power)).or_default().push(item);
    }
    for r in done.resolutions.iter().skip(request.orders.len()) {
        let text = order_text(map, &request.position, &r.order);
        results
            .entry(power_key(r.power))
            .or_default()
            .push(result_item(map, &text, r, true));
    }

    let after = &done.after;
    let mut units: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for u in &after.units {
        units
            .entry(power_key(u.power))
            .or_default()
            .push(unit_text(map, u.kind, u.location).into());
    }
    let mut dislodged: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    if request.position.phase.kind == PhaseKind::Movement {
        for d in &after.dislodged {
            let retreats: Vec<String> = if after.phase.kind == PhaseKind::Retreat {
                crate::judge::retreat_options(map, after, d)
                    .into_iter()
                    .map(|l| map.location_code(l))
                    .collect()
            } else {
                Vec::new()
            };
            dislodged
                .entry(power_key(d.unit.power))
                .or_default()
                .push(json!({
                    "unit": unit_text(map, d.unit.kind, d.unit.location),
                    "attacker_from": map.location_code(d.attacker_from.into()),
                    "via_convoy": d.via_convoy,
                    "retreats": retreats,
                }));
        }
    }
    let contested: Vec<String> = if after.phase.kind == PhaseKind::Retreat {
        after
            .contested
            .iter()
            .map(|p| map.location_code(p.into()))
            .collect()
    } else {
        Vec::new()
    };
    let mut centers: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (i, owner) in after.owners.iter().enumerate() {
        if let Some(power) = owner {
            centers
                .entry(power_key(*power))
                .or_default()
                .push(map.location_code(Province(i as u8).into()).into());
        }
    }
    let object = |m: BTreeMap<String, Vec<Value>>| {
        Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, Value::Array(v)))
                .collect::<JsonObject<_, _>>(),
        )
    };
    json!({
        "phase": request.position.phase.to_string(),
        "next_phase": after.phase.to_string(),
        "results": object(results),
        "units": object(units),
        "dislodged": object(dislodged),
        "contested": contested,
        "supply_centers": object(centers),
    })
}

fn result_item(map: &Map, text: &str, r: &Resolution, defaulted: bool) -> Value {
    let mut item = JsonObject::new();
    item.insert("order".into(), text.into());
    item.insert("result".into(), result_text(r).into());
    let reason = reason_text(map, r);
    if !reason.is_empty() {
        item.insert("reason".into(), reason.into());
    }
    if defaulted || r.defaulted {
        item.insert("default".into(), true.into());
    }
    Value::Object(item)
}

/// The contract's result words. A failure the contract has no word for (a build
/// that could not be made) is `void`: the order had no effect.
pub fn result_text(r: &Resolution) -> String {
    if r.verdict == Verdict::Failed {
        let fixed = Resolution {
            verdict: Verdict::Void,
            ..*r
        };
        return fixed.result_text();
    }
    r.result_text()
}

/// A short English reason, with upper-case location codes (empty when none).
fn reason_text(map: &Map, r: &Resolution) -> String {
    let reason = format!("{:?}", r.reason);
    if reason == "None" {
        return String::new();
    }
    // `Bounced { by: Province(12), strength: 1, opposing: 1 }` reads better with
    // codes than indexes: replace every `Province(n)` by its code.
    let mut out = String::with_capacity(reason.len());
    let mut rest = reason.as_str();
    while let Some(at) = rest.find("Province(") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + "Province(".len()..];
        let end = tail.find(')').unwrap_or(tail.len());
        match tail[..end].parse::<u8>() {
            Ok(n) => out.push_str(&map.location_code(Province(n).into())),
            Err(_) => out.push_str(&tail[..end]),
        }
        rest = tail.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    if let Some(by) = r.dislodged_by {
        out.push_str(&format!(
            "; dislodged from {}",
            map.location_code(by.into())
        ));
    }
    out
}

fn unit_text(map: &Map, kind: UnitKind, loc: Location) -> String {
    format!("{} {}", kind.letter(), map.location_code(loc))
}

/// An order in classic judge syntax (`A PAR - BUR`, `F LON S A YOR - NTH`,
/// `BUILD F STP/NC`), for the defaults the judge adds.
pub fn order_text(map: &Map, position: &Position, order: &Order) -> String {
    let spec = |u: &UnitSpec| {
        let kind = u.kind.or_else(|| {
            position
                .unit_at(u.province())
                .or_else(|| position.dislodged_at(u.province()).map(|d| &d.unit))
                .map(|x| x.kind)
        });
        let code = map.location_code(u.location);
        match kind {
            Some(k) => format!("{} {code}", k.letter()),
            None => code,
        }
    };
    match order {
        Order::Hold { unit } => format!("{} H", spec(unit)),
        Order::Move {
            unit,
            to,
            via_convoy,
        } => {
            let via = if *via_convoy { " VIA CONVOY" } else { "" };
            format!("{} - {}{via}", spec(unit), map.location_code(*to))
        }
        Order::SupportHold { unit, supported } => format!("{} S {}", spec(unit), spec(supported)),
        Order::SupportMove {
            unit,
            supported,
            to,
        } => {
            format!(
                "{} S {} - {}",
                spec(unit),
                spec(supported),
                map.location_code(*to)
            )
        }
        Order::Convoy { unit, army, to } => format!(
            "{} C {} - {}",
            spec(unit),
            spec(army),
            map.location_code(*to)
        ),
        Order::Disband { unit } => format!("{} D", spec(unit)),
        Order::Build { unit } => format!("BUILD {}", spec(unit)),
        Order::Remove { unit } => format!("REMOVE {}", spec(unit)),
        Order::Waive => "WAIVE".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads only `X H` orders, so these tests do not depend on the grammar.
    fn holds(map: &Map, _: PhaseKind, text: &str) -> Result<(Option<Power>, Order), String> {
        let place = text.strip_suffix(" H").ok_or("not a hold")?;
        let (_, place) = place.split_once(' ').ok_or("no unit")?;
        let loc = map.lookup(place).ok_or("unknown place")?;
        Ok((
            None,
            Order::Hold {
                unit: UnitSpec::at(loc),
            },
        ))
    }

    fn read(text: &str) -> Result<Request, InputError> {
        let doc: Value = serde_json::from_str(text).expect("test documents are JSON");
        read_request(Map::standard(), &doc, &holds)
    }

    fn error_of(text: &str) -> String {
        match read(text) {
            Ok(r) => panic!("accepted {text}: {:?}", r.position),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn reads_a_position() {
        let r = read(
            r#"{"variant": "standard", "phase": "F1901R",
                "units": {"FRANCE": ["A BUR", "F STP/NC"], "germany": ["a mun"]},
                "supply_centers": {"FRANCE": ["PAR"]},
                "home_centers": {"FRANCE": ["PAR", "BRE"]},
                "dislodged": {"GERMANY": [{"unit": "A RUH", "attacker_from": "BUR", "via_convoy": true}]},
                "contested": ["BEL"],
                "orders": {"FRANCE": ["A BUR H", "A PAR - XYZ"]}}"#,
        )
        .expect("a valid document");
        let map = Map::standard();
        let p = |s: &str| map.lookup(s).unwrap().province;
        assert_eq!(r.position.phase.to_string(), "F1901R");
        assert_eq!(r.position.units.len(), 3);
        assert_eq!(r.position.units[1].location, map.lookup("stp/nc").unwrap());
        assert_eq!(r.position.owner(p("par")), map.power("france"));
        assert_eq!(r.position.owner(p("bre")), None);
        assert_eq!(r.position.home_of(map.power("france").unwrap()).len(), 2);
        assert_eq!(
            r.position.home_of(map.power("germany").unwrap()).len(),
            3,
            "default homes"
        );
        assert_eq!(r.position.dislodged.len(), 1);
        assert!(r.position.dislodged[0].via_convoy);
        assert_eq!(r.position.dislodged[0].attacker_from, p("bur"));
        assert!(r.position.contested.contains(p("bel")));
        assert_eq!(r.orders.len(), 1);
        assert_eq!(r.order_texts, vec!["A BUR H".to_string()]);
        let unread: Vec<_> = r.unread().map(|(_, text, _)| text).collect();
        assert_eq!(unread, vec!["A PAR - XYZ"]);
    }

    #[test]
    fn dislodged_and_contested_count_only_in_a_retreat_phase() {
        let r = read(
            r#"{"phase": "S1901M", "units": {},
                "dislodged": {"GERMANY": [{"unit": "A RUH", "attacker_from": "BUR"}]}, "contested": ["BEL"]}"#,
        )
        .expect("valid");
        assert!(r.position.dislodged.is_empty() && r.position.contested.is_empty());
    }

    #[test]
    fn every_defect_names_its_field() {
        let cases = [
            (r#"[1, 2]"#, "document: expected a JSON object"),
            (r#"{"units": {}}"#, "phase: missing"),
            (r#"{"phase": "S1901X", "units": {}}"#, "phase: not a phase"),
            (
                r#"{"phase": 1901, "units": {}}"#,
                "phase: expected a string",
            ),
            (r#"{"phase": "S1901M"}"#, "units: missing"),
            (
                r#"{"phase": "S1901M", "units": [], "orders": {}}"#,
                "units: expected an object",
            ),
            (
                r#"{"phase": "S1901M", "units": {"PRUSSIA": []}}"#,
                "units.PRUSSIA: unknown power",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": "A PAR"}}"#,
                "units.FRANCE: expected a list",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A XYZ"]}}"#,
                "units.FRANCE[1]: unknown province \"XYZ\"",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", 7]}}"#,
                "units.FRANCE[1]: expected a string",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["PAR"]}}"#,
                "units.FRANCE[0]: \"PAR\": expected a unit",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["X PAR"]}}"#,
                "units.FRANCE[0]: \"X PAR\": the unit type",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}"#,
                "units.FRANCE[0]: A NTH: no army",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}}"#,
                "units.FRANCE[0]: F PAR: no fleet",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["F SPA"]}}"#,
                "units.FRANCE[0]: a fleet in SPA must name its coast",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["A SPA/NC"]}}"#,
                "units.FRANCE[0]: an army stands in a province",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["A SWI"]}}"#,
                "units.FRANCE[0]: A SWI: no army",
            ),
            (
                r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}"#,
                "units.GERMANY[0]: PAR is already occupied by a France unit",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "variant": "chaos"}"#,
                "variant: unknown variant",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "order": {}}"#,
                "order: unknown field",
            ),
            (
                r#"{"phase": "W1901A", "units": {}}"#,
                "supply_centers: missing",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "supply_centers": {"FRANCE": ["BUR"]}}"#,
                "supply_centers.FRANCE[0]: \"BUR\" is not a supply center",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "supply_centers": {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}}"#,
                "supply_centers.GERMANY[0]: \"PAR\" is also owned by France",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "home_centers": {"FRANCE": ["STP/NC"]}}"#,
                "home_centers.FRANCE[0]: \"STP/NC\": expected a province",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "contested": "BEL"}"#,
                "contested: expected a list",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "contested": ["BEL", "QQQ"]}"#,
                "contested[1]: unknown province \"QQQ\"",
            ),
            (
                r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": ["A MUN"]}}"#,
                "dislodged.GERMANY[0]: expected {",
            ),
            (
                r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": [{"unit": "A MUN"}]}}"#,
                "dislodged.GERMANY[0].attacker_from: missing",
            ),
            (
                r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR", "via_convoy": "no"}]}}"#,
                "dislodged.GERMANY[0].via_convoy: expected true or false",
            ),
            (
                r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": [{"unit": "A MUN", "from": "BUR"}]}}"#,
                "dislodged.GERMANY[0].from: unknown field",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "orders": {"FRANCE": [["A PAR H"]]}}"#,
                "orders.FRANCE[0]: expected a string",
            ),
            (
                r#"{"phase": "S1901M", "units": {}, "orders": {"ATLANTIS": []}}"#,
                "orders.ATLANTIS: unknown power",
            ),
        ];
        for (doc, expected) in cases {
            let error = error_of(doc);
            assert!(
                error.starts_with(expected),
                "{doc}\n  gave {error:?}\n  expected {expected:?}"
            );
            assert!(!error.contains('\n'), "one line: {error:?}");
        }
    }

    #[test]
    fn an_order_for_another_power_is_not_read() {
        let named = |map: &Map, _: PhaseKind, _: &str| Ok((map.power("england"), Order::Waive));
        let doc: Value = serde_json::from_str(r#"{"phase": "W1901A", "units": {}, "supply_centers": {}, "orders": {"FRANCE": ["England: WAIVE"]}}"#).unwrap();
        let r = read_request(Map::standard(), &doc, &named).expect("valid");
        assert!(r.orders.is_empty());
        let why: Vec<_> = r.unread().map(|(_, _, why)| why.to_string()).collect();
        assert_eq!(why, vec!["the order is for ENGLAND"]);
    }

    #[test]
    fn error_document_is_one_json_line() {
        let e = InputError::new("units.FRANCE[1]", "unknown province \"XYZ\"");
        let line = e.to_json().to_string();
        assert_eq!(
            line,
            r#"{"error":"units.FRANCE[1]: unknown province \"XYZ\""}"#
        );
    }
}
