//! Whole season reports, built from real adjudications of positions set up
//! here: every phase kind, every result marker, the views, the round trip of
//! the results lines through the order grammar, and the board picture.

use chrono::{DateTime, TimeZone, Utc};
use chrono_tz::Tz;

use legate::grammar::parse_order_in;
use legate::judge::{Adjudication, Countries, Position, Rules, Unit, adjudicate};
use legate::map::{Map, Power, UnitKind};
use legate::orders::{Order, PowerOrder, UnitSpec};
use legate::phase::Phase;
use legate::report::{
    GameInfo, Layout, OwnOnly, PhaseInput, PhaseReport, Public, Recipient, Role, png, svg, text,
};

fn map() -> &'static Map {
    Map::standard()
}

fn power(name: &str) -> Power {
    map().power(name).expect(name)
}

/// `"England: F LON"`.
fn unit(text: &str) -> Unit {
    let (power_name, rest) = text.split_once(':').expect("power: unit");
    let (kind, place) = rest.trim().split_once(' ').expect("kind place");
    Unit {
        power: power(power_name),
        kind: if kind == "F" {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        },
        location: map().lookup(place).expect(place),
    }
}

/// A position in `phase` with these units and the centers of the opening.
fn position(phase: &str, units: &[&str]) -> Position {
    let mut p = Position::initial(map());
    p.phase = phase.parse::<Phase>().expect(phase);
    p.units = units.iter().map(|u| unit(u)).collect();
    p
}

/// `"France: A PAR - BUR"` lines, read for the phase of `position`.
fn orders(position: &Position, lines: &[&str]) -> Vec<PowerOrder> {
    lines
        .iter()
        .map(|line| {
            let (power_name, order) = line.split_once(':').expect("power: order");
            let parsed = parse_order_in(map(), order, Some(position.phase.kind)).expect(line);
            PowerOrder {
                power: power(power_name),
                order: parsed.order,
            }
        })
        .collect()
}

fn deadline() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 18, 0, 0).unwrap()
}

fn observer() -> Recipient {
    Recipient::new(Role::Observer, Tz::UTC)
}

struct Played {
    report: PhaseReport,
    adjudication: Adjudication,
}

fn play(seq: u32, before: &Position, lines: &[&str]) -> Played {
    let given = orders(before, lines);
    let adjudication = adjudicate(map(), &Rules::default(), &Countries, before, &given);
    let input = PhaseInput {
        info: GameInfo {
            game: "game001".into(),
            judge: "LEGATE".into(),
            variant: "Standard".into(),
            seq,
        },
        before,
        adjudication: &adjudication,
        deadline: Some(deadline()),
        game_over: false,
    };
    Played {
        report: PhaseReport::build(map(), &input),
        adjudication,
    }
}

fn render(report: &PhaseReport, who: &Recipient) -> String {
    text::render(map(), &report.seen_by(&Public, who), who)
}

/// Spring 1901: the usual openings, three bounces, Italy silent.
fn spring_1901() -> Played {
    let before = Position::initial(map());
    play(
        1,
        &before,
        &[
            "England: F LON - NTH",
            "England: F EDI - NWG",
            "England: A LVP - YOR",
            "France: F BRE - MAO",
            "France: A PAR - BUR",
            "France: A MAR - SPA",
            "Germany: F KIE - DEN",
            "Germany: A BER - KIE",
            "Germany: A MUN - BUR",
            "Austria: F TRI - ALB",
            "Austria: A BUD - SER",
            "Austria: A VIE - GAL",
            "Russia: A WAR - GAL",
            "Russia: F SEV - BLA",
            "Russia: F STP/SC - BOT",
            "Russia: A MOS - UKR",
            "Turkey: F ANK - BLA",
            "Turkey: A CON - BUL",
            "Turkey: A SMY - ARM",
        ],
    )
}

/// Fall 1901: a convoy to Norway, captures, a bounce in Sevastopol.
fn fall_1901() -> Played {
    let spring = spring_1901();
    play(
        2,
        &spring.adjudication.after,
        &[
            "England: F NTH C A YOR - NWY",
            "England: A YOR - NTH - NWY",
            "England: F NWG - BAR",
            "France: F MAO - POR",
            "France: A PAR - PIC",
            "France: A SPA H",
            "Germany: F DEN H",
            "Germany: A KIE - HOL",
            "Germany: A MUN - RUH",
            "Austria: F ALB - GRE",
            "Austria: A SER S F ALB - GRE",
            "Austria: A VIE - TRI",
            "Russia: F BOT - SWE",
            "Russia: A WAR - GAL",
            "Russia: A UKR - RUM",
            "Russia: F SEV H",
            "Turkey: A ARM - SEV",
            "Turkey: F ANK - BLA",
            "Turkey: A BUL H",
            "Italy: A VEN H",
            "Italy: F NAP - ION",
            "Italy: A ROM - APU",
        ],
    )
}

