//! Reader for the DATC fixtures in `fixtures/datc/*.txt` (format: `fixtures/datc/README.md`).
//!
//! Text only: names stay as written, so the same reader serves the adjudicator
//! harness (`tests/datc.rs`) and the cross-check against other DATC data
//! (`tests/datc_crosscheck.rs`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `England: F NTH`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitLine {
    pub power: String,
    pub kind: char,
    pub location: String,
}

/// `Germany: A MUN from BUR via convoy` (a unit waiting to retreat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DislodgedLine {
    pub unit: UnitLine,
    pub attacker_from: String,
    pub via_convoy: bool,
}

/// `England: F NTH - PIC   => void`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderLine {
    pub power: String,
    pub text: String,
    pub expect: String,
    pub line: usize,
}

/// `expect 1971`: what differs under another edition (and that the case is run under it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditionExpect {
    pub edition: String,
    /// Overrides of order results, keyed by power and order text.
    pub results: Vec<OrderLine>,
    pub after: Option<Vec<UnitLine>>,
    pub dislodged_after: Option<Vec<UnitLine>>,
}

/// One phase of a case. A phase without `units` continues from the previous
/// phase's result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseSpec {
    pub phase: String,
    pub line: usize,
    pub centers: Option<Vec<(String, Vec<String>)>>,
    pub units: Option<Vec<UnitLine>>,
    pub dislodged: Vec<DislodgedLine>,
    pub contested: Vec<String>,
    pub orders: Vec<OrderLine>,
    pub after: Vec<UnitLine>,
    pub dislodged_after: Vec<UnitLine>,
    pub editions: Vec<EditionExpect>,
}

impl PhaseSpec {
    /// The expected result of order `i` under `edition`.
    pub fn expected_result(&self, i: usize, edition: &str) -> &str {
        let order = &self.orders[i];
        self.edition(edition)
            .and_then(|e| {
                e.results
                    .iter()
                    .find(|o| o.power == order.power && o.text == order.text)
            })
            .map_or(order.expect.as_str(), |o| o.expect.as_str())
    }

    pub fn expected_after(&self, edition: &str) -> &[UnitLine] {
        self.edition(edition)
            .and_then(|e| e.after.as_deref())
            .unwrap_or(&self.after)
    }

    pub fn expected_dislodged(&self, edition: &str) -> &[UnitLine] {
        self.edition(edition)
            .and_then(|e| e.dislodged_after.as_deref())
            .unwrap_or(&self.dislodged_after)
    }

    fn edition(&self, edition: &str) -> Option<&EditionExpect> {
        self.editions.iter().find(|e| e.edition == edition)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// `6.A.1`
    pub id: String,
    pub title: String,
    pub file: String,
    pub line: usize,
    pub phases: Vec<PhaseSpec>,
}

impl Case {
    /// The editions the case is run under: 2023 always, and every edition
    /// named by an `expect` block.
    pub fn editions(&self) -> Vec<String> {
        let mut eds = vec!["2023".to_string()];
        for p in &self.phases {
            for e in &p.editions {
                if !eds.contains(&e.edition) {
                    eds.push(e.edition.clone());
                }
            }
        }
        eds
    }
}

pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/datc")
}

/// Every case of every `6?.txt` file, in file order (6a ... 6j).
pub fn load_all() -> Result<Vec<Case>, String> {
    load_files("6")
}

/// The positions from real games (`real-games.txt`), in the same format.
pub fn load_real_games() -> Result<Vec<Case>, String> {
    load_files("real-games")
}

/// Every case of the fixture files whose names start with `prefix`, in name order.
fn load_files(prefix: &str) -> Result<Vec<Case>, String> {
    let dir = fixture_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".txt"))
        })
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        cases.extend(parse(&name, &text)?);
    }
    Ok(cases)
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Block {
    None,
    Centers,
    Units,
    Dislodged,
    Orders,
    After,
    DislodgedAfter,
    Expect,
    ExpectAfter,
    ExpectDislodged,
}

