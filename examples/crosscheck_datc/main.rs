//! Compares our DATC fixtures (`fixtures/datc/`) with two public machine-readable
//! versions of the DATC: the jDip-format text file
//! (`datc_v2.4_06.txt`: positions before and after) and `datc.json` (the outcome of
//! each order); and plays the recorded real-game situations beside them
//! (`godip-extra/`, see `recorded.rs`). They are older than DATC 3.1 and have known defects, so every
//! difference must be listed below with its reason; any other difference fails.
//!
//! They are not part of the project, so no test reads them: run
//! `scripts/crosscheck-datc DIR` with a folder holding both files
//! (`cargo run --example crosscheck_datc -- DIR`). Exits non-zero on any
//! difference not listed.

#[path = "../../tests/datc_support/mod.rs"]
mod datc_support;
mod recorded;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use datc_support::{Case, OrderLine, UnitLine};

/// (source, DATC case, what) -> why our fixture differs. `what` is `units`
/// (position before), `after`, `dislodged`, `case` (the whole case is not
/// comparable) or an order key (`England: F NTH - PIC`, for datc.json).
#[rustfmt::skip]
const KNOWN: &[(&str, &str, &str, &str)] = &[
    // --- datc_v2.4_06.txt -----------------------------------------------------
    ("txt", "6.F.15", "case", "the text file's second 6.F.14 is 6.F.15 with F naf for A naf; DATC 3.1: A NAF - WAL succeeds"),
    ("txt", "6.G.8", "after", "DATC 3.x (4.A.3): no land-route fallback, A BEL stays; the text file has the 2.x fallback"),
    ("txt", "6.J.*", "case", "section 6.J of the text file is DATC 2.4 content (home-center distance); DATC 3.1 rewrote it"),
    ("txt", "6.D.9", "units", "the text file uses F ALB and F TRI; DATC 3.1 has armies"),
    ("txt", "6.D.9", "after", "the text file uses F ALB and F TRI; DATC 3.1 has armies"),
    ("txt", "6.D.9", "dislodged", "the text file uses F ALB and F TRI; DATC 3.1 has armies"),
    ("txt", "6.E.1", "units", "the text file has A kie; DATC 3.1 has F Kiel"),
    ("txt", "6.E.1", "after", "the text file has A kie; DATC 3.1 has F Kiel"),
    ("txt", "6.D.8", "dislodged", "the text file leaves out A GRE, dislodged by A ALB (DATC: 'the army in Greece is dislodged')"),
    ("txt", "6.D.18", "dislodged", "the text file leaves out F ANK, dislodged with no retreat (DATC: 'the Russian fleet in the Black Sea will dislodge the Turkish fleet in Ankara')"),
    ("txt", "6.D.34", "dislodged", "the text file leaves out A PRU, dislodged with no retreat"),
    ("txt", "6.F.21", "dislodged", "the text file leaves out F NAO and F CLY, dislodged with no retreat"),
    ("txt", "6.G.10", "dislodged", "the text file leaves out A SWE, dislodged with no retreat"),
    ("txt", "6.G.14", "dislodged", "the text file leaves out A SWE, dislodged with no retreat"),
    ("txt", "6.H.14", "units", "the text file's position after the movement leaves A PAR and A MAR where they were; they moved to PIC and BUR"),
    ("txt", "6.H.14", "after", "the text file's position after the movement leaves A PAR and A MAR where they were; they moved to PIC and BUR"),
    ("txt", "6.H.15", "units", "the text file leaves F SPA/SC in Spain; it moved to Portugal"),
    ("txt", "6.H.15", "dislodged", "the text file leaves out F POR, dislodged with no retreat"),
    ("txt", "6.H.15", "after", "the text file leaves F SPA/SC in Spain; it moved to Portugal"),
    // --- datc.json --------------------------------------------------------------
    ("json", "6.B.2", "France: F GAS - SPA", "DATC 4.B.2 prefers the move to the only reachable coast: it succeeds"),
    ("json", "6.B.10", "France: F SPA - LYO", "DATC 4.B.5: the wrong coast of the ordered unit is ignored, the move succeeds"),
    ("json", "6.B.12", "France: A GAS - SPA", "DATC 4.B.6: the coast in an army move is ignored, the move succeeds"),
    ("json", "6.I.1", "units", "datc.json gives Germany other units; the DATC does not say which (ours: A PAR)"),
    ("json", "6.I.1", "Germany: BUILD A BER", "datc.json builds in Berlin; DATC 3.1 builds in Kiel"),
    ("json", "6.I.4", "Russia: BUILD F STP", "datc.json builds a fleet; DATC 3.1 orders Build A St Petersburg(nc)"),
    ("json", "6.I.7", "Russia: BUILD A WAR", "datc.json builds in Warsaw; DATC 3.1 builds twice in Moscow"),
    ("json", "6.I.7", "units", "datc.json gives Russia other units; the DATC only says Moscow is empty (ours: A WAR)"),
    ("json", "6.J.2", "units", "datc.json adds an English fleet in Brest and an Italian army in Marseilles, which change nothing for France"),
    ("json", "6.A.5", "England: A LVP S A YOR - YOR", "DATC: the move to its own province is illegal, 'this makes the support of Liverpool also illegal'"),
    ("json", "6.G.11", "England: F NTH - SKA", "datc.json's entry without 'via convoy' takes the land route; DATC 3.1 (4.A.3): Russia's own fleet shows intent, the convoy paradox leaves F SKA to be dislodged"),
    ("json", "6.G.11", "Russia: A SWE - NWY", "the same entry of datc.json: DATC 3.1 says the army in Sweden does not advance"),
    ("json", "6.J.9", "case", "DATC 3.1 corrected the second situation: A ALB is removed, datc.json (3.0) removes F SKA"),
];

