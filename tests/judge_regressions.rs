//! Regression tests for what the DATC does not cover: a whole Spring 1901 opening,
//! a multi-coast fleet build, civil-disorder tie-breaks, and phase skipping.

use legate::grammar::parse_order_in;
use legate::judge::{Adjudication, Countries, Edition, Position, Reason, Rules, Unit, adjudicate};
use legate::map::{Map, UnitKind};
use legate::orders::PowerOrder;
use legate::phase::Phase;

fn map() -> &'static Map {
    Map::standard()
}

fn unit(text: &str) -> Unit {
    let (power, rest) = text.split_once(':').expect("power: unit");
    let (kind, place) = rest.trim().split_once(' ').expect("kind place");
    Unit {
        power: map().power(power).expect(power),
        kind: if kind == "F" {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        },
        location: map().lookup(place).expect(place),
    }
}

fn play(rules: &Rules, position: &Position, lines: &[&str]) -> Adjudication {
    let orders: Vec<PowerOrder> = lines
        .iter()
        .map(|l| {
            let (power, text) = l.split_once(':').expect("power: order");
            let parsed = parse_order_in(map(), text.trim(), Some(position.phase.kind)).expect(l);
            PowerOrder {
                power: map().power(power).expect(power),
                order: parsed.order,
            }
        })
        .collect();
    adjudicate(map(), rules, &Countries, position, &orders)
}

/// `France: A BUR` lines of every unit after the phase, sorted.
fn board(adj: &Adjudication) -> Vec<String> {
    let mut v: Vec<String> = adj
        .after
        .units
        .iter()
        .map(|u| {
            format!(
                "{}: {} {}",
                map().power_info(u.power).name,
                u.kind.letter(),
                map().location_code(u.location)
            )
        })
        .collect();
    v.sort();
    v
}

