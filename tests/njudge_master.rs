//! A long-time njudge Master's habits, through the engine: the creation
//! sequence (`CREATE`, `SET NOLIST`, `BECOME MASTER`), the creator who plays,
//! `BECOME` by initial with a copy to the player, `ROLLBACK` by turn number,
//! `CLEAR`, `UNSTART`, `WITHDRAW`, the game settings in njudge's words and
//! their effects, and the notices njudge mails. Where the effect is on someone
//! else's mailbox, the outbox is read.

use crate::engine_common;

use chrono::Duration;
use engine_common::*;
use legate::game::model::{Outcome, Role, Status};
use legate::phase::Phase;

const GAME: &str = "habits";

fn table() -> Table {
    Table::started(GAME, t("2026-02-02T10:00:00Z"))
}

fn from(table: &mut Table, power: &str, body: &str) -> legate::game::Applied {
    table.player_mail(power, body)
}

/// Every power's opening units, each ordered to hold.
const HOLDS: [(&str, &str); 7] = [
    ("Austria", "A Vie H\nA Bud H\nF Tri H"),
    ("England", "F Lon H\nF Edi H\nA Lvp H"),
    ("France", "F Bre H\nA Par H\nA Mar H"),
    ("Germany", "F Kie H\nA Ber H\nA Mun H"),
    ("Italy", "F Nap H\nA Rom H\nA Ven H"),
    ("Russia", "F StP/sc H\nA Mos H\nA War H\nF Sev H"),
    ("Turkey", "F Ank H\nA Con H\nA Smy H"),
];

// ----- creating a game -------------------------------------------------------

#[test]
fn njudge_creation_sequence_makes_an_unlisted_game_with_its_creator_as_master() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    table.game = "older".into();
    let gm = table.master.clone();
    let a = no_errors(table.mail(&gm, "CREATE ?older gm-pw\nSET NOLIST\nBECOME MASTER\n"));
    assert_says(
        &a.reply_body,
        &["not listed", "You are the master of older"],
    );
    let s = table.state();
    assert!(!s.settings.house.listed);
    assert_eq!(s.masters().count(), 1);
    assert_eq!(s.players().count(), 0);
    // Nobody else sees it in LIST; naming it still answers.
    let all = no_errors(table.mail("someone@else.test", "LIST\n"));
    assert!(!all.reply_body.contains("older"), "{}", all.reply_body);
    let named = no_errors(table.mail("someone@else.test", "LIST older\n"));
    assert_says(&named.reply_body, &["Game older", "NoList"]);
    // SET LIST shows it again.
    no_errors(table.master_mail("SET LIST\n"));
    let all = no_errors(table.mail("someone@else.test", "LIST\n"));
    assert_says(&all.reply_body, &["older"]);
}

#[test]
fn the_creator_may_play_in_the_game_and_become_its_master_again() {
    let mut table = Table::created_by_mail("mine", "");
    let gm = table.master.clone();
    // As njudge's creator: a player of the game, which has no master.
    let a = no_errors(table.mail(&gm, "SIGNON ?mine gm-pw\n"));
    assert_says(&a.reply_body, &["now play in it", "unmoderated"]);
    let s = table.state();
    assert_eq!(s.masters().count(), 0);
    assert_eq!(s.member(&gm).map(|m| m.role), Some(Role::Player));
    assert!(!s.settings.house.moderated);
    // Unmoderated: its player changes a setting.
    no_errors(table.mail(&gm, "SIGNON ?mine gm-pw\nSET COMMENT Friends only\n"));
    assert_eq!(table.state().settings.house.comment, "Friends only");
    // The sole player becomes master again.
    let a = no_errors(table.mail(&gm, "SIGNON ?mine gm-pw\nBECOME MASTER\n"));
    assert_says(&a.reply_body, &["now the master of mine"]);
    let s = table.state();
    assert_eq!(s.member(&gm).map(|m| m.role), Some(Role::Master));
    assert!(s.settings.house.moderated);
    no_errors(table.master_mail("SET PLAYERS 7\n"));
}

