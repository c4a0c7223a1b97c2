//! Grand Tournament Diplomacy: each rule played on a 22-player game whose lots
//! come from a fixed secret, orders read as players write them in mail, the
//! movement adjudicated by the real judge under the 1971 rules.

use legate::grammar::{Entry, OrderItem, parse_line};
use legate::judge::{Adjudication, Countries, Edition, Position, Rules, Unit, adjudicate};
use legate::lots::{self, Draw, LotError, LotSecret};
use legate::map::{Map, Power, Province, UnitKind};
use legate::phase::{Phase, PhaseKind};
use legate::variant::gtd::final_place::{final_place_list, winner};
use legate::variant::gtd::limits::Limit;
use legate::variant::gtd::politics::{self, PoliticsError};
use legate::variant::gtd::season::{self, Before, End, Item, Written};
use legate::variant::gtd::start::{Entrant, start};
use legate::variant::gtd::winter::{self, WinterError, WinterKind, WinterOrder};
use legate::variant::gtd::{Commanders, GtdState, PlayerState};

// ---------------------------------------------------------------- helpers

fn map() -> &'static Map {
    Map::standard()
}

fn prov(name: &str) -> Province {
    map()
        .lookup(name)
        .unwrap_or_else(|| panic!("{name}"))
        .province
}

fn power(name: &str) -> Power {
    map().power(name).unwrap_or_else(|| panic!("{name}"))
}

fn secret() -> LotSecret {
    LotSecret::from_hex("6774642d6c6f742d7365637265742d666f722d7468652d74657374732d303031")
        .expect("hex")
}

fn lot_with(secret: LotSecret) -> impl FnMut(&str, &[String]) -> Result<Draw, LotError> {
    move |purpose, candidates| lots::draw(&secret, purpose, candidates)
}

fn players() -> Vec<String> {
    (1..=22).map(|i| format!("p{i:02}")).collect()
}

/// The 22-player opening; p01 and p02 prefer France, p03 England.
fn opening() -> (GtdState, Position) {
    let position = Position::initial(map());
    let entrants: Vec<Entrant> = players()
        .into_iter()
        .enumerate()
        .map(|(i, name)| Entrant {
            name,
            preferences: match i {
                0 | 1 => vec![power("France")],
                2 => vec![power("England")],
                _ => vec![],
            },
        })
        .collect();
    let state = start(map(), &position, &entrants, &mut lot_with(secret())).expect("start");
    (state, position)
}

fn commander(state: &GtdState, at: &str) -> String {
    state.commander_at(prov(at)).expect("commanded").to_string()
}

fn head(state: &GtdState, country: &str) -> Option<String> {
    state.country(power(country)).and_then(|c| c.hog.clone())
}

/// One mail line, read as the grammar reads it, as that player's order.
fn written(phase: Phase, player: &str, line: &str) -> Written {
    let lines = parse_line(map(), line, Some(phase));
    let item = match &lines[0].entry {
        Entry::Orders(items) => match &items[0] {
            OrderItem::Order(o) => Item::Order(o.order),
            OrderItem::Variant { order, .. } => Item::Variant(order.clone()),
        },
        other => panic!("{line}: {other:?}"),
    };
    Written {
        player: player.to_string(),
        item,
    }
}

/// Plays a Spring or Fall: politics, the judge (1971 rules, commanders as
/// owners), retreats defaulted, end of season. Returns the deadline's verdicts
/// and the end.
fn play(state: &mut GtdState, position: &mut Position, lines: &[(&str, &str)]) -> (Before, End) {
    let phase = position.phase;
    season::begin_season(state);
    let written: Vec<Written> = lines.iter().map(|(p, l)| written(phase, p, l)).collect();
    let before = season::before_movement(map(), state, position, &written, &[]);
    let adj = judge(state, position, &before);
    season::follow(state, PhaseKind::Movement, &adj);
    *position = adj.after;
    if position.phase.kind == PhaseKind::Retreat {
        let adj = adjudicate(map(), &rules(), &Commanders::of(state), position, &[]);
        season::follow(state, PhaseKind::Retreat, &adj);
        *position = adj.after;
    }
    let end = season::end_season(
        state,
        position,
        phase.season,
        &before.votes,
        &before.weights,
    );
    (before, end)
}

fn rules() -> Rules {
    Rules::preset(Edition::E1971)
}

fn judge(state: &GtdState, position: &Position, before: &Before) -> Adjudication {
    adjudicate(
        map(),
        &rules(),
        &Commanders::of(state),
        position,
        &before.judge_orders,
    )
}

fn verdict_of(before: &Before, i: usize) -> &Result<(), PoliticsError> {
    &before.outcomes[i].1
}

/// A state of named players only (no opening), for hand-made boards.
fn bare(names: &[&str]) -> GtdState {
    let (mut state, _) = opening();
    state.commands.clear();
    state.players = names
        .iter()
        .map(|n| PlayerState {
            name: n.to_string(),
            out: false,
            silent_seasons: 0,
        })
        .collect();
    state.standby.clear();
    state
}

