//! Masters Rules through the engine: games created with `masters=...`, orders
//! written as mail text, phases processed, boards and reports read back from a
//! real SQLite file. Each rule's worked example from the rule text, the rules
//! alone and together.

use crate::engine_common;

use engine_common::*;
use legate::docs::PositionDoc;
use legate::game::Applied;
use legate::game::model::Status;
use legate::judge::Unit;
use legate::map::{Map, Power, UnitKind};
use legate::phase::Phase;
use legate::variant::masters::{Options, Rebel, minors};

const GAME: &str = "mr";

/// Each player mails `SIGNON ?mr` asking for a different great power.
fn join_all(table: &mut Table) {
    for power in POWERS {
        let addr = address(power);
        let body = format!(
            "SIGNON ?{GAME} {}\nSET PREFERENCE {power}\n",
            password(&addr)
        );
        no_errors(table.mail(&addr, &body));
        table.players.insert(power.to_string(), addr);
    }
}

/// A started game created with `CREATE ?mr gm-pw <words>`; each player asks for
/// a different great power.
fn create(words: &str) -> Table {
    let mut table = Table::created_by_mail(GAME, words);
    join_all(&mut table);
    assert_eq!(table.state().status, Status::Active);
    table
}

/// A mail from `power`'s player: SIGNON, then `body`.
fn orders(table: &mut Table, power: &str, body: &str) -> Applied {
    let addr = address(power);
    let text = format!("SIGNON {power}@{GAME} {}\n{body}", password(&addr));
    table.mail(&addr, &text)
}

/// `orders`, answered without error.
fn orders_ok(table: &mut Table, power: &str, body: &str) -> Applied {
    no_errors(orders(table, power, body))
}

fn process(table: &mut Table) {
    table.process_by_master();
    table.advance(chrono::Duration::minutes(1));
}

/// `"A MOS"` -> the unit there, as (power name, kind letter).
fn unit_at(table: &mut Table, at: &str) -> Option<(String, char)> {
    let state = table.state();
    let map = map_of(&state);
    let p = map.lookup(at).expect(at).province;
    let pos = table.position();
    pos.unit_at(p)
        .map(|u| (legate::docs::power_name(map, u.power), u.kind.letter()))
}

/// The body of the last results mail (the master's copy).
fn last_report(table: &mut Table) -> String {
    let master = table.master.clone();
    table.last_results_to(&master)
}

/// Power 7 is a rebel army raised in Smyrna, without a center yet (MR3 e);
/// the board says where its unit stands (`"#7: A Arm"`).
fn rebel_from_smyrna(table: &mut Table) {
    table.edit_state(|s| {
        s.masters.as_mut().unwrap().rules.rebels.push(Rebel {
            power: Power(7),
            kind: UnitKind::Army,
            raised_in: Map::standard().lookup("smy").unwrap().province,
            identity: None,
        });
    });
}

/// Puts a board on the table: the units given (`"Russia: A Gal"`, `"#7: A Arm"`
/// for power number 7), these owners changed, in `phase`; orders cleared.
fn set_board(table: &mut Table, phase: &str, units: &[&str], owners: &[(&str, &[&str])]) {
    table.edit_game(|state, row| {
        let map = map_of(state);
        let mut pos = state
            .position
            .as_ref()
            .expect("board")
            .to_position(map)
            .expect("position");
        pos.phase = phase.parse::<Phase>().expect(phase);
        pos.units = units.iter().map(|u| unit(map, u)).collect();
        pos.dislodged.clear();
        for (who, centers) in owners {
            let p = map.power(who).expect(who);
            for c in *centers {
                let at = map.lookup(c).expect(c).province;
                pos.owners[at.0 as usize] = Some(p);
            }
        }
        state.position = Some(PositionDoc::from_position(map, &pos));
        state.orders.clear();
        row.current_phase = Some(phase.to_string());
    });
}

fn unit(map: &Map, text: &str) -> Unit {
    let (who, rest) = text.split_once(':').expect("power: unit");
    let power = match who.trim().strip_prefix('#') {
        Some(n) => Power(n.parse().expect("number")),
        None => map.power(who.trim()).expect(who),
    };
    let (kind, at) = rest.trim().split_once(' ').expect("kind place");
    Unit {
        power,
        kind: if kind == "F" {
            UnitKind::Fleet
        } else {
            UnitKind::Army
        },
        location: map.lookup(at).expect(at),
    }
}