#[test]
fn a_forged_sign_on_as_the_creator_does_not_unseat_the_master() {
    let mut table = Table::created_by_mail("guarded", "");
    let gm = table.master.clone();
    one_error(
        table.mail(&gm, "SIGNON ?guarded guess\n"),
        "a master does not also play",
    );
    let s = table.state();
    assert_eq!(s.member(&gm).map(|m| m.role), Some(Role::Master));
    assert!(s.settings.house.moderated);
    // Once someone else has joined, the master does not take a seat either.
    no_errors(table.mail("a@players.test", "SIGNON ?guarded pw-a\n"));
    one_error(
        table.mail(&gm, "SIGNON ?guarded gm-pw\n"),
        "a master does not also play",
    );
    // BECOME MASTER is only for the sole player of a game without a master.
    one_error(
        table.mail("a@players.test", "SIGNON ?guarded pw-a\nBECOME MASTER\n"),
        "PROMOTE",
    );
}

#[test]
fn manual_start_waits_for_the_master() {
    let mut table = Table::created_by_mail("manual", "");
    no_errors(table.master_mail("SET MANUAL START\n"));
    for power in POWERS {
        let addr = address(power);
        no_errors(table.mail(&addr, &format!("SIGNON ?manual {}\n", password(&addr))));
    }
    assert_eq!(table.state().status, Status::Forming);
    let a = no_errors(table.master_mail("SET NO MANUAL START\n"));
    assert_says(&a.reply_body, &["starts now"]);
    assert_eq!(table.state().status, Status::Active);
}

#[test]
fn set_players_starts_the_game_with_fewer_players() {
    let mut table = Table::created_by_mail("five", "");
    one_error(table.master_mail("SET PLAYERS 9\n"), "2 to 7 players");
    no_errors(table.master_mail("SET PLAYERS 5\n"));
    for power in &POWERS[..5] {
        let addr = address(power);
        no_errors(table.mail(&addr, &format!("SIGNON ?five {}\n", password(&addr))));
    }
    let s = table.state();
    assert_eq!(s.status, Status::Active);
    assert_eq!(s.players().filter(|m| m.power.is_some()).count(), 5);
}

// ----- BECOME, ROLLBACK, CLEAR, UNSTART, WITHDRAW ---------------------------------

#[test]
fn become_by_abbreviation_mails_the_power_a_copy_of_what_was_done() {
    let mut table = table();
    let since = table.outbox().len();
    let a = no_errors(table.master_mail("SET NMR\nBECOME Fra\nA Par - Bur\n"));
    assert_says(&a.reply_body, &["You now speak for France", "Accepted"]);
    let france = table.players["France"].clone();
    let copies: Vec<_> = table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.recipients.contains(&france) && m.subject.contains("Master as France"))
        .collect();
    assert_eq!(copies.len(), 1);
    // njudge: the copy includes the master commands before the BECOME.
    assert_says(
        &copies[0].body,
        &["BECOME", "SET NMR", "A Par - Bur", "Accepted"],
    );
    // An initial works too; the other players get no copy.
    no_errors(table.master_mail("BECOME G\nA Mun H\n"));
    let german = table.players["Germany"].clone();
    assert_eq!(table.mails_to(&german, "Master as Germany").len(), 1);
    assert!(table.mails_to(&france, "Master as Germany").is_empty());
}

#[test]
fn rollback_takes_njudge_turn_numbers() {
    let mut table = table();
    table.process_by_master();
    table.process_by_master();
    assert!(table.phase() > "F1901M".parse::<Phase>().expect("phase"));
    one_error(table.master_mail("ROLLBACK 9\n"), "turn 009");
    // Turn 002 is the second phase played: Fall 1901.
    let a = no_errors(table.master_mail("ROLLBACK 2\n"));
    assert_says(&a.reply_body, &["Rolled back to F1901M"]);
    assert_eq!(table.phase().to_string(), "F1901M");
    // "ROLLBACK 1" goes back to the very start.
    no_errors(table.master_mail("ROLLBACK 001\n"));
    assert_eq!(table.phase().to_string(), "S1901M");
    one_error(table.master_mail("ROLLBACK 1\n"), "turn 001");
}

