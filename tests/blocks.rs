//! The rule of blocks, through the engine: a mail is read as blocks (a
//! sign-on, a press message, a PHASE block, an IF block...), a block whose
//! header is refused is refused whole, and nothing a player writes is read as
//! something else. Each test is a case a long-time njudge player would write;
//! where the effect is on someone else's mailbox, the outbox is read.

use crate::engine_common;

use engine_common::*;
use legate::game::process::orders_of;

const GAME: &str = "blocks";

fn table() -> Table {
    Table::started(GAME, t("2026-02-02T10:00:00Z"))
}

fn from(table: &mut Table, power: &str, body: &str) -> legate::game::Applied {
    table.player_mail(power, body)
}

/// The bodies of the press mails queued for `to` since `since` mails.
fn press_to(table: &mut Table, to: &str, since: usize) -> Vec<String> {
    table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.subject.contains("Press from") && m.recipients.iter().any(|r| r == to))
        .map(|m| m.body)
        .collect()
}

/// The orders in force for `power` this phase, as the judge prints them.
fn current_orders(table: &mut Table, power: &str) -> Vec<String> {
    let state = table.state();
    let map = map_of(&state);
    orders_of(map, &state, power)
        .expect("orders")
        .iter()
        .map(|o| legate::docs::order_text(map, o))
        .collect()
}

// ----- press ---------------------------------------------------------------

#[test]
fn press_to_m_reaches_the_master_and_nothing_inside_is_an_order() {
    let mut table = table();
    let since = table.outbox().len();
    let a = from(
        &mut table,
        "France",
        "PRESS TO M\nPlease extend.\nF Bre - Eng\nENDPRESS",
    );
    let a = no_errors(a);
    assert!(!a.reply_body.contains("Accepted"), "{}", a.reply_body);
    let master = table.master.clone();
    let mails = press_to(&mut table, &master, since);
    assert_eq!(mails.len(), 1);
    assert_says(
        &mails[0],
        &["Please extend.", "F Bre - Eng", "to the master"],
    );
    // The master alone: no player reads it.
    for power in POWERS {
        let addr = address(power);
        assert!(press_to(&mut table, &addr, since).is_empty(), "{power}");
    }
    assert!(current_orders(&mut table, "France").is_empty());
}

#[test]
fn press_to_the_master_is_allowed_in_a_game_without_press() {
    let mut table = table();
    no_errors(table.master_mail("SET PRESS NONE\n"));
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "France",
        "PRESS TO MASTER\nMay I?\nENDPRESS",
    ));
    let master = table.master.clone();
    assert_eq!(press_to(&mut table, &master, since).len(), 1);
}

#[test]
fn a_refused_press_header_refuses_the_whole_message() {
    let mut table = table();
    let since = table.outbox().len();
    let a = from(
        &mut table,
        "France",
        "PRESS TO Xanadu\nPlease extend.\nF Bre - Eng\nENDPRESS\nA Par - Bur",
    );
    assert_eq!(a.errors, 4, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &[
            "unknown power \"Xanadu\"",
            "Error (line 4): not applied because line 2 was refused",
            "Accepted: A PAR - BUR",
        ],
    );
    assert!(!a.reply_body.contains("F BRE - ENG"), "{}", a.reply_body);
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - BUR"]);
    let press = table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.subject.contains("Press from"))
        .count();
    assert_eq!(press, 0);
}

#[test]
fn press_ends_at_signoff_and_the_signature_reaches_nobody() {
    let mut table = table();
    let since = table.outbox().len();
    let a = from(
        &mut table,
        "France",
        "BROADCAST\nHello all.\nSIGNOFF\nJohn Smith\nACME Corp, tel 555-1234",
    );
    no_errors(a);
    let england = address("England");
    let mails = press_to(&mut table, &england, since);
    assert_eq!(mails.len(), 1);
    assert_says(&mails[0], &["Hello all."]);
    for never in ["SIGNOFF", "John Smith", "ACME"] {
        assert!(!mails[0].contains(never), "{never}: {}", mails[0]);
    }
    // SIGN OFF in two words, and a "-- " signature, end it the same way.
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "France",
        "BROADCAST\nAgain.\nSIGN OFF\nA Par - Bur",
    ));
    no_errors(from(
        &mut table,
        "France",
        "BROADCAST\nOnce more.\n-- \nJohn",
    ));
    let mails = press_to(&mut table, &england, since);
    assert_eq!(mails.len(), 2);
    assert!(
        mails
            .iter()
            .all(|m| !m.contains("SIGN OFF") && !m.contains("John"))
    );
    assert!(current_orders(&mut table, "France").is_empty());
}

