//! njudge's habits of players, through the engine: the sign-on forms a
//! long-time njudge player writes (the variant named, `SIGNON ? pw`, taking
//! over an abandoned power), the information commands (`WHOIS`, `WHO GAME`,
//! `INFO PLAYER`, `SUMMARY`), the press forms (`TO O`, `+list`, `-list`,
//! `ANONYMOUS`, `BROADCAST TO`), njudge's registration form, preferences in
//! initials, and the notices njudge sends. Where the effect is on someone
//! else's mailbox, the outbox is read.

use crate::engine_common;

use engine_common::*;

const GAME: &str = "habits";

fn table() -> Table {
    Table::started(GAME, t("2026-02-02T10:00:00Z"))
}

fn from(table: &mut Table, power: &str, body: &str) -> legate::game::Applied {
    table.player_mail(power, body)
}

/// The bodies of mails to `to` queued after the first `since`, whose
/// subject holds `subject`.
fn mails(table: &mut Table, to: &str, subject: &str, since: usize) -> Vec<String> {
    table
        .outbox()
        .into_iter()
        .skip(since)
        .filter(|m| m.subject.contains(subject) && m.recipients.iter().any(|r| r == to))
        .map(|m| m.body)
        .collect()
}

/// A forming game `name` created by the master, nobody joined yet.
fn forming(table: &mut Table, name: &str, words: &str) {
    let master = table.master.clone();
    no_errors(table.mail(&master, &format!("CREATE ?{name} gm-pw {words}\n")));
}

fn players_of(table: &mut Table, game: &str) -> Vec<String> {
    table.game = game.to_string();
    table.state().players().map(|m| m.address.clone()).collect()
}

// ----- sign-on and entry ---------------------------------------------------

#[test]
fn signon_naming_the_games_variant_joins_and_another_variant_is_refused() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    forming(&mut table, "plain", "");
    let p = "newcomer@players.test";
    one_error(
        table.mail(p, "SIGNON ?plain pw-new masters\n"),
        "plain is a game of the standard variant, not masters",
    );
    one_error(
        table.mail(p, "SIGNON ?plain pw-new klingon\n"),
        "there is no variant \"klingon\"",
    );
    assert!(players_of(&mut table, "plain").is_empty());
    let a = no_errors(table.mail(p, "SIGNON ?plain pw-new standard\n"));
    assert_says(&a.reply_body, &["You have joined plain"]);
    assert_eq!(players_of(&mut table, "plain"), vec![p.to_string()]);
}

#[test]
fn signon_question_mark_alone_joins_the_next_forming_game() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    let p = "newcomer@players.test";
    one_error(
        table.mail(p, "SIGNON ? pw-new\n"),
        "no standard game is forming",
    );
    forming(&mut table, "beta", "");
    forming(&mut table, "alpha", "");
    forming(&mut table, "mast", "masters");
    let a = no_errors(table.mail(p, "SIGNON ? pw-new\n"));
    assert_says(&a.reply_body, &["You have joined alpha"]);
    // Already in alpha: the next one.
    let a = no_errors(table.mail(p, "SIGN ON ? pw-new\n"));
    assert_says(&a.reply_body, &["You have joined beta"]);
    // The variant named: a game of that variant.
    let a = no_errors(table.mail(p, "SIGNON ? pw-new masters\n"));
    assert_says(&a.reply_body, &["You have joined mast"]);
    assert_eq!(players_of(&mut table, "alpha"), vec![p.to_string()]);
    // The master of the forming game is told of each sign-on.
    let master = table.master.clone();
    assert_says(
        &mails(&mut table, &master, "Notice: sign-on", 0).join("\n"),
        &["newcomer@players.test has signed on to alpha (1 of 7 players)"],
    );
}