#[test]
fn a_phase_replayed_after_a_rollback_has_the_turn_number_rollback_named() {
    let mut table = table();
    table.process_by_master();
    table.process_by_master();
    no_errors(table.master_mail("ROLLBACK 2\n"));
    table.process_by_master();
    let french = table.players["France"].clone();
    let results = table.last_results_to(&french);
    assert_says(&results, &["Fall of 1901.  (habits.002)"]);
    // HISTORY numbers each phase as it was: the rolled-back Fall 1901 was
    // turn 002 too, and nothing is numbered 003.
    let a = no_errors(from(&mut table, "France", "HISTORY"));
    assert_says(&a.reply_body, &["(habits.001)", "(habits.002)"]);
    assert_eq!(
        a.reply_body.matches("(habits.002)").count(),
        2,
        "{}",
        a.reply_body
    );
    assert!(!a.reply_body.contains("(habits.003)"), "{}", a.reply_body);
}

#[test]
fn clear_drops_the_orders_kept_for_later_phases_only() {
    let mut table = table();
    no_errors(from(
        &mut table,
        "France",
        "A Par - Bur\nPHASE F1901M\nA Mar - Spa",
    ));
    assert_eq!(table.state().future_orders.len(), 1);
    let a = no_errors(from(&mut table, "France", "CLEAR"));
    assert_says(&a.reply_body, &["Cleared 1"]);
    let s = table.state();
    assert!(s.future_orders.is_empty());
    assert_eq!(s.orders.get("France").map(Vec::len), Some(1));
    // "Clear skies" before a sign-on is a greeting, not a command.
    let a = table.mail("x@y.test", "Clear skies to all!\nLIST habits\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
}

#[test]
fn unstart_returns_the_game_to_forming_and_tells_everyone() {
    let mut table = table();
    let since = table.outbox().len();
    no_errors(table.master_mail("UNSTART\n"));
    let s = table.state();
    assert_eq!(s.status, Status::Forming);
    assert!(s.players().all(|m| m.power.is_none()));
    assert_eq!(s.players().count(), 7);
    assert!(s.settings.house.manual_start);
    assert!(s.position.is_none());
    let italy = table.players["Italy"].clone();
    let told = table.outbox().into_iter().skip(since);
    assert_eq!(
        told.filter(|m| m.recipients.contains(&italy) && m.subject.contains("Unstarted"))
            .count(),
        1
    );
    // New preferences count; the master starts it again.
    let turkey = table.players["Turkey"].clone();
    for (addr, want) in [(&italy, "T"), (&turkey, "I")] {
        let body = format!("SIGNON ?{GAME} {}\nSET PREFERENCE {want}\n", password(addr));
        no_errors(table.mail(addr, &body));
    }
    no_errors(table.master_mail("FORCE BEGIN\n"));
    let s = table.state();
    assert_eq!(s.status, Status::Active);
    assert_eq!(
        s.player_of("Turkey").map(|m| m.address.as_str()),
        Some(italy.as_str())
    );
    // Once a phase is processed, UNSTART is refused.
    table.process_by_master();
    one_error(
        table.master_mail("UNSTART\n"),
        "first phase is not yet processed",
    );
}

#[test]
fn withdraw_resigns_outside_the_agora() {
    let mut table = table();
    let a = no_errors(from(&mut table, "Turkey", "WITHDRAW"));
    assert!(!a.reply_body.is_empty());
    assert!(table.state().player_of("Turkey").is_none());
}

// ----- settings --------------------------------------------------------------------

#[test]
fn njudge_settings_are_stored_and_listed() {
    let mut table = table();
    no_errors(table.master_mail(
        "SET COMMENT Gunboat-style, be quick\nSET CENTERS 12\nSET GREY\nSET NO FAKE\n\
         SET MOVE CLOCK 1410 NEXT 71 MIN 12 DELAY 0.5 GRACE 72\n",
    ));
    let s = table.state();
    let h = &s.settings.house;
    assert_eq!(h.comment, "Gunboat-style, be quick");
    assert_eq!(h.centers, Some(12));
    assert!(h.grey_only && !h.fake_press);
    let m = &s.settings.schedule.movement;
    assert_eq!(
        m.deadline_time.map(|t| t.to_string()),
        Some("23:30:00".into())
    );
    assert_eq!((m.next_hours, m.grace_hours), (71, 72));
    assert_eq!((m.min_minutes, m.delay_minutes), (720, 30));
    let a = no_errors(from(&mut table, "France", "LIST"));
    assert_says(
        &a.reply_body,
        &[
            "Settings: List, Moderated",
            "GreyOnly",
            "No Fake",
            "12 centres win",
            "Comment: Gunboat-style",
        ],
    );
}

#[test]
fn prfrand_is_refused_once_the_game_has_started() {
    let mut table = table();
    one_error(table.master_mail("SET PRFRAND\n"), "has started");
}

#[test]
fn settings_that_cannot_apply_are_refused_with_the_reason() {
    let mut table = table();
    let before = table.state().settings;
    one_error(table.master_mail("SET MONEY\n"), "Machiavelli");
    one_error(
        table.master_mail("SET NO RAILWAYS\n"),
        "maps with that option",
    );
    one_error(table.master_mail("SET GREY/WHITE\n"), "not offered here");
    one_error(table.master_mail("SET COMMENT BEGIN\n"), "not offered here");
    assert_eq!(table.state().settings, before);
}

#[test]
fn only_the_master_sets_a_moderated_game_and_any_player_an_unmoderated_one() {
    let mut table = table();
    one_error(
        from(&mut table, "France", "SET CENTERS 10"),
        "only the master",
    );
    no_errors(table.master_mail("SET UNMODERATED\n"));
    no_errors(from(&mut table, "France", "SET CENTERS 10"));
    assert_eq!(table.state().settings.house.centers, Some(10));
    // Still the master's alone: ejecting, processing.
    one_error(
        from(&mut table, "France", "EJECT Germany"),
        "only the master",
    );
}

#[test]
fn grey_press_game_sends_every_players_press_anonymous() {
    let mut table = table();
    no_errors(table.master_mail("SET GREY\n"));
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "France",
        "PRESS TO Germany\nShall we?\nENDPRESS",
    ));
    let german = table.players["Germany"].clone();
    let mails: Vec<_> = table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.recipients.contains(&german))
        .collect();
    assert_eq!(mails.len(), 1);
    assert_says(&mails[0].body, &["an anonymous power", "Shall we?"]);
    assert!(!mails[0].body.contains("Press from France"));
}