fn sorted(lines: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn winter(units: &[&str], owners: &[(&str, &[&str])]) -> Position {
    let mut p = Position::initial(map());
    p.phase = "W1901A".parse().expect("phase");
    p.units = units.iter().map(|u| unit(u)).collect();
    p.owners = vec![None; map().province_count()];
    for (power, centers) in owners {
        for c in *centers {
            p.owners[map().lookup(c).expect(c).province.0 as usize] =
                Some(map().power(power).expect(power));
        }
    }
    p
}

#[test]
fn a_full_spring_1901_opening_puts_every_unit_where_expected() {
    let opening = [
        "England: F LON - NTH",
        "England: F EDI - NWG",
        "England: A LVP - YOR",
        "France: A PAR - BUR",
        "France: A MAR S A PAR - BUR",
        "France: F BRE - MAO",
        "Germany: A BER - KIE",
        "Germany: A MUN - RUH",
        "Germany: F KIE - DEN",
        "Italy: A VEN H",
        "Italy: A ROM - APU",
        "Italy: F NAP - ION",
        "Austria: A VIE - GAL",
        "Austria: A BUD - SER",
        "Austria: F TRI - ALB",
        "Russia: A MOS - UKR",
        "Russia: A WAR - GAL",
        "Russia: F SEV - BLA",
        "Russia: F STP/SC - BOT",
        "Turkey: A CON - BUL",
        "Turkey: A SMY - CON",
        "Turkey: F ANK - BLA",
    ];
    let adj = play(&Rules::default(), &Position::initial(map()), &opening);
    assert_eq!(
        board(&adj),
        sorted(&[
            "England: F NTH",
            "England: F NWG",
            "England: A YOR",
            "France: A BUR",
            "France: A MAR",
            "France: F MAO",
            "Germany: A KIE",
            "Germany: A RUH",
            "Germany: F DEN",
            "Italy: A VEN",
            "Italy: A APU",
            "Italy: F ION",
            // Galicia and the Black Sea are standoffs.
            "Austria: A VIE",
            "Austria: A SER",
            "Austria: F ALB",
            "Russia: A UKR",
            "Russia: A WAR",
            "Russia: F SEV",
            "Russia: F BOT",
            "Turkey: A BUL",
            "Turkey: A CON",
            "Turkey: F ANK",
        ])
    );
    let texts: Vec<String> = adj.resolutions.iter().map(|r| r.result_text()).collect();
    assert_eq!(texts.iter().filter(|t| *t == "bounce").count(), 4);
    assert_eq!(
        adj.resolutions.len(),
        22,
        "every unit was ordered: no defaults"
    );
    let gal = map().lookup("gal").expect("gal").province;
    let bla = map().lookup("bla").expect("bla").province;
    assert!(adj.after.contested.contains(gal) && adj.after.contested.contains(bla));
    assert!(adj.after.dislodged.is_empty());
    assert_eq!(adj.after.phase.to_string(), "F1901M");
    // Ownership only changes after the Fall.
    assert_eq!(adj.after.owners, Position::initial(map()).owners);
}

#[test]
fn the_fall_takes_centers_and_leads_to_builds() {
    let mut p = Position::initial(map());
    p.phase = "F1901M".parse().expect("phase");
    let adj = play(
        &Rules::default(),
        &p,
        &["England: F LON - NTH", "England: F EDI - NWG"],
    );
    // Nothing changed hands: no power may build or must remove, so no winter.
    assert_eq!(adj.after.phase.to_string(), "S1902M");
    p.units.retain(|u| map().location_code(u.location) != "BUD");
    let adj = play(
        &Rules::default(),
        &p,
        &["Russia: A WAR - GAL", "Turkey: A CON - BUL"],
    );
    let bul = map().lookup("bul").expect("bul").province;
    assert_eq!(adj.after.owner(bul), map().power("Turkey"));
    assert_eq!(adj.after.phase.to_string(), "W1901A");
}

#[test]
fn a_dislodged_unit_with_nowhere_to_go_skips_the_retreat_phase() {
    // Every neighbour of Sevastopol is closed: the Russian fleet has no retreat.
    let mut p = Position::initial(map());
    p.phase = "F1901M".parse().expect("phase");
    p.units = [
        "Russia: F SEV",
        "Russia: A UKR",
        "Russia: A MOS",
        "Turkey: F BLA",
        "Turkey: A ARM",
        "Turkey: A RUM",
    ]
    .iter()
    .map(|u| unit(u))
    .collect();
    let adj = play(
        &Rules::default(),
        &p,
        &["Turkey: F BLA - SEV", "Turkey: A ARM S F BLA - SEV"],
    );
    assert_eq!(adj.after.dislodged.len(), 1);
    assert!(
        adj.resolutions
            .iter()
            .any(|r| r.dislodged && r.reason == Reason::Unordered)
    );
    // No retreat phase; Turkey takes Sevastopol and the winter follows.
    assert_eq!(adj.after.phase.to_string(), "W1901A");
    let sev = map().lookup("sev").expect("sev").province;
    assert_eq!(adj.after.owner(sev), map().power("Turkey"));
}

#[test]
fn a_fleet_is_built_on_the_named_coast_of_st_petersburg() {
    let p = winter(&[], &[("Russia", &["stp", "mos"])]);
    let adj = play(
        &Rules::default(),
        &p,
        &["Russia: BUILD F STP/NC", "Russia: BUILD A MOS"],
    );
    assert_eq!(board(&adj), sorted(&["Russia: F STP/NC", "Russia: A MOS"]));
    assert_eq!(
        adj.after.phase,
        Phase::first()
            .successor()
            .successor()
            .successor()
            .successor()
            .successor()
    );
}

#[test]
fn civil_disorder_breaks_ties_by_full_english_name() {
    // Liverpool and Livonia are each one step from an owned center. By full name
    // Liverpool comes first (by abbreviation, lvn would come before lvp).
    let p = winter(
        &["England: A LVP", "England: A LVN", "England: A EDI"],
        &[("England", &["edi", "stp"])],
    );
    let adj = play(&Rules::preset(Edition::E2023), &p, &[]);
    assert_eq!(board(&adj), sorted(&["England: A EDI", "England: A LVN"]));
}

#[test]
fn civil_disorder_removes_fleets_before_armies_at_equal_distance() {
    // Bohemia (army) and the Baltic Sea (fleet) are each one step from an owned
    // center: Munich for Bohemia, Berlin for the Baltic.
    let p = winter(
        &["Germany: A BOH", "Germany: F BAL", "Germany: A MUN"],
        &[("Germany", &["mun", "ber"])],
    );
    let adj = play(&Rules::default(), &p, &[]);
    assert_eq!(board(&adj), sorted(&["Germany: A BOH", "Germany: A MUN"]));
    // The army is alphabetically first, yet the fleet goes.
    assert!(
        adj.resolutions
            .iter()
            .all(|r| r.defaulted && r.reason == Reason::CivilDisorder)
    );
}