/// The folder named on the command line, if it holds both files.
fn shared_dir() -> Result<PathBuf, String> {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .ok_or("usage: crosscheck_datc DIR (a folder with datc_v2.4_06.txt and datc.json)")?;
    if dir.join("datc_v2.4_06.txt").exists() && dir.join("datc.json").exists() {
        Ok(dir)
    } else {
        Err(format!(
            "{}: datc_v2.4_06.txt and datc.json not found there",
            dir.display()
        ))
    }
}

/// Indices of the `KNOWN` entries that matched a difference (or skipped a case).
static USED: Mutex<BTreeSet<usize>> = Mutex::new(BTreeSet::new());

fn known(source: &str, case: &str, what: &str) -> bool {
    let hit = KNOWN.iter().position(|(s, c, w, _)| {
        *s == source
            && (*c == case || (c.ends_with(".*") && case.starts_with(&c[..c.len() - 1])))
            && (*w == what || *w == "case")
    });
    if let (Some(i), Ok(mut used)) = (hit, USED.lock()) {
        used.insert(i);
    }
    hit.is_some()
}

/// `STP/NC`, `MAO`: our spelling of a location written by the other files.
fn norm_loc(raw: &str) -> String {
    let s = raw
        .trim()
        .to_ascii_uppercase()
        .replace('(', "/")
        .replace(')', "");
    let (prov, coast) = match s.split_once('/') {
        Some((p, c)) => (p.to_string(), Some(c.to_string())),
        None => (s.clone(), None),
    };
    let prov = match prov.as_str() {
        "MID" => "MAO".to_string(),
        "NAT" => "NAO".to_string(),
        "NRG" => "NWG".to_string(),
        "GOL" => "LYO".to_string(),
        _ => prov,
    };
    match coast {
        Some(c) => format!("{prov}/{c}"),
        None => prov,
    }
}

fn norm_power(raw: &str) -> String {
    match raw.trim().to_ascii_uppercase().as_str() {
        "ENG" | "ENGLAND" => "England",
        "FRA" | "FRANCE" => "France",
        "GER" | "GERMANY" | "GERMNAY" => "Germany",
        "ITA" | "ITALY" => "Italy",
        "AUS" | "AUSTRIA" => "Austria",
        "RUS" | "RUSSIA" => "Russia",
        "TUR" | "TURKEY" => "Turkey",
        other => return other.to_string(),
    }
    .to_string()
}

fn unit_key(power: &str, kind: &str, loc: &str) -> String {
    format!(
        "{}: {} {}",
        norm_power(power),
        kind.trim().to_ascii_uppercase(),
        norm_loc(loc)
    )
}

