//! Grand Tournament Diplomacy through the real engine and its SQLite file:
//! 22 players join by mail, the game's lot comes from a known secret, orders
//! and political orders arrive as mail text, and each deadline is processed by
//! the Gamemaster's PROCESS. Boards the rules need but openings do not give
//! are set up by editing the stored game, as a Gamemaster's adjustment would.

use crate::engine_common;

use engine_common::*;
use legate::game::model::Status;
use legate::game::variants::gtd::GtdGame;
use legate::map::{Map, Power, Province};

const GAME: &str = "tourney";

fn players() -> Vec<String> {
    (1..=22).map(|i| format!("p{i:02}")).collect()
}

fn addr(player: &str) -> String {
    format!("{player}@players.test")
}

fn map() -> &'static Map {
    Map::standard()
}

fn prov(at: &str) -> Province {
    map().lookup(at).expect(at).province
}

fn power(name: &str) -> Power {
    map().power(name).expect(name)
}

/// A started 22-player game; p01 and p02 ask for France first, p03 for England.
fn started() -> Table {
    let mut table = Table::created_by_mail(GAME, "gtd");
    for (i, p) in players().iter().enumerate() {
        let pref = match i {
            0 | 1 => "SET PREFERENCE F\n",
            2 => "SET PREFERENCE E\n",
            _ => "",
        };
        let body = format!("SIGNON ?{GAME} pw-{p}\n{pref}");
        no_errors(table.mail(&addr(p), &body));
    }
    assert_eq!(table.state().status, Status::Active);
    table
}

fn gtd(table: &mut Table) -> GtdGame {
    table.state().gtd.expect("a GTD game")
}

fn commander(table: &mut Table, at: &str) -> String {
    gtd(table)
        .state
        .commander_at(prov(at))
        .unwrap_or_else(|| panic!("nobody commands {at}"))
        .to_string()
}

fn head(table: &mut Table, country: &str) -> Option<String> {
    gtd(table)
        .state
        .country(power(country))
        .and_then(|c| c.hog.clone())
}

/// Mail from `player`: a sign-on, then `body`.
fn mail(table: &mut Table, player: &str, body: &str) -> legate::game::Applied {
    let text = format!("SIGNON ?{GAME} pw-{player}\n{body}\n");
    table.mail(&addr(player), &text)
}

fn ok(table: &mut Table, player: &str, body: &str) -> String {
    let a = mail(table, player, body);
    assert_eq!(a.errors, 0, "{player}: {}", a.reply_body);
    a.reply_body
}

fn process(table: &mut Table) {
    table.process_by_master();
}

/// The newest results mail to `player`.
fn report(table: &mut Table, player: &str) -> String {
    table.last_results_to(&addr(player))
}

/// Every variant's results carry the board picture: a GTD phase's results
/// mail has the PNG and the SVG, as a standard game's does.
#[test]
fn a_gtd_results_mail_carries_the_board_picture() {
    let mut table = started();
    process(&mut table);
    for reader in [addr("p01"), table.master.clone()] {
        let mail = table
            .mails_to(&reader, "S1901M results")
            .pop()
            .unwrap_or_else(|| panic!("no results mail to {reader}"));
        let files = table
            .engine
            .store()
            .transaction(|tx| tx.outbox_attachments(mail.id))
            .expect("attachments");
        let names: Vec<&str> = files.iter().map(|f| f.filename.as_str()).collect();
        assert_eq!(
            names,
            ["tourney-S1901M.png", "tourney-S1901M.svg"],
            "{reader}"
        );
        assert!(files[0].bytes.starts_with(b"\x89PNG"), "not a PNG");
        assert!(String::from_utf8_lossy(&files[1].bytes).contains("<svg"));
    }
}

// ------------------------------------------------------------------ start

#[test]
fn twenty_two_players_join_and_the_lot_gives_countries_units_and_heads() {
    let mut table = started();
    let game = gtd(&mut table);
    assert_eq!(game.seats.len(), 22);
    let s = table.state();
    let position = s.position.clone().unwrap().to_position(map()).unwrap();
    let mut commanders: Vec<String> = position
        .units
        .iter()
        .map(|u| game.state.commander_at(u.province()).unwrap().to_string())
        .collect();
    commanders.sort();
    assert_eq!(commanders, players(), "one unit each");
    for (country, army) in [("England", "lvp"), ("France", "par"), ("Russia", "mos")] {
        assert_eq!(head(&mut table, country), Some(commander(&mut table, army)));
    }
    // Preferences honoured: p01 and p02 in France, p03 in England.
    let france = power("France");
    for p in ["p01", "p02"] {
        assert_eq!(game.state.commanded(&position, france, p).len(), 1, "{p}");
    }
    assert_eq!(
        game.state
            .commanded(&position, power("England"), "p03")
            .len(),
        1
    );
    // The lot is auditable against the game's commitment: the table's first
    // secret is 32 bytes of 1.
    assert!(!s.draws.is_empty());
    let commitment = s.lot_commitment.clone().expect("commitment");
    let secret = legate::lots::LotSecret([1; 32]);
    assert!(legate::lots::verify(&secret, &commitment, &s.draws).is_empty());
    assert_eq!(s.draws.len(), game.state.draws.len());
    assert_eq!(s.settings.rules, "1971");
    let announce = table
        .outbox()
        .into_iter()
        .find(|m| m.recipients.contains(&addr("p05")) && m.subject.contains("starting"))
        .expect("announcement");
    assert_says(
        &announce.body,
        &["BUILD A PAR COMMANDER", "head of government"],
    );
}

#[test]
fn each_player_orders_only_the_units_they_command() {
    let mut table = started();
    let lvp = commander(&mut table, "lvp");
    let edi = commander(&mut table, "edi");
    let reply = ok(&mut table, &lvp, "A LVP - YOR");
    assert!(reply.contains("A LVP - YOR"), "{reply}");
    one_error(mail(&mut table, &edi, "A LVP - WAL"), "does not command");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "F1901M");
    let s = table.state();
    let pos = s.position.unwrap().to_position(map()).unwrap();
    assert!(pos.unit_at(prov("yor")).is_some());
    assert_eq!(
        gtd(&mut table).state.commander_at(prov("yor")),
        Some(lvp.as_str())
    );
    let r = report(&mut table, &edi);
    assert_says(&r, &["A LVP - YOR", &lvp, "You command"]);
}

