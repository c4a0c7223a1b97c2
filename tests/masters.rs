//! Masters Rules: every worked example of the rule text, each rule alone, the
//! rules together, and the same result whatever order the submissions come in.

use legate::grammar::{Entry, OrderItem, parse_line, parse_order_in};
use legate::judge::{
    self, Countries, Edition, Position, Reason as JudgeReason, Rules, Unit,
    Verdict as JudgeVerdict, adjudicate,
};
use legate::map::{Map, Power, Province, UnitKind};
use legate::orders::Order;
use legate::phase::{Phase, PhaseKind};
use legate::variant::masters::adjustment::{
    AdjustmentResult, AdjustmentSubmission, resolve as adjust,
};
use legate::variant::masters::control::{Decision, Rejection, Submission, resolve as control};
use legate::variant::masters::{
    AdjustmentOrder, Kind, MastersState, Options, Reason, Rebel, Rule, Verdict, minors,
};

// ---------------------------------------------------------------- helpers

fn map() -> &'static Map {
    minors::standard()
}

fn power(name: &str) -> Power {
    map().power(name).unwrap_or_else(|| panic!("power {name}"))
}

fn prov(name: &str) -> Province {
    map()
        .lookup(name)
        .unwrap_or_else(|| panic!("province {name}"))
        .province
}

fn state(options: &str) -> MastersState {
    MastersState::new(map(), 7, options.parse().expect("options"))
}

/// `"France: A Par"` → a unit of that power (or of a rebel number `"#19: A Arm"`).
fn unit(text: &str) -> Unit {
    let (who, rest) = text.split_once(':').expect("power: unit");
    let who = who.trim();
    let power = match who.strip_prefix('#') {
        Some(n) => Power(n.parse().expect("number")),
        None => power(who),
    };
    let (kind, place) = rest.trim().split_once(' ').expect("kind place");
    let kind = if kind == "F" {
        UnitKind::Fleet
    } else {
        UnitKind::Army
    };
    Unit {
        power,
        kind,
        location: map().lookup(place).expect(place),
    }
}

/// The Masters opening with these units instead, these owners changed, in `phase`.
fn position(phase: &str, units: &[&str], owners: &[(&str, &[&str])]) -> Position {
    let mut p = Position::initial(map());
    p.phase = phase.parse::<Phase>().expect(phase);
    p.units = units.iter().map(|u| unit(u)).collect();
    for (who, centers) in owners {
        for c in *centers {
            p.owners[prov(c).0 as usize] = Some(power(who));
        }
    }
    p
}

fn order(p: &Position, text: &str) -> Order {
    parse_order_in(map(), text, Some(p.phase.kind))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .order
}

fn sub(p: &Position, writer: &str, lines: &[&str]) -> Submission {
    Submission {
        writer: power(writer),
        orders: lines.iter().map(|l| order(p, l)).collect(),
    }
}

/// An adjustment order as the grammar reads it (standard or Masters variant order).
fn adj(text: &str) -> AdjustmentOrder {
    let phase = Some("W1901A".parse::<Phase>().expect("phase"));
    let lines = parse_line(map(), text, phase);
    let item = match &lines[0].entry {
        Entry::Orders(items) => items[0].clone(),
        other => panic!("{text}: {other:?}"),
    };
    match item {
        OrderItem::Order(o) => AdjustmentOrder::from_order(&o.order).expect(text),
        OrderItem::Variant { order, .. } => AdjustmentOrder::from_variant(&order).expect(text),
    }
}

fn asub(writer: &str, lines: &[&str]) -> AdjustmentSubmission {
    AdjustmentSubmission {
        writer: power(writer),
        orders: lines.iter().map(|l| adj(l)).collect(),
    }
}

/// Verdict and reason of each written order, in the order given per writer.
fn verdicts(r: &AdjustmentResult, writer: &str) -> Vec<(Verdict, Reason)> {
    r.outcomes
        .iter()
        .filter(|o| o.writer == Some(power(writer)))
        .map(|o| (o.verdict, o.reason))
        .collect()
}

fn unit_at(p: &Position, at: &str) -> Option<Unit> {
    p.unit_at(prov(at)).copied()
}

fn rules() -> Rules {
    Rules::default()
}

/// Every order of `items` tried in every rotation and reversed: the result must not change.
fn orders_of_submission_do_not_matter<T: Clone, R: PartialEq + std::fmt::Debug>(
    items: &[T],
    run: impl Fn(&[T]) -> R,
) {
    let first = run(items);
    for k in 0..items.len() {
        let mut v = items.to_vec();
        v.rotate_left(k);
        assert_eq!(run(&v), first, "rotation {k}");
        v.reverse();
        assert_eq!(run(&v), first, "reversed rotation {k}");
    }
}

// ---------------------------------------------------------------- options, MR1

#[test]
fn options_parse_and_print() {
    let o: Options = "masters=MR1,MR2,mr6".parse().expect("parse");
    assert!(o.has(Rule::MinorPowers) && o.has(Rule::VariableControl) && o.has(Rule::ForeignAid));
    assert!(!o.has(Rule::Rebellion));
    assert_eq!(o.to_string(), "MR1,MR2,MR6");
    assert_eq!("all".parse::<Options>().expect("all"), Options::all());
    assert_eq!("".parse::<Options>().expect("empty").to_string(), "none");
    assert!("MR7".parse::<Options>().is_err());
    assert!("masters=MR1,XX".parse::<Options>().is_err());
}

#[test]
fn mr1_twelve_minor_powers_with_one_army_each_in_their_home() {
    let m = map();
    assert_eq!(m.powers().len(), 19);
    let minors = minors::minors(m, 7);
    let names: Vec<&str> = minors
        .iter()
        .map(|x| m.power_info(x.power).name.as_str())
        .collect();
    for n in [
        "Portugal", "Spain", "Belgium", "Holland", "Denmark", "Norway", "Sweden", "Serbia",
        "Rumania", "Bulgaria", "Greece", "Tunis",
    ] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert_eq!(minors.len(), 12);
    let p = Position::initial(m);
    assert_eq!(p.units.len(), 34);
    assert_eq!(p.owners.iter().flatten().count(), 34);
    let spain = power("Spanish");
    assert_eq!(p.owner(prov("spa")), Some(spain));
    assert!(p.home_of(spain).contains(prov("spa")));
    assert_eq!(
        unit_at(&p, "spa").map(|u| (u.power, u.kind)),
        Some((spain, UnitKind::Army))
    );
    let s = state("MR1");
    assert_eq!(s.kind(spain), Some(Kind::Minor));
    assert_eq!(s.kind(power("France")), Some(Kind::Great));
    assert!(s.in_civil_disorder(spain, &[]));
    assert!(!s.in_civil_disorder(power("France"), &[]));
}