fn ours(units: &[UnitLine]) -> BTreeSet<String> {
    units
        .iter()
        .map(|u| unit_key(&u.power, &u.kind.to_string(), &u.location))
        .collect()
}

fn diff(a: &BTreeSet<String>, b: &BTreeSet<String>) -> String {
    let only_a: Vec<_> = a.difference(b).cloned().collect();
    let only_b: Vec<_> = b.difference(a).cloned().collect();
    format!(
        "ours only [{}], theirs only [{}]",
        only_a.join(", "),
        only_b.join(", ")
    )
}

// ---- datc_v2.4_06.txt ---------------------------------------------------------

#[derive(Default)]
struct TxtCase {
    phase: String,
    blocks: BTreeMap<String, Vec<String>>,
    same: bool,
}

fn parse_txt(text: &str) -> BTreeMap<String, TxtCase> {
    let mut cases = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut block = String::new();
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("CASE ") {
            let mut id = rest
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches('.')
                .to_string();
            if id == "6.F.E" {
                id = "6.F.5".to_string();
            }
            if cases.contains_key(&id) {
                id = format!("{id}#2");
            }
            cases.insert(id.clone(), TxtCase::default());
            current = Some(id);
            block.clear();
            continue;
        }
        let Some(case) = current.as_ref().and_then(|id| cases.get_mut(id)) else {
            continue;
        };
        if let Some(rest) = line.strip_prefix("PRESTATE_SETPHASE") {
            case.phase = rest.trim().to_string();
        } else if line.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            block = line.to_string();
            if line == "POSTSTATE_SAME" {
                case.same = true;
            }
        } else {
            case.blocks
                .entry(block.clone())
                .or_default()
                .push(line.to_string());
        }
    }
    cases
}