/// Winter 1901 from the fall, with two centers taken from Turkey by hand so
/// that Turkey must remove a unit (it orders none: civil disorder), and France
/// ordering one build outside its home centers.
fn winter_1901() -> Played {
    let fall = fall_1901();
    let mut before = fall.adjudication.after.clone();
    assert_eq!(
        before.phase.to_string(),
        "W1901A",
        "fall should lead to the adjustments"
    );
    for taken in ["smy", "bul"] {
        let p = map().lookup(taken).unwrap().province;
        before.owners[p.0 as usize] = Some(power("Russia"));
    }
    play(
        3,
        &before,
        &[
            "England: BUILD F LON",
            "France: BUILD A PAR",
            "France: BUILD A SPA",
            "Germany: BUILD A BER",
            "Germany: BUILD F KIE",
            "Russia: BUILD A MOS",
            "Russia: BUILD F STP/NC",
            "Austria: BUILD A BUD",
        ],
    )
}

/// Spring 1902, set up for every marker: a convoy, a convoy that is disrupted,
/// a move with no convoy, cut support, a void order, a dislodgement, a unit
/// that bounced and was dislodged, a fleet on a named coast.
fn markers_1902() -> Played {
    let before = position(
        "S1902M",
        &[
            "England: A LON",
            "England: F NTH",
            "England: A YOR",
            "France: A PAR",
            "France: A MAR",
            "France: F LYO",
            "France: F WES",
            "Germany: A BUR",
            "Germany: A KIE",
            "Germany: A BER",
            "Germany: A MUN",
            "Russia: A WAR",
            "Italy: A TUN",
            "Italy: F TYS",
            "Italy: A VEN",
            "Austria: A TYR",
            "Austria: F ADR",
            "Austria: A TRI",
            "Austria: A VIE",
            "Austria: A BUD",
            "Russia: A GAL",
            "Russia: A RUM",
            "Russia: F STP/NC",
            "Turkey: A SMY",
            "Turkey: F BLA",
            "Turkey: A ARM",
            "Russia: F SEV",
        ],
    );
    play(
        4,
        &before,
        &[
            "England: A LON - NTH - NWY",
            "England: F NTH C A LON - NWY",
            "England: A YOR - HOL VIA CONVOY",
            "France: A PAR - BUR",
            "France: A MAR S A PAR - BUR",
            "France: F LYO - TYS",
            "France: F WES S F LYO - TYS",
            "Germany: A BUR H",
            "Germany: A KIE - MOS",
            "Germany: A BER - SIL",
            "Germany: A MUN S A BER - SIL",
            "Russia: A WAR - SIL",
            "Italy: A TUN - TYS - NAP",
            "Italy: F TYS C A TUN - NAP",
            "Italy: A VEN - TRI",
            "Austria: A TYR - VEN",
            "Austria: F ADR S A TYR - VEN",
            "Austria: A TRI H",
            "Austria: A VIE - GAL",
            "Austria: A BUD S A VIE - GAL",
            "Russia: A RUM - BUD",
            "Russia: A GAL H",
            "Russia: F STP/NC - BAR",
            "Turkey: F BLA - SEV",
            "Turkey: A ARM S F BLA - SEV",
        ],
    )
}

/// The retreats after the spring of markers: one clash, one retreat, one disband.
fn retreats_1902() -> Played {
    let spring = markers_1902();
    let before = spring.adjudication.after.clone();
    assert_eq!(before.phase.to_string(), "S1902R");
    play(
        5,
        &before,
        &[
            "Germany: A BUR - RUH",
            "Italy: A VEN - ROM",
            "Italy: F TYS - ROM",
        ],
    )
}

#[test]
fn movement_report_spring_1901() {
    let played = spring_1901();
    insta::assert_snapshot!("s1901m_observer", render(&played.report, &observer()));
}

#[test]
fn movement_report_fall_1901_shows_the_centers() {
    let played = fall_1901();
    let text = render(&played.report, &observer());
    assert!(text.contains("Ownership of supply centers:"));
    assert!(text.contains("Unowned:"));
    insta::assert_snapshot!("f1901m_observer", text);
}