#[test]
fn mr1_a_minor_without_orders_holds_and_takes_support() {
    // France attacks Belgium with support; Germany supports the Belgian army: it holds.
    let p = position(
        "S1901M",
        &[
            "France: A Pic",
            "France: A Bur",
            "Germany: A Ruh",
            "Belgium: A Bel",
        ],
        &[],
    );
    let orders: Vec<_> = [
        ("France", "A Pic - Bel"),
        ("France", "A Bur S A Pic - Bel"),
        ("Germany", "A Ruh S A Bel"),
    ]
    .iter()
    .map(|(w, o)| legate::orders::PowerOrder {
        power: power(w),
        order: order(&p, o),
    })
    .collect();
    let adj = adjudicate(map(), &rules(), &Countries, &p, &orders);
    assert_eq!(adj.resolutions[0].verdict, JudgeVerdict::Bounce);
    assert_eq!(
        unit_at(&adj.after, "bel").map(|u| u.power),
        Some(power("Belgium"))
    );
}

#[test]
fn the_grammar_reads_orders_for_minor_powers() {
    let p = position("F1901M", &[], &[]);
    let o = parse_order_in(
        map(),
        "Portugal: A Por S (Spanish) A Spa",
        Some(p.phase.kind),
    )
    .expect("parse");
    assert_eq!(o.power, Some(power("Portugal")));
    assert!(
        matches!(o.order, Order::SupportHold { supported, .. } if supported.power == Some(power("Spain")))
    );
}

// ---------------------------------------------------------------- MR2

/// The board of the Fall 1901 example.
fn fall_1901() -> Position {
    position(
        "F1901M",
        &[
            "France: F Gas",
            "France: A Mar",
            "France: A Bur",
            "Germany: F Hel",
            "Germany: A Kie",
            "Germany: A Mun",
            "Italy: F TyS",
            "Italy: A Ven",
            "Italy: A Apu",
            "Portugal: A Por",
            "Spain: A Spa",
        ],
        &[],
    )
}

fn fall_1901_submissions(p: &Position, italy_copies: usize) -> Vec<Submission> {
    let mut italy = vec!["F TyS - Wes"];
    italy.extend(std::iter::repeat_n(
        "Portugal: A Por S (Spanish) A Spa",
        italy_copies,
    ));
    vec![
        sub(
            p,
            "France",
            &[
                "F Gas S A Mar - Spa",
                "A Mar - Spa",
                "Portugal: A Por S (French) A Mar - Spa",
            ],
        ),
        sub(
            p,
            "Germany",
            &[
                "F Hel S A Kie - Den",
                "A Kie - Den",
                "Portugal: A Por S (Spanish) A Spa",
            ],
        ),
        sub(p, "Italy", &italy),
    ]
}

#[test]
fn mr2_the_fall_1901_portugal_example() {
    let p = fall_1901();
    let s = state("MR1,MR2");
    let r = control(map(), &s, &p, &[], &fall_1901_submissions(&p, 2));
    assert!(r.rejected.is_empty(), "{:?}", r.rejected);
    assert_eq!(r.tallies.len(), 1);
    let t = &r.tallies[0];
    assert_eq!(t.unit.power, power("Portugal"));
    let counts: Vec<u32> = t.candidates.iter().map(|c| c.votes).collect();
    assert_eq!(counts, [3, 1]);
    assert_eq!(
        t.candidates[0].writers,
        [(power("Germany"), 1), (power("Italy"), 2)]
    );
    assert_eq!(t.candidates[1].writers, [(power("France"), 1)]);
    let Decision::Ordered(chosen) = t.decision else {
        panic!("no decision")
    };
    assert!(
        matches!(chosen, Order::SupportHold { supported, .. } if supported.province() == prov("spa"))
    );
    // The judge: the Portuguese army supports the Spanish one and the French attack fails.
    let adj = adjudicate(map(), &rules(), &Countries, &p, &r.orders);
    let attack = adj
        .resolutions
        .iter()
        .find(|x| x.order == order(&p, "A Mar - Spa"))
        .expect("attack");
    assert_eq!(attack.verdict, JudgeVerdict::Bounce);
    assert_eq!(
        unit_at(&adj.after, "spa").map(|u| u.power),
        Some(power("Spain"))
    );
    let support = adj
        .resolutions
        .iter()
        .find(|x| x.power == power("Portugal"))
        .expect("portugal");
    assert_eq!(support.verdict, JudgeVerdict::Ok);
}

#[test]
fn mr2_with_france_alone_writing_for_portugal_spain_falls() {
    let p = fall_1901();
    let mut subs = fall_1901_submissions(&p, 0);
    subs[1].orders.pop();
    let r = control(map(), &state("MR1,MR2"), &p, &[], &subs);
    let adj = adjudicate(map(), &rules(), &Countries, &p, &r.orders);
    assert_eq!(
        unit_at(&adj.after, "spa").map(|u| u.power),
        Some(power("France"))
    );
}

#[test]
fn mr2_a_tie_gives_no_order_and_the_unit_holds() {
    let p = fall_1901();
    // France once, Germany once, Italy not at all: one against one.
    let r = control(
        map(),
        &state("MR1,MR2"),
        &p,
        &[],
        &fall_1901_submissions(&p, 0),
    );
    assert_eq!(r.tallies[0].decision, Decision::Tied);
    assert!(r.orders.iter().all(|o| o.power != power("Portugal")));
    let adj = adjudicate(map(), &rules(), &Countries, &p, &r.orders);
    let por = adj
        .resolutions
        .iter()
        .find(|x| x.power == power("Portugal"))
        .expect("default");
    assert!(por.defaulted && por.reason == JudgeReason::Unordered);
    // Without Portugal's support the two-strength French attack takes Spain.
    assert_eq!(
        unit_at(&adj.after, "spa").map(|u| u.power),
        Some(power("France"))
    );
}

