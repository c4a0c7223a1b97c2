//! Sign-ons and passwords through the grammar into the engine: what a reply
//! echoes, which sign-on a refusal points to, and how wrong passwords are
//! counted and limited per game.

use crate::engine_common;

use chrono::Duration;
use engine_common::*;

fn events(table: &mut Table, kind: &str) -> Vec<legate::store::Event> {
    let game = table.game.clone();
    table
        .engine
        .store()
        .transaction(|tx| {
            let id = tx.game_by_name(&game)?.expect("game").id;
            tx.game_events(id)
        })
        .expect("events")
        .into_iter()
        .filter(|e| e.kind == kind)
        .collect()
}

#[test]
fn a_password_is_never_echoed_even_when_its_line_cannot_be_read() {
    let mut table = Table::started("echo", t("2026-02-02T10:00:00Z"));
    let fr = address("France");
    let cases = [
        // A sign-on with words too many, after a good one.
        "SIGNON Fecho pw-france\nSIGNON Fecho s3cretA extra\n",
        // A misspelt command word.
        "SIGNN Fecho s3cretB\nA Par-Bur\n",
        // Password changes that cannot be read.
        "SIGNON Fecho pw-france\nSET PASSWORD s3cretC s3cretD\nSET PASWORD s3cretE\n",
        // A game creation that cannot be read.
        "CREATE ?other s3cretF standard extra words\nCREATE ?x/y s3cretG\n",
        "OBSERVE echo s3cretH more\n",
        // A registration carries a password too.
        "REGISTER\nname: France Player\npassword: s3cretI\nEND\n",
    ];
    for body in cases {
        let a = table.mail(&fr, body);
        for secret in [
            "s3cretA", "s3cretB", "s3cretC", "s3cretD", "s3cretE", "s3cretF", "s3cretG", "s3cretH",
            "s3cretI",
        ] {
            assert!(
                !a.reply_body.contains(secret),
                "{secret} echoed for\n{body}\n---\n{}",
                a.reply_body
            );
        }
    }
    // Nor in anything else the judge queued.
    for m in table.outbox() {
        assert!(!m.body.contains("s3cret"), "{}", m.body);
    }
}

#[test]
fn a_refusal_points_to_the_sign_on_that_was_refused() {
    let mut table = Table::started("lines", t("2026-02-02T10:00:00Z"));
    let fr = address("France");
    // A refused sign-on on line 1, an unreadable one on line 3: the order on
    // line 4 is refused because of line 3 (the rule of blocks).
    let a = table.mail(
        &fr,
        "SIGNON Flines nope\nA Par-Bur\nSIGNON Flines pw-france standard extra\nA Mar-Pie\n",
    );
    assert!(
        a.reply_body
            .contains("Error (line 4): not applied because line 3 was refused"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body.contains("Error (line 2): orders need a SIGNON as a power of a game; the SIGNON on line 1 was refused"),
        "{}",
        a.reply_body
    );
    // After a good sign-on, an unreadable one ends it: the order after it is not
    // applied for the first.
    let a = table.mail(
        &fr,
        "SIGNON Flines pw-france\nA Par-Bur\nSIGNON Flines pw-france standard extra\nA Mar-Pie\n",
    );
    assert!(
        a.reply_body.contains("Accepted: A PAR - BUR"),
        "{}",
        a.reply_body
    );
    assert!(
        a.reply_body
            .contains("Error (line 4): not applied because line 3 was refused"),
        "{}",
        a.reply_body
    );
    assert!(!a.reply_body.contains("A MAR - PIE"), "{}", a.reply_body);
    // The order before the unreadable line is answered before it.
    let accepted = a.reply_body.find("Accepted: A PAR - BUR").unwrap();
    let unreadable = a.reply_body.find("Error (line 3)").unwrap();
    assert!(accepted < unreadable, "{}", a.reply_body);
}

#[test]
fn wrong_passwords_from_many_addresses_lock_the_seat_for_every_address_and_the_master_is_told_once()
{
    let mut table = Table::started("vault", t("2026-02-02T10:00:00Z"));
    let limit = legate::game::session::GUESS_LIMIT;
    for i in 0..limit {
        let a = table.mail(
            &format!("guesser{i}@elsewhere.test"),
            &format!("SIGNON Fvault guess{i}\nA Par-Bur\n"),
        );
        assert!(a.reply_body.contains("wrong password"), "{}", a.reply_body);
        table.advance(Duration::minutes(1));
    }
    assert_eq!(events(&mut table, "password.refused").len(), limit);
    let to_master = |table: &mut Table| {
        table
            .outbox()
            .into_iter()
            .filter(|m| {
                m.recipients == vec![table.master.clone()] && m.subject.contains("Wrong passwords")
            })
            .count()
    };
    assert_eq!(to_master(&mut table), 1, "the master hears of it");

    // The right password is now refused unread, from another address and from
    // the seat's own (anyone can write it in From:); nothing in the mail applies.
    for from in ["another@elsewhere.test".to_string(), address("France")] {
        let a = table.mail(
            &from,
            "SIGNON Fvault pw-france\nA Par-Bur\nSIGNON Evault pw-england\nF Lon-Nth\n",
        );
        assert!(a.reply_body.contains("is locked until"), "{}", a.reply_body);
        assert!(
            a.reply_body.contains("Nothing in this mail was applied"),
            "{}",
            a.reply_body
        );
        assert!(!a.reply_body.contains("Accepted"), "{}", a.reply_body);
    }
    assert!(
        table.state().orders.values().all(Vec::is_empty),
        "no order stored"
    );
    assert_eq!(events(&mut table, "password.locked_out").len(), 2);
    // Other seats are not locked.
    let a = table.mail(&address("Italy"), "SIGNON Ivault pw-italy\nA Ven-Pie\n");
    assert!(
        a.reply_body.contains("Accepted: A VEN - PIE"),
        "{}",
        a.reply_body
    );
    // More wrong passwords: logged, the master is not told again.
    let a = table.mail(&address("Italy"), "SIGNON Ivault wrong\n");
    assert!(a.reply_body.contains("wrong password"), "{}", a.reply_body);
    assert_eq!(events(&mut table, "password.refused").len(), limit + 1);
    assert_eq!(to_master(&mut table), 1, "told once");

    // An hour after the first guesses the window has moved on.
    table.advance(Duration::minutes(60));
    let a = table.mail(
        "another@elsewhere.test",
        "SIGNON Fvault pw-france\nA Par-Bur\n",
    );
    assert!(
        a.reply_body.contains("Accepted: A PAR - BUR"),
        "{}",
        a.reply_body
    );
}
