//! Whole games through the engine API, with a test clock.

use crate::engine_common;

use chrono::Duration;
use engine_common::*;
use legate::game::Request;
use legate::game::model::{Outcome, Status};
use legate::phase::Phase;

/// Every power's opening units, each ordered to hold.
const OPENING_HOLDS: [(&str, &[&str]); 7] = [
    ("Austria", &["A VIE H", "A BUD H", "F TRI H"]),
    ("England", &["F LON H", "F EDI H", "A LVP H"]),
    ("France", &["F BRE H", "A PAR H", "A MAR H"]),
    ("Germany", &["F KIE H", "A BER H", "A MUN H"]),
    ("Italy", &["F NAP H", "A ROM H", "A VEN H"]),
    ("Russia", &["F STP/SC H", "A MOS H", "A WAR H", "F SEV H"]),
    ("Turkey", &["F ANK H", "A CON H", "A SMY H"]),
];

/// `OPENING_HOLDS` of every power but those in `except`.
fn holds_except(except: &[&str]) -> Vec<(&'static str, &'static [&'static str])> {
    OPENING_HOLDS
        .into_iter()
        .filter(|(power, _)| !except.contains(power))
        .collect()
}

/// Whether `power` has a unit in `at` (as the board names it: `"BUR"`).
fn has_unit(table: &mut Table, power: &str, at: &str) -> bool {
    table
        .state()
        .position
        .expect("board")
        .units
        .iter()
        .any(|u| u.power == power && u.at == at)
}

/// Plays `fixtures/games/solo.txt`: scripted orders, the master processing each phase.
#[test]
fn scripted_game_ends_in_a_solo() {
    let script = read_script(include_str!("../fixtures/games/solo.txt"));
    assert!(script.len() >= 8);
    let mut table = Table::started("solo", t("2026-01-05T12:00:00Z"));
    for (phase, powers) in &script {
        assert_eq!(table.phase(), *phase, "the script expects {phase}");
        for (power, orders) in powers {
            let orders: Vec<&str> = orders.iter().map(String::as_str).collect();
            let a = table.orders(power, &orders);
            assert_eq!(a.errors, 0, "{power} in {phase}:\n{}", a.reply_body);
        }
        table.advance(Duration::hours(1));
        // Complete orders may already have processed the phase early.
        if table.state().status == Status::Active && table.phase() == *phase {
            let a = table.as_master(vec![Request::Process]);
            assert_eq!(a.errors, 0, "{}", a.reply_body);
            assert!(a.processed >= 1);
        }
        if table.state().status == Status::Finished {
            break;
        }
    }
    let state = table.state();
    assert_eq!(state.status, Status::Finished);
    assert_eq!(
        state.outcome,
        Some(Outcome::Solo {
            power: "Russia".into()
        })
    );
    assert!(table.centers("Russia") >= 18);
    // Every processed phase is in the history, in order.
    let names: Vec<String> = table.phases().iter().map(|p| p.phase.clone()).collect();
    assert_eq!(
        names,
        [
            "S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "W1902A", "S1903M", "F1903M"
        ]
    );
    // Everybody got the end of the game, with the lot secret revealed.
    let over: Vec<_> = table
        .outbox()
        .into_iter()
        .filter(|m| m.subject.contains("Game over"))
        .collect();
    assert_eq!(over.len(), 8, "seven players and the master");
    assert!(over[0].body.contains("Russia has won"));
    assert!(
        over[0].body.contains(&hex::encode([1u8; 32])),
        "{}",
        over[0].body
    );
    // Orders after the end are refused.
    let a = table.orders("Russia", &["A BER H"]);
    assert!(a.errors > 0);
}

#[test]
fn starting_assigns_the_preferred_powers_and_announces_the_commitment() {
    let mut table = Table::started("prefs", t("2026-01-05T12:00:00Z"));
    let s = table.state();
    assert_eq!(s.phase_name(), Some("S1901M"));
    let commitment = s.lot_commitment.clone().expect("commitment");
    let starts: Vec<_> = table
        .outbox()
        .into_iter()
        .filter(|m| m.subject.contains("Game starting"))
        .collect();
    assert_eq!(starts.len(), 8);
    assert!(starts.iter().all(|m| m.body.contains(&commitment)));
    // Default schedule: 72 hours, then 23:30 UTC.
    assert_eq!(table.deadline(), t("2026-01-08T23:30:00Z"));
}

#[test]
fn orders_replace_per_unit_and_the_reply_shows_the_whole_set() {
    let mut table = Table::started("replace", t("2026-01-05T12:00:00Z"));
    let a = table.orders("France", &["A PAR - BUR", "A MAR H"]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let a = table.orders("France", &["A PAR - PIC", "F BRE - MAO"]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(a.reply_body.contains("A PAR - PIC"), "{}", a.reply_body);
    assert!(a.reply_body.contains("A MAR H"));
    assert!(a.reply_body.contains("F BRE - MAO"));
    assert!(!a.reply_body.contains("A PAR - BUR\n"));
    assert!(
        a.reply_subject.starts_with("LEGT:replace - S1901M"),
        "{}",
        a.reply_subject
    );
    let s = table.state();
    assert_eq!(s.orders["France"].len(), 3);
}

#[test]
fn early_processing_when_everyone_has_ordered_unless_someone_waits() {
    let mut table = Table::started("early", t("2026-01-05T12:00:00Z"));
    let wait = vec![table.signon("Italy"), cmd(Request::SetWait(true))];
    let italy = table.players["Italy"].clone();
    assert_eq!(table.send(&italy, wait).errors, 0);
    for (power, orders) in OPENING_HOLDS {
        let a = table.orders(power, orders);
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        assert_eq!(a.processed, 0, "Italy waits");
    }
    assert_eq!(table.phase().to_string(), "S1901M");
    let nowait = vec![table.signon("Italy"), cmd(Request::SetWait(false))];
    let a = table.send(&italy, nowait);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(a.processed, 1);
    // Spring with nothing dislodged: the retreat phase is skipped.
    assert_eq!(table.phase().to_string(), "F1901M");
}

#[test]
fn bad_input_gets_a_specific_error_and_changes_nothing() {
    let mut table = Table::started("strict", t("2026-01-05T12:00:00Z"));
    let ok = table.orders("France", &["A PAR - BUR"]);
    assert_eq!(ok.errors, 0);
    let before = table.raw_state();
    let outbox_before = table.outbox().len();
    let france = table.players["France"].clone();
    let map = table.map();

    let cases: Vec<(Vec<legate::game::Line>, &str)> = vec![
        (
            vec![cmd(Request::SignOn {
                power: Some("F".into()),
                game: "nosuch".into(),
                password: "x".into(),
            })],
            "there is no game named nosuch",
        ),
        (
            vec![cmd(Request::SignOn {
                power: Some("F".into()),
                game: "strict".into(),
                password: "wrong".into(),
            })],
            "wrong password for France in strict",
        ),
        (
            vec![table.signon("France"), ord(map, "A BER - KIE")],
            "is not yours to command",
        ),
        (
            vec![table.signon("France"), ord(map, "BUILD A PAR")],
            "cannot be given in this phase",
        ),
        (
            vec![table.signon("France"), ord(map, "A PAR - MUN")],
            "is not next to the unit",
        ),
        (
            vec![table.signon("France"), cmd(Request::Process)],
            "only the master of strict may do this",
        ),
        (
            vec![cmd(Request::SignOn {
                power: None,
                game: "strict".into(),
                password: "x".into(),
            })],
            "you already play or stand by in strict",
        ),
        (vec![ord(map, "A PAR H")], "orders need a SIGNON"),
    ];
    for (lines, expected) in cases {
        let a = table.send(&france, lines);
        assert!(a.errors > 0, "expected an error: {expected}");
        assert!(
            a.reply_body.contains(expected),
            "expected {expected:?} in:\n{}",
            a.reply_body
        );
        assert!(
            a.reply_subject.starts_with("[Error Flag] "),
            "{}",
            a.reply_subject
        );
        assert!(
            a.reply_body.contains("were not applied"),
            "{}",
            a.reply_body
        );
        assert_eq!(table.raw_state(), before, "state changed after: {expected}");
    }
    // Each refused mail still got its one reply, and nothing else was sent.
    assert_eq!(table.outbox().len(), outbox_before + 8);
    // The good order from earlier is still there.
    assert_eq!(table.state().orders["France"].len(), 1);

    // A refused order next to good ones: the good ones apply, the refused
    // one leaves the unit's earlier order in place.
    let a = table.orders("France", &["A PAR - MUN", "A MAR - SPA", "F BRE - MAO"]);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("is not next to the unit"),
        "{}",
        a.reply_body
    );
    let s = table.state();
    let france: Vec<String> = s.orders["France"]
        .iter()
        .map(|o| legate::docs::order_text(map, &o.to_order(map).unwrap()))
        .collect();
    assert_eq!(france, ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]);
}

#[test]
fn a_draw_by_unanimous_vote_of_the_survivors() {
    let mut table = Table::started("drawn", t("2026-01-05T12:00:00Z"));
    for (i, power) in POWERS.iter().enumerate() {
        let addr = table.players[*power].clone();
        let lines = vec![table.signon(power), cmd(Request::SetDraw(Some(vec![])))];
        let a = table.send(&addr, lines);
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        let s = table.state();
        if i < 6 {
            assert_eq!(s.status, Status::Active, "not yet unanimous after {power}");
        }
    }
    let s = table.state();
    assert_eq!(s.status, Status::Finished);
    let mut all: Vec<String> = POWERS.iter().map(|s| s.to_string()).collect();
    all.sort();
    assert_eq!(s.outcome, Some(Outcome::Draw { powers: all }));
}

#[test]
fn a_withdrawn_draw_vote_blocks_the_draw_and_partial_draws_need_the_setting() {
    let mut table = Table::started("nodraw", t("2026-01-05T12:00:00Z"));
    let france = table.players["France"].clone();
    let lines = vec![
        table.signon("France"),
        cmd(Request::SetDraw(Some(vec![
            "France".into(),
            "England".into(),
        ]))),
    ];
    let a = table.send(&france, lines);
    assert!(
        a.reply_body.contains("only draws including all survivors"),
        "{}",
        a.reply_body
    );
    for power in POWERS {
        let addr = table.players[power].clone();
        let vote = if power == "Turkey" {
            None
        } else {
            Some(vec![])
        };
        let lines = vec![table.signon(power), cmd(Request::SetDraw(vote))];
        assert_eq!(table.send(&addr, lines).errors, 0);
    }
    assert_eq!(table.state().status, Status::Active);
}

#[test]
fn concession_ends_the_game() {
    let mut table = Table::started("conceded", t("2026-01-05T12:00:00Z"));
    for power in POWERS.iter().filter(|p| **p != "England") {
        let addr = table.players[*power].clone();
        let lines = vec![
            table.signon(power),
            cmd(Request::SetConcede(Some("E".into()))),
        ];
        assert_eq!(table.send(&addr, lines).errors, 0);
    }
    assert_eq!(
        table.state().outcome,
        Some(Outcome::Concession {
            power: "England".into()
        })
    );
}

#[test]
fn nmr_game_puts_late_powers_in_civil_disorder_at_the_end_of_grace() {
    let mut table = Table::started("nmr", t("2026-01-05T12:00:00Z"));
    assert_eq!(table.as_master(vec![Request::SetNmr(true)]).errors, 0);
    for power in POWERS.iter().filter(|p| **p != "Germany") {
        let a = table.orders(power, &[]);
        assert_eq!(a.errors, 0);
    }
    // Everyone but Germany orders everything; France moves.
    table.orders("France", &["A PAR - BUR", "A MAR H", "F BRE H"]);
    for (power, orders) in holds_except(&["France", "Germany"]) {
        assert_eq!(table.orders(power, orders).errors, 0);
    }
    assert_eq!(table.phase().to_string(), "S1901M");
    let deadline = table.deadline();
    // Before the deadline nothing happens.
    table.now = deadline - Duration::minutes(1);
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    // At the deadline: a late notice to Germany and the master.
    table.now = deadline;
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    let late: Vec<_> = table
        .outbox()
        .into_iter()
        .filter(|m| m.subject.contains("Late notice"))
        .collect();
    assert_eq!(late.len(), 2);
    assert!(
        late.iter()
            .any(|m| m.recipients == [table.players["Germany"].clone()])
    );
    assert!(late[0].body.contains("Germany"));
    // Again at the deadline: no second notice.
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    assert_eq!(
        table
            .outbox()
            .iter()
            .filter(|m| m.subject.contains("Late notice"))
            .count(),
        2
    );
    // End of grace (24 hours): processed, Germany's units hold by default.
    table.now = deadline + Duration::hours(24);
    assert_eq!(table.engine.process_due(table.now).unwrap(), 1);
    assert_eq!(table.phase().to_string(), "F1901M");
    let phases = table.phases();
    let results: Vec<legate::game::process::ResultLine> =
        serde_json::from_str(&phases[0].results).unwrap();
    let german: Vec<_> = results.iter().filter(|r| r.power == "Germany").collect();
    assert_eq!(german.len(), 3);
    assert!(
        german
            .iter()
            .all(|r| r.defaulted && r.order.ends_with(" H")),
        "{german:?}"
    );
    assert!(has_unit(&mut table, "France", "BUR"));
}

#[test]
fn without_nmr_the_game_waits_and_the_late_power_is_abandoned() {
    let mut table = Table::started("waiting", t("2026-01-05T12:00:00Z"));
    for (power, orders) in holds_except(&["Germany"]) {
        assert_eq!(table.orders(power, orders).errors, 0);
    }
    let deadline = table.deadline();
    table.now = deadline + Duration::hours(30);
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    let s = table.state();
    assert!(s.player_of("Germany").unwrap().abandoned);
    assert_eq!(s.phase_name(), Some("S1901M"));
    // Nothing more is due: the game waits.
    assert_eq!(table.engine.next_wakeup().unwrap(), None);
    table.advance(Duration::days(3));
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    // Germany sends incomplete orders: still late, but the abandonment is
    // not announced again, and the game goes back to waiting.
    let abandoned = |table: &mut Table| {
        table
            .outbox()
            .iter()
            .filter(|m| m.subject.ends_with("Abandoned"))
            .count()
    };
    assert_eq!(abandoned(&mut table), 8, "seven players and the master");
    assert_eq!(table.orders("Germany", &["F KIE H"]).errors, 0);
    for _ in 0..3 {
        table.advance(Duration::hours(1));
        assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    }
    assert_eq!(abandoned(&mut table), 8);
    assert_eq!(table.engine.next_wakeup().unwrap(), None);
    // Germany comes back: complete orders process the phase at once.
    let a = table.orders("Germany", &["A BER H", "A MUN H"]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(a.processed, 1);
    assert_eq!(table.phase().to_string(), "F1901M");
    assert!(!table.state().player_of("Germany").unwrap().abandoned);
}

#[test]
fn an_absence_moves_the_deadline() {
    let mut table = Table::started("away", t("2026-01-05T12:00:00Z"));
    let before = table.deadline();
    assert_eq!(before, t("2026-01-08T23:30:00Z"));
    let italy = table.players["Italy"].clone();
    let lines = vec![
        table.signon("Italy"),
        cmd(Request::SetAbsence {
            from: t("2026-01-08T00:00:00Z"),
            to: t("2026-01-11T08:00:00Z"),
        }),
    ];
    let a = table.send(&italy, lines);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(table.deadline(), t("2026-01-11T23:30:00Z"));
    // The old deadline passes without anything happening.
    table.now = before + Duration::hours(1);
    table.engine.process_due(table.now).unwrap();
    assert!(
        table
            .outbox()
            .iter()
            .all(|m| !m.subject.contains("Late notice"))
    );
}

#[test]
fn a_deadline_in_london_stays_at_2330_local_across_the_clock_change() {
    // The master reads times in London, so the game's wall clock is London's.
    let mut table = Table::empty(t("2026-10-19T12:00:00Z"));
    table.game = "london".into();
    let master = table.master.clone();
    let a = table.send(
        &master,
        vec![
            cmd(Request::SetTimezone("Europe/London".into())),
            cmd(Request::Create {
                game: "london".into(),
                password: "gm-pw".into(),
                variant: None,
            }),
            cmd(Request::SetClock {
                kind: None,
                field: legate::game::request::ClockField::NextHours(24),
            }),
            cmd(Request::SetClock {
                kind: None,
                field: legate::game::request::ClockField::GraceHours(0),
            }),
        ],
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    for power in POWERS {
        let addr = address(power);
        let lines = vec![
            cmd(Request::SignOn {
                power: None,
                game: "london".into(),
                password: password(&addr),
            }),
            cmd(Request::SetPreference(vec![vec![power.to_string()]])),
        ];
        assert_eq!(table.send(&addr, lines).errors, 0);
        table.players.insert(power.to_string(), addr);
    }
    assert_eq!(table.state().settings.schedule.timezone, "Europe/London");
    assert_eq!(table.as_master(vec![Request::SetNmr(true)]).errors, 0);
    let first = table.deadline();
    assert_eq!(
        first,
        t("2026-10-20T22:30:00Z"),
        "started on the 19th at 13:00 BST"
    );
    // Process at the deadline (everyone in civil disorder): the next deadline
    // is a day later at 23:30 local, whether BST or GMT.
    let mut last = first;
    for expected in ["2026-10-21T22:30:00Z", "2026-10-22T22:30:00Z"] {
        table.now = last;
        table.engine.process_due(table.now).unwrap();
        last = table.deadline();
        assert_eq!(last, t(expected));
    }
    // Move the game to the weekend of the change with an explicit deadline.
    table.now = t("2026-10-23T12:00:00Z");
    assert_eq!(
        table
            .as_master(vec![Request::SetDeadline(t("2026-10-24T22:30:00Z"))])
            .errors,
        0
    );
    table.now = t("2026-10-24T22:30:00Z");
    table.engine.process_due(table.now).unwrap();
    // Sunday 25 Oct: 23:30 GMT, which is 23:30 UTC.
    assert_eq!(table.deadline(), t("2026-10-25T23:30:00Z"));
    let local = table.deadline().with_timezone(&chrono_tz::Europe::London);
    assert_eq!(local.format("%H:%M %Z").to_string(), "23:30 GMT");
}

#[test]
fn rollback_restores_the_position_and_keeps_the_log() {
    let mut table = Table::started("undo", t("2026-01-05T12:00:00Z"));
    table.orders("France", &["A PAR - BUR"]);
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    table.orders("France", &["A BUR - BEL"]);
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    assert_eq!(table.phase().to_string(), "W1901A");
    let a = table.as_master(vec![Request::Rollback(Some(
        "S1901M".parse::<Phase>().unwrap(),
    ))]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = table.state();
    assert_eq!(s.phase_name(), Some("S1901M"));
    assert!(has_unit(&mut table, "France", "PAR"));
    assert!(s.orders.is_empty());
    let phases = table.phases();
    assert_eq!(phases.len(), 2);
    assert!(phases.iter().all(|p| p.rolled_back));
    // Play on: the new S1901M is a new record; the old ones stay.
    table.orders("France", &["A PAR - PIC"]);
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    let phases = table.phases();
    assert_eq!(phases.len(), 3);
    assert!(!phases[2].rolled_back);
    assert_eq!(phases[2].phase, "S1901M");
    // Rolling back to a phase never played is refused.
    let a = table.as_master(vec![Request::Rollback(Some(
        "F1905M".parse::<Phase>().unwrap(),
    ))]);
    assert!(
        a.reply_body.contains("has no processed F1905M"),
        "{}",
        a.reply_body
    );
}

#[test]
fn orders_for_a_later_phase_wait_for_it() {
    let mut table = Table::started("later", t("2026-01-05T12:00:00Z"));
    let france = table.players["France"].clone();
    let map = table.map();
    let lines = vec![
        table.signon("France"),
        ord(map, "A PAR - BUR"),
        cmd(Request::Phase("F1901M".parse().unwrap())),
        ord(map, "A BUR - MUN"),
    ];
    let a = table.send(&france, lines);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Orders stored for F1901M"),
        "{}",
        a.reply_body
    );
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    let s = table.state();
    assert_eq!(s.phase_name(), Some("F1901M"));
    assert_eq!(s.orders["France"].len(), 1);
    assert!(s.future_orders.is_empty());
}

#[test]
fn list_summary_history_and_whogame_answer_from_the_store() {
    let mut table = Table::started("answers", t("2026-01-05T12:00:00Z"));
    table.orders("France", &["A PAR - BUR"]);
    table.as_master(vec![Request::Process]);
    let france = table.players["France"].clone();
    let a = table.send(
        &france,
        vec![
            cmd(Request::List(Some("answers".into()))),
            cmd(Request::Summary(Some("answers".into()))),
            cmd(Request::History {
                game: Some("answers".into()),
                from: None,
                to: None,
                limits: Default::default(),
            }),
            cmd(Request::WhoGame(Some("answers".into()))),
        ],
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Movement results for Spring of 1901"),
        "{}",
        a.reply_body
    );
    assert!(a.reply_body.contains("France: Army Paris -> Burgundy."));
    assert!(a.reply_body.contains("france@players.test"));
    assert!(a.reply_body.contains("S1901M"));
}

#[test]
fn pause_and_resume_stop_and_restart_the_clock() {
    let mut table = Table::started("paused", t("2026-01-05T12:00:00Z"));
    assert_eq!(table.as_master(vec![Request::Pause]).errors, 0);
    assert_eq!(table.state().status, Status::Paused);
    // The clock wakes a paused game only to remind its members (every three
    // days, as njudge does); nothing is processed.
    let paused = table.now;
    assert_eq!(
        table.engine.next_wakeup().unwrap(),
        Some(paused + Duration::days(3))
    );
    table.advance(Duration::days(10));
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    assert_eq!(
        table.engine.next_wakeup().unwrap(),
        Some(table.now + Duration::days(3))
    );
    assert_eq!(table.as_master(vec![Request::Resume]).errors, 0);
    assert_eq!(table.state().status, Status::Active);
    assert!(table.deadline() > table.now);
    assert_eq!(table.as_master(vec![Request::Terminate]).errors, 0);
    assert_eq!(table.state().outcome, Some(Outcome::Terminated));
}

#[test]
fn a_dislodged_unit_retreats_and_bad_retreats_are_refused() {
    let mut table = Table::started("retreat", t("2026-01-05T12:00:00Z"));
    assert_eq!(table.orders("France", &["A MAR - BUR"]).errors, 0);
    assert_eq!(
        table
            .orders("Germany", &["A MUN - RUH", "A BER - MUN"])
            .errors,
        0
    );
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    assert_eq!(table.phase().to_string(), "F1901M");
    assert_eq!(
        table
            .orders("Germany", &["A RUH - BUR", "A MUN S A RUH - BUR"])
            .errors,
        0
    );
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    assert_eq!(table.phase().to_string(), "F1901R");
    // Only France owes orders now, and only for the dislodged army.
    let a = table.orders("France", &["A BUR - RUH"]);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("cannot retreat to Ruhr"),
        "{}",
        a.reply_body
    );
    let a = table.orders("France", &["A PAR - PIC"]);
    assert!(a.errors > 0, "Paris was not dislodged: {}", a.reply_body);
    let a = table.orders("France", &["A BUR - GAS"]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // Complete: the retreat phase is processed at once.
    assert_eq!(a.processed, 1);
    assert!(has_unit(&mut table, "France", "GAS"));
    assert!(has_unit(&mut table, "Germany", "BUR"));
}

#[test]
fn a_standby_player_takes_over_an_abandoned_power() {
    let mut table = Table::started("standby", t("2026-01-05T12:00:00Z"));
    // A latecomer joins the game under way: the stand-by list.
    let spare = "spare@players.test".to_string();
    let a = table.send(
        &spare,
        vec![cmd(Request::SignOn {
            power: None,
            game: "standby".into(),
            password: "pw-spare".into(),
        })],
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("number 1 on its stand-by list"),
        "{}",
        a.reply_body
    );
    for power in POWERS.iter().filter(|p| **p != "Germany") {
        let units: Vec<String> = table
            .state()
            .position
            .unwrap()
            .units
            .iter()
            .filter(|u| u.power == *power)
            .map(|u| format!("{} {} H", u.kind, u.at))
            .collect();
        let units: Vec<&str> = units.iter().map(String::as_str).collect();
        assert_eq!(table.orders(power, &units).errors, 0);
    }
    let deadline = table.deadline();
    table.now = deadline + Duration::hours(30);
    assert_eq!(table.engine.process_due(table.now).unwrap(), 0);
    let s = table.state();
    let germany = s.player_of("Germany").expect("Germany has a player");
    assert_eq!(germany.address, spare);
    assert!(!germany.abandoned);
    assert!(
        s.member(&address("Germany")).is_none(),
        "the old player left"
    );
    // A fresh deadline for the newcomer.
    assert!(table.deadline() > table.now);
    let mails = table.outbox();
    let to = |who: &str, subject: &str| {
        mails
            .iter()
            .filter(|m| m.recipients == [who.to_string()] && m.subject.ends_with(subject))
            .count()
    };
    assert_eq!(to(&spare, "You now play Germany"), 1);
    assert_eq!(to(&address("Germany"), "Replaced"), 1);
    assert_eq!(to(&address("France"), "Replacement"), 1);
    assert_eq!(to(&table.master.clone(), "Replacement"), 1);
    // The newcomer signs on with the password they joined with and orders.
    let a = table.send(
        &spare,
        vec![
            cmd(Request::SignOn {
                power: Some("G".into()),
                game: "standby".into(),
                password: "pw-spare".into(),
            }),
            ord(table.map(), "F KIE H"),
            ord(table.map(), "A BER H"),
            ord(table.map(), "A MUN H"),
        ],
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(a.processed, 1);
    assert_eq!(table.phase().to_string(), "F1901M");
}

#[test]
fn an_ejected_player_is_replaced_from_the_standby_list() {
    let mut table = Table::started("eject", t("2026-01-05T12:00:00Z"));
    let spare = "spare@players.test".to_string();
    let join = vec![cmd(Request::SignOn {
        power: None,
        game: "eject".into(),
        password: "pw-spare".into(),
    })];
    assert_eq!(table.send(&spare, join).errors, 0);
    let a = table.as_master(vec![Request::Eject("Italy".into())]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("takes over Italy"),
        "{}",
        a.reply_body
    );
    assert_eq!(table.state().player_of("Italy").unwrap().address, spare);
    // Without a stand-by player, a vacant power is taken by the next to join.
    let a = table.as_master(vec![Request::Eject("Italy".into())]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(table.state().player_of("Italy").is_none());
    let late = "late@players.test".to_string();
    let join = vec![cmd(Request::SignOn {
        power: None,
        game: "eject".into(),
        password: "pw-late".into(),
    })];
    let a = table.send(&late, join);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("you take over Italy"),
        "{}",
        a.reply_body
    );
    assert_eq!(table.state().player_of("Italy").unwrap().address, late);
}

#[test]
fn results_mails_are_season_reports_in_each_readers_zone() {
    let mut table = Table::started("reports", t("2026-01-05T12:00:00Z"));
    let france = table.players["France"].clone();
    // An account change needs the seat's password (docs/rulings.md#forged-mail).
    let zone = vec![
        table.signon("France"),
        cmd(Request::SetTimezone("Asia/Tokyo".into())),
    ];
    assert_eq!(table.send(&france, zone).errors, 0);
    assert_eq!(table.orders("France", &["A PAR - BUR"]).errors, 0);
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    let results: Vec<_> = table
        .outbox()
        .into_iter()
        .filter(|m| m.subject == "LEGT:reports - S1901M results")
        .collect();
    assert_eq!(results.len(), 8, "seven players and the master");
    let body_of = |who: &str| {
        results
            .iter()
            .find(|m| m.recipients == [who.to_string()])
            .map(|m| m.body.clone())
            .unwrap_or_default()
    };
    let fr = body_of(&france);
    assert!(
        fr.contains(":: Judge: LEGT  Game: reports  Variant: Standard"),
        "{fr}"
    );
    assert!(fr.contains("France: Army Paris -> Burgundy."), "{fr}");
    assert!(fr.contains("Movement results for Spring of 1901."), "{fr}");
    assert!(fr.contains(":: Deadline: F1901M"), "{fr}");
    assert!(fr.contains("JST"), "France reads Tokyo time: {fr}");
    let en = body_of(&table.players["England"].clone());
    assert!(en.contains("France: Army Paris -> Burgundy."), "{en}");
    assert!(!en.contains("JST"), "{en}");
}