#[test]
fn mr2_no_more_orders_than_centers_owned() {
    let p = fall_1901();
    // Italy owns three centers: one own order and three copies is one too many.
    let r = control(
        map(),
        &state("MR1,MR2"),
        &p,
        &[],
        &fall_1901_submissions(&p, 3),
    );
    assert_eq!(r.rejected.len(), 1);
    assert_eq!(r.rejected[0].writer, power("Italy"));
    assert_eq!(r.rejected[0].why, Rejection::OverLimit { limit: 3 });
    assert_eq!(r.tallies[0].candidates[0].votes, 3);
}

#[test]
fn mr2_a_unit_next_to_the_minor_center_makes_the_writer_ineligible() {
    let mut p = fall_1901();
    p.units.push(unit("France: F Mao"));
    let r = control(
        map(),
        &state("MR1,MR2"),
        &p,
        &[],
        &fall_1901_submissions(&p, 2),
    );
    assert_eq!(r.rejected.len(), 1);
    assert_eq!(
        r.rejected[0].why,
        Rejection::NotEligible {
            controlled: power("Portugal")
        }
    );
    assert_eq!(r.tallies[0].candidates.len(), 1);
}

#[test]
fn mr2_off_and_writers_in_civil_disorder_write_nothing() {
    let p = fall_1901();
    let off = control(map(), &state("MR1"), &p, &[], &fall_1901_submissions(&p, 2));
    assert!(off.tallies.is_empty());
    assert!(off.rejected.iter().all(|r| r.why == Rejection::Off));
    let cd = control(
        map(),
        &state("MR1,MR2"),
        &p,
        &[power("Italy")],
        &fall_1901_submissions(&p, 2),
    );
    assert!(
        cd.rejected
            .iter()
            .all(|r| r.writer == power("Italy") && r.why == Rejection::WriterInCivilDisorder)
    );
    assert_eq!(cd.rejected.len(), 2);
}

#[test]
fn mr2_a_great_power_in_civil_disorder_is_open_to_control() {
    // Austria in civil disorder; Italy (no unit near Austrian centers) orders A Vie - Gal.
    let p = position("S1901M", &["Austria: A Vie", "Italy: A Rom"], &[]);
    let austria = power("Austria");
    let s = state("MR2");
    let r = control(
        map(),
        &s,
        &p,
        &[austria],
        &[sub(&p, "Italy", &["A Rom H", "A Vie - Gal"])],
    );
    assert!(
        r.orders
            .iter()
            .any(|o| o.power == austria && o.order == order(&p, "A Vie - Gal"))
    );
    // Not in civil disorder: the order is Italy's, and the judge voids it as foreign.
    let r = control(
        map(),
        &s,
        &p,
        &[],
        &[sub(&p, "Italy", &["A Rom H", "A Vie - Gal"])],
    );
    assert!(r.tallies.is_empty());
    let adj = adjudicate(map(), &rules(), &Countries, &p, &r.orders);
    assert!(matches!(
        adj.resolutions[1].reason,
        JudgeReason::ForeignUnit { .. }
    ));
}

#[test]
fn mr2_retreats_one_order_per_player_whatever_their_centers() {
    let mut p = position(
        "F1901R",
        &["England: F Nwg", "Russia: F Bot", "Germany: A Kie"],
        &[],
    );
    p.dislodged.push(legate::judge::Dislodged {
        unit: unit("Denmark: A Den"),
        attacker_from: prov("kie"),
        via_convoy: false,
    });
    let s = state("MR1,MR2");
    let subs = [
        sub(
            &p,
            "England",
            &["A Den - Swe", "A Den - Swe", "A Den - Swe"],
        ),
        sub(&p, "Russia", &["A Den D"]),
    ];
    let r = control(map(), &s, &p, &[], &subs);
    assert_eq!(
        r.rejected
            .iter()
            .filter(|x| x.why == Rejection::SecondRetreatOrder)
            .count(),
        2
    );
    // One each: a tie, so no order: the army is disbanded.
    assert_eq!(r.tallies[0].decision, Decision::Tied);
    // Germany is next to Denmark's center: not eligible.
    let r = control(map(), &s, &p, &[], &[sub(&p, "Germany", &["A Den - Swe"])]);
    assert_eq!(
        r.rejected[0].why,
        Rejection::NotEligible {
            controlled: power("Denmark")
        }
    );
}

#[test]
fn mr2_same_result_in_any_order_of_submissions() {
    let p = fall_1901();
    let s = state("MR1,MR2");
    let subs = fall_1901_submissions(&p, 2);
    orders_of_submission_do_not_matter(&subs, |v| control(map(), &s, &p, &[], v));
}

// ---------------------------------------------------------------- MR3

