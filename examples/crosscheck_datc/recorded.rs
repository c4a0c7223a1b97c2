//! Real-game situations and adjudicator bug reports kept beside the public DATC
//! data files (`godip-extra/`: a 4-move, 3-retreat, 2-build game and reports of
//! other judges' errors), in the jDip test-suite format.

use std::path::Path;

use legate::grammar::parse_order_in;
use legate::judge::{Countries, Position, Rules, Unit, adjudicate};
use legate::map::{Map, UnitKind};
use legate::orders::PowerOrder;

fn map() -> &'static Map {
    Map::standard()
}

/// One case of the jDip test-suite format.
#[derive(Default, Debug)]
struct JdipCase {
    name: String,
    phase: String,
    owners: Vec<String>,
    units: Vec<String>,
    dislodged: Vec<String>,
    results: Vec<String>,
    orders: Vec<String>,
    after: Option<Vec<String>>,
    after_dislodged: Vec<String>,
}

fn jdip_cases(text: &str) -> Vec<JdipCase> {
    let mut cases = Vec::new();
    let mut case = JdipCase::default();
    let mut block = "";
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let keyword = line.split_whitespace().next().unwrap_or("");
        match keyword {
            "VARIANT_ALL" => {}
            "CASE" => {
                case = JdipCase {
                    name: line[4..].trim().to_string(),
                    ..JdipCase::default()
                };
                case.phase = "Spring 1901, Movement".to_string();
            }
            "PRESTATE_SETPHASE" => {
                case.phase = line["PRESTATE_SETPHASE".len()..].trim().to_string()
            }
            "POSTSTATE_SAME" => case.after = Some(case.units.clone()),
            "POSTSTATE" => {
                case.after = Some(Vec::new());
                block = keyword;
            }
            "END" => cases.push(std::mem::take(&mut case)),
            k if k.chars().all(|c| c.is_ascii_uppercase() || c == '_') && !k.ends_with(':') => {
                block = keyword
            }
            _ => {
                let entry = line.to_string();
                match block {
                    "PRESTATE_SUPPLYCENTER_OWNERS" => case.owners.push(entry),
                    "PRESTATE" => case.units.push(entry),
                    "PRESTATE_DISLODGED" => case.dislodged.push(entry),
                    "PRESTATE_RESULTS" => case.results.push(entry),
                    "ORDERS" => case.orders.push(entry),
                    "POSTSTATE" => case.after.get_or_insert_with(Vec::new).push(entry),
                    "POSTSTATE_DISLODGED" => case.after_dislodged.push(entry),
                    _ => {}
                }
            }
        }
    }
    cases
}

/// `England: A nwy` as `England: A NWY` with the map's own code.
fn jdip_unit(line: &str) -> Result<Unit, String> {
    let (power, rest) = line.split_once(':').ok_or(format!("not a unit: {line}"))?;
    let mut words = rest.split_whitespace();
    let kind = words.next().ok_or(format!("no unit type: {line}"))?;
    let place = words.next().ok_or(format!("no place: {line}"))?;
    Ok(Unit {
        power: map().power(power.trim()).ok_or(format!("power {power}"))?,
        kind: if kind.eq_ignore_ascii_case("F") {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        },
        location: map().lookup(place).ok_or(format!("place {place}"))?,
    })
}

fn unit_line(u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map().power_info(u.power).name,
        u.kind.letter(),
        map().location_code(u.location)
    )
}

