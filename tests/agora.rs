//! Scenario tests of the Agora Birthday Tournament's rules core.

use chrono::{DateTime, Duration, Utc};
use legate::grammar::{Condition, parse_order_in};
use legate::judge::{self, Position};
use legate::map::{Map, Power, UnitKind};
use legate::orders::Order;
use legate::phase::PhaseKind;
use legate::schedule::next_deadline;
use legate::variant::agora::assistants::{Assistant, AssistantError, Assistants, OrderEntry};
use legate::variant::agora::draw_clock::{DrawClock, DrawError};
use legate::variant::agora::proposals::{Change, ProposalError, Proposals, Status};
use legate::variant::agora::regulations::Regulations;
use legate::variant::agora::schedule::{self, Period};
use legate::variant::agora::state::Agora;
use legate::variant::agora::tournament::{GmAct, Stage, Tournament, TournamentError};
use legate::variant::agora::turn::{Conditional, TurnOrders, resolve};
use legate::variant::agora::{Audience, Notice, civil_disorder};

const REGS: &str = "Made-up regulations for tests.\n\
0. The GM does not play.\n\
1. Entry is open for a while.\n\
2. The GM may act.\n\
3. The last one standing wins.\n\
4. The judge decides.\n\
5. Sections 0 to 5 are fixed.\n\
6. Powers by lot.\n\
7. Helpers are allowed.\n\
8. Proposals pass with three votes.\n";

fn map() -> &'static Map {
    Map::standard()
}

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect(s)
        .with_timezone(&Utc)
}

fn power(name: &str) -> Power {
    map().power(name).expect(name)
}

fn order(text: &str, kind: PhaseKind) -> Order {
    parse_order_in(map(), text, Some(kind)).expect(text).order
}

fn mv(text: &str) -> Order {
    order(text, PhaseKind::Movement)
}

/// A position in `phase` with these units ("France: A BUR") and the opening owners.
fn board(phase: &str, units: &[&str]) -> Position {
    let mut p = Position::initial(map());
    p.phase = phase.parse().expect(phase);
    p.units = units
        .iter()
        .map(|u| {
            let (who, rest) = u.split_once(':').expect(u);
            let o = parse_order_in(map(), &format!("{} H", rest.trim()), None)
                .expect(u)
                .order;
            let spec = o.unit().expect(u);
            legate::judge::Unit {
                power: power(who),
                kind: spec.kind.expect(u),
                location: spec.location,
            }
        })
        .collect();
    p
}

fn units_of(p: &Position, who: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .units
        .iter()
        .filter(|u| u.power == power(who))
        .map(|u| format!("{} {}", u.kind.letter(), map().location_code(u.location)))
        .collect();
    v.sort();
    v
}

fn public(n: &[Notice]) -> Vec<&str> {
    n.iter()
        .filter(|n| n.to == Audience::Public)
        .map(|n| n.text.as_str())
        .collect()
}

fn tournament_with(players: &[&str]) -> Tournament {
    let mut tour = Tournament::new(
        "gm@agora.example",
        t("2026-07-07T00:00:00Z"),
        t("2026-06-01T00:00:00Z"),
    );
    for p in players {
        tour.enter(p, t("2026-06-02T00:00:00Z")).expect(p);
    }
    tour
}

#[test]
fn the_entry_window_is_the_later_of_the_date_and_seven_days_and_holds_seven() {
    let early = Tournament::new("gm@x", t("2026-07-07T00:00:00Z"), t("2026-06-01T00:00:00Z"));
    assert_eq!(early.entry_closes(), t("2026-07-07T00:00:00Z"));
    let late = Tournament::new("gm@x", t("2026-07-07T00:00:00Z"), t("2026-07-03T00:00:00Z"));
    assert_eq!(late.entry_closes(), t("2026-07-10T00:00:00Z"));

    let mut tour = late;
    let now = t("2026-07-08T00:00:00Z");
    assert_eq!(
        tour.enter("GM@x", now),
        Err(TournamentError::GamemasterCannotPlay)
    );
    for i in 0..7 {
        tour.enter(&format!("p{i}@x"), now).expect("room for seven");
    }
    assert_eq!(
        tour.enter("p0@x", now),
        Err(TournamentError::AlreadyContestant("p0@x".into()))
    );
    assert_eq!(tour.enter("eighth@x", now), Err(TournamentError::Full));
    assert_eq!(tour.contestants.len(), 7);
    let mut open = Tournament::new("gm@x", t("2026-07-07T00:00:00Z"), t("2026-07-03T00:00:00Z"));
    assert!(matches!(
        open.enter("late@x", t("2026-07-10T00:00:00Z")),
        Err(TournamentError::EntryClosed(_))
    ));
    assert!(open.enter("ontime@x", t("2026-07-09T23:59:00Z")).is_ok());
}