#[test]
fn set_centers_ends_the_game_at_that_many_centres() {
    let mut table = table();
    no_errors(table.master_mail("SET CENTERS 5\n"));
    table.edit_state(|s| {
        let p = s.position.as_mut().expect("board");
        p.owners.insert("SPA".into(), "France".into());
        p.owners.insert("POR".into(), "France".into());
    });
    table.process_by_master();
    let s = table.state();
    assert_eq!(s.status, Status::Finished);
    assert_eq!(
        s.outcome,
        Some(Outcome::Solo {
            power: "France".into()
        })
    );
}

#[test]
fn delay_holds_complete_orders_back_and_the_deadline_comes_forward() {
    let mut table = table();
    no_errors(table.master_mail("SET MOVE DELAY 2\n"));
    table.advance(Duration::minutes(10));
    let now = table.now;
    for (power, orders) in HOLDS {
        let a = from(&mut table, power, orders);
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        assert_eq!(a.processed, 0, "processed before the delay");
    }
    assert_eq!(table.phase().to_string(), "S1901M");
    assert_eq!(table.deadline(), now + Duration::hours(2));
}

#[test]
fn changed_orders_restart_the_delay_but_never_past_the_deadline() {
    let mut table = table();
    let scheduled = table.deadline();
    no_errors(table.master_mail("SET MOVE DELAY 2\n"));
    for (power, orders) in HOLDS {
        no_errors(from(&mut table, power, orders));
    }
    let first = table.now;
    assert_eq!(table.deadline(), first + Duration::hours(2));
    // A mail that changes no order leaves the delay as it runs.
    table.advance(Duration::minutes(30));
    no_errors(from(&mut table, "France", "LIST"));
    assert_eq!(table.deadline(), first + Duration::hours(2));
    // Changed orders: two hours from now (njudge: "after the last required
    // orders have been received").
    no_errors(from(&mut table, "France", "A Par - Bur"));
    let changed = table.now;
    assert_eq!(table.deadline(), changed + Duration::hours(2));
    // A delay that would end after the phase's own deadline ends at it.
    no_errors(table.master_mail("SET MOVE DELAY 10000\n"));
    no_errors(from(&mut table, "France", "A Par - Pic"));
    assert_eq!(table.deadline(), scheduled);
}