#[test]
fn end_press_in_two_words_ends_the_press_and_the_order_after_it_is_read() {
    let mut table = table();
    let since = table.outbox().len();
    let a = no_errors(from(
        &mut table,
        "France",
        "PRESS TO g\ntext\nEND PRESS\nA Par - Bur",
    ));
    assert_says(&a.reply_body, &["Accepted: A PAR - BUR"]);
    let germany = address("Germany");
    let mails = press_to(&mut table, &germany, since);
    assert_eq!(mails.len(), 1);
    assert!(!mails[0].contains("END PRESS") && !mails[0].contains("A Par"));
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - BUR"]);
}

#[test]
fn a_bare_press_sends_nothing_and_says_what_is_missing() {
    let mut table = table();
    let since = table.outbox().len();
    let a = from(&mut table, "France", "PRESS\nOur secret plan.\nENDPRESS");
    assert_eq!(a.errors, 3, "{}", a.reply_body);
    assert_says(&a.reply_body, &["PRESS TO <powers>", "BROADCAST"]);
    let sent = table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.subject.contains("Press from"))
        .count();
    assert_eq!(sent, 0);
}

// ----- sign-on and sign-off ------------------------------------------------

#[test]
fn sign_off_in_two_words_ends_the_mail_and_sign_on_hello_login_sign_on() {
    let mut table = table();
    let addr = address("France");
    for head in ["SIGN ON", "HELLO", "LOGIN"] {
        let body = format!("{head} F{GAME} pw-france\nA Par - Bur\nSIGN OFF\nJean\nA Mar - Spa\n");
        let a = no_errors(table.mail(&addr, &body));
        assert_says(&a.reply_body, &["Accepted: A PAR - BUR"]);
        assert_eq!(current_orders(&mut table, "France"), ["A PAR - BUR"]);
    }
    // A greeting that starts with Hello is still a greeting.
    let a = table.mail(
        &addr,
        &format!("Hello judge!\nSIGNON F{GAME} pw-france\nA Mar H\n"),
    );
    no_errors(a);
}

#[test]
fn a_refused_sign_on_refuses_its_lines_and_never_speaks_for_an_earlier_one() {
    let mut table = table();
    let addr = address("France");
    let body = format!("SIGNON F{GAME} pw-france\nA Par - Bur\nSIGNON F{GAME}\nA Mar - Pie\n");
    let a = table.mail(&addr, &body);
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert_says(&a.reply_body, &["not applied because line 3 was refused"]);
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - BUR"]);
}

#[test]
fn a_misspelt_command_or_order_word_gets_a_did_you_mean() {
    let mut table = table();
    let addr = address("Austria");
    let a = table.mail(&addr, &format!("sigon A{GAME} pw-austria\nbild A Bud\n"));
    assert!(a.errors >= 2, "{}", a.reply_body);
    assert_says(&a.reply_body, &["did you mean SIGNON?"]);
    assert!(
        !a.reply_body.contains("No commands were found"),
        "{}",
        a.reply_body
    );
    let a = table.mail(&addr, &format!("SIGNON A{GAME} pw-austria\nbild A Bud\n"));
    assert_says(&a.reply_body, &["did you mean BUILD?"]);
    // Only a mail with nothing like a command or an order gets the help.
    let a = table.mail(&addr, "Dear judge,\nhow are you?\nRegards\n");
    assert_says(&a.reply_body, &["No commands were found"]);
}

// ----- PHASE blocks --------------------------------------------------------

#[test]
fn a_refused_phase_refuses_its_orders_they_never_fall_into_another_phase() {
    let mut table = table();
    let a = from(
        &mut table,
        "France",
        "PHASE Spring 1902 Adjustments\nA Par - Bur\nPHASE Fall 1901 Movements\nA Mar - Bur",
    );
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &[
            "Error (line 3): not applied because line 2 was refused",
            "Stored for F1901M: A MAR - BUR",
        ],
    );
    assert!(current_orders(&mut table, "France").is_empty());
    let future = table.state().future_orders;
    assert_eq!(future.len(), 1);
    assert_eq!(future[0].phase, "F1901M");
    // A good PHASE, then a refused one: the orders after the second never
    // fall into the first's phase, nor into the current one.
    let a = from(
        &mut table,
        "France",
        "PHASE Fall 1901 Movements
A Mar - Pie
PHASE Summer 1902 Movement
A Par - Pic",
    );
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &["Error (line 5): not applied because line 4 was refused"],
    );
    assert!(current_orders(&mut table, "France").is_empty());
    let future = table.state().future_orders;
    // A Mar - Pie replaced A Mar - Bur for the Fall; nothing else is stored.
    let stored: Vec<String> = future[0].orders.iter().map(|o| format!("{o:?}")).collect();
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert!(stored[0].contains("PIE"), "{stored:?}");
}