/// Runs one jDip case; returns what differs.
fn run_jdip(case: &JdipCase) -> Result<Vec<String>, String> {
    let (season, kind) = case.phase.split_once(',').ok_or("phase")?;
    let mut words = season.split_whitespace();
    let (season, year) = (words.next().ok_or("season")?, words.next().ok_or("year")?);
    let code = match kind.trim() {
        "Movement" => format!("{}{year}M", &season[..1]),
        "Retreat" => format!("{}{year}R", &season[..1]),
        _ => format!("W{year}A"),
    };
    let mut position = Position::initial(map());
    position.phase = code.parse().map_err(|e| format!("{e}"))?;
    position.units = case
        .units
        .iter()
        .map(|u| jdip_unit(u))
        .collect::<Result<_, _>>()?;
    if !case.owners.is_empty() {
        position.owners = vec![None; map().province_count()];
        for o in &case.owners {
            let u = jdip_unit(o)?;
            position.owners[u.location.province.0 as usize] = Some(u.power);
        }
    }
    // The previous movement: successful moves give the attackers' origins, failed
    // moves (not by convoy) the standoffs.
    let mut attackers = Vec::new();
    for r in &case.results {
        let (outcome, order) = r.split_once(':').ok_or("result")?;
        let order = order.trim();
        let (power, text) = order.split_once(':').ok_or("result order")?;
        let _ = power;
        let parsed = parse_order_in(map(), text.trim(), Some(legate::phase::PhaseKind::Movement))
            .map_err(|e| format!("{text}: {e}"))?;
        if let legate::orders::Order::Move {
            unit,
            to,
            via_convoy,
        } = parsed.order
        {
            if outcome.trim() == "SUCCESS" {
                attackers.push((to.province, unit.location.province, via_convoy));
            } else if !via_convoy {
                position.contested.insert(to.province);
            }
        }
    }
    for d in &case.dislodged {
        let unit = jdip_unit(d)?;
        // A case without results only disbands: the attacker does not matter.
        let (from, via) = attackers
            .iter()
            .find(|(to, _, _)| *to == unit.location.province)
            .map_or((unit.location.province, false), |(_, from, via)| {
                (*from, *via)
            });
        position.dislodged.push(legate::judge::Dislodged {
            unit,
            attacker_from: from,
            via_convoy: via,
        });
    }
    let mut orders = Vec::with_capacity(case.orders.len());
    for line in &case.orders {
        let (power, text) = line.split_once(':').ok_or(format!("order {line}"))?;
        let parsed = parse_order_in(map(), text.trim(), Some(position.phase.kind))
            .map_err(|e| format!("order {line}: {e}"))?;
        let power = map().power(power).ok_or(format!("power {power}"))?;
        orders.push(PowerOrder {
            power,
            order: parsed.order,
        });
    }
    let adj = adjudicate(map(), &Rules::default(), &Countries, &position, &orders);
    let mut problems = Vec::new();
    let want = |v: &[String]| -> Result<Vec<String>, String> {
        let mut out: Vec<String> = v
            .iter()
            .map(|u| jdip_unit(u).map(|u| unit_line(&u)))
            .collect::<Result<_, _>>()?;
        out.sort();
        Ok(out)
    };
    let mut got: Vec<String> = adj.after.units.iter().map(unit_line).collect();
    got.sort();
    let expected = want(case.after.as_deref().unwrap_or(&[]))?;
    if got != expected {
        problems.push(format!("units: expected {expected:?}, got {got:?}"));
    }
    if position.phase.kind == legate::phase::PhaseKind::Movement {
        // These files list only the dislodged units that have somewhere to go.
        let mut got: Vec<String> = adj
            .after
            .dislodged
            .iter()
            .filter(|d| !legate::judge::retreat_options(map(), &adj.after, d).is_empty())
            .map(|d| unit_line(&d.unit))
            .collect();
        got.sort();
        let expected = want(&case.after_dislodged)?;
        if got != expected {
            problems.push(format!("dislodged: expected {expected:?}, got {got:?}"));
        }
    }
    Ok(problems)
}

/// Real-game situations and adjudicator bug reports kept with the public DATC
/// data (`DIR/godip-extra/`): every one must come out as recorded. Returns the
/// differences.
pub fn check(dir: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    let mut count = 0;
    for file in [
        "real.txt",
        "dipai.txt",
        "droidippy_errors.txt",
        "diplicity_errors.txt",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).expect(file);
        for case in jdip_cases(&text) {
            count += 1;
            match run_jdip(&case) {
                Ok(p) if p.is_empty() => {}
                Ok(p) => failures.push(format!("{file} {}: {}", case.name, p.join("; "))),
                Err(e) => failures.push(format!("{file} {}: cannot run: {e}", case.name)),
            }
        }
    }
    if count != 18 {
        failures.push(format!("the four files hold 18 cases, {count} read"));
    }
    println!("adjudicated {count} recorded situations (godip-extra)");
    failures
}