#[test]
fn a_resigned_power_is_taken_over_by_signing_on_to_it_and_everyone_is_told() {
    let mut table = table();
    let since = table.outbox().len();
    let old = table.players["France"].clone();
    let a = no_errors(from(&mut table, "France", "RESIGN"));
    assert_says(&a.reply_body, &["You have resigned France"]);
    let german = table.players["Germany"].clone();
    assert_says(
        &mails(&mut table, &german, "France resigned", since).join("\n"),
        &["The player of France has resigned", "SIGNON Fhabits"],
    );
    // Today's njudge habit: a stranger signs on to the empty power, with orders.
    let new = "newcomer@players.test";
    let since = table.outbox().len();
    let a = no_errors(table.mail(new, "SIGNON Fhabits pw-new1\nA Par - Bur\n"));
    assert_says(&a.reply_body, &["you have taken it over", "Accepted"]);
    let state = table.state();
    assert_eq!(
        state.player_of("France").map(|m| m.address.as_str()),
        Some(new)
    );
    for power in ["England", "Germany", "Russia"] {
        let addr = table.players[power].clone();
        assert_says(
            &mails(&mut table, &addr, "France taken over", since).join("\n"),
            &["France was without a player; newcomer@players.test has signed on"],
        );
    }
    // The new password is the seat's: the old player's no longer works.
    one_error(
        table.mail(&old, &format!("SIGNON Fhabits {}\n", password(&old))),
        "wrong password for France",
    );
    no_errors(table.mail(new, "SIGNON Fhabits pw-new1\n"));
}

#[test]
fn a_resigned_player_comes_back_but_no_player_takes_a_second_power() {
    let mut table = table();
    let old = table.players["France"].clone();
    no_errors(from(&mut table, "France", "RESIGN"));
    // Germany's player may not take France as well.
    let german = table.players["Germany"].clone();
    one_error(
        table.mail(&german, "SIGNON Fhabits pw-grab\n"),
        "you already play a power in habits",
    );
    // The player who resigned comes back to the empty power.
    no_errors(table.mail(&old, "SIGNON Fhabits back-again\n"));
    let state = table.state();
    assert_eq!(
        state.player_of("France").map(|m| m.address.as_str()),
        Some(old.as_str())
    );
    // A power with a player is never taken over: a wrong password is refused.
    one_error(
        table.mail("stranger@players.test", "SIGNON Ghabits guessed\n"),
        "wrong password for Germany",
    );
    let state = table.state();
    assert_eq!(
        state.player_of("Germany").map(|m| m.address.as_str()),
        Some(german.as_str())
    );
}

#[test]
fn a_player_who_resigned_returns_unless_someone_else_played_the_power_since() {
    let mut table = table();
    let old = table.players["France"].clone();
    let german = table.players["Germany"].clone();
    no_errors(from(&mut table, "France", "RESIGN"));
    // njudge: "has returned as France", not a take-over.
    let since = table.outbox().len();
    let a = no_errors(table.mail(&old, "SIGNON Fhabits back-again\n"));
    assert_says(&a.reply_body, &["You have returned as France in habits"]);
    assert_says(
        &mails(&mut table, &german, "France player returned", since).join("\n"),
        &[&format!("{old}, who resigned France, has signed on again")],
    );
    assert!(mails(&mut table, &german, "taken over", since).is_empty());
    // Resigned again; another player takes France and resigns in turn: the
    // first player now takes over a power someone else has played.
    no_errors(table.mail(&old, "SIGNON Fhabits back-again\nRESIGN\n"));
    let new = "newcomer@players.test";
    no_errors(table.mail(new, "SIGNON Fhabits pw-new1\n"));
    no_errors(table.mail(new, "SIGNON Fhabits pw-new1\nRESIGN\n"));
    let since = table.outbox().len();
    let a = no_errors(table.mail(&old, "SIGNON Fhabits third-time\n"));
    assert_says(&a.reply_body, &["you have taken it over"]);
    assert_eq!(
        mails(&mut table, &german, "France taken over", since).len(),
        1
    );
}