/// Adjustments 1901 of the Moscow example.
fn moscow() -> Position {
    position(
        "W1901A",
        &[
            "Russia: A Gal",
            "Russia: A Rum",
            "Russia: F StP/SC",
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
    )
}

#[test]
fn mr3_the_moscow_example() {
    let p = moscow();
    let subs = [
        asub("Russia", &["Build A Mos"]),
        asub("Turkey", &["Build Rebel A Mos"]),
        asub("Germany", &["Build Rebel A Mos"]),
    ];
    let r = adjust(map(), &rules(), &state("MR3"), &p, &[], &subs);
    let rebel = unit_at(&r.after, "mos").expect("a unit in Moscow");
    assert_eq!(r.state.kind(rebel.power), Some(Kind::Rebel));
    assert_eq!(rebel.power, Power(19));
    assert_eq!(rebel.kind, UnitKind::Army);
    assert_eq!(
        verdicts(&r, "Russia"),
        [(
            Verdict::NotFollowed,
            Reason::OutVoted {
                votes: 1,
                against: 2
            }
        )]
    );
    assert_eq!(
        verdicts(&r, "Turkey"),
        [(Verdict::Done, Reason::Raised { rebel: Power(19) })]
    );
    // MR3 d: the rebel does not own Moscow yet.
    assert_eq!(r.after.owner(prov("mos")), Some(power("Russia")));
    assert_eq!(r.state.name(map(), &r.after, rebel.power), "Rebel A MOS");
}

#[test]
fn mr3_one_rebel_build_against_the_owner_is_a_tie_and_neither_is_followed() {
    let p = moscow();
    let subs = [
        asub("Russia", &["Build A Mos"]),
        asub("Turkey", &["Build Rebel A Mos"]),
    ];
    let r = adjust(map(), &rules(), &state("MR3"), &p, &[], &subs);
    assert!(unit_at(&r.after, "mos").is_none());
    assert_eq!(
        verdicts(&r, "Russia"),
        [(Verdict::NotFollowed, Reason::Tied { votes: 1 })]
    );
    assert_eq!(
        verdicts(&r, "Turkey"),
        [(Verdict::NotFollowed, Reason::Tied { votes: 1 })]
    );
}

#[test]
fn mr3_the_owner_may_write_his_build_twice_with_two_builds() {
    let mut p = moscow();
    p.units.retain(|u| u.province() != prov("rum"));
    // Two copies against two rebel builds: a tie, neither.
    let subs = [
        asub("Russia", &["Build A Mos", "Build A Mos"]),
        asub("Turkey", &["Build Rebel A Mos"]),
        asub("Germany", &["Build Rebel A Mos"]),
    ];
    let r = adjust(map(), &rules(), &state("MR3"), &p, &[], &subs);
    assert_eq!(
        verdicts(&r, "Russia"),
        [(Verdict::NotFollowed, Reason::Tied { votes: 2 }); 2]
    );
    assert!(unit_at(&r.after, "mos").is_none());
    // Two against one: the owner's army is built, once.
    let r = adjust(map(), &rules(), &state("MR3"), &p, &[], &subs[..2]);
    assert_eq!(
        verdicts(&r, "Russia"),
        [
            (Verdict::Done, Reason::None),
            (Verdict::Counted, Reason::Copy)
        ]
    );
    assert_eq!(
        unit_at(&r.after, "mos").map(|u| u.power),
        Some(power("Russia"))
    );
    assert_eq!(
        r.after
            .units
            .iter()
            .filter(|u| u.power == power("Russia"))
            .count(),
        4
    );
}

#[test]
fn mr3_not_next_to_a_unit_of_the_owner_and_only_in_others_centers() {
    let mut p = moscow();
    p.units.push(unit("Russia: A Ukr"));
    p.owners[prov("ukr").0 as usize] = None;
    let r = adjust(
        map(),
        &rules(),
        &state("MR3"),
        &p,
        &[],
        &[asub("Turkey", &["Build Rebel A Mos", "Build Rebel A Smy"])],
    );
    assert_eq!(
        verdicts(&r, "Turkey")[..2],
        [
            (
                Verdict::Void,
                Reason::OwnerNear {
                    at: prov("mos"),
                    owner: power("Russia")
                }
            ),
            (Verdict::Void, Reason::NotOthersCenter { at: prov("smy") }),
        ]
    );
    let off = adjust(
        map(),
        &rules(),
        &state("MR1"),
        &moscow(),
        &[],
        &[asub("Turkey", &["Build Rebel A Mos"])],
    );
    assert_eq!(
        verdicts(&off, "Turkey")[0],
        (Verdict::Void, Reason::RuleOff(Rule::Rebellion))
    );
}

#[test]
fn mr3_a_rebel_that_takes_a_center_gains_identity_and_a_home() {
    let mut s = state("MR3");
    s.rebels.push(Rebel {
        power: Power(19),
        kind: UnitKind::Army,
        raised_in: prov("mos"),
        identity: None,
    });
    let mut p = position("W1902A", &["#19: A Sev", "Russia: A Mos"], &[]);
    p.owners[prov("sev").0 as usize] = Some(Power(19));
    let r = adjust(map(), &rules(), &s, &p, &[], &[]);
    let rebel = r.state.rebel(Power(19)).expect("rebel");
    assert_eq!(rebel.identity, Some(prov("sev")));
    assert!(r.after.home_of(Power(19)).contains(prov("sev")));
    assert_eq!(r.state.name(map(), &r.after, Power(19)), "Rebel Sevastopol");
    // One center, one unit: it stays.
    assert!(unit_at(&r.after, "sev").is_some());
}

#[test]
fn mr3_a_rebel_without_a_center_is_removed_at_the_adjustment() {
    let mut s = state("MR3");
    s.rebels.push(Rebel {
        power: Power(19),
        kind: UnitKind::Army,
        raised_in: prov("mos"),
        identity: None,
    });
    let p = position("W1902A", &["#19: A Ukr", "Russia: A Mos"], &[]);
    let r = adjust(map(), &rules(), &s, &p, &[], &[]);
    assert!(unit_at(&r.after, "ukr").is_none());
    assert!(r.state.rebels.is_empty());
    assert!(
        r.outcomes
            .iter()
            .any(|o| o.power == Power(19) && o.reason == Reason::CivilDisorder)
    );
}

// ---------------------------------------------------------------- MR4

#[test]
fn mr4_the_austria_serbia_example() {
    let mut s = state("MR1,MR4");
    // Adjustments 1901: Austria has taken Serbia.
    let p1901 = position(
        "W1901A",
        &[
            "Austria: A Ser",
            "Austria: A Vie",
            "Austria: F Tri",
            "Austria: A Gal",
        ],
        &[("Austria", &["ser"])],
    );
    let r1901 = adjust(
        map(),
        &rules(),
        &s,
        &p1901,
        &[],
        &[asub("Austria", &["Annex Ser"])],
    );
    // Not owned at a previous adjustment: there was none.
    assert_eq!(
        verdicts(&r1901, "Austria")[0],
        (Verdict::Void, Reason::NotOwnedBefore { at: prov("ser") })
    );
    s = r1901.state;
    // Adjustments 1902: five centers (Greece too), four units.
    let p1902 = position(
        "W1902A",
        &[
            "Austria: A Ser",
            "Austria: A Vie",
            "Austria: F Tri",
            "Austria: A Gal",
        ],
        &[("Austria", &["ser", "gre"])],
    );
    let r1902 = adjust(
        map(),
        &rules(),
        &s,
        &p1902,
        &[],
        &[asub("Austria", &["Annex Serbia"])],
    );
    assert_eq!(verdicts(&r1902, "Austria"), [(Verdict::Done, Reason::None)]);
    assert!(r1902.after.home_of(power("Austria")).contains(prov("ser")));
    // Adjustments 1903: Serbia empty, still owned, a build due.
    let mut p1903 = r1902.after.clone();
    p1903.phase = "W1903A".parse().expect("phase");
    p1903.units.retain(|u| u.province() != prov("ser"));
    let r1903 = adjust(
        map(),
        &rules(),
        &r1902.state,
        &p1903,
        &[],
        &[asub("Austria", &["Build A Ser"])],
    );
    assert_eq!(verdicts(&r1903, "Austria"), [(Verdict::Done, Reason::None)]);
    assert_eq!(
        unit_at(&r1903.after, "ser").map(|u| u.power),
        Some(power("Austria"))
    );
}

#[test]
fn mr4_an_annexed_center_is_no_home_until_the_next_adjustment() {
    let mut s = state("MR1,MR4");
    let p = position(
        "W1902A",
        &["Austria: A Vie", "Austria: F Tri"],
        &[("Austria", &["ser", "gre"])],
    );
    s.previous_owners = Some(p.owners.clone());
    let r = adjust(
        map(),
        &rules(),
        &s,
        &p,
        &[],
        &[asub("Austria", &["Annex Ser", "Build A Ser", "Annex Ser"])],
    );
    assert_eq!(
        verdicts(&r, "Austria")[..3],
        [
            (Verdict::Done, Reason::None),
            (Verdict::Void, Reason::NotHomeCenter { at: prov("ser") }),
            (Verdict::Void, Reason::Duplicate),
        ]
    );
}

// ---------------------------------------------------------------- MR5

fn england_1901() -> Position {
    position(
        "W1901A",
        &["England: F Nth", "England: F Edi", "England: A Yor"],
        &[("England", &["nwy"])],
    )
}

#[test]
fn mr5_englands_build_f_lvp_disband_a_yrk() {
    let r = adjust(
        map(),
        &rules(),
        &state("MR5"),
        &england_1901(),
        &[],
        &[asub("England", &["Build F Lvp", "Disband A Yor"])],
    );
    assert_eq!(
        verdicts(&r, "England"),
        [
            (Verdict::Done, Reason::None),
            (Verdict::Done, Reason::Voluntary)
        ]
    );
    assert_eq!(
        unit_at(&r.after, "lvp").map(|u| u.kind),
        Some(UnitKind::Fleet)
    );
    assert!(unit_at(&r.after, "yor").is_none());
    assert_eq!(
        r.after
            .units
            .iter()
            .filter(|u| u.power == power("England"))
            .count(),
        3
    );
    let off = adjust(
        map(),
        &rules(),
        &state("MR1"),
        &england_1901(),
        &[],
        &[asub("England", &["Build F Lvp", "Disband A Yor"])],
    );
    assert_eq!(
        verdicts(&off, "England")[1],
        (Verdict::Void, Reason::NoRemovalsLeft)
    );
}

#[test]
fn mr5_a_disband_makes_no_room_for_a_build() {
    let p = position(
        "W1901A",
        &["England: F Nth", "England: F Edi", "England: A Yor"],
        &[],
    );
    let r = adjust(
        map(),
        &rules(),
        &state("MR5"),
        &p,
        &[],
        &[asub("England", &["Disband A Yor", "Build A Lvp"])],
    );
    assert_eq!(
        verdicts(&r, "England"),
        [
            (Verdict::Done, Reason::Voluntary),
            (Verdict::Void, Reason::NoBuildsLeft)
        ]
    );
}

#[test]
fn mr5_no_disbands_of_civil_disorder_units_beyond_their_losses() {
    // Denmark (a minor) owns its center and keeps its army: no loss, so no disband.
    let p = position("W1901A", &["Denmark: A Den", "Russia: A Mos"], &[]);
    let r = adjust(
        map(),
        &rules(),
        &state("MR1,MR2,MR5"),
        &p,
        &[],
        &[asub("Russia", &["Disband A Den"])],
    );
    assert_eq!(
        verdicts(&r, "Russia")[0],
        (Verdict::Void, Reason::NotBeyondLosses)
    );
    assert!(unit_at(&r.after, "den").is_some());
}

// ---------------------------------------------------------------- MR6

/// Adjustments 1905 of the foreign-aid example.
fn aid_1905() -> (MastersState, Position) {
    let mut s = state("MR1,MR3,MR6");
    s.rebels.push(Rebel {
        power: Power(19),
        kind: UnitKind::Army,
        raised_in: prov("ank"),
        identity: None,
    });
    let p = position(
        "W1905A",
        &[
            "France: A Par",
            "France: A Bre",
            "France: A Spa",
            "France: A Bel",
            "France: F Mao",
            "France: A Bur",
            "Italy: A Rom",
            "Italy: F Nap",
            "Italy: A Tun",
            "Italy: A Apu",
            "#19: A Arm",
        ],
        &[
            ("France", &["spa", "por", "bel", "hol", "mun"]),
            ("Italy", &["tun"]),
        ],
    );
    (s, p)
}

#[test]
fn mr6_the_france_italy_armenia_example() {
    let (s, p) = aid_1905();
    assert_eq!(p.centers_of(power("France")).len(), 8);
    let subs = [
        asub("France", &["Aid Italy", "Aid Rebel A Arm"]),
        asub("Italy", &["Build A Ven"]),
    ];
    let r = adjust(map(), &rules(), &s, &p, &[], &subs);
    assert_eq!(
        verdicts(&r, "France"),
        [
            (Verdict::Done, Reason::AidGiven { to: power("Italy") }),
            (Verdict::Done, Reason::AidGiven { to: Power(19) })
        ]
    );
    assert_eq!(verdicts(&r, "Italy"), [(Verdict::Done, Reason::WithAid)]);
    assert_eq!(
        unit_at(&r.after, "ven").map(|u| u.power),
        Some(power("Italy"))
    );
    // The rebels fight on into 1906.
    assert_eq!(unit_at(&r.after, "arm").map(|u| u.power), Some(Power(19)));
    assert_eq!(r.aid_received, [(power("Italy"), 1), (Power(19), 1)]);
    // Without the aid, Italy's build is void and the rebels are gone.
    let none = adjust(map(), &rules(), &s, &p, &[], &subs[1..]);
    assert_eq!(
        verdicts(&none, "Italy"),
        [(Verdict::Void, Reason::NoBuildsLeft)]
    );
    assert!(unit_at(&none.after, "arm").is_none());
}

#[test]
fn mr6_aid_only_from_builds_not_used_and_never_passed_on() {
    let (s, p) = aid_1905();
    // France builds twice first: nothing is left to give.
    let r = adjust(
        map(),
        &rules(),
        &s,
        &p,
        &[],
        &[asub("France", &["Build F Mar", "Build A Ven", "Aid Italy"])],
    );
    assert_eq!(
        verdicts(&r, "France")[1].1,
        Reason::NotHomeCenter { at: prov("ven") }
    );
    assert_eq!(
        verdicts(&r, "France")[2],
        (Verdict::Done, Reason::AidGiven { to: power("Italy") })
    );
    let r = adjust(
        map(),
        &rules(),
        &s,
        &p,
        &[],
        &[asub("France", &["Build F Mar", "Waive", "Aid Italy"])],
    );
    assert_eq!(
        verdicts(&r, "France")[2],
        (Verdict::Void, Reason::NoBuildsLeft)
    );
    // Italy, balanced, passes on France's aid: void.
    let r = adjust(
        map(),
        &rules(),
        &s,
        &p,
        &[],
        &[
            asub("France", &["Aid Italy"]),
            asub("Italy", &["Aid France"]),
        ],
    );
    assert_eq!(
        verdicts(&r, "Italy"),
        [(Verdict::Void, Reason::NoBuildsLeft)]
    );
}

#[test]
fn mr6_aid_avoids_a_loss() {
    let (s, mut p) = aid_1905();
    p.owners[prov("tun").0 as usize] = Some(power("France"));
    let r = adjust(
        map(),
        &rules(),
        &s,
        &p,
        &[],
        &[asub("France", &["Aid Italy"])],
    );
    assert_eq!(
        r.after
            .units
            .iter()
            .filter(|u| u.power == power("Italy"))
            .count(),
        4
    );
    let r = adjust(map(), &rules(), &s, &p, &[], &[]);
    assert_eq!(
        r.after
            .units
            .iter()
            .filter(|u| u.power == power("Italy"))
            .count(),
        3
    );
}

#[test]
fn mr6_aid_to_oneself_or_to_no_one_is_void() {
    let (s, p) = aid_1905();
    let r = adjust(
        map(),
        &rules(),
        &s,
        &p,
        &[],
        &[asub(
            "France",
            &["Aid France", "Aid Rebel A Par", "Aid Spain"],
        )],
    );
    assert_eq!(
        verdicts(&r, "France")[..3],
        [
            (Verdict::Void, Reason::AidToSelf),
            (Verdict::Void, Reason::NoRecipient),
            (Verdict::Void, Reason::NoRecipient)
        ]
    );
}

// ---------------------------------------------------------------- MR2 e

#[test]
fn mr2e_a_minor_in_civil_disorder_builds_by_vote() {
    // Holland's army is gone but it kept its center: one build, by vote.
    let p = position(
        "W1901A",
        &["England: F Nth", "France: A Par", "Russia: A Mos"],
        &[],
    );
    let s = state("MR1,MR2");
    let subs = [
        asub("England", &["Build F Hol"]),
        asub("France", &["Build A Hol", "Build A Hol"]),
        asub("Russia", &["Build A Hol"]),
    ];
    let r = adjust(map(), &rules(), &s, &p, &[], &subs);
    // England is next to Holland: not eligible. France: one order per adjustment.
    assert_eq!(
        verdicts(&r, "England")[0],
        (
            Verdict::Void,
            Reason::NotEligible {
                controlled: power("Holland")
            }
        )
    );
    assert_eq!(
        verdicts(&r, "France")[1],
        (Verdict::Void, Reason::OverAdjustments)
    );
    assert_eq!(
        unit_at(&r.after, "hol").map(|u| (u.power, u.kind)),
        Some((power("Holland"), UnitKind::Army))
    );
}

#[test]
fn mr2e_removals_for_a_great_power_in_civil_disorder_and_ties_to_the_rule() {
    // Austria in civil disorder owes two removals; Russia and Italy vote.
    let p = position(
        "W1901A",
        &[
            "Austria: A Vie",
            "Austria: A Bud",
            "Austria: F Tri",
            "Austria: A Boh",
            "Russia: A Mos",
            "Italy: A Rom",
        ],
        &[("Italy", &["tri"])],
    );
    let austria = power("Austria");
    let s = state("MR2");
    let subs = [
        asub("Russia", &["Remove A Boh", "Remove A Vie"]),
        asub("Italy", &["Remove A Boh", "Remove F Tri"]),
    ];
    let r = adjust(map(), &rules(), &s, &p, &[austria], &subs);
    // Bohemia has two votes; Vienna and Trieste one each: a tie at the last place, so
    // the second removal follows the civil-disorder rule.
    assert!(unit_at(&r.after, "boh").is_none());
    assert_eq!(
        verdicts(&r, "Russia")[1],
        (Verdict::NotFollowed, Reason::Tied { votes: 1 })
    );
    let by_rule: Vec<_> = r
        .outcomes
        .iter()
        .filter(|o| o.reason == Reason::CivilDisorder)
        .collect();
    assert_eq!(by_rule.len(), 1);
    assert_eq!(
        r.after.units.iter().filter(|u| u.power == austria).count(),
        2
    );
}

#[test]
fn removals_owed_follow_the_judges_rule_under_the_older_rules_too() {
    // Russia owes one removal and writes none. Under the 2000 rules a fleet is
    // measured by sailing: F Adr is 5 moves from a home center (4 steps over any
    // border), A Por 5 steps; at equal distance the fleet goes first.
    let p = position(
        "W1901A",
        &[
            "Russia: A Mos",
            "Russia: A War",
            "Russia: F Sev",
            "Russia: F Adr",
            "Russia: A Por",
        ],
        &[],
    );
    let russia = power("Russia");
    let homes = p.home_of(russia);
    let nearest = |at: &str| homes.iter().map(|h| map().distance(prov(at), h)).min();
    assert_eq!(nearest("adr"), Some(4));
    assert_eq!(map().sailing_distance(prov("adr"), homes), Some(5));
    assert_eq!(nearest("por"), Some(5));
    let older = Rules::preset(Edition::E2000);
    let r = adjust(map(), &older, &state("MR2"), &p, &[], &[]);
    assert!(unit_at(&r.after, "adr").is_none(), "{:?}", r.after.units);
    assert!(unit_at(&r.after, "por").is_some());
    assert_eq!(
        judge::removal_order(map(), &older, &p, russia)[0].province(),
        prov("adr")
    );
}

// ---------------------------------------------------------------- together

#[test]
fn no_masters_orders_give_what_the_judge_gives() {
    // Civil-disorder removals and builds match the standard judge.
    let mut p = position(
        "W1901A",
        &[
            "Russia: A Boh",
            "Russia: F Ska",
            "Russia: F Nth",
            "England: F Lon",
        ],
        &[],
    );
    for o in p.owners.iter_mut() {
        *o = None;
    }
    for c in ["stp", "war"] {
        p.owners[prov(c).0 as usize] = Some(power("Russia"));
    }
    for c in ["lon", "edi", "lvp"] {
        p.owners[prov(c).0 as usize] = Some(power("England"));
    }
    let plain =
        legate::judge::adjudicate(legate::map::Map::standard(), &rules(), &Countries, &p, &[]);
    let r = adjust(map(), &rules(), &state(""), &p, &[], &[]);
    let mut a: Vec<_> = plain
        .after
        .units
        .iter()
        .map(|u| (u.province(), u.kind))
        .collect();
    let mut b: Vec<_> = r
        .after
        .units
        .iter()
        .map(|u| (u.province(), u.kind))
        .collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert_eq!(r.after.phase, "S1902M".parse::<Phase>().expect("phase"));
}

#[test]
fn all_six_rules_in_one_adjustment() {
    let (mut s, mut p) = aid_1905();
    s.options = Options::all();
    s.previous_owners = Some(p.owners.clone());
    // Russia has lost Moscow's garrison; Turkey is far away.
    p.units.push(unit("Turkey: A Con"));
    p.units.push(unit("Russia: F Sev"));
    let subs = [
        asub("France", &["Annex Spa", "Aid Rebel A Arm", "Disband A Bur"]),
        asub("Italy", &["Build A Ven"]),
        asub("Turkey", &["Build Rebel A Mos"]),
        asub("Russia", &["Build A War"]),
    ];
    let r = adjust(map(), &rules(), &s, &p, &[], &subs);
    assert_eq!(
        verdicts(&r, "France"),
        [
            (Verdict::Done, Reason::None),
            (Verdict::Done, Reason::AidGiven { to: Power(19) }),
            (Verdict::Done, Reason::Voluntary)
        ]
    );
    assert!(r.after.home_of(power("France")).contains(prov("spa")));
    assert_eq!(
        verdicts(&r, "Italy"),
        [(Verdict::Void, Reason::NoBuildsLeft)]
    );
    // The old rebel survives on aid; a new one rises in Moscow with the next number.
    assert_eq!(unit_at(&r.after, "arm").map(|u| u.power), Some(Power(19)));
    assert_eq!(unit_at(&r.after, "mos").map(|u| u.power), Some(Power(20)));
    assert_eq!(
        unit_at(&r.after, "war").map(|u| u.power),
        Some(power("Russia"))
    );
    assert!(unit_at(&r.after, "bur").is_none());
    // Minors' armies stand untouched.
    assert_eq!(r.after.units.len(), p.units.len() + 2 - 1);
    let again = r.state.clone();
    assert_eq!(
        MastersState::from_json(&again.to_json()).expect("json"),
        again
    );
}

#[test]
fn rebellion_and_aid_without_minor_powers() {
    // The standard map, no minors: rebels take the numbers after the great powers.
    let m = Map::standard();
    let s = MastersState::new(m, 7, "MR3,MR6".parse().expect("options"));
    let mut p = Position::initial(m);
    p.phase = "W1901A".parse().expect("phase");
    // No Russian army left in or next to Moscow.
    p.units
        .retain(|u| !["mos", "war"].contains(&m.abbr(u.province())));
    let turkey = m.power("Turkey").expect("turkey");
    let mos = m.lookup("mos").expect("mos").province;
    p.owners[m.lookup("bul").expect("bul").province.0 as usize] = Some(turkey);
    let orders = vec![AdjustmentOrder::BuildRebel(legate::orders::UnitSpec::new(
        UnitKind::Army,
        mos.into(),
    ))];
    let r = adjust(
        m,
        &rules(),
        &s,
        &p,
        &[],
        &[AdjustmentSubmission {
            writer: turkey,
            orders,
        }],
    );
    assert_eq!(r.after.unit_at(mos).map(|u| u.power), Some(Power(7)));
    assert_eq!(r.state.kind(Power(7)), Some(Kind::Rebel));
}

#[test]
fn adjustments_give_the_same_result_in_any_order_of_submissions() {
    let (mut s, mut p) = aid_1905();
    s.options = Options::all();
    p.units.push(unit("Turkey: A Con"));
    let subs = vec![
        asub("France", &["Aid Italy", "Aid Rebel A Arm"]),
        asub("Italy", &["Build A Ven"]),
        asub("Turkey", &["Build Rebel A Mos"]),
        asub("Germany", &["Build Rebel A Mos"]),
        asub("Russia", &["Build A Mos"]),
    ];
    orders_of_submission_do_not_matter(&subs, |v| adjust(map(), &rules(), &s, &p, &[], v));
    let moscow_subs = vec![
        asub("Russia", &["Build A Mos"]),
        asub("Turkey", &["Build Rebel A Mos"]),
        asub("Germany", &["Build Rebel A Mos"]),
    ];
    let m = moscow();
    orders_of_submission_do_not_matter(&moscow_subs, |v| {
        adjust(map(), &rules(), &state("MR3"), &m, &[], v)
    });
}

#[test]
fn the_phase_kind_is_kept_for_movement_control() {
    // A controlled order of the wrong phase is rejected, not counted.
    let p = fall_1901();
    let build = Order::Build {
        unit: legate::orders::UnitSpec::at(prov("por").into()),
    };
    let subs = [Submission {
        writer: power("Italy"),
        orders: vec![build],
    }];
    let r = control(map(), &state("MR1,MR2"), &p, &[], &subs);
    assert!(r.tallies.is_empty());
    assert_eq!(p.phase.kind, PhaseKind::Movement);
    assert_eq!(r.rejected[0].why, Rejection::WrongPhase);
}

// ---------------------------------------------------------------- reports, phases

#[test]
fn the_report_lists_each_controlled_unit_with_its_counts() {
    use legate::variant::masters::report::tally_lines;
    let p = fall_1901();
    let s = state("MR1,MR2");
    let r = control(map(), &s, &p, &[], &fall_1901_submissions(&p, 2));
    let lines = tally_lines(map(), &s, &p, &r.tallies[0]);
    assert_eq!(
        lines,
        [
            "Portugal: A POR S A SPA (3: Germany 1, Italy 2) - carried out",
            "Portugal: A POR S A MAR - SPA (1: France 1) - out-voted",
        ]
    );
}

#[test]
fn the_adjustment_summary_lists_rebels_annexations_aid_and_disbands() {
    use legate::variant::masters::report::summary;
    let (mut s, mut p) = aid_1905();
    s.options = Options::all();
    s.previous_owners = Some(p.owners.clone());
    p.units.push(unit("Turkey: A Con"));
    let subs = [
        asub("France", &["Annex Spa", "Aid Rebel A Arm", "Disband A Bur"]),
        asub("Turkey", &["Build Rebel A Mos"]),
    ];
    let sum = summary(&adjust(map(), &rules(), &s, &p, &[], &subs));
    assert_eq!(
        sum.rebels_raised,
        [(vec![power("Turkey")], Power(20), prov("mos"))]
    );
    assert_eq!(sum.annexed, [(power("France"), prov("spa"))]);
    assert_eq!(sum.aid, [(power("France"), Power(19))]);
    assert_eq!(sum.voluntary_disbands.len(), 1);
}

#[test]
fn masters_plays_adjustments_the_judge_would_skip() {
    use legate::variant::masters::adjustment::adjustment_needed;
    // Balanced everywhere: nothing to do, unless MR5 lets anyone disband.
    let p = position(
        "W1901A",
        &["France: A Par", "France: A Mar", "France: F Bre"],
        &[],
    );
    let mut q = p.clone();
    q.units.extend(
        Position::initial(map())
            .units
            .into_iter()
            .filter(|u| u.power != power("France")),
    );
    assert!(!adjustment_needed(&state("MR1,MR2,MR3"), &q));
    assert!(adjustment_needed(&state("MR5"), &q));
    // A surplus with every home center full: the judge skips; annexation can use it.
    let mut r = q.clone();
    r.owners[prov("spa").0 as usize] = Some(power("France"));
    r.units.retain(|u| u.province() != prov("spa"));
    assert!(!adjustment_needed(&state("MR1,MR2"), &r));
    assert!(adjustment_needed(&state("MR1,MR4"), &r));
}

#[test]
fn a_rebel_moves_in_the_judge_takes_a_center_and_gains_identity() {
    // Rebel A Mos, under variable control, walks into an empty Sevastopol in the Fall.
    let mut s = state("MR1,MR2,MR3");
    s.rebels.push(Rebel {
        power: Power(19),
        kind: UnitKind::Army,
        raised_in: prov("mos"),
        identity: None,
    });
    let p = position(
        "F1902M",
        &["#19: A Mos", "Russia: A War", "Turkey: A Con"],
        &[],
    );
    let subs = [sub(&p, "Turkey", &["A Con H", "A Mos - Sev"])];
    let r = control(map(), &s, &p, &[], &subs);
    assert_eq!(r.tallies.len(), 1);
    let adj = adjudicate(map(), &rules(), &Countries, &p, &r.orders);
    assert_eq!(unit_at(&adj.after, "sev").map(|u| u.power), Some(Power(19)));
    assert_eq!(adj.after.owner(prov("sev")), Some(Power(19)));
    let mut after = adj.after.clone();
    s.update_rebels(&mut after);
    assert_eq!(
        s.rebel(Power(19)).and_then(|r| r.identity),
        Some(prov("sev"))
    );
    assert!(after.home_of(Power(19)).contains(prov("sev")));
}

// ---------------------------------------------------------------- properties

mod properties {
    use super::*;
    use legate::orders::UnitSpec;
    use proptest::prelude::*;

    const PLACES: &[&str] = &[
        "mos", "sev", "war", "ser", "bul", "spa", "por", "par", "mar", "ven", "arm", "hol", "lvp",
        "yor",
    ];

    fn any_order() -> impl Strategy<Value = AdjustmentOrder> {
        let place = (0..PLACES.len()).prop_map(|i| prov(PLACES[i]));
        let kind = prop_oneof![Just(UnitKind::Army), Just(UnitKind::Fleet)];
        let spec = (place.clone(), kind).prop_map(|(p, k)| UnitSpec::new(k, p.into()));
        prop_oneof![
            spec.clone().prop_map(AdjustmentOrder::Build),
            spec.clone().prop_map(AdjustmentOrder::Remove),
            spec.clone().prop_map(AdjustmentOrder::BuildRebel),
            spec.prop_map(AdjustmentOrder::AidRebel),
            place.prop_map(AdjustmentOrder::Annex),
            (0u8..21).prop_map(|p| AdjustmentOrder::Aid(Power(p))),
            Just(AdjustmentOrder::Waive),
        ]
    }

    fn any_submissions() -> impl Strategy<Value = Vec<AdjustmentSubmission>> {
        proptest::collection::btree_map(0u8..9, proptest::collection::vec(any_order(), 0..5), 0..6)
            .prop_map(|m| {
                m.into_iter()
                    .map(|(w, orders)| AdjustmentSubmission {
                        writer: Power(w),
                        orders,
                    })
                    .collect()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any orders: no panic, one outcome per order written, and the same result
        /// whichever order the submissions come in.
        #[test]
        fn adjustments_never_depend_on_arrival_order(subs in any_submissions(), k in 0usize..6) {
            let (mut s, mut p) = aid_1905();
            s.options = Options::all();
            s.previous_owners = Some(p.owners.clone());
            p.units.push(unit("Turkey: A Con"));
            let a = adjust(map(), &rules(), &s, &p, &[power("Austria")], &subs);
            let written: usize = subs.iter().map(|x| x.orders.len()).sum();
            prop_assert_eq!(a.outcomes.iter().filter(|o| o.writer.is_some()).count(), written);
            let mut v = subs.clone();
            v.reverse();
            if !v.is_empty() {
                let n = v.len();
                v.rotate_left(k % n);
            }
            prop_assert_eq!(adjust(map(), &rules(), &s, &p, &[power("Austria")], &v), a);
        }
    }
}

#[test]
fn unused_builds_are_reported_for_players_who_wrote_nothing() {
    let (s, p) = aid_1905();
    let r = adjust(map(), &rules(), &s, &p, &[], &[]);
    let unused = |who: &str| {
        r.outcomes
            .iter()
            .filter(|o| o.reason == Reason::Unused && o.power == power(who))
            .inspect(|o| assert!(o.verdict == Verdict::Default && o.writer.is_none()))
            .count()
    };
    // France: eight centers, six units. Italy: balanced. Russia: four empty homes.
    assert_eq!(unused("France"), 2);
    assert_eq!(unused("Italy"), 0);
    assert_eq!(unused("Russia"), 4);
}