#[test]
fn adjustment_report() {
    let played = winter_1901();
    let paris = Recipient::new(Role::Player(power("France")), chrono_tz::Europe::Paris);
    insta::assert_snapshot!("w1901a_france", render(&played.report, &paris));
}

#[test]
fn movement_report_with_every_marker() {
    let played = markers_1902();
    let new_york = Recipient::new(Role::Observer, chrono_tz::America::New_York);
    let text = render(&played.report, &new_york);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let why = "Army Warsaw -> Silesia bounced: 1 against 2 (Army Berlin supported by Army Munich)";
    assert!(words.contains(why), "{text}");
    insta::assert_snapshot!("s1902m_observer", text);
}

#[test]
fn retreat_report() {
    let played = retreats_1902();
    insta::assert_snapshot!("s1902r_observer", render(&played.report, &observer()));
}

#[test]
fn a_secret_keeping_view_shows_a_player_only_their_own() {
    let played = markers_1902();
    let italy = Recipient::new(Role::Player(power("Italy")), Tz::UTC);
    let seen = played.report.seen_by(&OwnOnly, &italy);
    assert!(!seen.orders.is_empty());
    assert!(seen.orders.iter().all(|o| o.power() == power("Italy")));
    assert!(seen.after.units.iter().all(|u| u.power == power("Italy")));
    let text = text::render(map(), &seen, &italy);
    assert!(!text.contains("England:"), "{text}");
    insta::assert_snapshot!("s1902m_italy_own_only", text);
    // The master sees everything whatever the view.
    let master = Recipient::new(Role::Master, Tz::UTC);
    assert_eq!(played.report.seen_by(&OwnOnly, &master), played.report);
}

#[test]
fn every_marker_appears() {
    let texts: String = [
        spring_1901(),
        fall_1901(),
        winter_1901(),
        markers_1902(),
        retreats_1902(),
    ]
    .iter()
    .map(|p| render(&p.report, &observer()))
    .collect();
    for marker in [
        "(*bounce*)",
        "(*cut*)",
        "(*void*)",
        "(*no convoy*)",
        "(*dislodged*)",
        "(*bounce, dislodged*)",
        "(*disrupted*)",
    ] {
        assert!(texts.contains(marker), "no {marker} in the reports");
    }
    for phrase in [
        "The following units were dislodged:",
        "with no valid retreats was destroyed.",
        "Ownership of supply centers:",
        "Builds ",
        "Removes ",
        "Build waived.",
        "(north coast)",
        " -> North Sea -> Norway.",
    ] {
        assert!(texts.contains(phrase), "no {phrase:?} in the reports");
    }
    for line in texts.lines() {
        assert!(line.chars().count() <= text::WIDTH, "too long: {line:?}");
    }
}