// ------------------------------------------------------------------ boards

/// One unit of a hand-made board: country, `A`/`F`, place, commander.
type U<'a> = (&'a str, &'a str, &'a str, &'a str);

/// Puts `units` on the board in `phase` with their commanders; `owners`
/// override the centers' owners.
fn board(table: &mut Table, phase: &str, units: &[U<'_>], owners: &[(&str, &str)]) {
    table.edit_state(|s| {
        let pos = s.position.as_mut().expect("board");
        pos.phase = phase.to_string();
        pos.units = units
            .iter()
            .map(|(c, k, at, _)| legate::docs::UnitDoc {
                power: c.to_string(),
                kind: k.to_string(),
                at: at.to_uppercase(),
            })
            .collect();
        pos.dislodged.clear();
        for (at, c) in owners {
            pos.owners.insert(at.to_uppercase(), c.to_string());
        }
        let g = s.gtd.as_mut().expect("gtd");
        g.state.commands.clear();
        for (_, _, at, who) in units {
            g.state.set_commander(prov(at), Some(who.to_string()));
        }
        s.orders.clear();
    });
}

fn set_head(table: &mut Table, country: &str, who: &str) {
    let p = power(country);
    let who = who.to_string();
    table.edit_state(move |s| {
        let g = s.gtd.as_mut().expect("gtd");
        g.state.country_mut(p).expect("country").hog = Some(who);
    });
}

/// The country of the unit in `at`.
fn unit_power(table: &mut Table, at: &str) -> Option<Power> {
    table.position().unit_at(prov(at)).map(|u| u.power)
}

// ------------------------------------------------------------------ rules 4-5

#[test]
fn a_unit_dislodges_a_unit_of_its_own_country_under_another_commander() {
    let mut table = started();
    let (ber, mun, kie) = (
        commander(&mut table, "ber"),
        commander(&mut table, "mun"),
        commander(&mut table, "kie"),
    );
    ok(&mut table, &mun, "A MUN - BER");
    ok(&mut table, &kie, "F KIE S A MUN - BER");
    ok(&mut table, &ber, "A BER H");
    process(&mut table);
    let s = table.state();
    assert_eq!(
        s.phase_name(),
        Some("S1901R"),
        "rule 4: the German army in Berlin is dislodged"
    );
    let pos = table.position();
    assert_eq!(pos.dislodged[0].unit.province(), prov("ber"));
    assert_eq!(
        gtd(&mut table).state.commander_at(prov("ber")),
        Some(mun.as_str())
    );
    let r = report(&mut table, &ber);
    assert!(r.contains("(dislodged: retreats or disbands)"), "{r}");
    // The dislodged unit's commander orders its retreat.
    let a = mail(&mut table, &mun, "A BER - PRU");
    assert_eq!(
        a.errors, 1,
        "only the dislodged unit's commander: {}",
        a.reply_body
    );
    ok(&mut table, &ber, "A BER - PRU");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "F1901M");
    assert_eq!(
        gtd(&mut table).state.commander_at(prov("pru")),
        Some(ber.as_str())
    );
    let r = report(&mut table, &kie);
    assert!(r.contains("A BER - PRU"), "{r}");
}

#[test]
fn no_unit_attacks_a_unit_of_the_same_commander() {
    let mut table = started();
    let mun = commander(&mut table, "mun");
    let kie = commander(&mut table, "kie");
    // The commander of Munich also commands Berlin.
    table.edit_state(|s| {
        let g = s.gtd.as_mut().unwrap();
        g.state.set_commander(prov("ber"), Some(mun.clone()));
    });
    ok(&mut table, &mun, "A MUN - BER\nA BER H");
    ok(&mut table, &kie, "F KIE S A MUN - BER");
    process(&mut table);
    assert_eq!(
        table.phase().to_string(),
        "F1901M",
        "rule 5: no dislodgement"
    );
    let pos = table.position();
    assert_eq!(
        pos.unit_at(prov("ber")).map(|u| u.power),
        Some(power("Germany"))
    );
    assert_eq!(
        pos.unit_at(prov("mun")).map(|u| u.power),
        Some(power("Germany"))
    );
}

// ------------------------------------------------------------------ rule 9

/// A Winter board of Germany with `n` armies, the first `mine` commanded by
/// `q`, the rest by others; centers enough for one build in Kiel; `hog` the
/// head of government.
fn german_winter(table: &mut Table, n: usize, mine: usize, q: &str, hog: &str) {
    const PLACES: [&str; 11] = [
        "ber", "mun", "hol", "den", "bel", "ruh", "sil", "pru", "boh", "tyr", "bur",
    ];
    const CENTERS: [&str; 13] = [
        "ber", "kie", "mun", "hol", "den", "bel", "swe", "nwy", "war", "par", "mar", "vie", "bud",
    ];
    let others = ["p20", "p21", "p22", "p19", "p18", "p17", "p16", "p15"];
    let mut units: Vec<U<'_>> = Vec::new();
    for (i, at) in PLACES.iter().take(n).enumerate() {
        let who = if i < mine {
            q
        } else {
            others[(i - mine) % others.len()]
        };
        units.push(("Germany", "A", at, who));
    }
    let owners: Vec<(&str, &str)> = CENTERS
        .iter()
        .take(n + 1)
        .map(|c| (*c, "Germany"))
        .collect();
    board(table, "W1901A", &units, &owners);
    set_head(table, "Germany", hog);
}

/// Germany no longer owns Kiel: no build owed.
fn kiel_lost(table: &mut Table) {
    table.edit_state(|s| {
        let pos = s.position.as_mut().unwrap();
        pos.owners.retain(|c, p| p != "Germany" || c != "KIE");
    });
}

fn build_refusal(table: &mut Table, hog: &str, line: &str) -> String {
    ok(table, hog, line);
    process(table);
    let r = report(table, hog);
    assert_eq!(table.phase().to_string(), "S1902M");
    r
}

#[test]
fn a_build_for_the_head_of_governments_second_unit_is_refused_9c() {
    let mut table = started();
    german_winter(&mut table, 3, 1, "p01", "p01");
    let r = build_refusal(&mut table, "p01", "BUILD A KIE COMMANDER p01");
    assert!(r.contains("rule 9(C)"), "{r}");
    assert!(table.position().unit_at(prov("kie")).is_none());
}

