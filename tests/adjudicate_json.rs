//! `legate adjudicate --batch` replays recorded inputs and must give the recorded
//! output byte for byte (`fixtures/adjudicate-json/`, see the README there).
//!
//! The inputs are produced here from the project's own data: every phase of every
//! DATC case and real-game position (`fixtures/datc/`), and phases of games played
//! with random legal orders from a fixed seed (openings, crowded middle games,
//! convoys, retreats, adjustments). `edge.jsonl` is written by hand: odd spellings,
//! repeated keys and one document per defect the contract names.
//!
//! `LEGATE_WRITE_FIXTURES=1 cargo test --test pure adjudicate_json::` rewrites the inputs,
//! and the expected outputs from the binary as it is: only for an intended change
//! of output, reviewed line by line.

use crate::adjudicate_support::run_adjudicate;
use crate::datc_support;

use std::path::{Path, PathBuf};

use datc_support::{Case, PhaseSpec, UnitLine};
use legate::grammar::parse_order_in;
use legate::judge::{Countries, Dislodged, Position, Rules, Unit, adjudicate, retreat_options};
use legate::map::{Location, Map, Power, Province, ProvinceSet, Terrain, UnitKind};
use legate::orders::PowerOrder;
use legate::phase::{Phase, PhaseKind};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/adjudicate-json")
}

fn writing() -> bool {
    std::env::var("LEGATE_WRITE_FIXTURES").as_deref() == Ok("1")
}

/// Compares `actual` with the file `name` of the fixture directory (or writes it).
fn check_file(name: &str, actual: &str) {
    let path = dir().join(name);
    if writing() {
        std::fs::create_dir_all(dir()).expect("fixture directory");
        std::fs::write(&path, actual).expect("write fixture");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (LEGATE_WRITE_FIXTURES=1 writes it)",
            path.display()
        )
    });
    if expected == actual {
        return;
    }
    let (mut shown, mut differing) = (Vec::new(), 0);
    for (n, (want, got)) in expected.lines().zip(actual.lines()).enumerate() {
        if want != got {
            differing += 1;
            if shown.len() < 3 {
                shown.push(format!(
                    "line {}:\n  expected {want}\n  got      {got}",
                    n + 1
                ));
            }
        }
    }
    panic!(
        "{name}: the output differs from the recorded one ({} lines recorded, {} given, {differing} lines differ)\n{}",
        expected.lines().count(),
        actual.lines().count(),
        shown.join("\n")
    );
}

/// Runs `legate adjudicate` with `args` on `input`; returns the exit code and stdout.
fn run(args: &[&str], input: &str) -> (i32, String) {
    run_bytes(args, input.as_bytes())
}

fn run_bytes(args: &[&str], input: &[u8]) -> (i32, String) {
    run_adjudicate(args, input)
}