#[test]
fn a_proposal_passes_with_three_secret_votes_and_only_counts_are_published() {
    let voters = ["bea@x", "cid@x", "dee@x", "eve@x"];
    let mut regs = Regulations::new(REGS);
    let mut props = Proposals::default();
    let mut published = Vec::new();
    let (n, notice) = props
        .submit(&regs, "ann@x", true, "8. Proposals pass with four votes.")
        .expect("submit");
    published.push(notice);
    assert!(matches!(props.get(n).unwrap().change, Change::Sections(_)));
    let mut all = Vec::new();
    for (voter, yes) in [
        ("bea@x", true),
        ("dee@x", false),
        ("cid@x", true),
        ("eve@x", true),
    ] {
        all.extend(props.vote(&mut regs, voter, true, n, yes).expect(voter));
    }
    // Acknowledgements are private, to the voter alone.
    for note in all.iter().filter(|n| n.to != Audience::Public) {
        let Audience::Private(to) = &note.to else {
            unreachable!()
        };
        assert!(voters.contains(&to.as_str()));
        assert!(
            voters
                .iter()
                .filter(|v| *v != to)
                .all(|v| !note.text.contains(*v))
        );
    }
    published.extend(all.into_iter().filter(|n| n.to == Audience::Public));
    let texts = public(&published);
    assert_eq!(texts.len(), 2, "submission and enactment");
    assert!(
        texts[1].contains("3 votes in favour and 1 against"),
        "{}",
        texts[1]
    );
    for text in &texts {
        for v in voters {
            assert!(!text.contains(v), "a voter's identity is published: {text}");
        }
    }
    assert_eq!(props.get(n).unwrap().status, Status::Enacted { version: 2 });
    assert!(
        regs.current()
            .text
            .contains("8. Proposals pass with four votes.")
    );
    assert!(!regs.current().text.contains("three votes"));
    assert_eq!(regs.get(Some(1)).unwrap().text, REGS);
    // Enacted: no more votes.
    assert_eq!(
        props.vote(&mut regs, "dee@x", true, n, true),
        Err(ProposalError::NotOpen(n))
    );
}

#[test]
fn a_withdrawn_proposal_takes_no_votes_and_is_never_enacted() {
    let mut regs = Regulations::new(REGS);
    let mut props = Proposals::default();
    let (n, _) = props
        .submit(&regs, "ann@x", true, "Everyone gets a badge.")
        .expect("free text");
    props.vote(&mut regs, "bea@x", true, n, true).expect("vote");
    props.vote(&mut regs, "cid@x", true, n, true).expect("vote");
    assert_eq!(
        props.withdraw("bea@x", n),
        Err(ProposalError::NotProposer(n))
    );
    assert!(props.withdraw("ANN@x", n).is_ok());
    assert_eq!(
        props.vote(&mut regs, "dee@x", true, n, true),
        Err(ProposalError::NotOpen(n))
    );
    assert_eq!(props.get(n).unwrap().status, Status::Withdrawn);
    assert_eq!(regs.current().number, 1);
    assert_eq!(
        props.vote(&mut regs, "ann@x", true, 99, true),
        Err(ProposalError::NoSuchProposal(99))
    );
}

#[test]
fn sections_zero_to_five_cannot_be_amended_by_proposal() {
    let regs = Regulations::new(REGS);
    let mut props = Proposals::default();
    let err = props
        .submit(&regs, "ann@x", true, "3. The first to twelve centres wins.")
        .unwrap_err();
    assert_eq!(err, ProposalError::Protected(3));
    assert!(
        err.to_string()
            .contains("sections 0 to 5 cannot be amended by proposal")
    );
    let full = REGS.replace("2. The GM may act.", "2. The GM may not act.");
    assert_eq!(
        props.submit(&regs, "ann@x", true, &full).unwrap_err(),
        ProposalError::Protected(2)
    );
    // A full text that keeps 0-5 word for word (reflowed) is fine.
    let ok = REGS
        .replace("1. Entry is open", "1. Entry is\n   open")
        .replace("7. Helpers are allowed.", "7. No helpers.");
    let (n, _) = props.submit(&regs, "ann@x", true, &ok).expect("full text");
    assert!(matches!(props.get(n).unwrap().change, Change::FullText(_)));
    assert_eq!(
        props.submit(&regs, "nobody@x", false, "9. x"),
        Err(ProposalError::NotContestant)
    );
}