#[test]
fn a_build_giving_more_than_half_is_refused_9d() {
    let mut table = started();
    german_winter(&mut table, 4, 2, "p02", "p19");
    let r = build_refusal(&mut table, "p19", "BUILD A KIE COMMANDER p02");
    assert!(r.contains("rule 9(D)"), "{r}");
    // The same build for a player within the limits is made.
    let mut table = started();
    german_winter(&mut table, 4, 2, "p02", "p19");
    build_refusal(&mut table, "p19", "BUILD A KIE COMMANDER p03");
    assert_eq!(gtd(&mut table).state.commander_at(prov("kie")), Some("p03"));
}

#[test]
fn a_build_giving_a_sixth_unit_is_refused_9e() {
    let mut table = started();
    german_winter(&mut table, 11, 5, "p02", "p19");
    let r = build_refusal(&mut table, "p19", "BUILD A KIE COMMANDER p02");
    assert!(r.contains("rule 9(E)"), "{r}");
}

#[test]
fn a_build_giving_a_fourth_unit_of_a_small_country_is_refused_9f() {
    let mut table = started();
    german_winter(&mut table, 7, 3, "p02", "p19");
    let r = build_refusal(&mut table, "p19", "BUILD A KIE COMMANDER p02");
    assert!(r.contains("rule 9(F)"), "{r}");
}

#[test]
fn only_the_head_of_government_builds_and_a_build_names_a_commander() {
    let mut table = started();
    german_winter(&mut table, 3, 1, "p01", "p19");
    let a = mail(&mut table, "p01", "BUILD A KIE");
    assert_eq!(a.errors, 1);
    assert!(a.reply_body.contains("rule 9(B)"), "{}", a.reply_body);
    let r = build_refusal(&mut table, "p01", "BUILD A KIE COMMANDER p01");
    assert!(r.contains("not head of government"), "{r}");
}

// ------------------------------------------------------------------ rules 14-17

#[test]
fn an_insurrection_holds_two_elections_and_the_second_elects() {
    let mut table = started();
    let (par, mar, bre) = (
        commander(&mut table, "par"),
        commander(&mut table, "mar"),
        commander(&mut table, "bre"),
    );
    // Spring: Paris declares insurrection; each commander votes for themselves.
    ok(
        &mut table,
        &par,
        "A PAR DECLARE INSURRECTION\nA PAR H\nVOTE France FOR {par}"
            .replace("{par}", &par)
            .as_str(),
    );
    ok(&mut table, &mar, &format!("A MAR H\nVOTE France FOR {mar}"));
    ok(&mut table, &bre, &format!("F BRE H\nVOTE France FOR {bre}"));
    process(&mut table);
    let g = gtd(&mut table);
    let france = g.state.country(power("France")).unwrap();
    assert!(france.insurrection, "rule 14");
    assert_eq!(
        france.successor, None,
        "17(C): nobody has more than half the units"
    );
    let r = report(&mut table, &bre);
    assert_says(
        &r,
        &["civil insurrection", "Election in France", "nobody elected"],
    );
    // Fall: the insurrection goes on; a majority of the votes cast elects.
    ok(&mut table, &par, &format!("VOTE France FOR {par}"));
    ok(&mut table, &mar, &format!("VOTE France FOR {mar}"));
    ok(&mut table, &bre, &format!("VOTE France FOR {mar}"));
    process(&mut table);
    assert_eq!(table.phase().to_string(), "W1901A");
    assert_eq!(
        head(&mut table, "France"),
        Some(mar.clone()),
        "17(D), in office from the Winter"
    );
    let r = report(&mut table, &par);
    assert!(r.contains(&format!("elected: {mar}")), "{r}");
    assert!(
        r.contains(&format!("{bre} votes 1 for {mar}")),
        "all votes are published: {r}"
    );
}

#[test]
fn the_head_of_government_has_no_powers_during_an_insurrection() {
    let mut table = started();
    let par = commander(&mut table, "par");
    let hog = head(&mut table, "France").unwrap();
    ok(&mut table, &par, "A PAR DECLARE INSURRECTION");
    process(&mut table);
    assert!(
        gtd(&mut table)
            .state
            .country(power("France"))
            .unwrap()
            .insurrection
    );
    // From the season after the declaration, the head may not accept defections.
    let bur = commander(&mut table, "mun");
    ok(&mut table, &bur, "A MUN DEFECT TO France");
    ok(&mut table, &hog, "ACCEPT DEFECTION A MUN");
    process(&mut table);
    let r = report(&mut table, &hog);
    assert!(r.contains("rule 15"), "{r}");
    assert_eq!(unit_power(&mut table, "mun"), Some(power("Germany")));
}

// ------------------------------------------------------------------ rules 18-21

#[test]
fn a_secession_with_a_defection_to_the_new_country() {
    let mut table = started();
    let bre = commander(&mut table, "bre");
    let mar = commander(&mut table, "mar");
    ok(
        &mut table,
        &bre,
        "F BRE DECLARE INDEPENDENCE \"Brittany\" HOME BRE PAR MAR\nACCEPT DEFECTION A MAR",
    );
    ok(&mut table, &mar, "A MAR DEFECT TO Brittany\nA MAR - GAS");
    process(&mut table);
    let g = gtd(&mut table);
    let brittany = g
        .state
        .country_named("Brittany")
        .expect("rule 18: a new country");
    assert_eq!(
        g.state.country(brittany).unwrap().hog.as_deref(),
        Some(bre.as_str())
    );
    let pos = table.position();
    assert_eq!(pos.unit_at(prov("bre")).map(|u| u.power), Some(brittany));
    assert_eq!(
        pos.unit_at(prov("gas")).map(|u| u.power),
        Some(brittany),
        "20: it defected and moved"
    );
    assert_eq!(
        g.state.commander_at(prov("gas")),
        Some(mar.as_str()),
        "with its commander"
    );
    // Centers change hands only at the end of a Fall.
    assert_eq!(pos.owner(prov("bre")), Some(power("France")));
    let r = report(&mut table, "p10");
    assert!(r.contains("New country (rule 18): Brittany"), "{r}");
    // The new country's units are ordered the next season like any other.
    ok(&mut table, &mar, "A GAS - SPA");
    ok(&mut table, &bre, "F BRE H");
    process(&mut table);
    let pos = table.position();
    assert_eq!(pos.unit_at(prov("spa")).map(|u| u.power), Some(brittany));
    assert_eq!(pos.owner(prov("spa")), Some(brittany));
    assert_eq!(pos.owner(prov("bre")), Some(brittany));
    assert_eq!(table.phase().to_string(), "W1901A");
    // LIST and SUMMARY name the new country, not its number.
    let list = ok(&mut table, "p10", &format!("LIST {GAME}\nSUMMARY {GAME}"));
    assert_says(&list, &["Brittany   F BRE", "Brittany 2"]);
    assert!(!list.contains("power 7"), "{list}");
}