/// An input file; in writing mode the generated ones are produced first.
fn input(name: &str) -> String {
    if writing() {
        let map = Map::standard();
        match name {
            "datc.jsonl" => check_file(name, &datc_documents(map)),
            "games.jsonl" => check_file(name, &game_documents(map)),
            _ => {}
        }
    }
    let path = dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Replays `name.jsonl` under `rules` and compares with `name.<rules>.out.jsonl`.
fn replay(name: &str, rules: &str, expect_code: i32) -> usize {
    let text = input(&format!("{name}.jsonl"));
    let (code, out) = run(&["--batch", "--rules", rules], &text);
    assert_eq!(
        code, expect_code,
        "exit status for {name}.jsonl under {rules}"
    );
    check_file(&format!("{name}.{rules}.out.jsonl"), &out);
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

#[test]
fn the_inputs_are_produced_from_the_projects_own_data() {
    let map = Map::standard();
    let datc = datc_documents(map);
    let games = game_documents(map);
    assert!(datc.lines().count() > 170, "every phase of every case");
    assert!(games.lines().count() >= 300, "enough phases to measure");
    check_file("datc.jsonl", &datc);
    check_file("games.jsonl", &games);
}

#[test]
fn datc_phases_give_the_recorded_output_under_every_edition() {
    for rules in ["2023", "2000", "1971"] {
        let lines = replay("datc", rules, 0);
        assert!(lines > 170, "{rules}: {lines} lines");
    }
}

#[test]
fn game_phases_give_the_recorded_output() {
    let lines = replay("games", "2023", 0);
    assert!(lines >= 300);
}

#[test]
fn odd_and_malformed_documents_give_the_recorded_output() {
    // Some lines are malformed: the batch goes on and exits 2 at the end.
    let lines = replay("edge", "2023", 2);
    assert!(lines >= 40);
}

/// Lines end at LF or CRLF; blank lines are skipped but counted; a line that is
/// not UTF-8 ends the batch (as recorded before the typed reading).
#[test]
fn line_ends_and_bytes_that_are_not_text() {
    let input = b"{\"phase\": \"S1901M\", \"units\": {}}\n\n{\"phase\": 1}\r\n\xff\xfe\n{\"phase\": \"S1901M\", \"units\": {}}\n";
    let (code, out) = run_bytes(&["--batch"], input);
    assert_eq!(code, 2);
    assert_eq!(
        out,
        concat!(
            r#"{"contested":[],"dislodged":{},"next_phase":"F1901M","phase":"S1901M","results":{},"supply_centers":{},"units":{}}"#,
            "\n",
            r#"{"error":"phase: expected a string such as \"S1901M\"","line":3}"#,
            "\n",
            r#"{"error":"stdin line 4: stream did not contain valid UTF-8"}"#,
            "\n"
        )
    );
    let (code, out) = run_bytes(&[], b"\xff");
    assert_eq!(
        (code, out.as_str()),
        (
            2,
            "{\"error\":\"stdin: stream did not contain valid UTF-8\"}\n"
        )
    );
    let (code, out) = run_bytes(&["--batch"], b"{\"phase\": \"S1901M\", \"units\": {}}");
    assert_eq!(code, 0, "a last line without its newline: {out}");
}

/// Without `--batch`: one document in, the same result, pretty-printed.
#[test]
fn single_documents_give_the_recorded_output() {
    let games = input("games.jsonl");
    let edge = input("edge.jsonl");
    let mut out = String::new();
    let picked = games
        .lines()
        .step_by(25)
        .chain(edge.lines().filter(|l| !l.trim().is_empty()).step_by(3));
    for line in picked {
        let (code, text) = run(&[], line);
        out.push_str(&format!("{code}\n{text}"));
    }
    check_file("single.out.txt", &out);
}

// ---------------------------------------------------------------------------
// Documents

/// A JSON string.
fn s(text: &str) -> String {
    serde_json::to_string(text).expect("a string")
}

/// How a generated document spells its names (the reader accepts them all).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Spelling {
    /// `FRANCE`, `A PAR`: the contract's own form.
    Codes,
    /// `france`, `a par`, `a par - bur`, powers listed from the last.
    Lower,
    /// `French`, centers by full name (`Paris`), powers listed from the last.
    Names,
}

struct Doc<'a> {
    map: &'a Map,
    spelling: Spelling,
}