// ----- orders ---------------------------------------------------------------

#[test]
fn an_illegal_order_is_never_stored_and_the_last_valid_line_counts() {
    let mut table = table();
    // Both illegal in Spring 1901: neither is stored.
    let a = from(&mut table, "France", "A Par - Mun\nA Par - Ber");
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert!(!a.reply_body.contains("Accepted"), "{}", a.reply_body);
    assert_says(&a.reply_body, &["the order in force for this unit: none"]);
    assert!(current_orders(&mut table, "France").is_empty());
    // A valid line, then an illegal one for the same unit: the valid one holds.
    let a = from(&mut table, "France", "A Par - Bur\nA Par - Ber");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &[
            "Accepted: A PAR - BUR",
            "the order in force for this unit: A PAR - BUR (line 2)",
        ],
    );
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - BUR"]);
    // Two valid lines: the last counts, and the first says so.
    let a = no_errors(from(&mut table, "France", "A Par - Gas\nA Par - Pic"));
    assert_says(
        &a.reply_body,
        &[
            "Replaced: a later line orders the same unit; the order in force is A PAR - PIC (line 3)",
        ],
    );
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - PIC"]);
    // An illegal line leaves the order of an earlier mail in force.
    let a = from(&mut table, "France", "A Par - Mun");
    assert_says(
        &a.reply_body,
        &["the order in force for this unit: A PAR - PIC (from an earlier mail)"],
    );
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - PIC"]);
}

// ----- IF blocks -------------------------------------------------------------

#[test]
fn njudge_conditions_are_read_and_a_refused_one_refuses_its_block() {
    let mut table = table();
    let a = no_errors(from(
        &mut table,
        "France",
        "PHASE Fall 1901 Movement\nIF A Bur THEN\nA Par - Bur\nENDIF",
    ));
    for internal in ["Location {", "Province("] {
        assert!(!a.reply_body.contains(internal), "{}", a.reply_body);
    }
    assert_says(
        &a.reply_body,
        &["Stored for F1901M, under the IF on line 3"],
    );
    // A condition that does not read: nothing of its block is stored, not
    // even without the condition.
    let mut table = self::table();
    let a = from(
        &mut table,
        "France",
        "PHASE Fall 1901 Movement\nIF A Bur Bur\nA Par - Bur\nELSE\nA Par - Pic\nENDIF\nA Mar H",
    );
    assert_eq!(a.errors, 5, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &[
            "unexpected \"Bur\" after IF A BUR",
            "not applied because line 3 was refused",
            "Stored for F1901M: A MAR H",
        ],
    );
    for internal in ["Location {", "Province("] {
        assert!(!a.reply_body.contains(internal), "{}", a.reply_body);
    }
    let state = table.state();
    assert!(state.conditional.is_empty());
    assert_eq!(state.future_orders.len(), 1);
    assert_eq!(state.future_orders[0].orders.len(), 1);
}

/// Spring 1901: Germany takes Burgundy. France's conditions for the Fall name
/// no power, so any power's unit makes them hold.
fn germany_in_burgundy(table: &mut Table, france: &str) {
    no_errors(from(table, "France", france));
    no_errors(from(table, "Germany", "A Mun - Bur"));
    table.process_by_master();
    assert_eq!(table.phase().to_string(), "F1901M");
}

#[test]
fn a_condition_without_power_or_type_means_any_unit() {
    let mut table = table();
    germany_in_burgundy(
        &mut table,
        "PHASE Fall 1901 Movement\nIF A Bur\nA Par - Pic\nELSE\nA Par - Gas\nENDIF",
    );
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - PIC"]);
}

#[test]
fn else_if_and_free_word_order_choose_one_branch() {
    let mut table = table();
    germany_in_burgundy(
        &mut table,
        "PHASE Fall 1901 Movement\nIF Ruhr German\nA Par - Bur\nELSE IF Burgundy Army German THEN\nA Par - Pic\nELSE\nA Par - Gas\nENDIF",
    );
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - PIC"]);
    let mut table = self::table();
    germany_in_burgundy(
        &mut table,
        "PHASE Fall 1901 Movement\nIF Ruhr\nA Par - Bur\nELSE IF French Bur\nA Par - Pic\nELSE\nA Par - Gas\nENDIF",
    );
    assert_eq!(current_orders(&mut table, "France"), ["A PAR - GAS"]);
}

// ----- deadlines ---------------------------------------------------------------