#[test]
fn a_head_of_government_with_ten_wasted_acceptances_accepts_no_more() {
    let mut table = started();
    let hog = head(&mut table, "Germany").unwrap();
    table.edit_state(|s| {
        let g = s.gtd.as_mut().unwrap();
        g.state
            .country_mut(power("Germany"))
            .unwrap()
            .wasted_acceptances = 9;
    });
    // An acceptance of a unit that does not defect is the tenth wasted one.
    ok(&mut table, &hog, "ACCEPT DEFECTION A WAR");
    process(&mut table);
    assert_eq!(
        gtd(&mut table)
            .state
            .country(power("Germany"))
            .unwrap()
            .wasted_acceptances,
        10
    );
    let war = commander(&mut table, "war");
    ok(&mut table, &war, "A WAR DEFECT TO Germany");
    ok(&mut table, &hog, "ACCEPT DEFECTION A WAR");
    process(&mut table);
    let r = report(&mut table, &war);
    assert!(r.contains("rule 21"), "{r}");
    assert_eq!(unit_power(&mut table, "war"), Some(power("Russia")));
}

// ------------------------------------------------------------------ rules 22-25

#[test]
fn a_dead_head_of_government_is_succeeded_and_a_stand_by_player_enters() {
    let mut table = started();
    let hog = head(&mut table, "England").unwrap();
    let lvp = commander(&mut table, "lvp");
    assert_eq!(hog, lvp);
    let edi = commander(&mut table, "edi");
    // One commander besides the head: the London fleet is also Edinburgh's.
    table.edit_state(|s| {
        let g = s.gtd.as_mut().unwrap();
        g.state.set_commander(prov("lon"), Some(edi.clone()));
    });
    // A 23rd player joins the stand-by list (rule 1).
    no_errors(ask(&mut table, "p23"));
    no_errors(table.master_mail("APPROVE p23"));
    assert!(gtd(&mut table).state.standby.contains(&"p23".to_string()));
    let reply = ok(&mut table, &hog, "RESIGN");
    assert!(reply.contains("resigned"), "{reply}");
    assert_eq!(head(&mut table, "England"), Some(edi.clone()), "rule 24(E)");
    // The new head gives the dead commander's army to the stand-by player (23).
    ok(&mut table, &edi, "APPOINT p23 TO A LVP");
    process(&mut table);
    let g = gtd(&mut table);
    assert_eq!(g.state.commander_at(prov("lvp")), Some("p23"));
    assert!(
        g.state.is_active("p23"),
        "rule 1: appointed, the stand-by player plays"
    );
    let r = report(&mut table, "p23");
    assert!(r.contains("You command: A LVP (England)"), "{r}");
    let a = mail(&mut table, &hog, "A LVP - YOR");
    assert_eq!(a.errors, 1, "a resigned player's orders do not count");
    ok(&mut table, "p23", "A LVP - YOR");
}

#[test]
fn a_dead_head_of_government_with_several_commanders_left_gets_an_election() {
    let mut table = started();
    let hog = head(&mut table, "England").unwrap();
    let edi = commander(&mut table, "edi");
    let lon = commander(&mut table, "lon");
    ok(&mut table, &hog, "RESIGN");
    assert_eq!(head(&mut table, "England"), None);
    process(&mut table);
    // 24(A): the election is the season after the death.
    ok(&mut table, &edi, &format!("VOTE England FOR {edi}"));
    ok(&mut table, &lon, &format!("VOTE England FOR {edi}"));
    process(&mut table);
    assert_eq!(head(&mut table, "England"), Some(edi.clone()));
}

#[test]
fn abdication_to_a_commander_who_accepts() {
    let mut table = started();
    let hog = head(&mut table, "Turkey").unwrap();
    let smy = commander(&mut table, "smy");
    assert_ne!(hog, smy);
    ok(&mut table, &hog, &format!("ABDICATE TO {smy}"));
    ok(&mut table, &smy, "ACCEPT SUCCESSION Turkey");
    ok(&mut table, &hog, "RENAME Turkey \"Anatolia\"");
    process(&mut table);
    assert_eq!(head(&mut table, "Turkey"), Some(smy), "rule 25");
    let g = gtd(&mut table);
    assert_eq!(
        g.state.country(power("Turkey")).unwrap().name,
        "Anatolia",
        "rule 26"
    );
}

// ------------------------------------------------------------------ rules 10-12

#[test]
fn excess_units_not_redistributed_are_removed_by_lot() {
    let mut table = started();
    // p02 commands three of Germany's four units: one more than half (11 D).
    german_winter(&mut table, 4, 3, "p02", "p19");
    kiel_lost(&mut table);
    process(&mut table);
    let pos = table.position();
    assert_eq!(pos.unit_count(power("Germany")), 3);
    let g = gtd(&mut table);
    assert_eq!(g.state.commanded(&pos, power("Germany"), "p02").len(), 2);
    assert!(g.state.draws.iter().any(|d| d.purpose.contains("11(F)")));
    let r = report(&mut table, "p02");
    assert!(r.contains("removed by lot (rule 11(F))"), "{r}");
}

#[test]
fn a_redistribution_by_the_head_keeps_every_unit() {
    let mut table = started();
    german_winter(&mut table, 4, 3, "p02", "p19");
    kiel_lost(&mut table);
    ok(&mut table, "p19", "APPOINT p05 TO A BER");
    process(&mut table);
    let pos = table.position();
    assert_eq!(pos.unit_count(power("Germany")), 4);
    assert_eq!(gtd(&mut table).state.commander_at(prov("ber")), Some("p05"));
}