/// Parses one fixture file.
pub fn parse(file: &str, text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    let mut open = false;
    let mut block = Block::None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let err = |msg: &str| format!("{file}:{line_no}: {msg}: {raw:?}");
        let line = raw.split('#').next().unwrap_or("").trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let indented = line.starts_with(' ');
        let body = line.trim();
        if !indented {
            let (word, rest) = body.split_once(' ').unwrap_or((body, ""));
            let rest = rest.trim();
            if word == "case" {
                if open {
                    return Err(err("case without end before it"));
                }
                let (id, title) = rest.split_once(' ').unwrap_or((rest, ""));
                cases.push(Case {
                    id: id.to_string(),
                    title: title.trim().to_string(),
                    file: file.to_string(),
                    line: line_no,
                    phases: Vec::new(),
                });
                open = true;
                block = Block::None;
                continue;
            }
            if !open {
                return Err(err("outside a case"));
            }
            let case = cases.last_mut().ok_or_else(|| err("no case"))?;
            if word == "end" {
                if case.phases.is_empty() {
                    return Err(err("case without a phase"));
                }
                open = false;
                continue;
            }
            if word == "phase" {
                case.phases.push(PhaseSpec {
                    phase: rest.to_string(),
                    line: line_no,
                    ..PhaseSpec::default()
                });
                block = Block::None;
                continue;
            }
            let phase = case
                .phases
                .last_mut()
                .ok_or_else(|| err("block before phase"))?;
            block = match body {
                "centers" => {
                    phase.centers = Some(Vec::new());
                    Block::Centers
                }
                "units" => {
                    phase.units = Some(Vec::new());
                    Block::Units
                }
                "dislodged" => Block::Dislodged,
                "orders" => Block::Orders,
                "after" => Block::After,
                "dislodged after" => Block::DislodgedAfter,
                _ if word == "contested" => {
                    phase.contested = rest.split_whitespace().map(str::to_string).collect();
                    Block::None
                }
                _ if word == "expect" => {
                    if rest.is_empty() {
                        return Err(err("expect needs an edition"));
                    }
                    phase.editions.push(EditionExpect {
                        edition: rest.to_string(),
                        ..EditionExpect::default()
                    });
                    Block::Expect
                }
                _ => return Err(err("unknown keyword")),
            };
            continue;
        }
        if !open {
            return Err(err("outside a case"));
        }
        let phase = cases
            .last_mut()
            .and_then(|c| c.phases.last_mut())
            .ok_or_else(|| err("entry before phase"))?;
        match block {
            Block::None => return Err(err("entry outside a block")),
            Block::Centers => {
                let (power, provs) = body
                    .split_once(':')
                    .ok_or_else(|| err("want Power: PROV ..."))?;
                let provs = provs.split_whitespace().map(str::to_string).collect();
                if let Some(c) = phase.centers.as_mut() {
                    c.push((power.trim().to_string(), provs));
                }
            }
            Block::Units => {
                let u = unit_line(body).ok_or_else(|| err("want Power: A LOC"))?;
                if let Some(units) = phase.units.as_mut() {
                    units.push(u);
                }
            }
            Block::Dislodged => {
                phase.dislodged.push(
                    dislodged_line(body)
                        .ok_or_else(|| err("want Power: A LOC from LOC [via convoy]"))?,
                );
            }
            Block::Orders => phase
                .orders
                .push(order_line(body, line_no).ok_or_else(|| err("want Power: ORDER => result"))?),
            Block::After => phase
                .after
                .push(unit_line(body).ok_or_else(|| err("want Power: A LOC"))?),
            Block::DislodgedAfter => phase
                .dislodged_after
                .push(unit_line(body).ok_or_else(|| err("want Power: A LOC"))?),
            Block::Expect | Block::ExpectAfter | Block::ExpectDislodged => {
                let exp = phase
                    .editions
                    .last_mut()
                    .ok_or_else(|| err("no expect block"))?;
                if body == "after" {
                    exp.after = Some(Vec::new());
                    block = Block::ExpectAfter;
                } else if body == "dislodged after" {
                    exp.dislodged_after = Some(Vec::new());
                    block = Block::ExpectDislodged;
                } else if body.contains("=>") {
                    exp.results.push(
                        order_line(body, line_no)
                            .ok_or_else(|| err("want Power: ORDER => result"))?,
                    );
                } else {
                    let u = unit_line(body).ok_or_else(|| err("want Power: A LOC"))?;
                    let list = if block == Block::ExpectDislodged {
                        exp.dislodged_after.as_mut()
                    } else {
                        exp.after.as_mut()
                    };
                    list.ok_or_else(|| err("unit outside after / dislodged after"))?
                        .push(u);
                }
            }
        }
    }
    if open {
        return Err(format!("{file}: last case has no end"));
    }
    Ok(cases)
}

fn unit_line(body: &str) -> Option<UnitLine> {
    let (power, unit) = body.split_once(':')?;
    let mut words = unit.split_whitespace();
    let kind = match words.next()? {
        "A" => 'A',
        "F" => 'F',
        _ => return None,
    };
    let location = words.next()?.to_string();
    if words.next().is_some() {
        return None;
    }
    Some(UnitLine {
        power: power.trim().to_string(),
        kind,
        location,
    })
}

fn dislodged_line(body: &str) -> Option<DislodgedLine> {
    let (unit, rest) = body.split_once(" from ")?;
    let unit = unit_line(unit)?;
    let mut words = rest.split_whitespace();
    let attacker_from = words.next()?.to_string();
    let tail: Vec<&str> = words.collect();
    let via_convoy = match tail.as_slice() {
        [] => false,
        ["via", "convoy"] => true,
        _ => return None,
    };
    Some(DislodgedLine {
        unit,
        attacker_from,
        via_convoy,
    })
}

fn order_line(body: &str, line: usize) -> Option<OrderLine> {
    let (order, expect) = body.split_once("=>")?;
    let (power, text) = order.split_once(':')?;
    let expect = expect.trim();
    if expect.is_empty() {
        return None;
    }
    Some(OrderLine {
        power: power.trim().to_string(),
        text: text.split_whitespace().collect::<Vec<_>>().join(" "),
        expect: expect.to_string(),
        line,
    })
}

/// Does the judge's result text satisfy the fixture's expectation?
/// `ok`/`succeeds`: exactly `ok`. `fails`: anything but `ok`. `any`: not asserted.
/// Otherwise every comma-separated word of the expectation must be in the result
/// (`dislodged` matches `cut, dislodged`; whether a unit was dislodged is checked
/// exactly by the position after).
pub fn result_matches(expected: &str, actual: &str) -> bool {
    let actual = actual.trim();
    match expected.trim() {
        "any" => true,
        "ok" | "succeeds" => actual == "ok",
        "fails" => actual != "ok",
        exp => {
            let words: Vec<&str> = actual.split(',').map(str::trim).collect();
            exp.split(',').map(str::trim).all(|w| words.contains(&w))
        }
    }
}