/// The order lines of a classic block, continuation lines joined.
fn result_lines(block: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut inside = false;
    for line in block.lines() {
        if line.contains(" results for ") {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if line.starts_with("The following")
            || line.starts_with("Ownership")
            || line.starts_with("The next")
        {
            break;
        }
        if line.starts_with(' ') {
            if let Some(last) = lines.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else if !line.is_empty() {
            lines.push(line.to_string());
        }
    }
    lines
}

/// The order with unit types and coasts as the board has them, and no nationality.
fn on_board(before: &Position, order: &Order) -> Order {
    let fill = |spec: UnitSpec| -> UnitSpec {
        let p = spec.location.province;
        let unit = before
            .unit_at(p)
            .copied()
            .or_else(|| before.dislodged_at(p).map(|d| d.unit));
        match (unit, order) {
            (_, Order::Build { .. }) => UnitSpec {
                power: None,
                ..spec
            },
            (Some(u), _) => UnitSpec {
                kind: Some(u.kind),
                location: u.location,
                power: None,
            },
            (None, _) => UnitSpec {
                power: None,
                ..spec
            },
        }
    };
    match *order {
        Order::Hold { unit } => Order::Hold { unit: fill(unit) },
        Order::Move {
            unit,
            to,
            via_convoy,
        } => Order::Move {
            unit: fill(unit),
            to,
            via_convoy,
        },
        Order::SupportHold { unit, supported } => Order::SupportHold {
            unit: fill(unit),
            supported: fill(supported),
        },
        Order::SupportMove {
            unit,
            supported,
            to,
        } => Order::SupportMove {
            unit: fill(unit),
            supported: fill(supported),
            to,
        },
        Order::Convoy { unit, army, to } => Order::Convoy {
            unit: fill(unit),
            army: fill(army),
            to,
        },
        Order::Disband { unit } => Order::Disband { unit: fill(unit) },
        Order::Build { unit } => Order::Build { unit: fill(unit) },
        Order::Remove { unit } => Order::Remove { unit: fill(unit) },
        Order::Waive => Order::Waive,
    }
}

#[test]
fn results_lines_read_back_as_the_same_orders() {
    let mut checked = 0;
    for played in [
        spring_1901(),
        fall_1901(),
        winter_1901(),
        markers_1902(),
        retreats_1902(),
    ] {
        let report = &played.report;
        let before = &report.before;
        let block = text::classic(map(), report, &observer());
        let lines = result_lines(&block);
        assert_eq!(lines.len(), report.orders.len(), "{block}");
        for (line, resolved) in lines.iter().zip(&report.orders) {
            let expected = on_board(before, &resolved.resolution.order);
            let parsed = parse_order_in(map(), line, Some(report.phase.kind))
                .unwrap_or_else(|e| panic!("{line:?} does not read back: {e:?}"));
            assert_eq!(parsed.power, Some(resolved.power()), "{line}");
            assert_eq!(on_board(before, &parsed.order), expected, "{line}");
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} lines checked");
}

fn png_width(png: &[u8]) -> u32 {
    u32::from_be_bytes([png[16], png[17], png[18], png[19]])
}

#[test]
fn board_picture_of_a_phase_with_dislodgements() {
    let played = markers_1902();
    let picture = svg::render(
        map(),
        Layout::standard(),
        &played.report.seen_by(&Public, &observer()),
    );
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    // One arrow per move, support and convoy; dislodged units and their retreats drawn.
    assert!(
        picture.matches("marker-end").count() >= 15,
        "too few arrows"
    );
    let png = png::render(&picture, Some(1000)).expect("renders");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(png_width(&png), 1000);
    assert!(png.len() < 300 * 1024, "{} bytes", png.len());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("board.png"), &png).unwrap();
    std::fs::write(dir.join("board.svg"), &picture).unwrap();
    if !png::has_fonts() {
        eprintln!("no system fonts: the picture was drawn without its text");
    }
}

#[test]
fn history_replays_reports_in_order() {
    let reports = [spring_1901().report, fall_1901().report];
    let text = legate::report::summary::history(map(), &reports, &Public, &observer());
    let spring = text
        .find("Movement results for Spring of 1901.")
        .expect("spring");
    let fall = text
        .find("Movement results for Fall of 1901.")
        .expect("fall");
    assert!(spring < fall);
    assert_eq!(text.matches(&"-".repeat(text::WIDTH)).count(), 1);
}

#[test]
fn board_pictures_of_retreats_and_adjustments() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, played) in [
        ("board-retreats", retreats_1902()),
        ("board-adjustments", winter_1901()),
    ] {
        let picture = svg::render(map(), Layout::standard(), &played.report);
        let png = png::render(&picture, Some(1000)).expect("renders");
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() < 300 * 1024,
            "{name}"
        );
        std::fs::write(dir.join(format!("{name}.png")), &png).unwrap();
    }
    // A build is ringed, a removal crossed out.
    let winter = svg::render(map(), Layout::standard(), &winter_1901().report);
    assert!(winter.contains("stroke=\"#1b8a3a\""), "no build ring");
    assert!(
        winter.contains("stroke=\"#c0001a\" stroke-width=\"3\""),
        "no removal cross"
    );
}

/// A variant's view that tells each player, privately, which units they command.
struct Commands;

impl legate::report::View for Commands {
    fn notices(&self, who: &Recipient, report: &PhaseReport) -> Vec<String> {
        let Some(power) = who.power() else {
            return Vec::new();
        };
        let units: Vec<String> = report
            .after
            .units
            .iter()
            .filter(|u| u.power == power)
            .map(|u| format!("{} {}", u.kind.name(), map().location_name(u.location)))
            .collect();
        vec![format!("You command: {}.", units.join(", "))]
    }
}

#[test]
fn a_view_adds_private_notices() {
    let played = markers_1902();
    let italy = Recipient::new(Role::Player(power("Italy")), Tz::UTC);
    let to_italy = text::render(map(), &played.report.seen_by(&Commands, &italy), &italy);
    assert!(to_italy.contains("You command: Army Tunis."), "{to_italy}");
    let to_observer = text::render(
        map(),
        &played.report.seen_by(&Commands, &observer()),
        &observer(),
    );
    assert!(!to_observer.contains("You command"));
}