fn txt_units(case: &TxtCase, block: &str) -> BTreeSet<String> {
    case.blocks
        .get(block)
        .map(|lines| {
            lines
                .iter()
                .filter_map(|l| {
                    let (power, unit) = l.split_once(':').or_else(|| l.split_once(' '))?;
                    let mut w = unit.split_whitespace();
                    Some(unit_key(power, w.next()?, w.next()?))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Our id for a case of the text file, or None for its extra, non-DATC cases.
fn txt_id(id: &str) -> Option<String> {
    if id == "6.F.14#2" {
        return Some("6.F.15".to_string());
    }
    let parts: Vec<&str> = id.split('.').collect();
    (parts.len() == 3 && parts[2].chars().all(|c| c.is_ascii_digit())).then(|| id.to_string())
}

fn check_txt(dir: &Path, by_id: &BTreeMap<String, &Case>, problems: &mut Vec<String>) -> usize {
    let text =
        std::fs::read_to_string(dir.join("datc_v2.4_06.txt")).expect("read datc_v2.4_06.txt");
    let mut compared = 0;
    for (raw_id, tc) in parse_txt(&text) {
        let Some(id) = txt_id(&raw_id) else { continue };
        let Some(case) = by_id.get(&id) else {
            problems.push(format!("txt {id}: no such case in our fixtures"));
            continue;
        };
        if known("txt", &id, "case") {
            continue;
        }
        compared += 1;
        let first = &case.phases[0];
        let last = &case.phases[case.phases.len() - 1];
        let retreat = tc.phase.contains("Retreat");
        let mut check = |what: &str, our: BTreeSet<String>, their: BTreeSet<String>| {
            if our != their && !known("txt", &id, what) {
                problems.push(format!("txt {id} {what}: {}", diff(&our, &their)));
            }
        };
        let before = txt_units(&tc, "PRESTATE");
        if retreat {
            // The text file starts after the movement phase we play first.
            check("units", ours(&first.after), before.clone());
            check(
                "dislodged",
                ours(&first.dislodged_after),
                txt_units(&tc, "PRESTATE_DISLODGED"),
            );
        } else {
            check(
                "units",
                ours(first.units.as_deref().unwrap_or(&[])),
                before.clone(),
            );
            check(
                "dislodged",
                ours(&last.dislodged_after),
                txt_units(&tc, "POSTSTATE_DISLODGED"),
            );
        }
        let after = if tc.same {
            before
        } else {
            txt_units(&tc, "POSTSTATE")
        };
        check("after", ours(&last.after), after);
    }
    compared
}

// ---- datc.json ----------------------------------------------------------------

/// `England: F NTH - PIC`, `Italy: A TYR S A VEN - TRI`, `Germany: BUILD A KIE`:
/// a comparable key for an order, from the parts both files share.
fn order_key(power: &str, kind: &str, loc: &str, cmd: &str) -> String {
    format!("{}: {}", norm_power(power), cmd_key(kind, loc, cmd))
}

fn cmd_key(kind: &str, loc: &str, cmd: &str) -> String {
    let unit = format!(
        "{} {}",
        kind.to_ascii_uppercase(),
        norm_loc(loc).split('/').next().unwrap_or("")
    );
    let words: Vec<String> = cmd
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .filter(|w| w != "via" && w != "convoy")
        .collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let prov = |s: &str| norm_loc(s).split('/').next().unwrap_or("").to_string();
    match w.as_slice() {
        ["hold" | "holds" | "h"] => format!("{unit} H"),
        ["->" | "-", to] => format!("{unit} - {}", prov(to)),
        ["supports" | "s", k, at] => format!("{unit} S {} {}", k.to_ascii_uppercase(), prov(at)),
        ["supports" | "s", k, at, "->" | "-", to] => {
            format!(
                "{unit} S {} {} - {}",
                k.to_ascii_uppercase(),
                prov(at),
                prov(to)
            )
        }
        ["convoys" | "c", at, "->" | "-", to] => format!("{unit} C {} - {}", prov(at), prov(to)),
        ["convoys" | "c", _k, at, "->" | "-", to] => {
            format!("{unit} C {} - {}", prov(at), prov(to))
        }
        ["build"] => format!("BUILD {unit}"),
        ["disband" | "d"] => format!("REMOVE {unit}"),
        _ => format!("{unit} {}", w.join(" ")),
    }
}

/// The key of one of our order lines.
fn our_order_key(o: &OrderLine) -> String {
    let t = o.text.replace(" VIA CONVOY", "");
    let w: Vec<&str> = t.split_whitespace().collect();
    let key = match w.as_slice() {
        ["BUILD" | "REMOVE", k, at] => format!(
            "{} {k} {}",
            w[0],
            norm_loc(at).split('/').next().unwrap_or("")
        ),
        [k, at, rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.replace('-', "->")).collect();
            let cmd = match rest.first().map(String::as_str) {
                Some("H") => "hold".to_string(),
                Some("S") => format!("supports {}", rest[1..].join(" ")),
                Some("C") => format!("convoys {}", rest[1..].join(" ")),
                Some("D") => "disband".to_string(),
                _ => rest.join(" "),
            };
            cmd_key(k, at, &cmd)
        }
        _ => t.clone(),
    };
    format!("{}: {key}", o.power)
}

fn our_success(expect: &str) -> Option<bool> {
    match expect {
        "any" => None,
        "ok" | "succeeds" => Some(true),
        _ => Some(false),
    }
}

fn json_units(v: &serde_json::Value) -> Option<BTreeSet<String>> {
    let list = v.as_array()?;
    Some(
        list.iter()
            .filter_map(|u| {
                let s = u.as_str()?;
                let (power, unit) = s.split_once(':')?;
                let mut w = unit.split_whitespace();
                Some(unit_key(power, w.next()?, w.next()?))
            })
            .collect(),
    )
}

fn check_orders(
    id: &str,
    edition: &str,
    phase: &datc_support::PhaseSpec,
    orders: &serde_json::Map<String, serde_json::Value>,
    problems: &mut Vec<String>,
) {
    let mut our: BTreeMap<String, Option<bool>> = BTreeMap::new();
    for (i, o) in phase.orders.iter().enumerate() {
        // An order given twice (6.I.7, 6.J.2): the first is the one that counts.
        our.entry(our_order_key(o))
            .or_insert(our_success(phase.expected_result(i, edition)));
    }
    for (text, outcome) in orders {
        let Some(want) = outcome.as_str() else {
            continue;
        };
        let Some((power, rest)) = text.split_once(':') else {
            continue;
        };
        let mut w = rest.split_whitespace();
        let (Some(kind), Some(loc)) = (w.next(), w.next()) else {
            continue;
        };
        let cmd: Vec<&str> = w.collect();
        let key = order_key(power, kind, loc, &cmd.join(" "));
        if known("json", id, &key) {
            continue;
        }
        match our.get(&key) {
            None => problems.push(format!(
                "json {id} [{edition}]: order {text:?} ({key}) not in our fixture"
            )),
            Some(None) => {}
            Some(Some(ok)) => {
                if *ok != (want == "Succeeds") {
                    problems.push(format!("json {id} [{edition}]: {key}: datc.json says {want}, we expect the opposite"));
                }
            }
        }
    }
}

fn check_json(dir: &Path, by_id: &BTreeMap<String, &Case>, problems: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(dir.join("datc.json")).expect("read datc.json");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("datc.json is JSON");
    let mut compared = 0;
    for c in doc["cases"].as_array().expect("cases") {
        if c.get("ignore").is_some() {
            continue;
        }
        let url = c["url"].as_str().unwrap_or("");
        let id = url.rsplit('#').next().unwrap_or("").to_string();
        let edition = match c.get("edition").and_then(|e| e.as_str()) {
            None | Some("2023") => "2023",
            Some("1971") => "1971",
            Some(_) => continue,
        };
        let Some(case) = by_id.get(&id) else {
            problems.push(format!("json {id}: no such case in our fixtures"));
            continue;
        };
        if known("json", &id, "case") || !case.editions().iter().any(|e| e == edition) {
            continue;
        }
        compared += 1;
        let first = &case.phases[0];
        let last = &case.phases[case.phases.len() - 1];
        if let Some(units) = c.get("starting_state").and_then(json_units) {
            let our = ours(first.units.as_deref().unwrap_or(&[]));
            if our != units && !known("json", &id, "units") {
                problems.push(format!("json {id} units: {}", diff(&our, &units)));
            }
        }
        let empty = serde_json::Map::new();
        let orders = c["orders"].as_object().unwrap_or(&empty);
        if let Some(pre) = c.get("preceding_main_phase") {
            let pre_orders = pre["orders"].as_object().unwrap_or(&empty);
            check_orders(&id, edition, first, pre_orders, problems);
            check_orders(&id, edition, last, orders, problems);
        } else {
            check_orders(&id, edition, first, orders, problems);
        }
        if let Some(removed) = c.get("civil_disorder").and_then(json_units) {
            let before = ours(first.units.as_deref().unwrap_or(&[]));
            let after = ours(last.expected_after(edition));
            let ours_removed: BTreeSet<String> = before.difference(&after).cloned().collect();
            if ours_removed != removed && !known("json", &id, "after") {
                problems.push(format!(
                    "json {id} [{edition}] removed: {}",
                    diff(&ours_removed, &removed)
                ));
            }
        }
    }
    compared
}

fn main() -> ExitCode {
    let dir = match shared_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let cases = datc_support::load_all().expect("fixtures/datc must parse");
    let by_id: BTreeMap<String, &Case> = cases.iter().map(|c| (c.id.clone(), c)).collect();
    let mut problems = Vec::new();
    let txt = check_txt(&dir, &by_id, &mut problems);
    let json = check_json(&dir, &by_id, &mut problems);
    let used = USED.lock().map(|u| u.clone()).unwrap_or_default();
    for (i, (source, case, what, why)) in KNOWN.iter().enumerate() {
        if !used.contains(&i) {
            problems.push(format!(
                "listed difference no longer found: {source} {case} {what} ({why})"
            ));
        }
    }
    println!("compared {txt} cases with datc_v2.4_06.txt and {json} entries with datc.json");
    if txt < 140 {
        problems.push(format!("only {txt} cases compared with the text file"));
    }
    if json < 140 {
        problems.push(format!("only {json} entries compared with datc.json"));
    }
    problems.extend(recorded::check(&dir.join("godip-extra")));
    if problems.is_empty() {
        println!("no difference beyond the {} listed", KNOWN.len());
        return ExitCode::SUCCESS;
    }
    eprintln!("{} differences:\n{}", problems.len(), problems.join("\n"));
    ExitCode::FAILURE
}