#[test]
fn the_gamemaster_substitutes_one_contestant_for_another_everywhere() {
    let tour = tournament_with(&["ann@x", "bea@x", "cid@x", "dee@x"]);
    let mut agora = Agora::new(tour, REGS, &Position::initial(map()));
    agora.tournament.contestants[0].power = Some(power("France"));
    let (mine, _) = agora
        .proposals
        .submit(&agora.regulations, "ann@x", true, "9. Extra rule.")
        .unwrap();
    let (theirs, _) = agora
        .proposals
        .submit(&agora.regulations, "bea@x", true, "10. Other rule.")
        .unwrap();
    agora
        .proposals
        .vote(&mut agora.regulations, "ann@x", true, theirs, false)
        .unwrap();
    let is = |w: &str| ["ann@x", "bea@x", "cid@x", "dee@x"].contains(&w);
    let helper = Assistant {
        contestant: "ann@x".into(),
        address: "h@x".into(),
        may_order: true,
        role: "orders".into(),
    };
    agora
        .assistants
        .announce("ann@x", is, "gm@agora.example", helper)
        .unwrap();

    let act = GmAct::Substitute {
        from: "ann@x".into(),
        to: "zed@x".into(),
    };
    assert_eq!(
        agora.gm_act("ann@x", &act, t("2026-07-08T00:00:00Z")),
        Err(TournamentError::NotGamemaster)
    );
    let notice = agora
        .gm_act("gm@agora.example", &act, t("2026-07-08T00:00:00Z"))
        .expect("substitute");
    assert!(notice.text.contains("zed@x") && notice.text.contains("ann@x"));
    assert_eq!(agora.tournament.power_of("zed@x"), Some(power("France")));
    assert!(!agora.tournament.is_contestant("ann@x"));
    assert_eq!(agora.proposals.get(mine).unwrap().proposer, "zed@x");
    assert_eq!(
        agora.proposals.get(theirs).unwrap().vote_of("zed@x"),
        Some(false)
    );
    assert_eq!(agora.proposals.get(theirs).unwrap().vote_of("ann@x"), None);
    assert_eq!(
        agora.assistants.orders_for("h@x"),
        Some(&"zed@x".to_string())
    );
    assert_eq!(
        agora.tournament.log.len(),
        5,
        "four entries and the act are logged"
    );
    let bad = GmAct::Substitute {
        from: "bea@x".into(),
        to: "gm@agora.example".into(),
    };
    assert_eq!(
        agora.gm_act("gm@agora.example", &bad, t("2026-07-08T00:00:00Z")),
        Err(TournamentError::GamemasterCannotPlay)
    );
    // Only with fewer than seven entered may the GM end the tournament.
    let end = GmAct::End {
        text: "A nomic.".into(),
    };
    agora
        .gm_act("gm@agora.example", &end, t("2026-07-09T00:00:00Z"))
        .expect("five entered");
    assert_eq!(agora.tournament.stage, Stage::Ended);
    assert_eq!(agora.regulations.current().text, "A nomic.");
}

#[test]
fn an_assistants_order_is_logged_and_reported_to_the_contestant() {
    let mut a = Assistants::default();
    let is = |w: &str| w == "ann@x" || w == "bea@x";
    let helper = Assistant {
        contestant: "ann@x".into(),
        address: "Hal@X".into(),
        may_order: true,
        role: "writes orders".into(),
    };
    let n = a.announce("ann@x", is, "gm@x", helper).expect("announce");
    assert_eq!(n.to, Audience::Public);
    assert!(n.text.contains("hal@x") && n.text.contains("writes orders"));
    let bad = Assistant {
        contestant: "ann@x".into(),
        address: "bea@x".into(),
        may_order: false,
        role: "x".into(),
    };
    assert_eq!(
        a.announce("ann@x", is, "gm@x", bad),
        Err(AssistantError::IsContestant)
    );
    let france = power("France");
    let entry = |o: &str| OrderEntry {
        turn: "S1901M".into(),
        power: france,
        order: o.into(),
        submitted_by: String::new(),
    };
    a.log_order("ann@x", "hal@x", entry("A PAR - BUR"))
        .expect("assistant may order");
    a.log_order("ann@x", "ann@x", entry("F BRE - MAO"))
        .expect("contestant orders");
    assert_eq!(
        a.log_order("ann@x", "eve@x", entry("A MAR H")),
        Err(AssistantError::NotAllowed("eve@x".into()))
    );
    let report = a.notice("ann@x", france, "S1901M");
    assert_eq!(report.to, Audience::Private("ann@x".into()));
    assert!(
        report.text.contains("A PAR - BUR  (submitted by hal@x)"),
        "{}",
        report.text
    );
    assert!(report.text.contains("F BRE - MAO  (submitted by ann@x)"));
    assert!(!report.text.contains("A MAR"));
}