fn unit(country: &str, kind: UnitKind, at: &str) -> Unit {
    Unit {
        power: power(country),
        kind,
        location: map().lookup(at).expect(at),
    }
}

fn army(country: &str, at: &str) -> Unit {
    unit(country, UnitKind::Army, at)
}

// ---------------------------------------------------------------- opening (6-8)

#[test]
fn the_opening_seats_22_players_one_unit_each_by_an_auditable_lot() {
    let (state, position) = opening();
    let mut commanders: Vec<String> = position
        .units
        .iter()
        .map(|u| commander(&state, map().abbr(u.province())))
        .collect();
    commanders.sort();
    assert_eq!(
        commanders,
        players(),
        "every player commands exactly one unit"
    );
    assert!(state.standby.is_empty());
    for (country, army) in [
        ("England", "lvp"),
        ("France", "par"),
        ("Russia", "mos"),
        ("Turkey", "con"),
    ] {
        assert_eq!(
            head(&state, country),
            Some(commander(&state, army)),
            "rule 8: {country}"
        );
    }
    let france = power("France");
    for p in ["p01", "p02"] {
        assert_eq!(
            state.commanded(&position, france, p).len(),
            1,
            "{p} got their preference"
        );
    }
    assert!(lots::verify(&secret(), &secret().commitment(), &state.draws).is_empty());
    let (again, _) = opening();
    assert_eq!(again, state, "the same secret gives the same opening");
    let other = LotSecret([9; 32]);
    let entrants: Vec<Entrant> = players()
        .into_iter()
        .map(|name| Entrant {
            name,
            preferences: vec![],
        })
        .collect();
    let moved = start(map(), &position, &entrants, &mut lot_with(other)).expect("start");
    assert_ne!(
        moved.commands, state.commands,
        "another secret draws otherwise"
    );
}

#[test]
fn players_beyond_the_seats_go_to_the_stand_by_list_and_the_state_round_trips() {
    let position = Position::initial(map());
    let entrants: Vec<Entrant> = (1..=25)
        .map(|i| Entrant {
            name: format!("q{i:02}"),
            preferences: vec![],
        })
        .collect();
    let state = start(map(), &position, &entrants, &mut lot_with(secret())).expect("start");
    assert_eq!(state.standby.len(), 3);
    assert_eq!(GtdState::from_json(&state.to_json()).expect("json"), state);
    let few: Vec<Entrant> = entrants.into_iter().take(21).collect();
    assert!(
        start(map(), &position, &few, &mut lot_with(secret())).is_err(),
        "rule 1: 22 players"
    );
}

// ---------------------------------------------------------------- rules 4-5 through the judge

fn treason_board(bur_commander: &str) -> (GtdState, Position) {
    let mut state = bare(&["ann", "bob", "cid"]);
    let mut position = Position::initial(map());
    position.units = vec![
        army("France", "mar"),
        army("France", "gas"),
        army(
            if bur_commander == "bob" {
                "France"
            } else {
                "Germany"
            },
            "bur",
        ),
    ];
    state.set_commander(prov("mar"), Some("ann".into()));
    state.set_commander(prov("gas"), Some("cid".into()));
    state.set_commander(prov("bur"), Some(bur_commander.into()));
    (state, position)
}

#[test]
fn a_unit_dislodges_a_unit_of_its_own_country_under_another_commander() {
    let (mut state, mut position) = treason_board("bob");
    let lines = [
        ("ann", "A Mar - Bur"),
        ("cid", "A Gas S A Mar - Bur"),
        ("bob", "A Bur H"),
    ];
    let phase = position.phase;
    let w: Vec<Written> = lines.iter().map(|(p, l)| written(phase, p, l)).collect();
    let before = season::before_movement(map(), &mut state, &mut position, &w, &[]);
    let adj = judge(&state, &position, &before);
    assert_eq!(
        adj.after.dislodged.len(),
        1,
        "rule 4: the French army in Burgundy is dislodged"
    );
    assert_eq!(adj.after.dislodged[0].unit.province(), prov("bur"));
    // The standard allegiance (one owner per country) would forbid it.
    let standard = adjudicate(map(), &rules(), &Countries, &position, &before.judge_orders);
    assert!(standard.after.dislodged.is_empty());
    season::follow(&mut state, PhaseKind::Movement, &adj);
    assert_eq!(
        state.commander_at(prov("bur")),
        Some("ann"),
        "the command moved with the unit"
    );
}