#[test]
fn removals_not_ordered_are_drawn_among_units_off_supply_centers() {
    let mut table = started();
    german_winter(&mut table, 4, 1, "p02", "p19");
    // Germany keeps two centers for four units: two removals owed.
    table.edit_state(|s| {
        let pos = s.position.as_mut().unwrap();
        for c in ["KIE", "HOL", "DEN"] {
            pos.owners.remove(c);
        }
    });
    ok(&mut table, "p19", "REMOVE A BER");
    process(&mut table);
    let pos = table.position();
    assert_eq!(pos.unit_count(power("Germany")), 2);
    assert!(pos.unit_at(prov("ber")).is_none(), "the head's removal");
    let g = gtd(&mut table);
    assert!(g.state.draws.iter().any(|d| d.purpose.contains("10(B)")));
}

// ------------------------------------------------------------------ rule 2

#[test]
fn eighteen_centers_end_the_game_with_the_final_place_list() {
    let mut table = started();
    let units: Vec<U<'_>> = vec![
        ("Germany", "A", "ruh", "p01"),
        ("Germany", "A", "mun", "p02"),
        ("Germany", "F", "kie", "p03"),
        ("Germany", "A", "ber", "p04"),
        ("Russia", "A", "ukr", "p05"),
        ("Russia", "F", "bla", "p06"),
        ("Turkey", "A", "arm", "p07"),
    ];
    let mut owners: Vec<(&str, &str)> = [
        "ber", "kie", "mun", "edi", "lon", "lvp", "bre", "par", "mar", "rom", "nap", "ven", "vie",
        "bud", "tri", "hol", "den",
    ]
    .iter()
    .map(|c| (*c, "Germany"))
    .collect();
    owners.push(("sev", "Russia"));
    owners.push(("mos", "Russia"));
    board(&mut table, "F1905M", &units, &owners);
    set_head(&mut table, "Germany", "p04");
    set_head(&mut table, "Russia", "p05");
    set_head(&mut table, "Turkey", "p07");
    ok(&mut table, "p01", "A RUH - BEL");
    process(&mut table);
    let s = table.state();
    assert_eq!(s.status, Status::Finished);
    let list = table
        .outbox()
        .into_iter()
        .find(|m| m.recipients.contains(&addr("p09")) && m.subject.contains("Final Place List"))
        .expect("the Final Place List is mailed");
    let body = list.body;
    let first = body
        .lines()
        .find(|l| l.trim_start().starts_with("1."))
        .unwrap_or("");
    assert!(
        first.contains("p04"),
        "2(C): the head of the biggest country first: {body}"
    );
    let pos = |who: &str| body.find(&format!(" {who} ")).unwrap_or(usize::MAX);
    assert!(pos("p04") < pos("p01"), "{body}");
    assert!(
        pos("p01") < pos("p05"),
        "its commanders before other heads: {body}"
    );
    assert!(
        pos("p05") < pos("p06"),
        "heads before the other survivors: {body}"
    );
}

#[test]
fn replies_list_the_writers_orders_and_a_later_order_replaces_an_earlier_one() {
    let mut table = started();
    let lvp = commander(&mut table, "lvp");
    ok(&mut table, &lvp, "A LVP - YOR");
    let reply = ok(&mut table, &lvp, "A LVP - WAL");
    let tail = &reply[reply.find("Your orders so far").expect(&reply)..];
    assert!(tail.contains("A LVP - WAL"), "{reply}");
    assert!(!tail.contains("A LVP - YOR"), "{reply}");
}

#[test]
fn the_gamemaster_removes_a_silent_player() {
    let mut table = started();
    let war = commander(&mut table, "war");
    process(&mut table);
    process(&mut table);
    // Two seasons without orders: the Gamemaster is told (rule 22).
    let gm = table.last_results_to("gm@judge.test");
    assert_says(&gm, &["rule 22", &war]);
    no_errors(table.master_mail(&format!("EJECT {}\n", addr(&war))));
    assert!(!gtd(&mut table).state.is_active(&war));
    let a = mail(&mut table, &war, "REMOVE A WAR");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
}

#[test]
fn a_player_appointed_to_a_dead_commanders_unit_orders_it_the_same_season() {
    let mut table = started();
    let hog = head(&mut table, "England").unwrap();
    let edi = commander(&mut table, "edi");
    // A French commander takes the fleet (rule 9 counts units per country).
    let par = commander(&mut table, "par");
    ok(&mut table, &edi, "RESIGN");
    // The new commander's order is written before the head's appointment.
    ok(&mut table, &par, "F EDI - NTH\nA PAR - BUR");
    ok(&mut table, &hog, &format!("APPOINT {par} TO F EDI"));
    process(&mut table);
    let pos = table.position();
    assert_eq!(
        pos.unit_at(prov("nth")).map(|u| u.power),
        Some(power("England"))
    );
    assert_eq!(
        gtd(&mut table).state.commander_at(prov("nth")),
        Some(par.as_str())
    );
    // Without an appointment the order does not count: the fleet holds.
    let mut table = started();
    let edi = commander(&mut table, "edi");
    let lon = commander(&mut table, "lon");
    ok(&mut table, &edi, "RESIGN");
    ok(&mut table, &lon, "F EDI - NTH");
    process(&mut table);
    assert!(table.position().unit_at(prov("edi")).is_some());
    let r = report(&mut table, &lon);
    assert!(r.contains("does not command the unit in EDI"), "{r}");
}

#[test]
fn the_gamemaster_gives_a_country_and_vetoes_a_name() {
    let mut table = started();
    let hog = head(&mut table, "England").unwrap();
    ok(&mut table, &hog, "RESIGN");
    ask(&mut table, "p23");
    no_errors(table.master_mail("APPROVE p23\nAPPOINT p23 TO England"));
    assert_eq!(head(&mut table, "England"), Some("p23".to_string()));
    assert!(
        gtd(&mut table).state.is_active("p23"),
        "rule 1: p23 enters the game"
    );
    // A player may not give a country.
    let a = mail(&mut table, "p23", "APPOINT p22 TO England");
    assert_eq!(a.errors, 1, "{}", a.reply_body);

    let turkey = head(&mut table, "Turkey").unwrap();
    ok(&mut table, &turkey, "RENAME Turkey \"Anatolia\"");
    no_errors(table.master_mail("RENAME Turkey \"Turkey\""));
    process(&mut table);
    assert_eq!(
        gtd(&mut table).state.country(power("Turkey")).unwrap().name,
        "Turkey"
    );
}