// ---------------------------------------------------------------- options

#[test]
fn create_with_masters_options_gives_minor_powers_and_great_powers_to_players() {
    let mut table = create("standard masters=MR1,MR2");
    let state = table.state();
    let m = state.masters.as_ref().expect("masters");
    assert_eq!(m.rules.options, "MR1,MR2".parse::<Options>().unwrap());
    assert_eq!(state.settings.variant, "masters");
    // Every player has a great power; none has a minor.
    for power in POWERS {
        assert_eq!(
            state.player_of(power).map(|m| m.address.clone()),
            Some(address(power))
        );
    }
    // Twelve minors, each with one army in its home center.
    let pos = table.position();
    let map = minors::standard();
    for name in ["Portugal", "Spain", "Belgium", "Tunis", "Norway", "Serbia"] {
        let p = map.power(name).expect(name);
        assert_eq!(pos.unit_count(p), 1, "{name}");
        assert_eq!(pos.centers_of(p).len(), 1, "{name}");
    }
    assert_eq!(unit_at(&mut table, "por"), Some(("Portugal".into(), 'A')));
    // Fixed once started.
    one_error(table.master_mail("SET MASTERS MR3\n"), "has started");
}

#[test]
fn set_masters_while_forming_and_bad_lists_refused() {
    let mut table = Table::created_by_mail(GAME, "");
    let a = no_errors(table.master_mail("SET MASTERS MR3, MR5\n"));
    assert!(a.reply_body.contains("MR3 Rebellion"), "{}", a.reply_body);
    let state = table.state();
    assert_eq!(
        state.masters.as_ref().unwrap().rules.options,
        "MR3,MR5".parse::<Options>().unwrap()
    );
    // Without MR1 the board is the standard one.
    assert_eq!(state.settings.variant, "standard");
    one_error(table.master_mail("SET MASTERS MR9\n"), "MR9");
    no_errors(table.master_mail("SET MASTERS NONE\n"));
    assert!(table.state().masters.is_none());
    // `masters` alone plays all six.
    let m = table.master.clone();
    no_errors(table.mail(&m, "CREATE ?mr2 gm-pw masters\n"));
    table.game = "mr2".into();
    let state = table.state();
    assert_eq!(state.masters.unwrap().rules.options, Options::all());
    assert_eq!(state.settings.variant, "masters");
}

// ---------------------------------------------------------------- MR1, MR2

/// Spring 1901 as the rule text's Fall 1901 example needs it.
fn spring_1901(table: &mut Table) {
    for (power, body) in [
        ("France", "F Bre - Gas\n"),
        ("Germany", "F Kie - Hel\nA Ber - Kie\n"),
        ("Italy", "F Nap - Tys\n"),
    ] {
        orders_ok(table, power, body);
    }
    process(table);
    assert_eq!(table.phase().to_string(), "F1901M");
}

#[test]
fn mr2_the_fall_1901_portugal_example_by_mail() {
    let mut table = create("standard masters=MR1,MR2");
    spring_1901(&mut table);
    let a = orders_ok(
        &mut table,
        "France",
        "F Gas -S- A Mar-Spa\nA Mar - Spa\nPortugal A Por -S- (French) A Mar-Spa\n",
    );
    assert!(
        a.reply_body.contains("variable control"),
        "{}",
        a.reply_body
    );
    orders_ok(
        &mut table,
        "Germany",
        "F Hel -S- A Kie-Den\nA Kie - Den\nPortugal A Por -S- (Spanish) A Spa\n",
    );
    orders_ok(
        &mut table,
        "Italy",
        // As the text writes it: a line naming the power, then its orders.
        "F TyS - Wes\nPortugal\nA Por -S- (Spanish) A Spa\nA Por -S- (Spanish) A Spa\n",
    );
    process(&mut table);
    // The Portuguese army supports the Spanish one: the French attack fails.
    assert_eq!(unit_at(&mut table, "spa"), Some(("Spain".into(), 'A')));
    assert_eq!(unit_at(&mut table, "mar"), Some(("France".into(), 'A')));
    assert_eq!(unit_at(&mut table, "den"), Some(("Germany".into(), 'A')));
    let report = last_report(&mut table);
    assert_says(
        &report,
        &[
            "Portugal: A POR S A SPA (3: Germany 1, Italy 2) - carried out",
            "Portugal: A POR S A MAR - SPA (1: France 1) - out-voted",
        ],
    );
    // Spain kept its center: the year's end shows it Spanish.
    assert_eq!(table.centers("Spain"), 1);
    // HISTORY shows the votes again.
    orders_ok(&mut table, "Italy", &format!("HISTORY {GAME}\n"));
    let history: String = table
        .outbox()
        .into_iter()
        .filter(|m| m.recipients.contains(&address("Italy")))
        .map(|m| m.body)
        .collect();
    assert!(
        history
            .matches("Portugal: A POR S A SPA (3: Germany 1, Italy 2)")
            .count()
            >= 2,
        "{history}"
    );
}