// ----- notices -------------------------------------------------------------------------

#[test]
fn eject_tells_the_ejected_player_and_the_game() {
    let mut table = table();
    no_errors(table.master_mail("EJECT Austria\n"));
    let austria = table.players["Austria"].clone();
    let mails = table.mails_to(&austria, "Ejected");
    assert_eq!(mails.len(), 1);
    assert_says(&mails[0].body, &["removed you (Austria)"]);
    let england = table.players["England"].clone();
    assert_eq!(table.mails_to(&england, "Ejection").len(), 1);
}

#[test]
fn pause_and_resume_are_announced_to_the_players() {
    let mut table = table();
    no_errors(table.master_mail("PAUSE\n"));
    let russia = table.players["Russia"].clone();
    let paused = table.mails_to(&russia, "Paused");
    assert_eq!(paused.len(), 1);
    assert_says(&paused[0].body, &["paused"]);
    no_errors(table.master_mail("RESUME\n"));
    assert_eq!(table.mails_to(&russia, "Resumed").len(), 1);
}

#[test]
fn a_paused_game_reminds_its_players_every_three_days_and_processes_nothing() {
    let mut table = table();
    no_errors(table.master_mail("PAUSE\n"));
    let french = table.players["France"].clone();
    let master = table.master.clone();
    // Past the deadline, before three days: nothing.
    table.advance(Duration::days(2));
    let now = table.now;
    assert_eq!(table.engine.process_due(now).expect("clock"), 0);
    assert!(table.mails_to(&french, "Pause reminder").is_empty());
    table.advance(Duration::days(1));
    let now = table.now;
    assert_eq!(table.engine.process_due(now).expect("clock"), 0);
    let reminders = table.mails_to(&french, "Pause reminder");
    assert_eq!(reminders.len(), 1);
    assert_says(&reminders[0].body, &["habits is paused", "RESUME"]);
    assert_eq!(table.mails_to(&master, "Pause reminder").len(), 1);
    assert_eq!(table.phase().to_string(), "S1901M");
    // Once per three days.
    table.advance(Duration::days(1));
    let now = table.now;
    table.engine.process_due(now).expect("clock");
    assert_eq!(table.mails_to(&french, "Pause reminder").len(), 1);
    table.advance(Duration::days(2));
    let now = table.now;
    table.engine.process_due(now).expect("clock");
    assert_eq!(table.mails_to(&french, "Pause reminder").len(), 2);
    // Resumed: no more reminders.
    no_errors(table.master_mail("RESUME\n"));
    table.advance(Duration::days(3));
    let now = table.now;
    table.engine.process_due(now).expect("clock");
    assert_eq!(table.mails_to(&french, "Pause reminder").len(), 2);
}

#[test]
fn the_masters_sign_on_and_list_show_who_has_ordered() {
    let mut table = table();
    no_errors(from(&mut table, "France", "F Bre H\nA Par H\nA Mar H"));
    no_errors(from(&mut table, "Italy", "A Rom H"));
    let a = no_errors(table.master_mail("LIST\n"));
    assert_says(
        &a.reply_body,
        &[
            "Orders for S1901M",
            "France",
            "ordered",
            "partial (2 missing)",
            "no orders",
        ],
    );
    let signon = a
        .reply_body
        .split("> LIST")
        .next()
        .unwrap_or_default()
        .to_string();
    assert_says(&signon, &["Signed on as master", "Orders for S1901M"]);
    // A player's LIST does not show the others' orders.
    let p = no_errors(from(&mut table, "Germany", "LIST"));
    assert!(
        !p.reply_body.contains("Orders for S1901M"),
        "{}",
        p.reply_body
    );
}