#[test]
fn the_fall_report_tells_the_head_what_to_redistribute() {
    let mut table = started();
    let units: Vec<U<'_>> = vec![
        ("Germany", "A", "ber", "p02"),
        ("Germany", "A", "mun", "p02"),
        ("Germany", "A", "kie", "p02"),
        ("Germany", "A", "ruh", "p19"),
    ];
    board(&mut table, "F1901M", &units, &[("hol", "Germany")]);
    set_head(&mut table, "Germany", "p19");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "W1901A");
    let r = report(&mut table, "p19");
    assert_says(
        &r,
        &[
            "Winter duties as head of government of Germany",
            "redistribute 1 unit(s) commanded by p02",
        ],
    );
}

#[test]
fn a_purge_in_a_small_country_is_refused() {
    let mut table = started();
    // Germany has four units, all commanded within the limits: nothing to
    // redistribute, so an appointment is a purge, and six units or fewer allow none.
    german_winter(&mut table, 4, 1, "p02", "p19");
    kiel_lost(&mut table);
    ok(&mut table, "p19", "APPOINT p05 TO A BER");
    process(&mut table);
    let r = report(&mut table, "p19");
    assert!(r.contains("rule 12"), "{r}");
    assert_eq!(gtd(&mut table).state.commander_at(prov("ber")), Some("p02"));
}

#[test]
fn a_country_left_by_its_head_and_every_commander_is_given_to_stand_by_players_by_lot() {
    let mut table = started();
    for p in ["p23", "p24", "p25", "p26"] {
        no_errors(ask(&mut table, p));
        no_errors(table.master_mail(&format!("APPROVE {p}")));
    }
    let italians: Vec<String> = ["nap", "rom", "ven"]
        .iter()
        .map(|at| commander(&mut table, at))
        .collect();
    for p in &italians {
        ok(&mut table, p, "RESIGN");
    }
    process(&mut table);
    let g = gtd(&mut table);
    let head = g
        .state
        .country(power("Italy"))
        .unwrap()
        .hog
        .clone()
        .expect("rule 27: a head");
    assert!(
        ["p23", "p24", "p25", "p26"].contains(&head.as_str()),
        "{head}"
    );
    for at in ["nap", "rom", "ven"] {
        let c = g
            .state
            .commander_at(prov(at))
            .expect("a commander")
            .to_string();
        assert!(g.state.is_active(&c) && !italians.contains(&c), "{at}: {c}");
    }
    assert!(g.state.draws.iter().any(|d| d.purpose.contains("rule 27")));
}

#[test]
fn players_send_press_to_a_country_and_to_all() {
    let mut table = started();
    let lvp = commander(&mut table, "lvp");
    let edi = commander(&mut table, "edi");
    let par = commander(&mut table, "par");
    ok(
        &mut table,
        &par,
        "PRESS TO England\nShall we share the Channel?\nENDPRESS",
    );
    let got = |table: &mut Table, who: &str| {
        table
            .outbox()
            .into_iter()
            .filter(|m| m.recipients.contains(&addr(who)) && m.subject.contains("Press"))
            .count()
    };
    assert_eq!(got(&mut table, &lvp), 1);
    assert_eq!(got(&mut table, &edi), 1);
    let mos = commander(&mut table, "mos");
    assert_eq!(got(&mut table, &mos), 0, "press to England only");
    let press = table
        .outbox()
        .into_iter()
        .find(|m| m.recipients.contains(&addr(&lvp)) && m.subject.contains("Press"))
        .unwrap();
    assert!(
        press.body.contains(&format!("Press from {par}")),
        "{}",
        press.body
    );
    ok(&mut table, &par, "BROADCAST\nHello all\nENDPRESS");
    assert_eq!(got(&mut table, &mos), 1);
}

#[test]
fn other_rules_than_1971_are_refused() {
    let mut table = started();
    process(&mut table);
    one_error(table.master_mail("SET RULES 2023"), "rule 3");
    assert_eq!(table.phase().to_string(), "F1901M");
    assert_eq!(table.state().settings.rules, "1971");
}

#[test]
fn the_deadline_plays_the_phase_without_the_gamemaster() {
    let mut table = started();
    let lvp = commander(&mut table, "lvp");
    ok(&mut table, &lvp, "A LVP - YOR");
    let deadline = table.deadline();
    let early = table
        .engine
        .process_due(deadline - chrono::Duration::minutes(1))
        .unwrap();
    assert_eq!(early, 0);
    assert_eq!(table.phase().to_string(), "S1901M");
    table.engine.process_due(deadline).unwrap();
    assert_eq!(table.phase().to_string(), "F1901M");
    assert!(table.position().unit_at(prov("yor")).is_some());
    assert!(
        table.deadline() > deadline,
        "the next phase has its own deadline"
    );
}

#[test]
fn a_winter_without_orders_is_no_silent_season() {
    let mut table = started();
    let war = commander(&mut table, "war");
    let others: Vec<String> = players().into_iter().filter(|p| *p != war).collect();
    let hold = |table: &mut Table, who: &[String]| {
        for p in who {
            let at = {
                let g = gtd(table);
                let pos = table.position();
                pos.units
                    .iter()
                    .find(|u| g.state.commander_at(u.province()) == Some(p.as_str()))
                    .map(|u| map().abbr(u.province()).to_uppercase())
            };
            if let Some(at) = at {
                let kind = table.position().unit_at(prov(&at)).unwrap().kind.letter();
                ok(table, p, &format!("{kind} {at} H"));
            }
        }
    };
    // Spring: war is silent, everyone else orders.
    hold(&mut table, &others);
    process(&mut table);
    // Fall: war orders; then a Winter in which nobody writes.
    hold(&mut table, std::slice::from_ref(&war));
    process(&mut table);
    assert_eq!(table.phase().to_string(), "W1901A");
    process(&mut table);
    let g = gtd(&mut table);
    let silent = |who: &str| {
        g.state
            .players
            .iter()
            .find(|p| p.name == who)
            .map(|p| p.silent_seasons)
    };
    assert_eq!(silent(&war), Some(0), "the Winter does not count");
    assert_eq!(silent(&others[0]), Some(1), "silent in the Fall only");
}

#[test]
fn signing_on_as_a_power_points_to_the_players_sign_on() {
    let mut table = started();
    let a = table.mail(&addr("p01"), &format!("SIGNON F{GAME} pw-p01\nA PAR H\n"));
    assert!(
        a.reply_body.contains(&format!("SIGNON ?{GAME}")),
        "{}",
        a.reply_body
    );
    assert_eq!(a.errors, 2, "{}", a.reply_body);
}