#[test]
fn a_whole_turn_resolves_from_one_set_of_orders_with_conditional_retreats_and_builds() {
    let position = board(
        "F1901M",
        &[
            "France: A BUR",
            "France: A RUH",
            "Germany: A MUN",
            "Germany: A BER",
        ],
    );
    let mut france = TurnOrders::new(power("France"));
    france.movement = vec![mv("A BUR - MUN"), mv("A RUH S A BUR - MUN")];
    let build = |s: &str| order(s, PhaseKind::Adjustment);
    let holds_munich = Condition::Unit(
        parse_order_in(map(), "A MUN H", None)
            .unwrap()
            .order
            .unit()
            .unwrap(),
    );
    france.adjustments = vec![
        Conditional::when(
            holds_munich,
            vec![build("BUILD A PAR")],
            vec![build("BUILD F BRE")],
        ),
        Conditional::always(vec![build("BUILD A MAR"), build("BUILD F BRE")]),
    ];
    let mut germany = TurnOrders::new(power("Germany"));
    germany.movement = vec![mv("A MUN H")];
    let retreat = |s: &str| order(s, PhaseKind::Retreat);
    // Burgundy is the attacker's origin and Ruhr is occupied: Bohemia is the first possible.
    germany.retreats = vec![Conditional::always(vec![
        retreat("A MUN - BUR"),
        retreat("A MUN - RUH"),
        retreat("A MUN - BOH"),
        retreat("A MUN - TYR"),
    ])];
    let rules = civil_disorder::rules();
    let result = resolve(map(), &rules, &position, &[france, germany], &[]).expect("turn");
    let phases: Vec<String> = result.phases.iter().map(|p| p.phase.to_string()).collect();
    assert_eq!(phases, ["F1901M", "F1901R", "W1901A"]);
    assert_eq!(result.after.phase.to_string(), "S1902M");
    assert_eq!(units_of(&result.after, "Germany"), ["A BER", "A BOH"]);
    assert_eq!(
        units_of(&result.after, "France"),
        ["A MAR", "A MUN", "A PAR", "A RUH"]
    );
    assert_eq!(
        result.after.owner(map().lookup("mun").unwrap().province),
        Some(power("France"))
    );
    // The third build found no room: the judge refused it.
    let winter = &result.phases[2].adjudication;
    assert!(
        winter
            .resolutions
            .iter()
            .any(|r| r.order == build("BUILD F BRE") && r.verdict == legate::judge::Verdict::Void)
    );
}

#[test]
fn the_draw_clock_fires_after_three_years_without_a_change() {
    let start = Position::initial(map());
    let mut clock = DrawClock::new(1901, &start.owners);
    assert!(!clock.after_fall(1901, &start.owners));
    let mut moved = start.owners.clone();
    moved[map().lookup("bel").unwrap().province.0 as usize] = Some(power("France"));
    assert!(!clock.after_fall(1902, &moved));
    assert!(!clock.after_fall(1903, &moved));
    assert!(!clock.after_fall(1904, &moved));
    assert_eq!(
        clock.declare(t("2026-08-01T00:00:00Z")),
        Err(DrawError::TooSoon(1902, 1905))
    );
    // At the start no centre has changed hands: the refusal claims no change.
    assert_eq!(
        DrawError::TooSoon(1900, 1903).to_string(),
        "a draw may be declared after the Fall of 1903, when three game-years have passed \
         with no centre changing hands after 1900"
    );
    assert!(
        clock.after_fall(1905, &moved),
        "the GM is told the first time"
    );
    assert!(clock.may_declare());
    let at = clock
        .declare(t("2026-08-01T00:00:00Z"))
        .expect("may declare");
    assert_eq!(at, t("2026-08-03T00:00:00Z"));
    assert_eq!(
        clock.execute(t("2026-08-02T00:00:00Z")),
        Err(DrawError::NotYet(at))
    );
    assert_eq!(clock.execute(at), Ok(()));

    // Through the whole state: the draw makes every remaining contestant a winner.
    let mut agora = Agora::new(tournament_with(&["ann@x", "bea@x"]), REGS, &start);
    for year in 1901..=1903 {
        let notes = agora.after_turn(map(), &start, Some(year), t("2026-07-20T00:00:00Z"));
        assert_eq!(
            notes
                .iter()
                .any(|n| n.to == Audience::Private("gm@agora.example".into())),
            year == 1903
        );
    }
    agora
        .declare_draw("gm@agora.example", t("2026-08-01T00:00:00Z"))
        .expect("declare");
    assert!(agora.tick(t("2026-08-02T00:00:00Z")).is_empty());
    let notes = agora.tick(t("2026-08-03T00:00:00Z"));
    assert!(
        public(&notes).iter().any(|n| n.contains("ann@x, bea@x")),
        "{notes:?}"
    );
    assert_eq!(agora.tournament.stage, Stage::Concluded);
}