#[test]
fn mr2_france_alone_for_portugal_takes_spain() {
    let mut table = create("standard masters=MR1,MR2");
    spring_1901(&mut table);
    orders_ok(
        &mut table,
        "France",
        "F Gas S A Mar-Spa\nA Mar - Spa\nPortugal A Por S A Mar - Spa\n",
    );
    process(&mut table);
    assert_eq!(unit_at(&mut table, "spa"), Some(("France".into(), 'A')));
}

#[test]
fn mr2_ineligible_and_over_the_limit_orders_are_reported_and_not_counted() {
    let mut table = create("standard masters=MR1,MR2");
    spring_1901(&mut table);
    // A Mar stands next to Spain: France may not write for Spain. And France,
    // with three centers, writes three own orders and one more for Portugal.
    orders_ok(
        &mut table,
        "France",
        "Spain A Spa - Por\nF Gas - Mao\nA Mar - Pie\nA Par - Bur\nPortugal A Por - Spa\n",
    );
    process(&mut table);
    let report = last_report(&mut table);
    assert_says(
        &report,
        &[
            "Variable-control orders not counted:",
            "France: A SPA - POR - not eligible",
            "France: A POR - SPA - more orders than the 3 supply centers",
        ],
    );
    assert_eq!(unit_at(&mut table, "spa"), Some(("Spain".into(), 'A')));
    assert_eq!(unit_at(&mut table, "por"), Some(("Portugal".into(), 'A')));
}

#[test]
fn mr2_orders_for_minors_refused_without_variable_control() {
    let mut table = create("standard masters=MR1");
    one_error(
        orders(&mut table, "France", "Spain A Spa - Por\n"),
        "Variable Control (MR2)",
    );
    // Minors hold when nobody orders them; the board stays as it was.
    process(&mut table);
    assert_eq!(unit_at(&mut table, "spa"), Some(("Spain".into(), 'A')));
}

#[test]
fn mr2_a_later_mail_replaces_the_writers_orders_for_that_unit() {
    let mut table = create("standard masters=MR1,MR2");
    spring_1901(&mut table);
    orders_ok(
        &mut table,
        "Italy",
        "Portugal A Por - Spa\nPortugal A Por - Spa\n",
    );
    table.advance(chrono::Duration::minutes(1));
    orders_ok(&mut table, "Italy", "Portugal A Por H\n");
    let state = table.state();
    let kept = &state.masters.as_ref().unwrap().control["Italy"];
    assert_eq!(kept.len(), 1, "{kept:?}");
    process(&mut table);
    let report = last_report(&mut table);
    assert!(
        report.contains("Portugal: A POR H (1: Italy 1) - carried out"),
        "{report}"
    );
}

// ---------------------------------------------------------------- MR3