#[test]
fn a_gtd_game_is_not_forced_to_begin_with_fewer_than_22_players() {
    let mut table = Table::created_by_mail(GAME, "gtd");
    for p in players().iter().take(21) {
        no_errors(mail(&mut table, p, ""));
    }
    one_error(table.master_mail("FORCE BEGIN"), "rule 1");
    assert_eq!(table.state().status, Status::Forming);
    no_errors(mail(&mut table, "p22", ""));
    assert_eq!(
        table.state().status,
        Status::Active,
        "the 22nd player starts it"
    );
}

#[test]
fn a_fall_with_retreats_is_followed_by_the_winter() {
    let mut table = started();
    let units: Vec<U<'_>> = vec![
        ("Germany", "A", "mun", "p01"),
        ("Germany", "A", "ber", "p02"),
        ("France", "A", "bur", "p03"),
        ("France", "A", "tyr", "p04"),
    ];
    board(&mut table, "F1901M", &units, &[]);
    ok(&mut table, "p03", "A BUR - MUN");
    ok(&mut table, "p04", "A TYR S A BUR - MUN");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "F1901R");
    ok(&mut table, "p01", "A MUN - BOH");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "W1901A");
    let g = gtd(&mut table);
    assert_eq!(g.state.commander_at(prov("boh")), Some("p01"));
    assert_eq!(g.state.commander_at(prov("mun")), Some("p03"));
    assert_eq!(table.position().owner(prov("mun")), Some(power("France")));
}

#[test]
fn a_purge_within_the_allowance_is_made() {
    let mut table = started();
    // Seven units: three purges allowed (rule 12 B); the fourth is refused.
    german_winter(&mut table, 7, 0, "p02", "p19");
    kiel_lost(&mut table);
    ok(
        &mut table,
        "p19",
        "APPOINT p05 TO A BER\nAPPOINT p06 TO A MUN\nAPPOINT p07 TO A HOL\nAPPOINT p08 TO A DEN",
    );
    process(&mut table);
    let g = gtd(&mut table);
    assert_eq!(g.state.commander_at(prov("ber")), Some("p05"));
    assert_eq!(g.state.commander_at(prov("hol")), Some("p07"));
    assert_ne!(g.state.commander_at(prov("den")), Some("p08"));
    let r = report(&mut table, "p19");
    assert!(r.contains("may purge 3 units"), "{r}");
}

#[test]
fn players_are_named_in_orders_whatever_the_case_or_by_address() {
    let mut table = started();
    let hog = head(&mut table, "Turkey").unwrap();
    let smy = commander(&mut table, "smy");
    ok(&mut table, &hog, &format!("ABDICATE TO {}", addr(&smy)));
    ok(&mut table, &smy, "ACCEPT SUCCESSION Turkey");
    let reply = ok(
        &mut table,
        &smy,
        &format!("VOTE Turkey FOR {}", smy.to_uppercase()),
    );
    assert!(reply.contains(&format!("FOR {smy}")), "{reply}");
    process(&mut table);
    assert_eq!(head(&mut table, "Turkey"), Some(smy));
}

// ------------------------------------------------------------------ the Gamemaster

/// `SIGNON ?game` from a newcomer once the game runs: a request to enter.
fn ask(table: &mut Table, who: &str) -> legate::game::Applied {
    table.mail(&addr(who), &format!("SIGNON ?{GAME} pw-{who}\n"))
}

fn history(table: &mut Table) -> String {
    no_errors(table.mail("x@y.test", &format!("HISTORY {GAME}\n"))).reply_body
}

#[test]
fn a_late_entrant_waits_for_the_gamemasters_approval() {
    let mut table = started();
    let a = no_errors(ask(&mut table, "p23"));
    assert!(
        a.reply_body.contains("sent to the Gamemaster"),
        "{}",
        a.reply_body
    );
    let g = gtd(&mut table);
    assert_eq!(g.pending, vec!["p23".to_string()]);
    assert!(!g.state.standby.contains(&"p23".to_string()));
    let note = table.mails_to("gm@judge.test", "Request to enter");
    assert_eq!(note.len(), 1);
    assert!(note[0].body.contains("APPROVE p23"), "{}", note[0].body);
    // Waiting: no country from the Gamemaster, no answer from a player.
    one_error(
        table.master_mail("APPOINT p23 TO England"),
        "not yet approved",
    );
    let lvp = commander(&mut table, "lvp");
    one_error(mail(&mut table, &lvp, "APPROVE p23"), "only the Gamemaster");
    let a = ask(&mut table, "p23");
    assert!(
        a.reply_body.contains("waits for the Gamemaster's approval"),
        "{}",
        a.reply_body
    );
    // Approved (any case): on the stand-by list, and told so.
    let a = no_errors(table.master_mail("APPROVE P23"));
    assert!(a.reply_body.contains("stand-by list"), "{}", a.reply_body);
    let g = gtd(&mut table);
    assert!(g.pending.is_empty());
    assert_eq!(g.state.standby, vec!["p23".to_string()]);
    assert_eq!(table.mails_to(&addr("p23"), "Entry approved").len(), 1);
    let a = table.master_mail("APPROVE p23");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("already on the stand-by list"));
    // Refused by address: the request is gone, and the address may ask again.
    ask(&mut table, "p24");
    no_errors(table.master_mail(&format!("REFUSE {}", addr("p24"))));
    let g = gtd(&mut table);
    assert!(g.pending.is_empty());
    assert!(g.seats.iter().all(|s| s.name != "p24"));
    assert!(!g.state.standby.contains(&"p24".to_string()));
    assert!(
        table
            .state()
            .members
            .iter()
            .all(|m| m.address != addr("p24"))
    );
    assert_eq!(table.mails_to(&addr("p24"), "Entry refused").len(), 1);
    no_errors(ask(&mut table, "p24"));
    assert_eq!(gtd(&mut table).pending, vec!["p24".to_string()]);
    // The Gamemaster's report lists the requests still waiting.
    process(&mut table);
    let r = table.mails_to("gm@judge.test", "results");
    let r = &r.last().expect("a report to the Gamemaster").body;
    assert!(
        r.contains("requests to enter waiting for APPROVE or REFUSE (rule 1): p24"),
        "{r}"
    );
}