#[test]
fn watch_observes_and_the_master_and_players_are_told() {
    let mut table = table();
    let since = table.outbox().len();
    let a = no_errors(table.mail("fan@players.test", "WATCH habits pw-fan\n"));
    assert_says(&a.reply_body, &["You are observing habits"]);
    // njudge tells everyone in the game, the master and the players.
    for to in [table.master.clone(), table.players["France"].clone()] {
        assert_says(
            &mails(&mut table, &to, "Notice: observer", since).join("\n"),
            &["fan@players.test now observes habits"],
        );
    }
    // Not the newcomer: the reply says it.
    assert!(mails(&mut table, "fan@players.test", "Notice", since).is_empty());
}

#[test]
fn a_sign_on_to_a_forming_game_is_told_to_the_players_already_in_it() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    forming(&mut table, "early", "");
    let (first, second) = ("first@players.test", "second@players.test");
    no_errors(table.mail(first, "SIGNON ?early pw-first\n"));
    let since = table.outbox().len();
    no_errors(table.mail(second, "SIGNON ?early pw-second\n"));
    let master = table.master.clone();
    for to in [master.as_str(), first] {
        assert_says(
            &mails(&mut table, to, "Notice: sign-on", since).join("\n"),
            &["second@players.test has signed on to early (2 of 7 players)"],
        );
    }
    assert!(mails(&mut table, second, "Notice", since).is_empty());
}

#[test]
fn i_am_also_is_refused_with_the_way_that_works() {
    let mut table = table();
    let french = table.players["France"].clone();
    one_error(
        table.mail("new-home@players.test", &format!("I AM ALSO {french}\n")),
        "SET ADDRESS",
    );
    // A greeting that begins with "I" before the first command is not a command.
    no_errors(table.mail(
        &french,
        &format!(
            "I am writing from home.\nSIGNON Fhabits {}\n",
            password(&french)
        ),
    ));
}

// ----- information -----------------------------------------------------------

#[test]
fn whois_shows_registrations_by_address_prefix_and_keeps_private_fields() {
    let mut table = table();
    let french = table.players["France"].clone();
    no_errors(table.mail(
        &french,
        &format!(
            "SIGNON Fhabits {}\nREGISTER\nName: Aretha Holly\nPhone: 555-5555\n\
             Site: Hodunk\nLevel: Expert\nEND\n",
            password(&french)
        ),
    ));
    let a = no_errors(table.mail("anyone@else.test", "WHO IS fra\n"));
    assert_says(
        &a.reply_body,
        &[
            "Email: france@players.test",
            "Name: Aretha Holly",
            "Site: Hodunk",
            "Games: habits (France)",
        ],
    );
    assert!(!a.reply_body.contains("555-5555"), "{}", a.reply_body);
    let a = no_errors(table.mail("anyone@else.test", "WHOIS zz\n"));
    assert_says(&a.reply_body, &["Nobody registered here"]);
    let a = no_errors(table.mail("anyone@else.test", "INFO PLAYER france@players.test\n"));
    assert_says(&a.reply_body, &["Name: Aretha Holly"]);
}

#[test]
fn who_game_in_two_words_lists_the_members() {
    let mut table = table();
    let a = no_errors(table.mail("anyone@else.test", "WHO GAME habits\n"));
    assert_says(&a.reply_body, &["France", "france@players.test", "master"]);
    let a = no_errors(from(&mut table, "France", "WHO GAME FULL"));
    assert_says(&a.reply_body, &["germany@players.test"]);
}

#[test]
fn summary_before_the_first_processing_says_so() {
    let mut table = table();
    let a = no_errors(table.mail("anyone@else.test", "SUMMARY habits\n"));
    assert_says(
        &a.reply_body,
        &["No phase has been processed yet: the first phase, S1901M, is under way"],
    );
}