#[test]
fn civil_disorder_holds_and_removes_the_farthest_fleets_first_then_by_name() {
    // Russia keeps Moscow and Warsaw with five units: three must go.
    let mut position = board(
        "F1901M",
        &[
            "Russia: A MOS",
            "Russia: A PIC",
            "Russia: F NTH",
            "Russia: F SKA",
            "Russia: A BOH",
        ],
    );
    for c in ["stp", "sev"] {
        position.owners[map().lookup(c).unwrap().province.0 as usize] = None;
    }
    let russia = power("Russia");
    let mut orders = TurnOrders::new(russia);
    // A collapsed government's orders are ignored: the fleet holds, Moscow is not removed.
    orders.movement = vec![mv("F NTH - NWY")];
    orders.adjustments = vec![Conditional::always(vec![order(
        "REMOVE A MOS",
        PhaseKind::Adjustment,
    )])];
    let result = resolve(
        map(),
        &civil_disorder::rules(),
        &position,
        &[orders],
        &[russia],
    )
    .expect("turn");
    assert_eq!(units_of(&result.after, "Russia"), ["A BOH", "A MOS"]);
    let winter = result.phases.last().unwrap();
    let removed: Vec<String> = winter
        .adjudication
        .resolutions
        .iter()
        .filter(|r| r.power == russia && r.defaulted)
        .map(|r| map().abbr(r.order.unit().unwrap().province()).to_string())
        .collect();
    assert_eq!(
        removed,
        ["pic", "nth", "ska"],
        "farthest, then fleets, then North Sea before Skagerrak"
    );
    let stated: Vec<String> =
        judge::removal_order(map(), &civil_disorder::rules(), &position, russia)
            .iter()
            .map(|u| format!("{} {}", u.kind.letter(), map().abbr(u.province())))
            .collect();
    assert_eq!(stated, ["A pic", "F nth", "F ska", "A boh", "A mos"]);
    assert!(
        judge::removal_order(map(), &civil_disorder::rules(), &position, russia)
            .iter()
            .all(|u| u.kind == UnitKind::Army || u.kind == UnitKind::Fleet)
    );
}

#[test]
fn eighteen_centres_after_a_fall_end_every_other_contestancy() {
    let mut position = Position::initial(map());
    let france = power("France");
    let centres: Vec<_> = map().supply_centers().iter().collect();
    // France's homes first, then others: 17 centres of France, the rest unowned.
    position.owners.iter_mut().for_each(|o| *o = None);
    for p in centres.iter().take(17) {
        position.owners[p.0 as usize] = Some(france);
    }
    let mut agora = Agora::new(
        tournament_with(&["ann@x", "bea@x", "cid@x"]),
        REGS,
        &position,
    );
    for (c, p) in agora
        .tournament
        .contestants
        .iter_mut()
        .zip(["France", "England", "Turkey"])
    {
        c.power = Some(power(p));
    }
    let now = t("2026-09-01T00:00:00Z");
    assert_eq!(position.centers_of(france).len(), 17);
    let early = agora.after_turn(map(), &position, Some(1905), now);
    assert!(public(&early).is_empty(), "17 is not enough: {early:?}");
    assert_eq!(agora.players().len(), 3);
    for p in centres.iter().skip(17).take(1) {
        position.owners[p.0 as usize] = Some(france);
    }
    assert!(
        agora.after_turn(map(), &position, None, now).is_empty(),
        "only after a Fall"
    );
    let notes = agora.after_turn(map(), &position, Some(1906), now);
    assert_eq!(agora.players(), [("ann@x".to_string(), france)]);
    let texts = public(&notes);
    assert!(texts.iter().any(|n| n.contains("bea@x is no longer")));
    assert!(texts.iter().any(|n| n.contains("cid@x is no longer")));
    assert!(
        texts
            .iter()
            .any(|n| n.contains("two days' notice") && n.contains("ann@x"))
    );
    // The GM may name several winners before the announcement.
    agora
        .victory
        .amend(vec!["ann@x".into(), "bea@x".into()])
        .expect("amend");
    assert!(agora.tick(now + Duration::hours(47)).is_empty());
    let done = agora.tick(now + Duration::days(2));
    assert!(
        public(&done)
            .iter()
            .any(|n| n.contains("winners of the tournament: ann@x, bea@x"))
    );
    assert_eq!(agora.tournament.stage, Stage::Concluded);
}