#[test]
fn no_unit_attacks_or_supports_an_attack_on_a_unit_of_the_same_commander() {
    // ann commands the French attacker and the German defender.
    let (mut state, mut position) = treason_board("ann");
    let lines = [
        ("ann", "A Mar - Bur"),
        ("cid", "A Gas S A Mar - Bur"),
        ("ann", "A Bur H"),
    ];
    let phase = position.phase;
    let w: Vec<Written> = lines.iter().map(|(p, l)| written(phase, p, l)).collect();
    let before = season::before_movement(map(), &mut state, &mut position, &w, &[]);
    let adj = judge(&state, &position, &before);
    assert!(
        adj.after.dislodged.is_empty(),
        "rule 5: no dislodgement of one's own unit"
    );
    // Support from the defender's commander does not count either: cid attacks, ann supports.
    let (mut state, mut position) = treason_board("ann");
    state.set_commander(prov("mar"), Some("cid".into()));
    state.set_commander(prov("gas"), Some("ann".into()));
    let lines = [
        ("cid", "A Mar - Bur"),
        ("ann", "A Gas S A Mar - Bur"),
        ("ann", "A Bur H"),
    ];
    let w: Vec<Written> = lines.iter().map(|(p, l)| written(phase, p, l)).collect();
    let before = season::before_movement(map(), &mut state, &mut position, &w, &[]);
    let adj = judge(&state, &position, &before);
    assert!(
        adj.after.dislodged.is_empty(),
        "rule 5: ann's support against ann's unit is void"
    );
    let standard = adjudicate(map(), &rules(), &Countries, &position, &before.judge_orders);
    assert_eq!(
        standard.after.dislodged.len(),
        1,
        "between countries it would have dislodged"
    );
}

#[test]
fn only_the_commander_orders_a_unit_and_an_uncommanded_unit_holds() {
    let (mut state, mut position) = opening();
    let par = commander(&state, "par");
    let bre = commander(&state, "bre");
    state.set_commander(prov("mar"), None);
    let phase = position.phase;
    let w = vec![
        written(phase, &bre, "A Par - Bur"),
        written(phase, &par, "A Par - Pic"),
        written(phase, &par, "A Mar - Spa"),
    ];
    let before = season::before_movement(map(), &mut state, &mut position, &w, &[]);
    assert!(matches!(
        verdict_of(&before, 0),
        Err(PoliticsError::NotCommander { .. })
    ));
    assert!(verdict_of(&before, 1).is_ok());
    assert!(verdict_of(&before, 2).is_err());
    assert_eq!(before.judge_orders.len(), 1);
    assert_eq!(before.judge_orders[0].power, power("France"));
}

// ---------------------------------------------------------------- builds and limits (9, 13)

/// France with units in `at` (armies), owning `centers`, commanders as given,
/// `hog` its head; Marseilles empty, owned and buildable.
fn winter_board(
    at: &[&str],
    centers: &[&str],
    commanders: &[(&str, &str)],
    hog: &str,
) -> (GtdState, Position) {
    let names: Vec<&str> = commanders.iter().map(|c| c.1).chain([hog, "new"]).collect();
    let mut state = bare(&names);
    let mut position = Position::initial(map());
    position.phase = "W1901A".parse().expect("phase");
    position.units = at.iter().map(|p| army("France", p)).collect();
    for o in position.owners.iter_mut() {
        *o = None;
    }
    for c in centers.iter().chain(&["mar"]) {
        position.owners[prov(c).0 as usize] = Some(power("France"));
    }
    for (p, who) in commanders {
        state.set_commander(prov(p), Some(who.to_string()));
    }
    state.country_mut(power("France")).expect("France").hog = Some(hog.to_string());
    (state, position)
}

fn build(
    state: &mut GtdState,
    position: &mut Position,
    by: &str,
    commander: &str,
) -> Result<(), WinterError> {
    let start = winter::open(state, position);
    let unit = legate::orders::UnitSpec::new(UnitKind::Army, prov("mar").into());
    let order = WinterOrder {
        player: by.into(),
        kind: WinterKind::Build {
            unit,
            commander: commander.into(),
        },
    };
    let report = winter::resolve(
        map(),
        state,
        position,
        &start,
        &[order],
        &mut lot_with(secret()),
    )
    .expect("lot");
    report.outcomes[0].1.clone()
}