#[test]
fn history_takes_njudges_lines_and_exclstart() {
    let mut table = table();
    table.process_by_master();
    let a = no_errors(table.mail("anyone@else.test", "HISTORY habits\n"));
    assert_says(&a.reply_body, &["Movement results for Spring of 1901"]);
    let a = no_errors(table.mail("anyone@else.test", "HISTORY habits LINES 3\n"));
    assert_says(&a.reply_body, &["(cut at 3 of"]);
    // Spring 1901 on left out: nothing is left.
    let a = no_errors(table.mail("anyone@else.test", "HISTORY habits EXCLSTART S1901M\n"));
    assert_says(&a.reply_body, &["No phase was processed in that time."]);
    // A span that excludes nothing played leaves the history whole.
    let a = no_errors(table.mail(
        "anyone@else.test",
        "HISTORY habits EXCLSTART S1899M EXCLEND F1900M BROAD\n",
    ));
    assert!(
        !a.reply_body.contains("No phase was processed"),
        "{}",
        a.reply_body
    );
}

// ----- press -----------------------------------------------------------------

#[test]
fn plus_and_minus_lists_of_initials_reach_whom_they_name() {
    let mut table = table();
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "Austria",
        "PRESS +fg\nHello west.\nENDPRESS",
    ));
    no_errors(from(
        &mut table,
        "Austria",
        "PRESS -fgo\nHello rest.\nENDPRESS",
    ));
    no_errors(from(
        &mut table,
        "Austria",
        "PRESS TO ALL BUT EIR\nHi.\nENDPRESS",
    ));
    let got = |table: &mut Table, power: &str| {
        let addr = address(power);
        mails(table, &addr, "Press from", since).join("\n")
    };
    assert!(got(&mut table, "France").contains("Hello west."));
    assert!(!got(&mut table, "France").contains("Hello rest."));
    assert!(got(&mut table, "Russia").contains("Hello rest."));
    assert!(!got(&mut table, "Russia").contains("Hello west."));
    assert!(!got(&mut table, "Russia").contains("Hi."));
    assert!(got(&mut table, "Turkey").contains("Hi."));
}

#[test]
fn broadcast_to_a_list_goes_to_that_list_only() {
    let mut table = table();
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "Italy",
        "BROADCAST TO G\nOnly you.\nENDPRESS",
    ));
    let german = address("Germany");
    let french = address("France");
    assert_eq!(mails(&mut table, &german, "Press from", since).len(), 1);
    assert!(mails(&mut table, &french, "Press from", since).is_empty());
}

#[test]
fn anonymous_is_grey_and_fake_is_refused_whole_where_the_game_has_no_fake() {
    let mut table = table();
    no_errors(table.master_mail("SET PRESS GREY\n"));
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "Italy",
        "PRESS TO F ANONYMOUSLY\nGuess who.\nENDPRESS",
    ));
    let french = address("France");
    let got = mails(&mut table, &french, "Press from", since).join("\n");
    assert_says(&got, &["an anonymous power", "Guess who."]);
    assert!(!got.contains("Press from Italy"), "{got}");
    // FAKE: the header is refused, and with it the message: no line of it is
    // read as an order or sent.
    let since = table.outbox().len();
    let a = from(
        &mut table,
        "Italy",
        "PRESS TO ALL BUT G FAKE BROADCAST\nA Ven - Tri\nENDPRESS",
    );
    assert!(a.errors >= 1, "{}", a.reply_body);
    assert_says(
        &a.reply_body,
        &["allows no fake press", "SET PARTIAL MAY BE FAKED"],
    );
    assert!(mails(&mut table, &french, "Press from", since).is_empty());
    assert!(!a.reply_body.contains("Accepted"), "{}", a.reply_body);
}

