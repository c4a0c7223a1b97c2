//! The whole DATC (chapter 6, 164 cases) from `fixtures/datc/`, run through the
//! adjudicator: under the 2023 rules always, and under 2000 and 1971 where a case
//! says what those editions give. Every difference of every case is reported.

use crate::datc_support;

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use datc_support::{Case, PhaseSpec, UnitLine, result_matches};
use legate::grammar::parse_order_in;
use legate::judge::{Countries, Dislodged, Edition, Position, Rules, Unit, adjudicate};
use legate::map::{Map, ProvinceSet, UnitKind};
use legate::orders::PowerOrder;
use legate::phase::Phase;

const SECTION_SIZES: [(&str, usize); 10] = [
    ("6.A", 12),
    ("6.B", 15),
    ("6.C", 9),
    ("6.D", 34),
    ("6.E", 15),
    ("6.F", 25),
    ("6.G", 20),
    ("6.H", 16),
    ("6.I", 7),
    ("6.J", 11),
];

#[test]
fn datc_fixtures_cover_chapter_6() {
    let cases = datc_support::load_all().expect("fixtures/datc must parse");
    let mut ids = BTreeSet::new();
    for c in &cases {
        assert!(
            ids.insert(c.id.clone()),
            "{}:{}: case {} twice",
            c.file,
            c.line,
            c.id
        );
    }
    for (section, size) in SECTION_SIZES {
        for n in 1..=size {
            let id = format!("{section}.{n}");
            assert!(ids.contains(&id), "no fixture for DATC {id}");
        }
    }
    assert_eq!(cases.len(), 164, "DATC 3.1 chapter 6 has 164 cases");
}

#[test]
fn datc_all_cases() {
    let cases = datc_support::load_all().expect("fixtures/datc must parse");
    run_all(&cases, "DATC");
}

#[test]
fn real_game_positions() {
    let cases = datc_support::load_real_games().expect("fixtures/datc/real-games.txt must parse");
    assert!(cases.len() >= 6, "the real-game positions are missing");
    run_all(&cases, "Real games");
}

/// Runs every case under each edition it names; fails listing every difference.
fn run_all(cases: &[Case], label: &str) {
    let map = Map::standard();
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for edition in ["2023", "2000", "1971"] {
        let ed: Edition = edition.parse().expect("edition");
        let rules = Rules::preset(ed);
        let (mut run, mut passed) = (0, 0);
        for case in cases
            .iter()
            .filter(|c| c.editions().iter().any(|e| e == edition))
        {
            run += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| run_case(map, &rules, edition, case)));
            let problems = match outcome {
                Ok(p) => p,
                Err(e) => vec![format!("the judge panicked: {}", panic_text(&e))],
            };
            if problems.is_empty() {
                passed += 1;
            } else {
                let mut text = format!(
                    "{} [{edition}] {} ({}:{})",
                    case.id, case.title, case.file, case.line
                );
                for p in problems {
                    text.push_str("\n    ");
                    text.push_str(&p);
                }
                failures.push(text);
            }
        }
        let line = format!(
            "{label} {edition}: {run} cases, {passed} passed, {} failed",
            run - passed
        );
        println!("{line}");
        summary.push(line);
    }
    assert!(
        failures.is_empty(),
        "{}\n\n{} failing:\n{}",
        summary.join("\n"),
        failures.len(),
        failures.join("\n")
    );
}

/// `DATC_SHOW=1`: print every order whose expectation is not word for word the
/// judge's result (`fails`, `any`, a lone `dislodged` ...), to review them.
fn show_results() -> bool {
    std::env::var("DATC_SHOW").as_deref() == Ok("1")
}