impl Doc<'_> {
    fn power(&self, p: Power) -> String {
        let info = self.map.power_info(p);
        match self.spelling {
            Spelling::Codes => info.name.to_uppercase(),
            Spelling::Lower => info.name.to_lowercase(),
            Spelling::Names => info.adjective.clone(),
        }
    }

    fn text(&self, t: &str) -> String {
        match self.spelling {
            Spelling::Lower => t.to_lowercase(),
            _ => t.to_string(),
        }
    }

    fn unit(&self, kind: UnitKind, loc: Location) -> String {
        self.text(&format!(
            "{} {}",
            kind.letter(),
            self.map.location_code(loc)
        ))
    }

    fn center(&self, p: Province) -> String {
        match self.spelling {
            Spelling::Names => self.map.name(p).to_string(),
            _ => self.text(&self.map.location_code(p.into())),
        }
    }

    /// `{"POWER": [items], ...}` for the powers with items.
    fn per_power(&self, items: &[(Power, String)]) -> String {
        let mut powers: Vec<Power> = Vec::new();
        for (p, _) in items {
            if !powers.contains(p) {
                powers.push(*p);
            }
        }
        powers.sort();
        if self.spelling != Spelling::Codes {
            powers.reverse();
        }
        let fields: Vec<String> = powers
            .iter()
            .map(|p| {
                let list: Vec<&str> = items
                    .iter()
                    .filter(|(q, _)| q == p)
                    .map(|(_, v)| v.as_str())
                    .collect();
                format!("{}: [{}]", s(&self.power(*p)), list.join(", "))
            })
            .collect();
        format!("{{{}}}", fields.join(", "))
    }

    /// The document of a position and orders (power, text as written).
    fn write(&self, position: &Position, orders: &[(Power, String)], homes: bool) -> String {
        let map = self.map;
        let units: Vec<(Power, String)> = position
            .units
            .iter()
            .map(|u| (u.power, s(&self.unit(u.kind, u.location))))
            .collect();
        let centers: Vec<(Power, String)> = position
            .owners
            .iter()
            .enumerate()
            .filter_map(|(i, o)| o.map(|p| (p, s(&self.center(Province(i as u8))))))
            .collect();
        let mut fields = vec![
            format!("\"phase\": {}", s(&position.phase.to_string())),
            format!("\"units\": {}", self.per_power(&units)),
            format!("\"supply_centers\": {}", self.per_power(&centers)),
        ];
        if homes {
            let homes: Vec<(Power, String)> = (0..map.powers().len())
                .flat_map(|i| {
                    let p = Power(i as u8);
                    position
                        .home_of(p)
                        .iter()
                        .map(move |c| (p, s(&map.location_code(c.into()))))
                })
                .collect();
            fields.push(format!("\"home_centers\": {}", self.per_power(&homes)));
        }
        if position.phase.kind == PhaseKind::Retreat {
            let dislodged: Vec<(Power, String)> = position
                .dislodged
                .iter()
                .map(|d| {
                    let via = if d.via_convoy {
                        ", \"via_convoy\": true"
                    } else {
                        ""
                    };
                    let item = format!(
                        "{{\"unit\": {}, \"attacker_from\": {}{via}}}",
                        s(&self.unit(d.unit.kind, d.unit.location)),
                        s(&map.location_code(d.attacker_from.into()))
                    );
                    (d.unit.power, item)
                })
                .collect();
            fields.push(format!("\"dislodged\": {}", self.per_power(&dislodged)));
            let contested: Vec<String> = position
                .contested
                .iter()
                .map(|p| s(&map.location_code(p.into())))
                .collect();
            fields.push(format!("\"contested\": [{}]", contested.join(", ")));
        }
        let orders: Vec<(Power, String)> =
            orders.iter().map(|(p, t)| (*p, s(&self.text(t)))).collect();
        fields.push(format!("\"orders\": {}", self.per_power(&orders)));
        if self.spelling == Spelling::Names {
            fields.reverse();
        }
        format!("{{{}}}\n", fields.join(", "))
    }
}

// ---------------------------------------------------------------------------
// The DATC and the real-game positions

/// Every phase of every case, with the orders as written in the fixture; a phase
/// that continues the previous one starts from what the judge made of it (2023).
fn datc_documents(map: &Map) -> String {
    let mut cases = datc_support::load_all().expect("fixtures/datc must parse");
    cases.extend(datc_support::load_real_games().expect("real-games.txt must parse"));
    let doc = Doc {
        map,
        spelling: Spelling::Codes,
    };
    let rules = Rules::default();
    let mut out = String::new();
    for case in &cases {
        let mut previous: Option<Position> = None;
        for spec in &case.phases {
            let position = datc_position(map, case, spec, previous.take());
            let written: Vec<(Power, String)> = spec
                .orders
                .iter()
                .map(|o| (power(map, &o.power), o.text.clone()))
                .collect();
            out.push_str(&doc.write(&position, &written, false));
            let orders: Vec<PowerOrder> = written
                .iter()
                .filter_map(|(p, text)| {
                    parse_order_in(map, text, Some(position.phase.kind))
                        .ok()
                        .map(|parsed| PowerOrder {
                            power: *p,
                            order: parsed.order,
                        })
                })
                .collect();
            previous = Some(adjudicate(map, &rules, &Countries, &position, &orders).after);
        }
    }
    out
}

fn power(map: &Map, name: &str) -> Power {
    map.power(name)
        .unwrap_or_else(|| panic!("unknown power {name:?}"))
}

fn place(map: &Map, name: &str) -> Location {
    map.lookup(name)
        .unwrap_or_else(|| panic!("unknown place {name:?}"))
}

fn unit(map: &Map, u: &UnitLine) -> Unit {
    Unit {
        power: power(map, &u.power),
        kind: if u.kind == 'F' {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        },
        location: place(map, &u.location),
    }
}

