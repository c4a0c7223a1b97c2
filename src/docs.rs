//! Serialisable forms of the board and of orders, for the game state document
//! and the phase history. Provinces are written as location codes (`STP/NC`),
//! powers by name (`France`), so a stored game stays readable and survives a
//! change in the map's internal numbering.

use serde::{Deserialize, Serialize};

use crate::judge::{Dislodged, Position, Unit};
use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::orders::{Order, PowerOrder, UnitSpec};
use crate::phase::Phase;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored game data names {what} {text:?}, which this map does not know")]
pub struct DocError {
    pub what: &'static str,
    pub text: String,
}

fn unknown(what: &'static str, text: &str) -> DocError {
    DocError {
        what,
        text: text.to_string(),
    }
}

pub fn power_name(map: &Map, p: Power) -> String {
    map.powers()
        .get(p.0 as usize)
        .map(|i| i.name.clone())
        .unwrap_or_else(|| format!("power {}", p.0))
}

pub fn power_by_name(map: &Map, name: &str) -> Result<Power, DocError> {
    map.power(name)
        .or_else(|| extra_power(map, name))
        .ok_or_else(|| unknown("power", name))
}

/// A power beyond the map's (a GTD country declared independent), written
/// `power N` by `power_name`.
fn extra_power(map: &Map, name: &str) -> Option<Power> {
    let n: u8 = name.strip_prefix("power ")?.parse().ok()?;
    ((map.powers().len()..32).contains(&(n as usize))).then_some(Power(n))
}

pub fn location(map: &Map, code: &str) -> Result<Location, DocError> {
    map.lookup(code).ok_or_else(|| unknown("location", code))
}

fn province(map: &Map, code: &str) -> Result<Province, DocError> {
    Ok(location(map, code)?.province)
}

fn kind_letter(k: UnitKind) -> String {
    k.letter().to_string()
}