#[test]
fn fake_press_goes_to_its_real_readers_with_the_header_asked_for_where_the_game_allows_it() {
    let mut table = table();
    no_errors(table.master_mail("SET GREY\nSET PARTIAL MAY BE FAKED\n"));
    // njudge's own example: everyone but Germany reads a fake broadcast.
    let since = table.outbox().len();
    let a = no_errors(from(
        &mut table,
        "Italy",
        "PRESS TO ALL BUT G FAKE BROADCAST\nThis is Germany and I think you all are wimps.\nENDPRESS",
    ));
    assert_says(
        &a.reply_body,
        &[
            "Press sent to Austria, England, France, Italy, Russia, Turkey",
            "its header naming everyone",
        ],
    );
    let french = address("France");
    let got = mails(&mut table, &french, "Press from", since).join("\n");
    assert_says(
        &got,
        &["Press from an anonymous power to everyone:", "wimps"],
    );
    assert!(!got.contains("faked"), "{got}");
    let german = address("Germany");
    assert!(mails(&mut table, &german, "Press from", since).is_empty());
    // The master reads the truth.
    let master = table.master.clone();
    assert_says(
        &mails(&mut table, &master, "Press from", since).join("\n"),
        &["to everyone (faked: really to Austria, England, France, Italy, Russia, Turkey)"],
    );
    // A message to one power faked as going to three.
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "Italy",
        "PRESS TO R FAKE TO EFG\nBetween the four of us.\nENDPRESS",
    ));
    let russian = address("Russia");
    assert_says(
        &mails(&mut table, &russian, "Press from", since).join("\n"),
        &["to England, France, Germany:", "Between the four of us."],
    );
    assert!(mails(&mut table, &french, "Press from", since).is_empty());
    // Press to the master is never faked.
    let a = from(&mut table, "Italy", "PRESS TO M FAKE\nPsst.\nENDPRESS");
    assert!(a.errors >= 1, "{}", a.reply_body);
    assert_says(&a.reply_body, &["never faked"]);
}

#[test]
fn observers_read_press_to_o_and_may_write_to_the_master() {
    let mut table = table();
    let fan = "fan@players.test";
    no_errors(table.mail(fan, "OBSERVE habits pw-fan\n"));
    let since = table.outbox().len();
    no_errors(from(
        &mut table,
        "England",
        "PRESS TO O\nHello watchers.\nENDPRESS",
    ));
    assert_says(
        &mails(&mut table, fan, "Press from", since).join("\n"),
        &["Press from England to the observers", "Hello watchers."],
    );
    let french = address("France");
    assert!(mails(&mut table, &french, "Press from", since).is_empty());
    // An observer writes to the master; nobody else reads it.
    let since = table.outbox().len();
    no_errors(table.mail(
        fan,
        "SIGNON Ohabits pw-fan\nPRESS TO M\nMay I stand by?\nENDPRESS\n",
    ));
    let master = table.master.clone();
    assert_says(
        &mails(&mut table, &master, "Press from", since).join("\n"),
        &["an observer (fan@players.test)", "May I stand by?"],
    );
    assert!(mails(&mut table, &french, "Press from", since).is_empty());
    // Anything else from an observer is still refused.
    one_error(
        table.mail(fan, "SIGNON Ohabits pw-fan\nPRESS TO F\nHi.\nENDPRESS\n"),
        "only the powers and the master may send press",
    );
}

#[test]
fn postal_press_is_refused_and_its_text_is_not_read() {
    let mut table = table();
    let a = from(&mut table, "Italy", "POSTAL PRESS\nA Ven - Tri\nENDPRESS");
    assert_says(&a.reply_body, &["postal press"]);
    assert!(!a.reply_body.contains("Accepted"), "{}", a.reply_body);
}

// ----- registration ----------------------------------------------------------