#[test]
fn history_names_each_country_as_it_was_named_then() {
    let mut table = started();
    let bre = commander(&mut table, "bre");
    let hog = head(&mut table, "Turkey").unwrap();
    ok(
        &mut table,
        &bre,
        "F BRE DECLARE INDEPENDENCE \"Brittany\" HOME BRE PAR MAR\nF BRE - MAO",
    );
    ok(&mut table, &hog, "RENAME Turkey \"Anatolia\"");
    process(&mut table);
    process(&mut table);
    let h = history(&mut table);
    assert!(!h.contains("power 7"), "{h}");
    let (spring, fall) = h.split_at(h.find("F1901M results").expect("the Fall"));
    assert!(spring.contains("S1901M results"), "{h}");
    let line = |part: &str, country: &str, unit: &str| {
        part.lines()
            .any(|l| l.trim_start().starts_with(country) && l.contains(unit))
    };
    assert!(line(spring, "Brittany", "F BRE - MAO"), "{spring}");
    assert!(
        line(spring, "Turkey", "A CON"),
        "the name of the Spring: {spring}"
    );
    assert!(line(fall, "Brittany", "F MAO"), "{fall}");
    assert!(
        line(fall, "Anatolia", "A CON"),
        "renamed from the Fall (26 A): {fall}"
    );
    assert!(
        spring.contains("New country (rule 18): Brittany"),
        "{spring}"
    );
    // LIST and SUMMARY name countries as they are named now.
    for body in [format!("LIST {GAME}"), format!("SUMMARY {GAME}")] {
        let a = table.mail("x@y.test", &format!("{body}\n"));
        assert!(a.reply_body.contains("Anatolia"), "{}", a.reply_body);
        assert!(!a.reply_body.contains("power 7"), "{}", a.reply_body);
        if body.starts_with("LIST") {
            assert!(a.reply_body.contains("Brittany"), "{}", a.reply_body);
        }
    }
}

#[test]
fn rollback_restores_countries_commanders_and_heads() {
    let mut table = started();
    let bre = commander(&mut table, "bre");
    let mar = commander(&mut table, "mar");
    let france = head(&mut table, "France");
    ok(
        &mut table,
        &bre,
        "F BRE DECLARE INDEPENDENCE \"Brittany\" HOME BRE PAR MAR\nACCEPT DEFECTION A MAR",
    );
    ok(&mut table, &mar, "A MAR DEFECT TO Brittany\nA MAR - GAS");
    process(&mut table);
    ok(&mut table, &mar, "A GAS - SPA");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "W1901A");
    assert!(gtd(&mut table).state.country_named("Brittany").is_some());
    // A player approved since stays on the stand-by list.
    ask(&mut table, "p23");
    table.master_mail("APPROVE p23");
    no_errors(table.master_mail("ROLLBACK S1901M"));
    assert_eq!(table.phase().to_string(), "S1901M");
    let g = gtd(&mut table);
    assert!(
        g.state.country_named("Brittany").is_none(),
        "rule 18 undone"
    );
    let pos = table.position();
    for at in ["bre", "mar"] {
        assert_eq!(
            pos.unit_at(prov(at)).map(|u| u.power),
            Some(power("France")),
            "{at}"
        );
    }
    assert_eq!(g.state.commander_at(prov("mar")), Some(mar.as_str()));
    assert_eq!(head(&mut table, "France"), france);
    assert!(g.written.is_empty(), "orders are given again");
    assert_eq!(g.state.standby, vec!["p23".to_string()]);
    // The Spring is played again from there.
    ok(&mut table, &mar, "A MAR - GAS");
    process(&mut table);
    let pos = table.position();
    assert_eq!(
        pos.unit_at(prov("gas")).map(|u| u.power),
        Some(power("France"))
    );
    // A rollback to the last phase played, then HISTORY with both versions.
    no_errors(table.master_mail("ROLLBACK"));
    assert_eq!(table.phase().to_string(), "S1901M");
    let h = history(&mut table);
    assert_says(&h, &["[rolled back]", "New country (rule 18): Brittany"]);
}

#[test]
fn predict_shows_the_gamemaster_the_season_without_playing_it() {
    let mut table = started();
    let lvp = commander(&mut table, "lvp");
    ok(&mut table, &lvp, "A LVP - YOR");
    let a = no_errors(table.master_mail("PREDICT"));
    assert!(
        a.reply_body.contains("Prediction for S1901M"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body
            .lines()
            .any(|l| l.contains("A LVP - YOR") && l.contains(&lvp)),
        "every order with its commander: {}",
        a.reply_body
    );
    assert_eq!(table.phase().to_string(), "S1901M");
    assert!(table.mails_to(&addr(&lvp), "results").is_empty());
    assert_eq!(gtd(&mut table).written.len(), 1, "the orders stay");
    let a = mail(&mut table, &lvp, "PREDICT");
    assert_eq!(a.errors, 1, "the Gamemaster's: {}", a.reply_body);
    process(&mut table);
    assert!(table.position().unit_at(prov("yor")).is_some());
}

#[test]
fn the_gamemaster_becomes_a_player_or_a_head_of_government() {
    let mut table = started();
    let edi = commander(&mut table, "edi");
    let hog = head(&mut table, "Turkey").unwrap();
    one_error(table.master_mail("F EDI - NTH"), "BECOME <player>");
    let a = table.master_mail(&format!("BECOME {edi}\nF EDI - NTH\nA LVP - YOR"));
    assert!(
        a.reply_body.contains(&format!("You now speak for {edi}")),
        "{}",
        a.reply_body
    );
    assert_eq!(
        a.errors, 1,
        "only the units that player commands: {}",
        a.reply_body
    );
    assert!(
        a.reply_body.contains("does not command"),
        "{}",
        a.reply_body
    );
    let a = no_errors(table.master_mail("BECOME Turkey\nRENAME Turkey \"Anatolia\""));
    assert!(
        a.reply_body
            .contains(&format!("{hog}, head of government of Turkey")),
        "{}",
        a.reply_body
    );
    let a = table.master_mail("BECOME zz99");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    process(&mut table);
    assert!(table.position().unit_at(prov("nth")).is_some());
    let g = gtd(&mut table);
    assert_eq!(g.state.country(power("Turkey")).unwrap().name, "Anatolia");
    assert_eq!(
        g.state
            .players
            .iter()
            .find(|p| p.name == edi)
            .map(|p| p.silent_seasons),
        Some(0),
        "orders given for a player are theirs (rule 22)"
    );
}