#[test]
fn the_turn_clock_follows_section_15() {
    let first = t("2026-07-08T00:00:00Z");
    assert_eq!(
        schedule::at(first, t("2026-07-07T23:00:00Z")).period,
        Period::NotStarted
    );
    let neg = schedule::at(first, t("2026-07-08T15:00:00Z"));
    assert_eq!(
        (neg.turn, neg.period, neg.orders_open()),
        (0, Period::Negotiation, true)
    );
    assert_eq!(
        schedule::at(first, t("2026-07-09T11:59:00Z")).period,
        Period::Orders
    );
    let res = schedule::at(first, t("2026-07-09T12:00:00Z"));
    assert_eq!((res.period, res.orders_open()), (Period::Resolution, false));
    assert_eq!(res.results_due, t("2026-07-10T00:00:00Z"));
    assert_eq!(schedule::at(first, t("2026-07-10T00:00:00Z")).turn, 1);
    assert_eq!(schedule::next_midnight(t("2026-07-07T09:00:00Z")), first);
    // The engine's deadline from results given any time in the afternoon.
    let s = schedule::default_schedule();
    for done in ["2026-07-09T12:00:00Z", "2026-07-09T23:30:00Z"] {
        let d = next_deadline(&s.movement, s.tz(), t(done), &[]);
        assert_eq!(d, t("2026-07-11T12:00:00Z"), "from {done}");
    }
}

#[test]
fn a_free_text_proposal_becomes_a_new_section_and_its_effects_are_logged() {
    let mut agora = Agora::new(
        tournament_with(&["ann@x", "bea@x", "cid@x", "dee@x", "eve@x"]),
        REGS,
        &Position::initial(map()),
    );
    let regs = &agora.regulations;
    let (n, _) = agora
        .proposals
        .submit(regs, "ann@x", true, "France and England share the win.")
        .unwrap();
    assert!(matches!(
        agora.proposals.get(n).unwrap().change,
        Change::Free(_)
    ));
    agora
        .proposals
        .vote(&mut agora.regulations, "bea@x", true, n, true)
        .unwrap();
    // A removed contestant's vote no longer counts.
    let gm = "gm@agora.example";
    let at = t("2026-07-08T00:00:00Z");
    agora
        .gm_act(
            gm,
            &GmAct::Remove {
                person: "bea@x".into(),
            },
            at,
        )
        .expect("remove");
    assert_eq!(agora.proposals.get(n).unwrap().counts(), (0, 0));
    assert_eq!(
        agora.gm_act(
            gm,
            &GmAct::Add {
                person: "fay@x".into(),
                consented: false
            },
            at
        ),
        Err(TournamentError::NoConsent)
    );
    agora
        .gm_act(
            gm,
            &GmAct::Add {
                person: "fay@x".into(),
                consented: true,
            },
            at,
        )
        .expect("add");
    for v in ["cid@x", "dee@x", "fay@x"] {
        agora
            .proposals
            .vote(&mut agora.regulations, v, true, n, true)
            .unwrap();
    }
    assert_eq!(agora.regulations.current().number, 2);
    assert!(
        agora
            .regulations
            .current()
            .text
            .contains("9. France and England share the win.")
    );
    assert!(agora.regulations.get(Some(7)).is_err());
    let logged = agora
        .proposals
        .log_effect(n, "SET WINNERS France England")
        .unwrap();
    assert!(logged.text.contains("proposal 1"));
    assert_eq!(
        agora.proposals.get(n).unwrap().effects,
        ["SET WINNERS France England"]
    );
}