#[test]
fn mr3_the_moscow_example_by_mail() {
    let mut table = create("standard masters=MR3");
    set_board(
        &mut table,
        "W1901A",
        &[
            "Russia: A Gal",
            "Russia: A Rum",
            "Russia: F StP/sc",
            "Russia: F Sev",
            "Turkey: F Bla",
            "Turkey: A Bul",
            "Turkey: A Smy",
            "Germany: A Hol",
            "Germany: A Ruh",
            "Germany: F Kie",
        ],
        &[
            ("Russia", &["rum"]),
            ("Turkey", &["bul"]),
            ("Germany", &["hol"]),
        ],
    );
    orders_ok(&mut table, "Russia", "Build A Mos\n");
    orders_ok(&mut table, "Turkey", "Build Rebel A Mos\n");
    orders_ok(&mut table, "Germany", "build rebel a mos\n");
    process(&mut table);
    let state = table.state();
    let rebels = &state.masters.as_ref().unwrap().rules.rebels;
    assert_eq!(rebels.len(), 1, "{rebels:?}");
    assert_eq!(unit_at(&mut table, "mos"), Some(("power 7".into(), 'A')));
    let report = last_report(&mut table);
    assert_says(
        &report,
        &[
            "Rebels raised: Rebel A MOS in Moscow",
            "Russia: BUILD A MOS - not followed",
        ],
    );
    // Two builds raised one unit: it is listed once, with both powers (MR3 c).
    assert_eq!(
        report.matches("Rebel A MOS in Moscow").count(),
        1,
        "{report}"
    );
    assert!(
        report.contains("Rebel A MOS in Moscow (by Turkey and Germany)")
            || report.contains("Rebel A MOS in Moscow (by Germany and Turkey)"),
        "{report}"
    );
    assert_eq!(table.phase().to_string(), "S1902M");
    // Rolled back, the rebels are gone with the phase that raised them.
    no_errors(table.master_mail("ROLLBACK W1901A\n"));
    let state = table.state();
    assert!(state.masters.as_ref().unwrap().rules.rebels.is_empty());
    assert_eq!(unit_at(&mut table, "mos"), None);
}