/// The position a phase of a case starts from (as `tests/datc.rs` builds it).
fn datc_position(map: &Map, case: &Case, spec: &PhaseSpec, previous: Option<Position>) -> Position {
    let mut position = match (&spec.units, previous) {
        (Some(units), _) => {
            let mut p = Position::initial(map);
            p.units = units.iter().map(|u| unit(map, u)).collect();
            p
        }
        (None, Some(p)) => p,
        (None, None) => panic!("{}: the first phase must list its units", case.id),
    };
    position.phase = spec.phase.parse::<Phase>().expect("a phase");
    if let Some(centers) = &spec.centers {
        position.owners = vec![None; map.province_count()];
        for (p, provs) in centers {
            for prov in provs {
                position.owners[place(map, prov).province.0 as usize] = Some(power(map, p));
            }
        }
    }
    if !spec.dislodged.is_empty() {
        position.dislodged = spec
            .dislodged
            .iter()
            .map(|d| Dislodged {
                unit: unit(map, &d.unit),
                attacker_from: place(map, &d.attacker_from).province,
                via_convoy: d.via_convoy,
            })
            .collect();
    }
    if !spec.contested.is_empty() {
        position.contested = ProvinceSet::EMPTY;
        for c in &spec.contested {
            position.contested.insert(place(map, c).province);
        }
    }
    position
}

// ---------------------------------------------------------------------------
// Games with random legal orders

/// xorshift64*: a fixed sequence whatever the crate versions.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())])
    }
}

const GAMES: u64 = 8;
const LAST_YEAR: u16 = 1913;

/// Eight games from 1901 to 1913, every phase the judge plays.
fn game_documents(map: &Map) -> String {
    let rules = Rules::default();
    let mut out = String::new();
    let mut line = 0usize;
    for game in 0..GAMES {
        let mut dice = Dice(0x9E37_79B9_7F4A_7C15 ^ (game + 1).wrapping_mul(0x1234_5678_9ABC));
        let mut position = Position::initial(map);
        while position.phase.year <= LAST_YEAR {
            let orders = match position.phase.kind {
                PhaseKind::Movement => movement_orders(map, &position, &mut dice),
                PhaseKind::Retreat => retreat_orders(map, &position, &mut dice),
                PhaseKind::Adjustment => adjustment_orders(map, &position, &mut dice),
            };
            let spelling = match line % 7 {
                3 => Spelling::Lower,
                5 => Spelling::Names,
                _ => Spelling::Codes,
            };
            let doc = Doc { map, spelling };
            let homes = position.phase.kind == PhaseKind::Adjustment && line.is_multiple_of(2);
            out.push_str(&doc.write(&position, &orders, homes));
            line += 1;
            let parsed: Vec<PowerOrder> = orders
                .iter()
                .filter_map(|(p, text)| {
                    parse_order_in(map, text, Some(position.phase.kind))
                        .ok()
                        .map(|o| PowerOrder {
                            power: *p,
                            order: o.order,
                        })
                })
                .collect();
            position = adjudicate(map, &rules, &Countries, &position, &parsed).after;
            if position.phase.kind != PhaseKind::Retreat {
                position.dislodged.clear();
                position.contested = ProvinceSet::EMPTY;
            }
        }
    }
    out
}

fn code(map: &Map, loc: Location) -> String {
    map.location_code(loc)
}

fn unit_code(map: &Map, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), code(map, u.location))
}

/// Where a unit may move: every neighbouring place, coasts spelled out.
fn moves(map: &Map, u: &Unit) -> Vec<Location> {
    match u.kind {
        UnitKind::Army => map
            .army_neighbours(u.province())
            .iter()
            .map(Location::from)
            .collect(),
        UnitKind::Fleet => map
            .fleet_neighbours(u.location)
            .iter()
            .flat_map(|p| map.fleet_targets(u.location, p))
            .collect(),
    }
}

