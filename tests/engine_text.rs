//! Mail bodies as players write them, through the grammar into the engine;
//! and a stored mail applied only once.

use crate::engine_common;

use engine_common::*;
use legate::game::Request;
use legate::game::model::Status;
use legate::store::InboundStatus;

fn join_all(table: &mut Table, game: &str) {
    for power in POWERS {
        let addr = address(power);
        let body = format!(
            "Hello judge!\n\nSIGNON ?{game} {}\nSET PREFERENCE {}\n",
            password(&addr),
            &power[..1]
        );
        let a = table
            .engine
            .apply_text(&addr, &body, None, table.now)
            .unwrap();
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        table.players.insert(power.to_string(), addr);
    }
}

#[test]
fn a_game_created_joined_and_ordered_by_mail_text() {
    let mut table = Table::empty(t("2026-02-02T10:00:00Z"));
    table.game = "textual".into();
    let a = table
        .engine
        .apply_text("gm@judge.test", "CREATE ?textual gm-pw\n", None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    join_all(&mut table, "textual");
    assert_eq!(table.state().status, Status::Active);
    assert_eq!(
        table.state().player_of("France").unwrap().address,
        address("France")
    );

    let body = "SIGNON Ftextual pw-france\nA Par-Bur\nF Brest -> Mid-Atlantic Ocean\nArmy Marseilles holds\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(a.reply_body.contains("A PAR - BUR"), "{}", a.reply_body);
    assert!(a.reply_body.contains("F BRE - MAO"));

    // A typo alone: a line and column, a suggestion, and nothing changed.
    let before = table.raw_state();
    let body = "SIGNON Ftextual pw-france\nA Parris - Pic\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("line 2"), "{}", a.reply_body);
    assert!(a.reply_body.contains("Parris"), "{}", a.reply_body);
    assert_eq!(table.raw_state(), before);
    // The reply still shows the orders in force.
    assert!(a.reply_body.contains("A PAR - BUR"), "{}", a.reply_body);

    // The master processes; the deadline is shown in the reply.
    let a = table
        .engine
        .apply_text(
            "gm@judge.test",
            "SIGNON Mtextual gm-pw\nPROCESS\n",
            None,
            table.now,
        )
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(table.phase().to_string(), "F1901M");
    assert!(
        a.reply_body.contains(":: Deadline: F1901M"),
        "{}",
        a.reply_body
    );
}

/// Orders stored for a phase, as (power, canonical text).
fn stored_orders(table: &mut Table, phase: &str) -> Vec<(String, String)> {
    let name = table.game.clone();
    table
        .engine
        .store()
        .transaction(|tx| {
            let g = tx.game_by_name(&name)?.expect("game");
            tx.orders(g.id, phase, None)
        })
        .unwrap()
        .into_iter()
        .map(|o| (o.power, o.canonical.unwrap_or_default()))
        .collect()
}

/// njudge practice: one typo does not lose the rest of the mail.
#[test]
fn five_good_orders_and_a_typo_store_the_five_and_report_the_one() {
    let mut table = Table::empty(t("2026-02-02T10:00:00Z"));
    table.game = "typo".into();
    let a = table
        .engine
        .apply_text("gm@judge.test", "CREATE ?typo gm-pw\n", None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    join_all(&mut table, "typo");
    let body = "SIGNON Ftypo pw-france\nA Par-Bur\nF Bre-Mao\nA Marseilles - Spian\nA Mar-Spa\n\
                PHASE Fall 1901 Movement\nA Bur-Mun\nF Mao-Por\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_subject.starts_with("[Error Flag] "),
        "{}",
        a.reply_subject
    );
    assert!(a.reply_body.contains("line 4"), "{}", a.reply_body);
    assert!(a.reply_body.contains("\"Spian\""), "{}", a.reply_body);
    assert!(
        a.reply_body.contains("did you mean Spain"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body
            .contains("1 line(s) marked Error above were not applied")
    );
    let s = table.state();
    let now: Vec<String> = s.orders["France"]
        .iter()
        .map(|o| format!("{o:?}"))
        .collect();
    assert_eq!(now.len(), 3, "{now:?}");
    assert_eq!(s.future_orders.len(), 1);
    assert_eq!(s.future_orders[0].orders.len(), 2);
    let stored: Vec<String> = stored_orders(&mut table, "S1901M")
        .into_iter()
        .chain(stored_orders(&mut table, "F1901M"))
        .map(|(_, o)| o)
        .collect();
    assert_eq!(
        stored,
        [
            "A PAR - BUR",
            "F BRE - MAO",
            "A MAR - SPA",
            "A BUR - MUN",
            "F MAO - POR"
        ]
    );
    // The reply shows the whole order set in force.
    assert!(
        a.reply_body.contains("Current orders for France"),
        "{}",
        a.reply_body
    );
    assert!(a.reply_body.contains("  A MAR - SPA"), "{}", a.reply_body);

    // A refused SIGNON: nothing after it that needs the sign-on applies.
    let before = table.raw_state();
    let body = "SIGNON Ftypo wrong-password\nA Par-Pic\nLIST typo\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("wrong password for France"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body.contains("the SIGNON on line 1 was refused"),
        "{}",
        a.reply_body
    );
    // LIST needs no sign-on: it is still answered.
    assert!(a.reply_body.contains("Game typo:"), "{}", a.reply_body);
    assert_eq!(table.raw_state(), before);
}

#[test]
fn a_stored_mail_is_applied_once() {
    let mut table = Table::empty(t("2026-02-02T10:00:00Z"));
    table.game = "once".into();
    let now = table.now;
    let id = table
        .engine
        .store()
        .transaction(|tx| tx.insert_inbound(b"raw mail", Some("<a@b>"), "gm@judge.test", now))
        .unwrap()
        .id();
    let first = table
        .engine
        .apply_text("gm@judge.test", "CREATE ?once gm-pw\n", Some(id), now)
        .unwrap();
    assert!(!first.duplicate);
    assert_eq!(first.errors, 0, "{}", first.reply_body);
    let second = table
        .engine
        .apply_text("gm@judge.test", "CREATE ?once gm-pw\n", Some(id), now)
        .unwrap();
    assert!(second.duplicate);
    let (replies, status) = table
        .engine
        .store()
        .transaction(|tx| {
            Ok::<_, legate::store::StoreError>((
                tx.outbox_replies_to(id)?.len(),
                tx.inbound_status(id)?,
            ))
        })
        .unwrap();
    assert_eq!(replies, 1);
    assert_eq!(status, InboundStatus::Processed);
    // A refused mail is also answered once and marked processed.
    let id2 = table
        .engine
        .store()
        .transaction(|tx| tx.insert_inbound(b"raw mail 2", Some("<c@d>"), "x@y.test", now))
        .unwrap()
        .id();
    let a = table
        .engine
        .apply_text("x@y.test", "SIGNON Fnosuch pw\n", Some(id2), now)
        .unwrap();
    assert_eq!(a.errors, 1);
    let again = table
        .engine
        .apply_text("x@y.test", "SIGNON Fnosuch pw\n", Some(id2), now)
        .unwrap();
    assert!(again.duplicate);
    let replies = table
        .engine
        .store()
        .transaction(|tx| tx.outbox_replies_to(id2))
        .unwrap();
    assert_eq!(replies.len(), 1);
    assert!(replies[0].body.contains("there is no game named nosuch"));
}

#[test]
fn press_reaches_the_powers_it_is_for() {
    let mut table = Table::empty(t("2026-02-02T10:00:00Z"));
    table.game = "gossip".into();
    table
        .engine
        .apply_text("gm@judge.test", "CREATE ?gossip gm-pw\n", None, table.now)
        .unwrap();
    join_all(&mut table, "gossip");
    let before = table.outbox().len();
    let body =
        "SIGNON Fgossip pw-france\nPRESS TO ENGLAND\nShall we share the Channel?\nENDPRESS\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let sent: Vec<_> = table
        .outbox()
        .into_iter()
        .skip(before)
        .filter(|m| m.subject.contains("Press from"))
        .collect();
    let to: Vec<String> = sent.iter().flat_map(|m| m.recipients.clone()).collect();
    assert_eq!(to.len(), 2, "{to:?}");
    assert!(to.contains(&address("England")) && to.contains(&"gm@judge.test".to_string()));
    assert!(!to.contains(&address("Germany")));
    assert!(
        sent.iter()
            .all(|m| m.body.contains("Shall we share the Channel?")
                && m.body.contains("Press from France"))
    );
    // Grey press is refused in a white-press game, and nothing is sent.
    let count = table.outbox().len();
    let body = "SIGNON Fgossip pw-france\nPRESS TO ALL GREY\nboo\nENDPRESS\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("only white"), "{}", a.reply_body);
    assert_eq!(table.outbox().len(), count + 1, "only the reply");
}

#[test]
fn the_master_can_become_a_power_eject_a_player_and_set_grace() {
    let mut table = Table::empty(t("2026-02-02T10:00:00Z"));
    table.game = "mastery".into();
    table
        .engine
        .apply_text("gm@judge.test", "CREATE ?mastery gm-pw\n", None, table.now)
        .unwrap();
    join_all(&mut table, "mastery");
    let body = "SIGNON Mmastery gm-pw\nBECOME ITALY\nA Ven - Tyr\n";
    let a = table
        .engine
        .apply_text("gm@judge.test", body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(table.state().orders["Italy"].len(), 1);
    let deadline = table.deadline();
    let grace = (deadline + chrono::Duration::hours(48))
        .format("%Y-%m-%d %H:%M")
        .to_string();
    let body = format!(
        "SIGNON Mmastery gm-pw\nSET GRACE {grace} UTC\nEJECT {}\n",
        address("Turkey")
    );
    let a = table
        .engine
        .apply_text("gm@judge.test", &body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = table.state();
    assert_eq!(s.clock.grace, Some(deadline + chrono::Duration::hours(48)));
    assert!(s.player_of("Turkey").is_none());
    // A player cannot do what only the master may.
    let a = table
        .engine
        .apply_text(
            &address("France"),
            "SIGNON Fmastery pw-france\nBECOME ITALY\n",
            None,
            table.now,
        )
        .unwrap();
    assert_eq!(a.errors, 1);
    assert!(
        a.reply_body.contains("only the master of mastery"),
        "{}",
        a.reply_body
    );
}

#[test]
fn a_player_changes_the_password() {
    let mut table = Table::empty(t("2026-02-02T10:00:00Z"));
    table.game = "secret".into();
    table
        .engine
        .apply_text("gm@judge.test", "CREATE ?secret gm-pw\n", None, table.now)
        .unwrap();
    join_all(&mut table, "secret");
    let a = table
        .engine
        .apply_text(
            &address("Austria"),
            "SIGNON Asecret pw-austria\nSET PASSWORD hunter22\n",
            None,
            table.now,
        )
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        !a.reply_body.contains("hunter22"),
        "passwords are not echoed"
    );
    let old = table
        .engine
        .apply_text(
            &address("Austria"),
            "SIGNON Asecret pw-austria\n",
            None,
            table.now,
        )
        .unwrap();
    assert!(
        old.reply_body
            .contains("wrong password for Austria in secret"),
        "{}",
        old.reply_body
    );
    let new = table
        .engine
        .apply_text(
            &address("Austria"),
            "SIGNON Asecret hunter22\n",
            None,
            table.now,
        )
        .unwrap();
    assert_eq!(new.errors, 0, "{}", new.reply_body);
}

/// Retreat preferences and a conditional build given with the movement
/// orders, applied when the retreat and adjustment phases begin.
#[test]
fn conditional_retreat_and_build_given_with_movement_orders_apply_later() {
    let mut table = Table::started("cond", t("2026-02-02T10:00:00Z"));
    assert_eq!(
        table
            .orders("France", &["A MAR - BUR", "F BRE - MAO", "A PAR H"])
            .errors,
        0
    );
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
    let body = "SIGNON Fcond pw-france\n\
                F Mao - Por\nA Bur H\nA Par H\n\
                IF F Por\nBUILD F Bre\nELSE\nBUILD A Mar\nENDIF\n\
                PHASE Fall 1901 Retreat\n\
                IF F Mao\nA Bur - Pic\nELSE\nA Bur - Gas\nENDIF\n";
    let a = table
        .engine
        .apply_text(&address("France"), body, None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body
            .contains("Stored for W1901A, under the IF on line 5: BUILD F BRE"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body
            .contains("Stored for F1901R, under the ELSE of the IF on line 11: A BUR - GAS"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body
            .contains("Conditional orders for W1901A: IF F POR"),
        "{}",
        a.reply_body
    );
    assert_eq!(table.state().conditional.len(), 2);
    // Processing the movement runs on through the retreat and the builds:
    // France's stored orders complete both phases.
    let a = table.as_master(vec![Request::Process]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(a.processed, 3);
    assert_eq!(table.phase().to_string(), "S1902M");
    let phases = table.phases();
    let orders_of = |name: &str| {
        phases
            .iter()
            .find(|p| p.phase == name)
            .map(|p| p.orders.clone())
            .unwrap_or_default()
    };
    // F MAO had moved to Portugal: the ELSE retreat applied, not Picardy.
    assert!(
        orders_of("F1901R").contains("GAS"),
        "{}",
        orders_of("F1901R")
    );
    assert!(
        !orders_of("F1901R").contains("PIC"),
        "{}",
        orders_of("F1901R")
    );
    // F POR stood: the IF build applied, not the ELSE one.
    assert!(
        orders_of("W1901A").contains("BRE"),
        "{}",
        orders_of("W1901A")
    );
    assert!(
        !orders_of("W1901A").contains("MAR"),
        "{}",
        orders_of("W1901A")
    );
    let s = table.state();
    let mut france: Vec<String> = s
        .position
        .unwrap()
        .units
        .iter()
        .filter(|u| u.power == "France")
        .map(|u| format!("{} {}", u.kind, u.at))
        .collect();
    france.sort();
    assert_eq!(france, ["A GAS", "A PAR", "F BRE", "F POR"]);
    assert!(s.conditional.is_empty());
}

#[test]
fn get_register_diary_set_address_predict_history_and_set_variant() {
    let mut table = Table::started("misc", t("2026-02-02T10:00:00Z"));
    let france = address("France");

    // GET: a help text, or the list of topics.
    let a = table.mail(&france, "GET orders\nHELP if\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(a.reply_body.contains("F Mao - Spa/nc"), "{}", a.reply_body);
    assert!(a.reply_body.contains("IF F Por"), "{}", a.reply_body);
    let a = table.mail(&france, "GET regulations\n");
    assert_eq!(a.errors, 1);
    assert!(
        a.reply_body.contains("the topics are: index, orders"),
        "{}",
        a.reply_body
    );

    // REGISTER: the time zone applies to the account (a player's account
    // changes after a sign-on with the seat's password); a foreign e-mail is refused.
    let a = table.mail(
        &france,
        "SIGNON Fmisc pw-france\nREGISTER\nname: Ann Smith\ne-mail: france@players.test\ntimezone: Asia/Tokyo\nEND\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Registered Ann Smith"),
        "{}",
        a.reply_body
    );
    let zone = table
        .engine
        .store()
        .transaction(|tx| tx.account_by_address(&france))
        .unwrap()
        .unwrap()
        .time_zone;
    assert_eq!(zone, "Asia/Tokyo");
    let a = table.mail(&france, "REGISTER\nname: Eve\nemail: ann@else.test\nEND\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body
            .contains("is not the address this mail came from")
    );

    // DIARY: kept with the game, private, listed, read, deleted.
    let a = table.mail(
        &france,
        "SIGNON Fmisc pw-france\nDIARY\nGermany cannot be trusted.\nENDPRESS\n\
         DIARY\nSecond thought.\nENDPRESS\nDIARY DELETE 2\nDIARY LIST\nDIARY READ 1\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Your diary in misc: 1 entry."),
        "{}",
        a.reply_body
    );
    assert!(a.reply_body.contains("Germany cannot be trusted."));
    let s = table.state();
    assert_eq!(s.diary.len(), 1);
    assert_eq!(s.diary[0].power.as_deref(), Some("France"));
    let a = table.mail(
        &address("Germany"),
        "SIGNON Gmisc pw-germany\nDIARY READ 1\n",
    );
    assert_eq!(a.errors, 1, "another player's diary stays closed");

    // PREDICT (master): the would-be results, nothing stored.
    assert_eq!(table.orders("France", &["A PAR - BUR"]).errors, 0);
    let before = table.raw_state();
    let a = table.mail(
        "gm@judge.test",
        "SIGNON Mmisc gm-pw\nPREDICT\nSET VARIANT chaos\n",
    );
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Prediction for S1901M"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body.contains("France: Army Paris -> Burgundy."),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body
            .contains("this judge runs only these variants: standard"),
        "{}",
        a.reply_body
    );
    assert_eq!(table.raw_state(), before);
    assert!(table.phases().is_empty());

    // HISTORY FROM/TO: only the phases processed in that span.
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    table.advance(chrono::Duration::days(10));
    assert_eq!(table.as_master(vec![Request::Process]).errors, 0);
    let a = table.mail(&france, "HISTORY misc FROM 2026-02-05\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(a.reply_body.contains("Fall of 1901"), "{}", a.reply_body);
    assert!(!a.reply_body.contains("Spring of 1901"), "{}", a.reply_body);
    let a = table.mail(&france, "HISTORY misc TO 2026-02-01\n");
    assert!(
        a.reply_body.contains("No phase was processed"),
        "{}",
        a.reply_body
    );

    // SET ADDRESS: the seat's mail goes elsewhere from now on.
    let a = table.mail(
        &france,
        "SIGNON Fmisc pw-france\nSET ADDRESS ann@new.test\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(
        table.state().player_of("France").unwrap().address,
        "ann@new.test"
    );

    // At the end the diary goes back to the address that wrote it.
    assert_eq!(table.as_master(vec![Request::Terminate]).errors, 0);
    let diaries: Vec<_> = table
        .outbox()
        .into_iter()
        .filter(|m| m.subject.ends_with("Diary"))
        .collect();
    assert_eq!(diaries.len(), 1);
    assert_eq!(diaries[0].recipients, ["france@players.test"]);
    assert!(diaries[0].body.contains("Germany cannot be trusted."));
    assert!(!diaries[0].body.contains("Second thought."));
}