#[test]
fn mr3_rebels_are_open_to_variable_control_with_mr2() {
    let mut table = create("standard masters=MR2,MR3");
    moscow_winter(&mut table);
    orders_ok(&mut table, "Turkey", "Build Rebel A Mos\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "mos"), Some(("power 7".into(), 'A')));
    // Spring 1902: Turkey sends the rebels into the Ukraine.
    orders_ok(&mut table, "Turkey", "A Mos - Ukr\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "ukr"), Some(("power 7".into(), 'A')));
    let report = last_report(&mut table);
    assert_says(
        &report,
        &[
            "Rebel A MOS: Army Moscow -> Ukraine.",
            "Rebel A MOS: A MOS - UKR (1: Turkey 1) - carried out",
        ],
    );
}

// ---------------------------------------------------------------- MR4

#[test]
fn mr4_the_austria_serbia_example_by_mail() {
    let mut table = create("standard masters=MR4");
    let austria = &[
        "Austria: A Ser",
        "Austria: A Bud",
        "Austria: F Tri",
        "Austria: A Gal",
    ];
    set_board(
        &mut table,
        "W1902A",
        austria,
        &[("Austria", &["ser", "gre"])],
    );
    // Serbia was Austrian at the previous adjustment too.
    table.edit_state(|s| {
        let map = Map::standard();
        let pos = s.position.as_ref().unwrap().to_position(map).unwrap();
        s.masters.as_mut().unwrap().rules.previous_owners = Some(pos.owners.clone());
    });
    orders_ok(&mut table, "Austria", "ANNEX Serbia\n");
    process(&mut table);
    let report = last_report(&mut table);
    assert!(report.contains("Annexed: Serbia by Austria"), "{report}");
    let pos = table.position();
    let map = Map::standard();
    let ser = map.lookup("ser").unwrap().province;
    assert!(pos.home_of(map.power("Austria").unwrap()).contains(ser));
    // 1903: Serbia empty and still Austrian: Austria builds there.
    orders_ok(&mut table, "Austria", "A Ser - Alb\n");
    process(&mut table);
    process(&mut table);
    assert_eq!(table.phase().to_string(), "W1903A");
    orders_ok(&mut table, "Austria", "Build A Ser\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "ser"), Some(("Austria".into(), 'A')));
}

// ---------------------------------------------------------------- MR5

/// Winter 1901: England with three units and four centers (Norway taken).
fn english_winter(table: &mut Table) {
    set_board(
        table,
        "W1901A",
        &["England: F Nwy", "England: F Nth", "England: A Yor"],
        &[("England", &["nwy"])],
    );
}

#[test]
fn mr5_englands_build_f_lvp_disband_a_yrk_by_mail() {
    let mut table = create("standard masters=MR5");
    english_winter(&mut table);
    orders_ok(&mut table, "England", "Build F Lvp\nDisband A Yrk\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "lvp"), Some(("England".into(), 'F')));
    assert_eq!(unit_at(&mut table, "yor"), None);
    let report = last_report(&mut table);
    assert!(
        report.contains("Voluntary disbands: England REMOVE A YOR"),
        "{report}"
    );
}

#[test]
fn mr5_off_a_disband_beyond_losses_is_void() {
    let mut table = create("standard masters=MR4");
    english_winter(&mut table);
    orders_ok(&mut table, "England", "Build F Lvp\nDisband A Yor\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "yor"), Some(("England".into(), 'A')));
    assert_eq!(unit_at(&mut table, "lvp"), Some(("England".into(), 'F')));
}

// ---------------------------------------------------------------- MR6

#[test]
fn mr6_the_france_italy_armenia_example_by_mail() {
    let mut table = create("standard masters=MR3,MR6");
    set_board(
        &mut table,
        "W1905A",
        &[
            "France: A Bel",
            "France: A Hol",
            "France: F Spa/nc",
            "France: A Mun",
            "France: F Mao",
            "France: A Bur",
            "Italy: A Rom",
            "Italy: F Nap",
            "Italy: A Tun",
            "Italy: F Ion",
            "#7: A Arm",
        ],
        &[
            ("France", &["bel", "hol", "spa", "mun", "por"]),
            ("Italy", &["tun"]),
        ],
    );
    rebel_from_smyrna(&mut table);
    orders_ok(&mut table, "France", "Aid Italy\nAid Rebel A Arm\n");
    orders_ok(&mut table, "Italy", "Build A Ven\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "ven"), Some(("Italy".into(), 'A')));
    assert_eq!(unit_at(&mut table, "arm"), Some(("power 7".into(), 'A')));
    let report = last_report(&mut table);
    assert!(
        report.contains("Aid given: France to Italy; France to Rebel A ARM"),
        "{report}"
    );
}

#[test]
fn a_rebel_removed_is_named_as_a_rebel_in_every_line() {
    let mut table = create("standard masters=MR3");
    set_board(
        &mut table,
        "W1905A",
        &["Italy: A Rom", "Italy: F Nap", "#7: A Arm"],
        &[("Italy", &["rom", "nap"])],
    );
    rebel_from_smyrna(&mut table);
    process(&mut table);
    // Without a center and without aid, the rebel owes its unit (MR3 e).
    assert_eq!(unit_at(&mut table, "arm"), None);
    let report = last_report(&mut table);
    assert!(report.contains("Rebel A ARM"), "{report}");
    assert!(!report.to_lowercase().contains("power 7"), "{report}");
    assert!(!report.to_lowercase().contains("power7"), "{report}");
}

#[test]
fn mr6_aid_refused_when_the_game_does_not_play_it() {
    let mut table = create("standard masters=MR3");
    english_winter(&mut table);
    one_error(
        orders(&mut table, "England", "Aid France\n"),
        "Foreign Aid (MR6) is not played",
    );
}

// ---------------------------------------------------------------- together

#[test]
fn all_six_rules_together_through_a_year() {
    let mut table = create("masters");
    spring_1901(&mut table);
    orders_ok(
        &mut table,
        "France",
        "F Gas S A Mar-Spa\nA Mar - Spa\nPortugal A Por S A Mar - Spa\n",
    );
    orders_ok(&mut table, "Germany", "F Hel S A Kie-Den\nA Kie - Den\n");
    process(&mut table);
    // The Danish army had nowhere to go; France took Spain.
    assert_eq!(unit_at(&mut table, "spa"), Some(("France".into(), 'A')));
    while table.phase().to_string() != "W1901A" {
        process(&mut table);
    }
    // France (4 centers, 3 units) aids Portugal; Germany (4, 3) builds; England
    // (3, 3) disbands A Lvp; Italy (3, 3) has nothing to give.
    orders_ok(&mut table, "France", "Aid Portugal\n");
    orders_ok(&mut table, "Germany", "Build A Ber\n");
    orders_ok(&mut table, "England", "Disband A Lvp\n");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "S1902M");
    assert_eq!(unit_at(&mut table, "ber"), Some(("Germany".into(), 'A')));
    assert_eq!(unit_at(&mut table, "lvp"), None);
    let report = last_report(&mut table);
    assert_says(
        &report,
        &[
            "Aid given: France to Portugal",
            "Voluntary disbands: England REMOVE A LVP",
        ],
    );
    // The minors are still in civil disorder, with their armies.
    assert_eq!(unit_at(&mut table, "por"), Some(("Portugal".into(), 'A')));
}

#[test]
fn players_sign_on_by_initial_though_minors_share_it() {
    let mut table = create("standard masters=MR1");
    for (initial, power) in [("G", "Germany"), ("T", "Turkey"), ("R", "Russia")] {
        let addr = address(power);
        let body = format!("SIGNON {initial}{GAME} {}\n", password(&addr));
        let a = no_errors(table.mail(&addr, &body));
        assert!(
            a.reply_body.contains(&format!("Signed on as {power}")),
            "{}",
            a.reply_body
        );
    }
    // An initial only minors have is no seat.
    let addr = address("France");
    let a = table.mail(&addr, &format!("SIGNON S{GAME} {}\n", password(&addr)));
    assert_eq!(a.errors, 1, "{}", a.reply_body);
}

// ---------------------------------------------------------------- retreats, draws

#[test]
fn mr2d_a_dislodged_minor_retreats_by_variable_control_one_order_per_player() {
    let mut table = create("standard masters=MR1,MR2");
    orders_ok(&mut table, "France", "A Par - Pic\nA Mar - Bur\n");
    process(&mut table);
    orders_ok(&mut table, "France", "A Pic - Bel\nA Bur S A Pic - Bel\n");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "F1901R");
    // Germany (three centers, but retreats have no limit) writes twice; the
    // second order for the same unit is not counted.
    orders_ok(
        &mut table,
        "Germany",
        "Belgium A Bel - Ruh\nBelgium A Bel D\n",
    );
    process(&mut table);
    assert_eq!(unit_at(&mut table, "ruh"), Some(("Belgium".into(), 'A')));
    let report = last_report(&mut table);
    assert!(
        report.contains("one retreat or disband order per player"),
        "{report}"
    );
}

#[test]
fn a_draw_is_voted_by_the_great_powers_only() {
    let mut table = create("standard masters=MR1,MR2");
    for power in POWERS {
        orders_ok(&mut table, power, "SET DRAW\n");
    }
    assert_eq!(table.state().status, Status::Finished);
}

#[test]
fn mr2e_a_minor_builds_by_the_votes_of_eligible_players() {
    let mut table = create("standard masters=MR1,MR2,MR5");
    set_board(
        &mut table,
        "W1901A",
        &[
            "Spain: A Gas",
            "Italy: A Rom",
            "Germany: A Ber",
            "England: F Lon",
            "France: A Par",
        ],
        &[("Spain", &["spa", "por"])],
    );
    let a = orders_ok(&mut table, "Italy", "Build A Spa\n");
    assert!(
        a.reply_body
            .contains("Masters adjustment orders for W1901A"),
        "{}",
        a.reply_body
    );
    orders_ok(&mut table, "Germany", "Build A Spa\n");
    orders_ok(&mut table, "England", "Build F Spa/nc\nRemove A Gas\n");
    // France's A Par stands next to no Spanish center, but Gascony is Spain's
    // unit, not its center: France may vote too, and votes for the fleet.
    orders_ok(&mut table, "France", "Build F Spa/sc\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "spa"), Some(("Spain".into(), 'A')));
    assert_eq!(unit_at(&mut table, "gas"), Some(("Spain".into(), 'A')));
    let report = last_report(&mut table);
    assert_says(
        &report,
        &[
            "Italy: BUILD A SPA - done",
            "England: BUILD F SPA/NC - not followed",
            "England: REMOVE A GAS - void (disbands of units in civil disorder",
        ],
    );
}

#[test]
fn nobody_may_ask_for_a_minor_power() {
    let mut table = Table::created_by_mail(GAME, "masters=MR1");
    assert_eq!(table.state().settings.variant, "masters");
    let addr = address("France");
    let body = format!(
        "SIGNON ?{GAME} {}\nSET PREFERENCE Portugal\n",
        password(&addr)
    );
    one_error(table.mail(&addr, &body), "nobody plays Portugal");
}

#[test]
fn set_variant_masters_plays_all_six_rules_with_minors() {
    let mut table = Table::created_by_mail(GAME, "");
    no_errors(table.master_mail("SET VARIANT masters\n"));
    join_all(&mut table);
    let state = table.state();
    assert_eq!(state.status, Status::Active);
    assert_eq!(
        state.masters.as_ref().unwrap().rules.options,
        Options::all()
    );
    assert_eq!(unit_at(&mut table, "por"), Some(("Portugal".into(), 'A')));
}

/// MR2 b: a player may leave own units without orders to spend the orders on
/// units in civil disorder; having written such orders, the power is not late.
#[test]
fn mr2_variable_control_instead_of_own_orders_is_not_late() {
    let mut table = create("standard masters=MR1,MR2");
    let late = |table: &mut Table| {
        let state = table.state();
        legate::game::advance::late_powers(
            legate::game::variants::of(&state),
            map_of(&state),
            &state,
        )
        .expect("late powers")
    };
    assert!(late(&mut table).contains(&"France".to_string()));
    orders_ok(
        &mut table,
        "France",
        "A Par - Bur\nA Mar H\nSpain: A Spa H\n",
    );
    assert!(
        !late(&mut table).contains(&"France".to_string()),
        "F Bre left without an order for a variable-control order"
    );
    // A power that wrote nothing at all is still late.
    assert!(late(&mut table).contains(&"England".to_string()));
}

/// Variable control is decided on the board of its own phase: an order for a
/// minor's unit in a PHASE block is refused when written, not voided later.
#[test]
fn mr2_variable_control_orders_for_a_later_phase_are_refused_at_once() {
    let mut table = create("standard masters=MR1,MR2");
    one_error(
        orders(
            &mut table,
            "France",
            "PHASE Fall 1901 Movement\nPortugal: A Por H\nA Par - Bur\n",
        ),
        "current phase",
    );
}

// ---------------------------------------------------------------- the master

/// The board of the MR3 Moscow example, Winter 1901.
fn moscow_winter(table: &mut Table) {
    set_board(
        table,
        "W1901A",
        &[
            "Russia: A Gal",
            "Russia: A Rum",
            "Russia: F StP/sc",
            "Russia: F Sev",
            "Turkey: F Bla",
            "Turkey: A Bul",
            "Turkey: A Smy",
        ],
        &[("Russia", &["rum"]), ("Turkey", &["bul"])],
    );
}

#[test]
fn rebels_are_named_in_list_and_history_and_the_adjustment_shows_as_played() {
    let mut table = create("standard masters=MR2,MR3");
    moscow_winter(&mut table);
    orders_ok(&mut table, "Turkey", "Build Rebel A Mos\n");
    process(&mut table);
    assert_eq!(unit_at(&mut table, "mos"), Some(("power 7".into(), 'A')));
    let a = orders(&mut table, "Turkey", &format!("LIST {GAME}\n"));
    assert!(a.reply_body.contains("Rebel A MOS"), "{}", a.reply_body);
    assert!(!a.reply_body.contains("power 7"), "{}", a.reply_body);
    orders_ok(&mut table, "Turkey", "A Mos - Ukr\n");
    process(&mut table);
    let a = orders(&mut table, "Italy", &format!("HISTORY {GAME}\n"));
    let h = a.reply_body;
    assert!(!h.contains("power 7"), "{h}");
    let (winter, spring) = h.split_at(h.find("Spring of 1902").expect("S1902M"));
    assert!(
        winter.contains("Rebels raised: Rebel A MOS in Moscow"),
        "the Masters lines of the adjustment: {winter}"
    );
    assert!(
        spring.contains("Rebel A MOS: Army Moscow -> Ukraine."),
        "{spring}"
    );
}

#[test]
fn the_master_becomes_a_power_for_masters_adjustment_orders() {
    let mut table = create("standard masters=MR3");
    moscow_winter(&mut table);
    no_errors(table.master_mail("BECOME Turkey\nBuild Rebel A Mos\n"));
    process(&mut table);
    let state = table.state();
    assert_eq!(state.masters.as_ref().unwrap().rules.rebels.len(), 1);
    assert_eq!(unit_at(&mut table, "mos"), Some(("power 7".into(), 'A')));
}