/// Mostly moves, then supports of neighbours' moves and holds, convoys by single
/// fleets, a few units left without orders and a few orders that fail to read or
/// are illegal, as real order sets have.
fn movement_orders(map: &Map, position: &Position, dice: &mut Dice) -> Vec<(Power, String)> {
    let units = &position.units;
    // What each unit does: Some(destination) for a move.
    let mut target: Vec<Option<Location>> = units
        .iter()
        .map(|u| {
            if dice.chance(55) {
                dice.pick(&moves(map, u))
            } else {
                None
            }
        })
        .collect();
    let mut text: Vec<Option<String>> = vec![None; units.len()];
    // Convoys: a fleet at sea carries a neighbouring army to another coast it touches.
    for (i, f) in units.iter().enumerate() {
        if f.kind != UnitKind::Fleet
            || map.terrain(f.province()) != Terrain::Sea
            || text[i].is_some()
            || !dice.chance(50)
        {
            continue;
        }
        let touching = map.fleet_neighbours(f.location);
        let armies: Vec<usize> = (0..units.len())
            .filter(|&j| {
                units[j].kind == UnitKind::Army
                    && touching.contains(units[j].province())
                    && text[j].is_none()
            })
            .collect();
        let Some(a) = dice.pick(&armies) else {
            continue;
        };
        let shores: Vec<Province> = touching
            .iter()
            .filter(|&p| p != units[a].province() && map.terrain(p) != Terrain::Sea)
            .collect();
        let Some(to) = dice.pick(&shores) else {
            continue;
        };
        let army = unit_code(map, &units[a]);
        let to = code(map, to.into());
        text[i] = Some(format!("{} C {army} - {to}", unit_code(map, f)));
        let via = if dice.chance(50) { " VIA CONVOY" } else { "" };
        text[a] = Some(format!("{army} - {to}{via}"));
        target[i] = None;
        target[a] = None;
    }
    for (i, u) in units.iter().enumerate() {
        if text[i].is_some() {
            continue;
        }
        if let Some(to) = target[i] {
            text[i] = Some(format!("{} - {}", unit_code(map, u), code(map, to)));
            continue;
        }
        let reach = |p: Province| map.reaches(u.kind, u.location, p);
        let support_moves: Vec<usize> = (0..units.len())
            .filter(|&j| j != i && target[j].is_some_and(|t| reach(t.province)))
            .collect();
        let support_holds: Vec<usize> = (0..units.len())
            .filter(|&j| j != i && target[j].is_none() && reach(units[j].province()))
            .collect();
        text[i] = if dice.chance(60)
            && let Some(j) = dice.pick(&support_moves)
        {
            let to = target[j].map(|t| code(map, t.province.into()));
            Some(format!(
                "{} S {} - {}",
                unit_code(map, u),
                unit_code(map, &units[j]),
                to.unwrap_or_default()
            ))
        } else if dice.chance(50)
            && let Some(j) = dice.pick(&support_holds)
        {
            Some(format!(
                "{} S {}",
                unit_code(map, u),
                unit_code(map, &units[j])
            ))
        } else {
            Some(format!("{} H", unit_code(map, u)))
        };
    }
    let mut out = Vec::new();
    for (i, u) in units.iter().enumerate() {
        let Some(t) = text[i].take() else { continue };
        match dice.below(100) {
            0..=5 => {}                                                       // no order: it holds
            6 => out.push((u.power, format!("{t} - XYZ"))),                   // unreadable
            7 => out.push((u.power, format!("{} - MOS", unit_code(map, u)))), // mostly illegal
            _ => out.push((u.power, t)),
        }
    }
    out
}

fn retreat_orders(map: &Map, position: &Position, dice: &mut Dice) -> Vec<(Power, String)> {
    let mut out = Vec::new();
    for d in &position.dislodged {
        let name = unit_code(map, &d.unit);
        let options = retreat_options(map, position, d);
        match dice.below(10) {
            0 => {}
            1 | 2 => out.push((d.unit.power, format!("{name} D"))),
            _ => match dice.pick(&options) {
                Some(to) => out.push((d.unit.power, format!("{name} - {}", code(map, to)))),
                None => out.push((d.unit.power, format!("{name} D"))),
            },
        }
    }
    out
}

fn adjustment_orders(map: &Map, position: &Position, dice: &mut Dice) -> Vec<(Power, String)> {
    let mut out = Vec::new();
    for i in 0..map.powers().len() {
        let power = Power(i as u8);
        let centers = position.centers_of(power).len() as usize;
        let units: Vec<&Unit> = position.units.iter().filter(|u| u.power == power).collect();
        if centers > units.len() {
            let free: Vec<Province> = position
                .home_of(power)
                .iter()
                .filter(|&p| position.owner(p) == Some(power) && position.unit_at(p).is_none())
                .collect();
            for &p in free.iter().take(centers - units.len()) {
                let fleet = map.terrain(p) == Terrain::Coastal && dice.chance(40);
                let build = if fleet {
                    let coasts = map.coasts(p);
                    let coast = dice.pick(coasts);
                    format!("BUILD F {}", code(map, Location::new(p, coast)))
                } else {
                    format!("BUILD A {}", code(map, p.into()))
                };
                match dice.below(10) {
                    0 => {}
                    1 => out.push((power, "WAIVE".to_string())),
                    _ => out.push((power, build)),
                }
            }
        } else if units.len() > centers {
            let mut units = units;
            for _ in 0..units.len() - centers {
                let k = dice.below(units.len());
                let u = units.remove(k);
                if dice.chance(85) {
                    out.push((power, format!("REMOVE {}", unit_code(map, u))));
                }
            }
        }
    }
    out
}