fn kind_of(text: &str) -> Result<UnitKind, DocError> {
    match text {
        "A" => Ok(UnitKind::Army),
        "F" => Ok(UnitKind::Fleet),
        other => Err(unknown("unit type", other)),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitDoc {
    pub power: String,
    pub kind: String,
    pub at: String,
}

impl UnitDoc {
    pub fn from_unit(map: &Map, u: &Unit) -> UnitDoc {
        UnitDoc {
            power: power_name(map, u.power),
            kind: kind_letter(u.kind),
            at: map.location_code(u.location),
        }
    }

    pub fn to_unit(&self, map: &Map) -> Result<Unit, DocError> {
        Ok(Unit {
            power: power_by_name(map, &self.power)?,
            kind: kind_of(&self.kind)?,
            location: location(map, &self.at)?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DislodgedDoc {
    pub unit: UnitDoc,
    pub attacker_from: String,
    pub via_convoy: bool,
}

/// A `judge::Position` in stored form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionDoc {
    pub phase: String,
    pub units: Vec<UnitDoc>,
    pub dislodged: Vec<DislodgedDoc>,
    pub contested: Vec<String>,
    /// Supply center -> owner.
    pub owners: std::collections::BTreeMap<String, String>,
    /// Power -> home centers.
    pub homes: std::collections::BTreeMap<String, Vec<String>>,
}

fn codes(map: &Map, set: ProvinceSet) -> Vec<String> {
    set.iter().map(|p| map.location_code(p.into())).collect()
}

fn set_of(map: &Map, list: &[String]) -> Result<ProvinceSet, DocError> {
    list.iter().map(|c| province(map, c)).collect()
}

impl PositionDoc {
    /// The same position with powers renamed for display (`power 7` ->
    /// the name a variant gives it), per `names` (stored name -> shown name).
    pub fn relabelled(&self, names: &std::collections::BTreeMap<String, String>) -> PositionDoc {
        let name = |p: &String| names.get(p).cloned().unwrap_or_else(|| p.clone());
        let mut doc = self.clone();
        for u in doc
            .units
            .iter_mut()
            .chain(doc.dislodged.iter_mut().map(|d| &mut d.unit))
        {
            u.power = name(&u.power);
        }
        for owner in doc.owners.values_mut() {
            *owner = name(owner);
        }
        doc.homes = doc.homes.into_iter().map(|(p, h)| (name(&p), h)).collect();
        doc
    }

    pub fn from_position(map: &Map, p: &Position) -> PositionDoc {
        let owners = p
            .owners
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                o.map(|o| {
                    (
                        map.location_code(Province(i as u8).into()),
                        power_name(map, o),
                    )
                })
            })
            .collect();
        let homes = p
            .homes
            .iter()
            .enumerate()
            .map(|(i, set)| (power_name(map, Power(i as u8)), codes(map, *set)))
            .collect();
        PositionDoc {
            phase: p.phase.to_string(),
            units: p.units.iter().map(|u| UnitDoc::from_unit(map, u)).collect(),
            dislodged: p
                .dislodged
                .iter()
                .map(|d| DislodgedDoc {
                    unit: UnitDoc::from_unit(map, &d.unit),
                    attacker_from: map.location_code(d.attacker_from.into()),
                    via_convoy: d.via_convoy,
                })
                .collect(),
            contested: codes(map, p.contested),
            owners,
            homes,
        }
    }

    pub fn to_position(&self, map: &Map) -> Result<Position, DocError> {
        let phase: Phase = self
            .phase
            .parse()
            .map_err(|_| unknown("phase", &self.phase))?;
        let units = self
            .units
            .iter()
            .map(|u| u.to_unit(map))
            .collect::<Result<Vec<_>, _>>()?;
        let dislodged = self
            .dislodged
            .iter()
            .map(|d| {
                Ok(Dislodged {
                    unit: d.unit.to_unit(map)?,
                    attacker_from: province(map, &d.attacker_from)?,
                    via_convoy: d.via_convoy,
                })
            })
            .collect::<Result<Vec<_>, DocError>>()?;
        let mut owners = vec![None; map.province_count()];
        for (code, power) in &self.owners {
            let p = province(map, code)?;
            if let Some(slot) = owners.get_mut(p.0 as usize) {
                *slot = Some(power_by_name(map, power)?);
            }
        }
        let mut homes = vec![ProvinceSet::EMPTY; map.powers().len()];
        for (power, list) in &self.homes {
            let p = power_by_name(map, power)?;
            if let Some(slot) = homes.get_mut(p.0 as usize) {
                *slot = set_of(map, list)?;
            }
        }
        Ok(Position {
            phase,
            units,
            dislodged,
            contested: set_of(map, &self.contested)?,
            owners,
            homes,
        })
    }
}

/// A unit as an order names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
}

impl SpecDoc {
    fn from_spec(map: &Map, s: &UnitSpec) -> SpecDoc {
        SpecDoc {
            kind: s.kind.map(kind_letter),
            at: map.location_code(s.location),
            power: s.power.map(|p| power_name(map, p)),
        }
    }

    fn to_spec(&self, map: &Map) -> Result<UnitSpec, DocError> {
        Ok(UnitSpec {
            kind: self.kind.as_deref().map(kind_of).transpose()?,
            location: location(map, &self.at)?,
            power: self
                .power
                .as_deref()
                .map(|p| power_by_name(map, p))
                .transpose()?,
        })
    }
}

/// An `Order` in stored form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum OrderDoc {
    Hold {
        unit: SpecDoc,
    },
    Move {
        unit: SpecDoc,
        to: String,
        via_convoy: bool,
    },
    SupportHold {
        unit: SpecDoc,
        supported: SpecDoc,
    },
    SupportMove {
        unit: SpecDoc,
        supported: SpecDoc,
        to: String,
    },
    Convoy {
        unit: SpecDoc,
        army: SpecDoc,
        to: String,
    },
    Disband {
        unit: SpecDoc,
    },
    Build {
        unit: SpecDoc,
    },
    Remove {
        unit: SpecDoc,
    },
    Waive,
}

impl OrderDoc {
    pub fn from_order(map: &Map, o: &Order) -> OrderDoc {
        let s = |u: &UnitSpec| SpecDoc::from_spec(map, u);
        let l = |l: Location| map.location_code(l);
        match o {
            Order::Hold { unit } => OrderDoc::Hold { unit: s(unit) },
            Order::Move {
                unit,
                to,
                via_convoy,
            } => OrderDoc::Move {
                unit: s(unit),
                to: l(*to),
                via_convoy: *via_convoy,
            },
            Order::SupportHold { unit, supported } => OrderDoc::SupportHold {
                unit: s(unit),
                supported: s(supported),
            },
            Order::SupportMove {
                unit,
                supported,
                to,
            } => OrderDoc::SupportMove {
                unit: s(unit),
                supported: s(supported),
                to: l(*to),
            },
            Order::Convoy { unit, army, to } => OrderDoc::Convoy {
                unit: s(unit),
                army: s(army),
                to: l(*to),
            },
            Order::Disband { unit } => OrderDoc::Disband { unit: s(unit) },
            Order::Build { unit } => OrderDoc::Build { unit: s(unit) },
            Order::Remove { unit } => OrderDoc::Remove { unit: s(unit) },
            Order::Waive => OrderDoc::Waive,
        }
    }

    pub fn to_order(&self, map: &Map) -> Result<Order, DocError> {
        let s = |u: &SpecDoc| u.to_spec(map);
        let l = |c: &str| location(map, c);
        Ok(match self {
            OrderDoc::Hold { unit } => Order::Hold { unit: s(unit)? },
            OrderDoc::Move {
                unit,
                to,
                via_convoy,
            } => Order::Move {
                unit: s(unit)?,
                to: l(to)?,
                via_convoy: *via_convoy,
            },
            OrderDoc::SupportHold { unit, supported } => Order::SupportHold {
                unit: s(unit)?,
                supported: s(supported)?,
            },
            OrderDoc::SupportMove {
                unit,
                supported,
                to,
            } => Order::SupportMove {
                unit: s(unit)?,
                supported: s(supported)?,
                to: l(to)?,
            },
            OrderDoc::Convoy { unit, army, to } => Order::Convoy {
                unit: s(unit)?,
                army: s(army)?,
                to: l(to)?,
            },
            OrderDoc::Disband { unit } => Order::Disband { unit: s(unit)? },
            OrderDoc::Build { unit } => Order::Build { unit: s(unit)? },
            OrderDoc::Remove { unit } => Order::Remove { unit: s(unit)? },
            OrderDoc::Waive => Order::Waive,
        })
    }
}

/// A power's order in stored form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerOrderDoc {
    pub power: String,
    #[serde(flatten)]
    pub order: OrderDoc,
}