fn limit_of(r: Result<(), WinterError>) -> Limit {
    match r {
        Err(WinterError::Limit(e)) => e.limit(),
        Err(WinterError::Politics(PoliticsError::Limit(e))) => e.limit(),
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn a_build_that_breaks_each_limit_is_refused_naming_it() {
    // 9(C): the head already commands a unit of France.
    let (mut s, mut p) = winter_board(
        &["par", "bre"],
        &["par", "bre", "spa"],
        &[("par", "hog"), ("bre", "b")],
        "hog",
    );
    let r = build(&mut s, &mut p, "hog", "hog");
    assert!(
        r.as_ref().unwrap_err().to_string().contains("rule 9(C)"),
        "{r:?}"
    );
    assert_eq!(limit_of(r), Limit::HeadOfGovernment);
    assert_eq!(p.units.len(), 2, "nothing built");
    // 9(D): b would command 3 of 4 units.
    let (mut s, mut p) = winter_board(
        &["par", "bre", "pic"],
        &["par", "bre", "spa", "por", "bel"],
        &[("par", "hog"), ("bre", "b"), ("pic", "b")],
        "hog",
    );
    assert_eq!(limit_of(build(&mut s, &mut p, "hog", "b")), Limit::Half);
    // 9(F): nine units at the start of Winter, b would command a fourth.
    let nine = [
        "par", "bre", "pic", "bur", "gas", "spa", "por", "bel", "hol",
    ];
    let centers = [
        "par", "bre", "pic", "spa", "por", "bel", "hol", "mun", "kie", "den",
    ];
    let mut cmd: Vec<(&str, &str)> = vec![("par", "hog"), ("bre", "b"), ("pic", "b"), ("bur", "b")];
    cmd.extend([
        ("gas", "c"),
        ("spa", "c"),
        ("por", "d"),
        ("bel", "d"),
        ("hol", "e"),
    ]);
    let (mut s, mut p) = winter_board(&nine, &centers, &cmd, "hog");
    assert_eq!(
        limit_of(build(&mut s, &mut p, "hog", "b")),
        Limit::ThreeUnderTen
    );
    // 9(E): twelve units, b would command a sixth.
    let twelve = [
        "par", "bre", "pic", "bur", "gas", "spa", "por", "bel", "hol", "ruh", "mun", "kie",
    ];
    let centers = [
        "par", "bre", "spa", "por", "bel", "hol", "mun", "kie", "den", "ber", "swe", "nwy", "lon",
    ];
    let mut cmd: Vec<(&str, &str)> = vec![("par", "hog")];
    cmd.extend(["bre", "pic", "bur", "gas", "spa"].map(|p| (p, "b")));
    cmd.extend(["por", "bel", "hol", "ruh", "mun", "kie"].map(|p| (p, "c")));
    let (mut s, mut p) = winter_board(&twelve, &centers, &cmd, "hog");
    let r = build(&mut s, &mut p, "hog", "b");
    assert!(r.as_ref().unwrap_err().to_string().contains("rule 9(E)"));
    assert_eq!(limit_of(r), Limit::Five);
    // Within every limit the same build stands, and its commander is recorded.
    let (mut s, mut p) = winter_board(&twelve, &centers, &cmd, "hog");
    assert_eq!(build(&mut s, &mut p, "hog", "new"), Ok(()));
    assert_eq!(s.commander_at(prov("mar")), Some("new"));
    // Only the head of government builds (9 A).
    let (mut s, mut p) = winter_board(&twelve, &centers, &cmd, "hog");
    assert!(matches!(
        build(&mut s, &mut p, "b", "new"),
        Err(WinterError::Politics(PoliticsError::NotHead { .. }))
    ));
}

#[test]
fn nobody_heads_more_than_two_countries() {
    let (mut state, mut position) = opening();
    let head_fr = head(&state, "France").expect("head");
    let eng = power("England");
    state.country_mut(eng).expect("England").hog = Some(head_fr.clone());
    let r = politics::declare_independence(
        map(),
        &mut state,
        &mut position,
        &head_fr,
        &[legate::orders::UnitSpec::at(prov("par").into())],
        "Occitania",
        &[prov("mar"), prov("spa"), prov("por")],
    );
    let err = r.expect_err("a third country");
    assert!(err.to_string().contains("rule 13"), "{err}");
    assert_eq!(state.country_named("Occitania"), None);
}

// ---------------------------------------------------------------- insurrection and elections (14-17)

#[test]
fn an_insurrection_with_two_election_seasons() {
    let (mut state, mut position) = opening();
    let (h, b, m) = (
        commander(&state, "par"),
        commander(&state, "bre"),
        commander(&state, "mar"),
    );
    let france = power("France");
    // Spring: A Mar declares insurrection and stays home; nobody gets more than half the units.
    let spring = [
        (m.as_str(), "A Mar DECLARE INSURRECTION"),
        (m.as_str(), &format!("VOTE France FOR {m}") as &str),
        (b.as_str(), &format!("VOTE France FOR {b}") as &str),
    ];
    let spring: Vec<(&str, String)> = spring.iter().map(|(p, l)| (*p, l.to_string())).collect();
    let lines: Vec<(&str, &str)> = spring.iter().map(|(p, l)| (*p, l.as_str())).collect();
    let (_, end) = play(&mut state, &mut position, &lines);
    assert_eq!(end.insurrections_begun, vec![france]);
    let t = &end.tallies[0];
    assert_eq!(
        (t.cast, t.above, t.elected.clone()),
        (2, 1, None),
        "17(C): more than half of 3 units needed"
    );
    assert!(state.country(france).expect("France").insurrection);
    // Fall: still in insurrection; the head may not accept a defection (15);
    // a majority of the votes cast elects m (17 D).
    let fall = [
        (h.clone(), "ACCEPT DEFECTION A Mun".to_string()),
        (m.clone(), format!("VOTE France FOR {m}")),
        (b.clone(), format!("VOTE France FOR {m}")),
        (h.clone(), format!("VOTE France FOR {h}")),
    ];
    let lines: Vec<(&str, &str)> = fall.iter().map(|(p, l)| (p.as_str(), l.as_str())).collect();
    let (before, end) = play(&mut state, &mut position, &lines);
    assert!(matches!(
        verdict_of(&before, 0),
        Err(PoliticsError::Insurrection(_))
    ));
    let t = &end.tallies[0];
    let mut want = vec![(h.clone(), 1), (m.clone(), 2)];
    want.sort();
    assert_eq!(t.totals, want, "17(B): every vote published");
    assert_eq!(
        (t.cast, t.above, t.elected.clone()),
        (3, 1, Some(m.clone()))
    );
    assert_eq!(
        head(&state, "France"),
        Some(h.clone()),
        "powers only from next season"
    );
    season::begin_season(&mut state);
    assert_eq!(head(&state, "France"), Some(m.clone()));
    // A unit that voted without commanding France has no votes.
    let tally = politics::count(
        "France",
        politics::ElectionKind::VotesCast,
        3,
        &[("x".into(), 1)],
        &[politics::Vote {
            voter: "y".into(),
            candidate: "y".into(),
            votes: 1,
        }],
        |_| true,
    );
    assert_eq!(tally.elected, None);
}

#[test]
fn an_insurrection_ends_when_every_unit_at_home_declares_no_insurrection() {
    let (mut state, mut position) = opening();
    let m = commander(&state, "mar");
    let france = power("France");
    play(
        &mut state,
        &mut position,
        &[(&m, "A Mar DECLARE INSURRECTION")],
    );
    // Par and Bre are still home and declared nothing: it goes on.
    let (_, end) = play(
        &mut state,
        &mut position,
        &[(&m, "A Mar DECLARE NO INSURRECTION")],
    );
    assert!(end.insurrections_ended.is_empty());
    assert!(end.tallies.iter().any(|t| t.country == "France"));
    position.phase = "S1902M".parse().expect("phase");
    let lines: Vec<(String, &str)> = ["par", "bre", "mar"]
        .iter()
        .map(|p| (commander(&state, p), *p))
        .collect();
    let orders: Vec<(String, String)> = lines
        .iter()
        .map(|(c, p)| {
            (
                c.clone(),
                format!("A {p} DECLARE NO INSURRECTION").replace("A bre", "F bre"),
            )
        })
        .collect();
    let refs: Vec<(&str, &str)> = orders
        .iter()
        .map(|(c, l)| (c.as_str(), l.as_str()))
        .collect();
    let (_, end) = play(&mut state, &mut position, &refs);
    assert_eq!(end.insurrections_ended, vec![france]);
    assert!(
        end.tallies.iter().all(|t| t.country != "France"),
        "16: no election in the ending season"
    );
}

// ---------------------------------------------------------------- secession and defection (18-21)

#[test]
fn a_secession_with_defections_to_the_new_country() {
    let (mut state, mut position) = opening();
    let (mun, kie) = (commander(&state, "mun"), commander(&state, "kie"));
    let germany = power("Germany");
    let lines = [
        (
            mun.as_str(),
            "A Mun DECLARE INDEPENDENCE \"Bavaria\" HOME Mun Ber Kie",
        ),
        (kie.as_str(), "F Kie DEFECT TO \"Bavaria\""),
        (mun.as_str(), "ACCEPT DEFECTION F Kie"),
        (mun.as_str(), "A Mun - Ruh"),
        (kie.as_str(), "F Kie - Hol"),
    ];
    let (before, _) = play(&mut state, &mut position, &lines);
    for i in 0..5 {
        assert!(
            verdict_of(&before, i).is_ok(),
            "{i}: {:?}",
            verdict_of(&before, i)
        );
    }
    let bavaria = state.country_named("Bavaria").expect("Bavaria");
    assert_eq!(before.new_countries, vec![bavaria]);
    assert!(
        before.judge_orders.iter().all(|o| o.power == bavaria),
        "the judge sees Bavaria"
    );
    assert_eq!(
        state.country(bavaria).and_then(|c| c.hog.clone()),
        Some(mun.clone()),
        "18(C)"
    );
    let of = |p: &str| position.unit_at(prov(p)).map(|u| u.power);
    assert_eq!((of("ruh"), of("hol")), (Some(bavaria), Some(bavaria)));
    assert_eq!(
        position.owner(prov("mun")),
        Some(germany),
        "centers change hands only after a Fall"
    );
    assert_eq!(state.commander_at(prov("hol")), Some(kie.as_str()));
    // Fall: Bavaria holds Munich and Kiel, so it may build there; not in Berlin.
    let lines = [(mun.as_str(), "A Ruh - Mun"), (kie.as_str(), "F Hol - Kie")];
    let ber = commander(&state, "ber");
    let mut all = lines.to_vec();
    all.push((ber.as_str(), "A Ber - Pru"));
    play(&mut state, &mut position, &all);
    assert_eq!(position.owner(prov("mun")), Some(bavaria));
    let mut buildable = state.country(bavaria).expect("Bavaria").buildable.clone();
    buildable.sort();
    let mut want = vec![prov("mun").0, prov("kie").0];
    want.sort();
    assert_eq!(buildable, want);
}

#[test]
fn a_defection_without_acceptance_fails_and_ten_wasted_acceptances_end_them() {
    let (mut state, mut position) = opening();
    let eng_head = head(&state, "England").expect("head");
    let par = commander(&state, "par");
    let targets = [
        "par", "bre", "mar", "mun", "kie", "ber", "ven", "rom", "nap", "vie",
    ];
    let mut lines: Vec<(String, String)> = vec![(par.clone(), "A Par DEFECT TO Germany".into())];
    for t in targets {
        let u = if ["bre", "kie", "nap"].contains(&t) {
            "F"
        } else {
            "A"
        };
        lines.push((eng_head.clone(), format!("ACCEPT DEFECTION {u} {t}")));
    }
    let refs: Vec<(&str, &str)> = lines
        .iter()
        .map(|(p, l)| (p.as_str(), l.as_str()))
        .collect();
    let (before, _) = play(&mut state, &mut position, &refs);
    assert!(
        matches!(verdict_of(&before, 0), Err(PoliticsError::NotAccepted(_))),
        "Germany did not accept"
    );
    assert_eq!(
        position.unit_at(prov("par")).map(|u| u.power),
        Some(power("France"))
    );
    assert_eq!(
        state
            .country(power("England"))
            .expect("E")
            .wasted_acceptances,
        10
    );
    // Fall: the par unit defects to England and England accepts: refused (rule 21).
    let lines = [
        (par.as_str(), "A Par DEFECT TO England"),
        (eng_head.as_str(), "ACCEPT DEFECTION A Par"),
    ];
    let (before, _) = play(&mut state, &mut position, &lines);
    assert!(matches!(
        verdict_of(&before, 1),
        Err(PoliticsError::AcceptanceLimit(_))
    ));
    assert!(verdict_of(&before, 0).is_err());
    assert_eq!(
        position.unit_at(prov("par")).map(|u| u.power),
        Some(power("France"))
    );
}

#[test]
fn an_accepted_defection_moves_the_unit_with_its_commander() {
    let (mut state, mut position) = opening();
    let ger_head = head(&state, "Germany").expect("head");
    let par = commander(&state, "par");
    let (before, _) = play(
        &mut state,
        &mut position,
        &[
            (&par, "A Par DEFECT TO Germany"),
            (&ger_head, "ACCEPT DEFECTION A Par"),
        ],
    );
    assert!(verdict_of(&before, 0).is_ok());
    assert_eq!(
        position.unit_at(prov("par")).map(|u| u.power),
        Some(power("Germany"))
    );
    assert_eq!(state.commander_at(prov("par")), Some(par.as_str()));
    assert_eq!(
        state
            .country(power("Germany"))
            .expect("G")
            .wasted_acceptances,
        0
    );
}

// ---------------------------------------------------------------- death and succession (22-25)

#[test]
fn a_dead_head_of_government_brings_an_election_next_season() {
    let (mut state, mut position) = opening();
    let (h, b, m) = (
        commander(&state, "par"),
        commander(&state, "bre"),
        commander(&state, "mar"),
    );
    politics::remove_player(&mut state, &position, &h);
    assert_eq!(head(&state, "France"), None);
    // The death season: no election yet (24 A), the dead head's army holds.
    let (before, end) = play(
        &mut state,
        &mut position,
        &[(&h, "A Par - Bur"), (&b, &format!("VOTE France FOR {b}"))],
    );
    assert!(verdict_of(&before, 0).is_err());
    assert!(end.tallies.is_empty());
    // Next season: a majority of the votes cast elects b (24 D).
    let v1 = format!("VOTE France FOR {b}");
    let (_, end) = play(&mut state, &mut position, &[(&b, &v1), (&m, &v1)]);
    assert_eq!(end.tallies[0].elected, Some(b.clone()));
    season::begin_season(&mut state);
    assert_eq!(head(&state, "France"), Some(b.clone()));
    // Rule 23: the new head appoints a stand-by player to the dead head's army.
    state.standby.push("late".into());
    let r = politics::appoint_dead_commanders_unit(
        map(),
        &mut state,
        &position,
        &b,
        "late",
        prov("par"),
    );
    assert_eq!(r, Ok(()));
    assert!(
        state.is_active("late") && state.standby.is_empty(),
        "rule 1: entered by appointment"
    );
}

#[test]
fn a_dead_head_with_one_commander_left_is_succeeded_at_once() {
    let (mut state, position) = opening();
    let h = commander(&state, "par");
    let b = commander(&state, "bre");
    state.set_commander(prov("mar"), Some(b.clone()));
    politics::remove_player(&mut state, &position, &h);
    assert_eq!(head(&state, "France"), Some(b), "24(E)");
}

#[test]
fn abdication_needs_acceptance_the_same_season() {
    let (mut state, mut position) = opening();
    let (h, b) = (commander(&state, "par"), commander(&state, "bre"));
    let (before, _) = play(
        &mut state,
        &mut position,
        &[(&h, &format!("ABDICATE TO {b}"))],
    );
    assert!(verdict_of(&before, 0).is_err());
    let (before, _) = play(
        &mut state,
        &mut position,
        &[
            (&h, &format!("ABDICATE TO {b}")),
            (&b, "ACCEPT SUCCESSION France"),
        ],
    );
    assert!(verdict_of(&before, 0).is_ok());
    season::begin_season(&mut state);
    assert_eq!(head(&state, "France"), Some(b));
}

#[test]
fn a_new_name_takes_effect_next_season() {
    let (mut state, mut position) = opening();
    let h = commander(&state, "par");
    play(
        &mut state,
        &mut position,
        &[(&h, "RENAME France \"New Gaul\"")],
    );
    assert_eq!(state.country_named("New Gaul"), None);
    season::begin_season(&mut state);
    assert_eq!(state.country_named("New Gaul"), Some(power("France")));
}

#[test]
fn a_country_whose_players_all_left_goes_to_the_stand_by_list_by_lot() {
    let (mut state, position) = opening();
    state.standby = vec!["s1".into(), "s2".into(), "s3".into(), "s4".into()];
    for p in ["par", "bre", "mar"] {
        let c = commander(&state, p);
        politics::remove_player(&mut state, &position, &c);
    }
    let drawn = state.draws.len();
    politics::dead_bandit(
        map(),
        &mut state,
        &position,
        power("France"),
        &mut lot_with(secret()),
    )
    .expect("lot");
    assert_eq!(state.draws.len(), drawn + 4, "the head and three units");
    assert_eq!(state.standby.len(), 0);
    let head = head(&state, "France").expect("a head");
    assert!(head.starts_with('s'));
    assert!(lots::verify(&secret(), &secret().commitment(), &state.draws).is_empty());
}

// ---------------------------------------------------------------- Winter: redistribution, removals, purges (10-12)

#[test]
fn an_excess_not_redistributed_is_removed_by_lot() {
    // b commands 2 of France's 3 units: one more than half.
    let (mut s, mut p) = winter_board(
        &["par", "bre", "pic"],
        &["par", "bre", "pic"],
        &[("par", "hog"), ("bre", "b"), ("pic", "b")],
        "hog",
    );
    let start = winter::open(&s, &p);
    assert_eq!(start.excess, vec![(power("France"), "b".to_string(), 1)]);
    let report =
        winter::resolve(map(), &mut s, &mut p, &start, &[], &mut lot_with(secret())).expect("lot");
    assert_eq!(report.lot_removals.len(), 1);
    assert_eq!(report.lot_removals[0].2, "rule 11(F)");
    let d = s.draws.last().expect("a draw");
    assert!(d.purpose.contains("rule 11(F)"));
    assert_eq!(d.candidates, vec!["BRE", "PIC"]);
    assert_eq!(p.units.len(), 2);
    assert!(lots::verify(&secret(), &secret().commitment(), &s.draws).is_empty());
    // Redistributed by the head, nothing is removed.
    let (mut s, mut p) = winter_board(
        &["par", "bre", "pic"],
        &["par", "bre", "pic"],
        &[("par", "hog"), ("bre", "b"), ("pic", "b")],
        "hog",
    );
    let start = winter::open(&s, &p);
    let unit = legate::orders::UnitSpec::at(prov("pic").into());
    let order = WinterOrder {
        player: "hog".into(),
        kind: WinterKind::Appoint {
            player: "new".into(),
            unit,
        },
    };
    let report = winter::resolve(
        map(),
        &mut s,
        &mut p,
        &start,
        &[order],
        &mut lot_with(secret()),
    )
    .expect("lot");
    assert_eq!(report.outcomes[0].1, Ok(()));
    assert!(report.lot_removals.is_empty());
    assert_eq!(s.commander_at(prov("pic")), Some("new"));
}

#[test]
fn removals_not_ordered_are_drawn_among_units_off_supply_centers() {
    let (mut s, mut p) = winter_board(
        &["par", "bre", "pic", "bur"],
        &["par", "bre"],
        &[("par", "hog"), ("bre", "b"), ("pic", "c"), ("bur", "d")],
        "hog",
    );
    // Three centers with Marseilles: one removal owed.
    let start = winter::open(&s, &p);
    let report =
        winter::resolve(map(), &mut s, &mut p, &start, &[], &mut lot_with(secret())).expect("lot");
    assert_eq!(report.lot_removals.len(), 1);
    let d = s.draws.last().expect("draw");
    assert_eq!(
        d.candidates,
        vec!["BUR", "PIC"],
        "rule 10(B): only units off centers"
    );
    assert!(p.unit_at(prov("par")).is_some() && p.unit_at(prov("bre")).is_some());
}

#[test]
fn purges_follow_the_size_bands_and_their_allowance() {
    assert_eq!(
        [6, 7, 10, 11, 12].map(winter::purge_allowance),
        [0, 3, 3, 5, 5],
        "rule 12 with the ruling on 11"
    );
    let seven = ["par", "bre", "pic", "bur", "gas", "spa", "por"];
    let cmd = [
        ("par", "hog"),
        ("bre", "a"),
        ("pic", "b"),
        ("bur", "c"),
        ("gas", "d"),
        ("spa", "e"),
        ("por", "f"),
    ];
    let (mut s, mut p) = winter_board(&seven, &seven, &cmd, "hog");
    s.players
        .extend(["x1", "x2", "x3", "x4"].map(|n| PlayerState {
            name: n.into(),
            out: false,
            silent_seasons: 0,
        }));
    let start = winter::open(&s, &p);
    let orders: Vec<WinterOrder> = [("x1", "bre"), ("x2", "pic"), ("x3", "bur"), ("x4", "gas")]
        .iter()
        .map(|(who, at)| WinterOrder {
            player: "hog".into(),
            kind: WinterKind::Appoint {
                player: who.to_string(),
                unit: legate::orders::UnitSpec::at(prov(at).into()),
            },
        })
        .collect();
    let report = winter::resolve(
        map(),
        &mut s,
        &mut p,
        &start,
        &orders,
        &mut lot_with(secret()),
    )
    .expect("lot");
    let ok = report.outcomes.iter().filter(|o| o.1.is_ok()).count();
    assert_eq!(ok, 3);
    assert!(matches!(
        report.outcomes[3].1,
        Err(WinterError::PurgeLimit {
            allowed: 3,
            size: 7,
            ..
        })
    ));
    assert_eq!(s.commander_at(prov("gas")), Some("d"));
}

// ---------------------------------------------------------------- game end (2)

#[test]
fn the_game_ends_at_eighteen_centers_with_the_final_place_list() {
    let mut state = bare(&["hf", "a", "b", "c", "he", "hg", "x", "y", "z"]);
    let mut position = Position::initial(map());
    let fr = [
        "par", "bre", "mar", "spa", "por", "bel", "hol", "mun", "kie", "ber", "den", "swe", "nwy",
        "lon", "lvp", "edi", "tun", "nap",
    ];
    for c in fr {
        position.owners[prov(c).0 as usize] = Some(power("France"));
    }
    assert_eq!(winner(&state, &position), Some(power("France")));
    position.units = vec![];
    let french = [
        ("par", "hf"),
        ("bre", "a"),
        ("mar", "a"),
        ("spa", "b"),
        ("por", "b"),
        ("bel", "c"),
    ];
    for (at, who) in french {
        position.units.push(army("France", at));
        state.set_commander(prov(at), Some(who.into()));
    }
    for (country, at, who) in [
        ("Russia", "mos", "x"),
        ("Russia", "war", "x"),
        ("Turkey", "con", "y"),
        ("Austria", "vie", "he"),
        ("Italy", "rom", "z"),
    ] {
        position.units.push(army(country, at));
        state.set_commander(prov(at), Some(who.into()));
    }
    for c in state.countries.iter_mut() {
        c.hog = None;
    }
    state.country_mut(power("France")).expect("F").hog = Some("hf".into());
    state.country_mut(power("Russia")).expect("R").hog = Some("hg".into());
    state.country_mut(power("Turkey")).expect("T").hog = Some("he".into());
    // Russia keeps its four home centers, Turkey its three.
    let list = final_place_list(&state, &position);
    let got: Vec<(u32, &str, u8)> = list
        .iter()
        .map(|p| (p.place, p.player.as_str(), p.group))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "hf", 1),
            (2, "a", 2),
            (2, "b", 2),
            (4, "c", 2),
            (5, "hg", 3),
            (6, "he", 3),
            (7, "x", 4),
            (8, "y", 4),
            (8, "z", 4),
        ]
    );
    // Turkey's head ties Russia's on centers once Turkey takes Bulgaria: shared place.
    position.owners[prov("bul").0 as usize] = Some(power("Turkey"));
    let list = final_place_list(&state, &position);
    let heads: Vec<(u32, &str)> = list
        .iter()
        .filter(|p| p.group == 3)
        .map(|p| (p.place, p.player.as_str()))
        .collect();
    assert_eq!(heads, vec![(5, "he"), (5, "hg")]);
}