#[test]
fn njudges_registration_form_with_zone_words_and_several_addresses() {
    let mut table = table();
    let p = "holly@players.test";
    let a = table.mail(
        p,
        "REGISTER\nName: Aretha Holly\nTimezone: Eastern\n\
         Email: old@host.edu, holly@players.test\nEmail: other@host.bitnet\n\
         Favourite: Italy\nEND\n",
    );
    let a = no_errors(a);
    assert_says(
        &a.reply_body,
        &[
            "Registered Aretha Holly",
            "America/New_York",
            "Not linked to this registration: old@host.edu, other@host.bitnet",
            "Not a field of the registration form, so not registered: favourite",
        ],
    );
    let a = no_errors(table.mail(
        "east@players.test",
        "REGISTER\nName: East\nTimezone: GMT+1\nEND\n",
    ));
    // njudge's GMT+1 is east of Greenwich: IANA's Etc/GMT-1.
    assert_says(&a.reply_body, &["Etc/GMT-1"]);
    one_error(
        table.mail(
            "x@players.test",
            "REGISTER\nName: X\nTimezone: Martian\nEND\n",
        ),
        "unknown time zone",
    );
    // Registered from an address the form does not list: refused, as before.
    one_error(
        table.mail(
            "y@players.test",
            "REGISTER\nName: Y\nEmail: z@players.test\nEND\n",
        ),
        "is not the address this mail came from",
    );
}

// ----- preferences -----------------------------------------------------------

#[test]
fn signon_options_after_the_variant_must_describe_the_game() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    forming(&mut table, "opts", "standard nmr");
    let p = "newcomer@players.test";
    one_error(
        table.mail(p, "SIGNON ?opts pw-new standard gunboat\n"),
        "this judge plays no gunboat games",
    );
    one_error(
        table.mail(p, "SIGNON ?opts pw-new standard nonmr\n"),
        "opts does not have no NMR (\"nonmr\"): LIST opts shows its settings",
    );
    one_error(
        table.mail(p, "SIGNON ?opts pw-new standard blind\n"),
        "\"blind\" is not an option this judge knows",
    );
    assert!(players_of(&mut table, "opts").is_empty());
    let a = no_errors(table.mail(p, "SIGNON ?opts pw-new standard NMR white dias\n"));
    assert_says(&a.reply_body, &["You have joined opts"]);
    assert_eq!(players_of(&mut table, "opts"), vec![p.to_string()]);
}

#[test]
fn set_preference_star_draws_a_power_by_lot_first_in_prfboth_games() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    forming(&mut table, "lists", "");
    let p = "star@players.test";
    no_errors(table.mail(p, "SIGNON ?lists pw-star\n"));
    one_error(
        table.mail(p, "SIGNON ?lists pw-star\nSET PREFERENCE *\n"),
        "assigns powers by the players' lists (PRFLIST)",
    );
    forming(&mut table, "both", "standard prfboth");
    let a = no_errors(table.mail(p, "SIGNON ?both pw-star\nSET PREFERENCE *\n"));
    assert_says(
        &a.reply_body,
        &["drawn by lot, before the other players' lists"],
    );
    // Six others all want France first.
    for i in 1..=6 {
        let q = format!("list{i}@players.test");
        no_errors(table.mail(
            &q,
            &format!("SIGNON ?both pw-list{i}\nSET PREFERENCE FEGRTAI\n"),
        ));
    }
    table.game = "both".into();
    let s = table.state();
    assert_eq!(s.status, legate::game::model::Status::Active);
    let first = &s.draws[0];
    assert_eq!(first.purpose, "any power for star@players.test");
    assert_eq!(first.candidates.len(), 7);
    let star = s.members.iter().find(|m| m.address == p).unwrap();
    assert_eq!(star.power.as_deref(), Some(first.winner()));
    // France went to the star player if drawn, else to one of the lists.
    let france = s.player_of("France").map(|m| m.address.clone());
    assert!(france.is_some());
}