#[test]
fn prfrand_named_at_create_assigns_powers_by_lot_alone() {
    let mut table = Table::created_by_mail("bylot", "standard nolist prfrand");
    let s = table.state();
    assert!(!s.settings.house.listed);
    assert_eq!(
        s.settings.house.assign,
        legate::game::house::AssignBy::Random
    );
    for power in POWERS {
        let addr = address(power);
        let body = format!(
            "SIGNON ?bylot {}\nSET PREFERENCE {}\n",
            password(&addr),
            &power[..1]
        );
        // njudge: under PRFRAND `*` "is the only possible preference list".
        one_error(table.mail(&addr, &body), "PRFRAND");
    }
    let s = table.state();
    assert_eq!(s.status, Status::Active);
    assert!(s.members.iter().all(|m| m.preferences.is_empty()));
}

#[test]
fn prfrand_set_before_the_start_does_not_read_the_lists_given() {
    let mut table = Table::created_by_mail("bylot", "standard manualstart");
    for power in POWERS {
        let addr = address(power);
        let body = format!(
            "SIGNON ?bylot {}\nSET PREFERENCE {}\n",
            password(&addr),
            &power[..1]
        );
        no_errors(table.mail(&addr, &body));
    }
    no_errors(table.master_mail("SET PRFRAND\nFORCE BEGIN\n"));
    let s = table.state();
    assert_eq!(s.status, Status::Active);
    // By list every player would have their own first choice; by lot (a
    // fixed secret here) they do not.
    let own = POWERS
        .iter()
        .filter(|p| s.player_of(p).map(|m| m.address.clone()) == Some(address(p)))
        .count();
    assert!(own < 7, "every player got their preference");
}

#[test]
fn process_with_a_phase_processes_only_that_phase() {
    let mut table = table();
    one_error(
        table.master_mail("PROCESS Fall 1901 Movement\n"),
        "nothing was processed",
    );
    assert_eq!(table.phase().to_string(), "S1901M");
    let a = no_errors(table.master_mail("PROCESS Spring 1901 Movement\n"));
    assert!(a.processed >= 1);
    assert_eq!(table.phase().to_string(), "F1901M");
}

// ----- LIST FULL, QUIET, CONCESSIONS, MAX ABSENCE, settings always so --------

#[test]
fn list_full_shows_every_listed_game_and_its_master_also_who_has_ordered() {
    let mut table = table();
    no_errors(table.mail(
        &table.master.clone(),
        "CREATE ?hidden gm-pw\nSET NOLIST\nSET COMMENT Quiet one\n",
    ));
    no_errors(from(&mut table, "France", "F Bre H\nA Par H\nA Mar H"));
    let a = no_errors(table.mail("someone@else.test", "LIST FULL\n"));
    assert_says(
        &a.reply_body,
        &[
            "Games on this judge, in full:",
            "Game habits: standard",
            "Deadline",
            "Schedule (UTC):",
            "MOVE    CLOCK 23:30 NEXT 72 GRACE 24 DAYS SMTWTFS",
            "Settings: List, Moderated",
            "Members:",
            "france@players.test",
        ],
    );
    assert!(!a.reply_body.contains("hidden"), "{}", a.reply_body);
    // Not the board, and not who has ordered, to anyone.
    assert!(!a.reply_body.contains("Units:"), "{}", a.reply_body);
    assert!(!a.reply_body.contains("Orders for"), "{}", a.reply_body);
    let a = no_errors(table.master_mail("LIST FULL\n"));
    let full = a.reply_body.split("> LIST FULL").nth(1).unwrap_or_default();
    assert_says(
        full,
        &["Game habits", "Orders for S1901M", "ordered", "no orders"],
    );
}

#[test]
fn quiet_game_tells_its_notices_to_the_master_only() {
    let mut table = table();
    let a = no_errors(table.master_mail("SET QUIET\n"));
    assert_says(&a.reply_body, &["habits is quiet"]);
    let since = table.outbox().len();
    no_errors(table.mail("fan@players.test", "OBSERVE habits pw-fan\n"));
    no_errors(from(&mut table, "France", "RESIGN"));
    let master = table.master.clone();
    let to_master = table.mails_to(&master, "Notice").len();
    let german = table.players["Germany"].clone();
    let to_germany: Vec<_> = table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.recipients.contains(&german) && m.subject.contains("Notice"))
        .collect();
    assert!(to_master >= 2, "{to_master}");
    assert!(to_germany.is_empty(), "{to_germany:?}");
    let list = no_errors(from(&mut table, "Germany", "LIST"));
    assert_says(&list.reply_body, &["Quiet"]);
    no_errors(table.master_mail("SET NO QUIET\n"));
    assert!(!table.state().settings.house.quiet);
}