fn panic_text(e: &Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

/// Plays the phases of one case in turn; returns every difference found.
fn run_case(map: &Map, rules: &Rules, edition: &str, case: &Case) -> Vec<String> {
    let mut problems = Vec::new();
    let mut previous: Option<Position> = None;
    for spec in &case.phases {
        let position = match build_position(map, spec, previous.take()) {
            Ok(p) => p,
            Err(e) => {
                problems.push(format!("phase {}: {e}", spec.phase));
                return problems;
            }
        };
        let kind = position.phase.kind;
        // Orders the grammar rejects never reach the judge: the unit has no order,
        // which is what `void` means (DATC 4.E.1). Such a line must expect a failure.
        let mut orders = Vec::with_capacity(spec.orders.len());
        let mut given_lines = Vec::with_capacity(spec.orders.len());
        for (i, o) in spec.orders.iter().enumerate() {
            let Some(power) = map.power(&o.power) else {
                problems.push(format!("line {}: unknown power {:?}", o.line, o.power));
                continue;
            };
            match parse_order_in(map, &o.text, Some(kind)) {
                Ok(parsed) => {
                    orders.push(PowerOrder {
                        power,
                        order: parsed.order,
                    });
                    given_lines.push(i);
                }
                Err(e) => {
                    let expected = spec.expected_result(i, edition);
                    if !matches!(expected, "void" | "fails" | "any") {
                        problems.push(format!(
                            "line {}: order {:?} is rejected by the grammar ({e}), but {expected:?} is expected",
                            o.line, o.text
                        ));
                    }
                }
            }
        }
        if !problems.is_empty() {
            return problems;
        }
        let adj = adjudicate(map, rules, &Countries, &position, &orders);
        let given: Vec<_> = adj.resolutions.iter().filter(|r| !r.defaulted).collect();
        if given.len() != orders.len() {
            problems.push(format!(
                "phase {}: {} orders given, {} resolutions returned",
                spec.phase,
                orders.len(),
                given.len()
            ));
        }
        for (&i, r) in given_lines.iter().zip(given.iter()) {
            let o = &spec.orders[i];
            let expected = spec.expected_result(i, edition);
            let actual = r.result_text();
            if show_results() && expected != actual {
                println!(
                    "{} [{edition}] {}: {}: expects {expected:?}, judge: {actual:?}",
                    case.id, o.power, o.text
                );
            }
            if !result_matches(expected, &actual) {
                problems.push(format!(
                    "{}: {}: expected {expected:?}, judge says {actual:?} ({:?})",
                    o.power, o.text, r.reason
                ));
            }
        }
        compare_units(
            map,
            &format!("units after {}", spec.phase),
            spec.expected_after(edition),
            adj.after.units.iter(),
            &mut problems,
        );
        compare_units(
            map,
            &format!("dislodged after {}", spec.phase),
            spec.expected_dislodged(edition),
            adj.after.dislodged.iter().map(|d| &d.unit),
            &mut problems,
        );
        previous = Some(adj.after);
    }
    problems
}

/// The position a phase starts from: built from the fixture when the phase lists
/// its units, otherwise the previous phase's result (with the phase named here).
fn build_position(
    map: &Map,
    spec: &PhaseSpec,
    previous: Option<Position>,
) -> Result<Position, String> {
    let phase: Phase = spec.phase.parse().map_err(|e| format!("{e}"))?;
    let mut position = match (&spec.units, previous) {
        (Some(units), _) => {
            let mut p = Position::initial(map);
            p.units = units
                .iter()
                .map(|u| unit(map, u))
                .collect::<Result<_, _>>()?;
            p.dislodged.clear();
            p
        }
        (None, Some(p)) => p,
        (None, None) => return Err("the first phase must list its units".to_string()),
    };
    position.phase = phase;
    if let Some(centers) = &spec.centers {
        position.owners = vec![None; map.province_count()];
        for (power, provs) in centers {
            let power = map
                .power(power)
                .ok_or_else(|| format!("unknown power {power:?}"))?;
            for prov in provs {
                let loc = map
                    .lookup(prov)
                    .ok_or_else(|| format!("unknown province {prov:?}"))?;
                position.owners[loc.province.0 as usize] = Some(power);
            }
        }
    }
    if !spec.dislodged.is_empty() {
        position.dislodged = spec
            .dislodged
            .iter()
            .map(|d| {
                let from = map
                    .lookup(&d.attacker_from)
                    .ok_or_else(|| format!("unknown province {:?}", d.attacker_from))?;
                Ok(Dislodged {
                    unit: unit(map, &d.unit)?,
                    attacker_from: from.province,
                    via_convoy: d.via_convoy,
                })
            })
            .collect::<Result<_, String>>()?;
    }
    if !spec.contested.is_empty() {
        let mut set = ProvinceSet::EMPTY;
        for c in &spec.contested {
            set.insert(
                map.lookup(c)
                    .ok_or_else(|| format!("unknown province {c:?}"))?
                    .province,
            );
        }
        position.contested = set;
    }
    Ok(position)
}

fn unit(map: &Map, u: &UnitLine) -> Result<Unit, String> {
    let power = map
        .power(&u.power)
        .ok_or_else(|| format!("unknown power {:?}", u.power))?;
    let kind = if u.kind == 'F' {
        UnitKind::Fleet
    } else {
        UnitKind::Army
    };
    let location = map
        .lookup(&u.location)
        .ok_or_else(|| format!("unknown location {:?}", u.location))?;
    Ok(Unit {
        power,
        kind,
        location,
    })
}

fn unit_text(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map.power_info(u.power).name,
        u.kind.letter(),
        map.location_code(u.location)
    )
}

/// Compares unit sets exactly (power, type and location, coast included).
fn compare_units<'a>(
    map: &Map,
    what: &str,
    expected: &[UnitLine],
    actual: impl Iterator<Item = &'a Unit>,
    problems: &mut Vec<String>,
) {
    let mut want = BTreeSet::new();
    for u in expected {
        match unit(map, u) {
            Ok(u) => {
                want.insert(unit_text(map, &u));
            }
            Err(e) => problems.push(format!("{what}: {e}")),
        }
    }
    let got: BTreeSet<String> = actual.map(|u| unit_text(map, u)).collect();
    let missing: Vec<_> = want.difference(&got).cloned().collect();
    let extra: Vec<_> = got.difference(&want).cloned().collect();
    if !missing.is_empty() || !extra.is_empty() {
        problems.push(format!(
            "{what}: missing [{}], unexpected [{}]",
            missing.join(", "),
            extra.join(", ")
        ));
    }
}
