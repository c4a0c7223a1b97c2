//! Writing the result document of an adjudicated phase.

use std::collections::BTreeMap;

use serde_json::{Map as JsonObject, Value, json};

use super::{Entry, Request};
use crate::judge::{Adjudication, Position, Reason, Resolution, Rules, Verdict};
use crate::map::{Location, Map, Power, Province, UnitKind};
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;

/// The result document of an adjudicated request. `rules` are those it was
/// adjudicated under: they decide where dislodged units may retreat.
pub fn write_result(map: &Map, rules: &Rules, request: &Request, done: &Adjudication) -> Value {
    let power_key = |p: Power| {
        map.powers()
            .get(p.0 as usize)
            .map_or_else(|| format!("POWER{}", p.0), |i| i.name.to_uppercase())
    };
    let (before, all) = (&request.position, done.resolutions.as_slice());
    let mut results: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (power, entry) in &request.entries {
        let item = match entry {
            Entry::Read { index } => match done.resolutions.get(*index) {
                Some(r) => result_item(map, before, all, &request.order_texts[*index], r, false),
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
            .push(result_item(map, before, all, &text, r, true));
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
                crate::judge::retreat_options_with(map, rules, after, d)
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

/// One entry of `results`; `reason` is the report's plain-words explanation.
fn result_item(
    map: &Map,
    before: &Position,
    all: &[Resolution],
    text: &str,
    r: &Resolution,
    defaulted: bool,
) -> Value {
    let mut item = JsonObject::new();
    item.insert("order".into(), text.into());
    item.insert("result".into(), result_text(r).into());
    if let Some(reason) = crate::report::why::explain(map, before, all, r, text) {
        item.insert("reason".into(), reason.into());
    }
    if defaulted || r.defaulted {
        item.insert("default".into(), true.into());
    }
    Value::Object(item)
}

/// The contract's result words. The judge's `failed` has no word there: a convoy
/// caught in a paradox was `disrupted` (its army's move is reported so too);
/// any other failure (a build that could not be made, a convoy not used because
/// the army went by land) had no effect, which the contract calls `void`.
pub fn result_text(r: &Resolution) -> String {
    if r.verdict != Verdict::Failed {
        return r.result_text();
    }
    let verdict = match (r.order, r.reason) {
        (Order::Convoy { .. }, Reason::Paradox) => Verdict::Disrupted,
        _ => Verdict::Void,
    };
    Resolution { verdict, ..*r }.result_text()
}

fn unit_text(map: &Map, kind: UnitKind, loc: Location) -> String {
    format!("{} {}", kind.letter(), map.location_code(loc))
}

/// An order in classic judge syntax (`A PAR - BUR`, `F LON S A YOR - NTH`,
/// `BUILD F STP/NC`), for the defaults the judge adds.
/// Not the grammar's canonical form: the judge's defaults carry the unit's
/// nationality, which the contract's order strings never spell out.
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