#[test]
fn no_concessions_refuses_set_concede() {
    let mut table = table();
    no_errors(table.master_mail("SET NO CONCESSIONS\n"));
    one_error(
        from(&mut table, "France", "SET CONCEDE Germany"),
        "habits allows no concessions",
    );
    // Withdrawing one is still possible.
    no_errors(from(&mut table, "France", "SET NO CONCEDE"));
    no_errors(table.master_mail("SET CONCESSIONS\n"));
    // njudge's short form.
    no_errors(from(&mut table, "France", "SET CONC Germany"));
    assert_eq!(
        table
            .state()
            .player_of("France")
            .and_then(|m| m.concede.clone()),
        Some("Germany".into())
    );
}

#[test]
fn max_absence_limits_the_absences_players_set() {
    let mut table = table();
    one_error(table.master_mail("SET MAX ABSENCE 40\n"), "0 to 31 days");
    let a = no_errors(table.master_mail("SET MAX ABSENCE 5\n"));
    assert_says(&a.reply_body, &["absences of up to 5 days"]);
    one_error(
        from(&mut table, "France", "SET ABSENCE 2026-02-10 TO 2026-02-20"),
        "at most 5 days (SET MAX ABSENCE)",
    );
    no_errors(from(
        &mut table,
        "France",
        "SET HOLIDAY 2026-02-10 TO 2026-02-14",
    ));
    // njudge's SET HOLIDAY is SET ABSENCE.
    assert_eq!(
        table.state().player_of("France").map(|m| m.absences.len()),
        Some(1)
    );
    no_errors(table.master_mail("SET MAX ABSENCE 0\n"));
    one_error(
        from(
            &mut table,
            "Germany",
            "SET ABSENCE 2026-02-10 TO 2026-02-11",
        ),
        "allows no absences",
    );
}

#[test]
fn master_settings_always_so_are_answered_and_the_others_refused_with_the_reason() {
    let mut table = table();
    let before = table.state().settings;
    for (line, says) in [
        ("SET ALL PRESS", "always so here"),
        ("SET AUTO PROCESS", "always so here"),
        ("SET NO SHOW", "always so here"),
        ("SET OBSERVER NO PRESS", "always so here"),
        ("SET NORMAL DISBAND", "always so here"),
        ("SET BROADCAST PRESS", "always so here"),
    ] {
        let a = no_errors(table.master_mail(&format!("{line}\n")));
        assert_says(&a.reply_body, &[line, says]);
    }
    for (line, says) in [
        ("SET NORMAL PRESS", "always receives all press"),
        (
            "SET WATCH ALL PRESS",
            "observers here read press to everyone",
        ),
        ("SET MANUAL PROCESS", "PAUSE holds"),
        ("SET SECRET", "no duplex games"),
        ("SET NO REVEAL", "no gunboat games"),
        ("SET MINOR PRESS", "press here is held back neither"),
        ("SET GRACE PRESS", "press here is held back neither"),
        ("SET BLANK PRESS", "must have text"),
        ("SET POSTAL PRESS", "postal press"),
        ("SET STRICT CONVOY", "always checked"),
        ("SET APPROVAL", "never held for approval"),
        ("SET NOT VARIANT gunboat", "SET MASTERS"),
        ("SET START Mon 10:00", "SET MOVE MIN"),
        ("SET AUTO DISBAND", "may retreat"),
        ("SET NO BROADCAST", "receive every broadcast"),
    ] {
        one_error(table.master_mail(&format!("{line}\n")), says);
    }
    assert_eq!(table.state().settings, before);
    // SET GRACE with a date is still the grace period.
    no_errors(table.master_mail("SET GRACE 2026-02-09 12:00\n"));
}