#[test]
fn no_independence_defection_or_insurrection_in_winter_but_votes_count() {
    let (mut state, mut position) = opening();
    position.phase = "W1901A".parse().expect("phase");
    let (par, mar) = (commander(&state, "par"), commander(&state, "mar"));
    let lines = [
        (par.as_str(), "A Par DEFECT TO Germany"),
        (mar.as_str(), "A Mar DECLARE INSURRECTION"),
        (
            mar.as_str(),
            "A Mar DECLARE INDEPENDENCE \"Provence\" HOME Mar Spa Por",
        ),
        (mar.as_str(), "VOTE France FOR p01"),
    ];
    let w: Vec<Written> = lines
        .iter()
        .map(|(p, l)| written(position.phase, p, l))
        .collect();
    let before = season::before_movement(map(), &mut state, &mut position, &w, &[]);
    for (i, rule) in [(0, "rule 20"), (1, "rule 14"), (2, "rule 18(A)")] {
        let e = verdict_of(&before, i)
            .as_ref()
            .expect_err("refused in Winter");
        assert!(e.to_string().contains(rule), "{e}");
    }
    assert!(verdict_of(&before, 3).is_ok());
    assert_eq!(before.votes.len(), 1);
    assert_eq!(state.country_named("Provence"), None);
}