impl PowerOrderDoc {
    pub fn from_power_order(map: &Map, o: &PowerOrder) -> PowerOrderDoc {
        PowerOrderDoc {
            power: power_name(map, o.power),
            order: OrderDoc::from_order(map, &o.order),
        }
    }

    pub fn to_power_order(&self, map: &Map) -> Result<PowerOrder, DocError> {
        Ok(PowerOrder {
            power: power_by_name(map, &self.power)?,
            order: self.order.to_order(map)?,
        })
    }
}

/// `A PAR - BUR`: the canonical text of an order, for replies and reports.
pub fn order_text(map: &Map, o: &Order) -> String {
    let spec = |u: &UnitSpec| {
        let code = map.location_code(u.location);
        match u.kind {
            Some(k) => format!("{} {code}", k.letter()),
            None => code,
        }
    };
    let l = |l: Location| map.location_code(l);
    match o {
        Order::Hold { unit } => format!("{} H", spec(unit)),
        Order::Move {
            unit,
            to,
            via_convoy,
        } => {
            format!(
                "{} - {}{}",
                spec(unit),
                l(*to),
                if *via_convoy { " VIA CONVOY" } else { "" }
            )
        }
        Order::SupportHold { unit, supported } => format!("{} S {}", spec(unit), spec(supported)),
        Order::SupportMove {
            unit,
            supported,
            to,
        } => format!("{} S {} - {}", spec(unit), spec(supported), l(*to)),
        Order::Convoy { unit, army, to } => format!("{} C {} - {}", spec(unit), spec(army), l(*to)),
        Order::Disband { unit } => format!("{} D", spec(unit)),
        Order::Build { unit } => format!("BUILD {}", spec(unit)),
        Order::Remove { unit } => format!("REMOVE {}", spec(unit)),
        Order::Waive => "WAIVE".to_string(),
    }
}