#[test]
fn set_pref_alone_clears_the_list_and_prfrand_games_take_no_list() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    forming(&mut table, "lists", "");
    let p = "pref@players.test";
    no_errors(table.mail(p, "SIGNON ?lists pw-pref\nSET PREF EFG\n"));
    table.game = "lists".into();
    let prefs = |table: &mut Table| {
        let s = table.state();
        s.members
            .iter()
            .find(|m| m.address == p)
            .unwrap()
            .preferences
            .clone()
    };
    assert_eq!(prefs(&mut table).len(), 3);
    let a = no_errors(table.mail(p, "SIGNON ?lists pw-pref\nSET PREFERENCE\n"));
    assert_says(&a.reply_body, &["Preference list cleared"]);
    assert!(prefs(&mut table).is_empty());
    forming(&mut table, "lots", "standard prfrand");
    one_error(
        table.mail(p, "SIGNON ?lots pw-pref\nSET PREFERENCE EFG\n"),
        "assigns every power by lot (PRFRAND)",
    );
    let a = no_errors(table.mail(p, "SIGNON ?lots pw-pref\nSET PREFERENCE *\n"));
    assert_says(&a.reply_body, &["every power by lot"]);
}

#[test]
fn get_map_lists_the_board_and_get_rules_the_house_rules() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    let a = no_errors(table.mail("anyone@players.test", "GET map\n"));
    assert_says(
        &a.reply_body,
        &[
            "The Standard map",
            "stp  St Petersburg (coast, supply centre of Russia), coasts stp/nc stp/sc",
            "army to: fin lvn mos nwy",
            "fleet from stp/sc to: bot fin lvn",
            "swi  Switzerland (impassable)",
        ],
    );
    // njudge's per-variant files.
    let a = no_errors(table.mail("anyone@players.test", "GET map.masters\nGET info.masters\n"));
    assert_says(
        &a.reply_body,
        &["supply centre of Rumania", "Masters Rules"],
    );
    one_error(
        table.mail("anyone@players.test", "GET map.klingon\n"),
        "there is no variant \"klingon\"",
    );
    let a = no_errors(table.mail("anyone@players.test", "GET rules\n"));
    assert_says(
        &a.reply_body,
        &["House rules", "SET RULES 2023 | 2000 | 1971", "Szykman"],
    );
    // In a Masters game, the board with its minor powers.
    forming(&mut table, "mrmap", "masters");
    no_errors(table.mail("p@players.test", "SIGNON ?mrmap pw-p\n"));
    let a = no_errors(table.mail("p@players.test", "SIGNON ?mrmap pw-p\nGET map\n"));
    assert_says(&a.reply_body, &["supply centre of Rumania"]);
}

#[test]
fn preferences_in_initials_work_in_masters_games_with_minor_powers() {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    forming(&mut table, "mrgame", "masters");
    let p = "pref@players.test";
    let a = no_errors(table.mail(
        p,
        "SIGNON ?mrgame pw-pref masters\nSET PREFERENCE E[FGR][TAI]\n",
    ));
    assert_says(
        &a.reply_body,
        &["Preferences recorded: England, France=Germany=Russia, Turkey=Austria=Italy"],
    );
    let q = "pref2@players.test";
    let a = no_errors(table.mail(q, "SIGNON ?mrgame pw-pref2\nSET PREFERENCE RTGAEFI\n"));
    assert_says(
        &a.reply_body,
        &["Preferences recorded: Russia, Turkey, Germany"],
    );
}

// ----- notices ---------------------------------------------------------------

#[test]
fn the_start_tells_each_player_their_power_and_shows_the_opening_position() {
    let mut table = table();
    let french = table.players["France"].clone();
    let start = mails(&mut table, &french, "Game starting", 0);
    assert_eq!(start.len(), 1);
    assert_says(
        &start[0],
        &[
            "You are France in habits.",
            "The opening position:",
            "Supply centers:",
        ],
    );
    let master = table.master.clone();
    let start = mails(&mut table, &master, "Game starting", 0);
    assert!(!start[0].contains("You are"), "{}", start[0]);
}
