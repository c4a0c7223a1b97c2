//! Reading a position document, field by field, with the path of every defect.

use serde_json::Value;

use super::{Entry, InputError, Request};
use crate::judge::{Dislodged, Position, Unit};
use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::orders::{Order, PowerOrder};
use crate::phase::{Phase, PhaseKind};

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