/// Everyone in the game but `but` got a "Deadline changed" mail since `since`.
fn told_everyone(table: &mut Table, since: usize, but: &str) {
    let told: Vec<String> = table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.subject.contains("Deadline changed"))
        .flat_map(|m| m.recipients)
        .collect();
    for power in POWERS {
        let addr = address(power);
        if addr != but {
            assert!(told.contains(&addr), "{power} not told: {told:?}");
        }
    }
}

#[test]
fn a_deadline_day_without_a_time_keeps_the_phases_time_of_day_and_everyone_is_told() {
    use chrono::{Datelike, Duration};
    let mut table = table();
    let before = table.deadline();
    let day = (table.now + Duration::days(3)).date_naive();
    let since = table.outbox().len();
    let a = no_errors(table.master_mail(&format!("SET DEADLINE {}\n", day.weekday())));
    let after = table.deadline();
    assert_eq!(
        after,
        day.and_time(before.time()).and_utc(),
        "{}",
        a.reply_body
    );
    told_everyone(&mut table, since, "");
}

#[test]
fn an_absence_to_a_day_lasts_to_its_end_and_a_moved_deadline_is_announced() {
    let mut table = table();
    let deadline = table.deadline();
    let since = table.outbox().len();
    let start = (table.now + chrono::Duration::days(1)).format("%b %d");
    let to = deadline.format("%b %d");
    let a = no_errors(from(
        &mut table,
        "France",
        &format!("SET ABSENCE {start} TO {to}"),
    ));
    let state = table.state();
    let absence = &state.player_of("France").expect("France").absences[0];
    let end = (deadline.date_naive() + chrono::Duration::days(1))
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc();
    assert_eq!(absence.to, end, "{}", a.reply_body);
    assert!(
        table.deadline() >= end,
        "the deadline moved past the absence"
    );
    told_everyone(&mut table, since, &address("France"));
}

// ----- settings ------------------------------------------------------------------

#[test]
fn set_no_partial_is_njudges_press_setting_and_draws_have_their_own() {
    let mut table = table();
    no_errors(table.master_mail("SET NO PARTIAL\n"));
    let since = table.outbox().len();
    let a = from(&mut table, "France", "PRESS TO E\nJust us two?\nENDPRESS");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert_says(&a.reply_body, &["no partial press"]);
    let england = address("England");
    assert!(press_to(&mut table, &england, since).is_empty());
    // Broadcasts and press to the master still go.
    no_errors(from(
        &mut table,
        "France",
        "BROADCAST\nHello all.\nENDPRESS",
    ));
    no_errors(from(
        &mut table,
        "France",
        "PRESS TO M\nHello master.\nENDPRESS",
    ));
    assert_eq!(press_to(&mut table, &england, since).len(), 1);
    no_errors(table.master_mail("SET PARTIAL\n"));
    no_errors(from(
        &mut table,
        "France",
        "PRESS TO E\nJust us two?\nENDPRESS",
    ));
    assert_eq!(press_to(&mut table, &england, since).len(), 2);
    // SET PARTIAL says nothing about draws: a partial draw needs SET NODIAS.
    let a = from(&mut table, "France", "SET DRAW France England");
    assert_says(&a.reply_body, &["only draws including all survivors"]);
    no_errors(table.master_mail("SET NODIAS\n"));
    no_errors(from(&mut table, "France", "SET DRAW France England"));
}

#[test]
fn every_create_option_is_honoured_or_the_game_is_refused() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    let master = table.master.clone();
    let a = table.mail(&master, "CREATE ?boat gm-pw standard gunboat\nSET NMR\n");
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &[
            "option \"gunboat\"",
            "not supported",
            "the game was not created",
        ],
    );
    assert!(!a.reply_body.contains("gm-pw"), "{}", a.reply_body);
    let exists = table
        .engine
        .store()
        .transaction(|tx| tx.game_by_name("boat"))
        .expect("read");
    assert!(exists.is_none());
    // Options the judge takes are each applied.
    let mut table = Table::created_by_mail("kept", "standard grey nmr nopartial nodias 2000");
    let s = table.state().settings;
    assert_eq!(s.press, legate::game::model::PressKind::Grey);
    assert!(s.nmr && s.broadcast_only && s.partial);
    assert_eq!(s.rules, "2000");
}

#[test]
fn a_refused_registration_form_never_echoes_its_password() {
    let mut table = table();
    let a = table.mail(
        &address("France"),
        "REGISTER extra\nname: France Player\npassword: s3cretR\nEND\n",
    );
    assert!(a.errors >= 3, "{}", a.reply_body);
    assert_says(&a.reply_body, &["not applied because line 1 was refused"]);
    assert!(!a.reply_body.contains("s3cretR"), "{}", a.reply_body);
}
