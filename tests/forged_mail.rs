//! Mail with a forged From: through the judge's real intake path (a Maildir
//! inbox, a SQLite file, `run_once`, a Maildir outbox): whatever a forger
//! sends in a player's name, the player's own mail, signed with the right
//! password, is read and answered, and the player's seat and account stay as
//! they were. See docs/hardening.md, "Forged mail".

use crate::hardening_common;

use chrono::Duration;
use hardening_common::*;

fn orders_of(judge: &Judge, power: &str) -> i64 {
    judge.count(&format!(
        "SELECT count(*) FROM orders WHERE power = '{power}'"
    ))
}

#[test]
fn a_flood_of_forged_mail_does_not_hold_up_the_players_signed_orders() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "flood", now);
    let france = POWERS[2].1;
    // 31 forged mails in France's name: with France's join (which proved no
    // password either), two more than the hourly cap.
    for i in 0..31 {
        judge.drop_mail(france, &format!("forged{i}@x"), "help", "HELP");
    }
    let report = judge.once(now + Duration::minutes(5));
    assert_eq!(report.intake.applied, 29, "{report:?}");
    assert_eq!(report.intake.rate_limited, 2, "{report:?}");
    // Then France's own orders, signed with the password.
    judge.drop_mail(
        france,
        "real@x",
        "orders",
        "SIGNON Fflood pw-F\nA Par - Bur\nF Bre - Mao",
    );
    let report = judge.once(now + Duration::minutes(10));
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert_eq!(orders_of(&judge, "France"), 2, "the orders are stored");
    let answers: Vec<Sent> = judge
        .sent_to(france)
        .into_iter()
        .filter(|s| s.text.contains("Accepted: A PAR - BUR"))
        .collect();
    assert_eq!(answers.len(), 1, "and answered");
    // More forged mail after it is still capped, and unsigned mail with a
    // wrong password is not let through by the signed one.
    judge.drop_mail(france, "forged-late@x", "help", "HELP");
    judge.drop_mail(
        france,
        "forged-pw@x",
        "x",
        "SIGNON Fflood guess\nA Par - Pic",
    );
    let report = judge.once(now + Duration::minutes(11));
    assert_eq!(report.intake.rate_limited, 2, "{report:?}");
    assert_eq!(orders_of(&judge, "France"), 2);
    let status: String = judge
        .sql()
        .query_row(
            "SELECT outcome FROM inbound_mails WHERE message_id = 'forged-pw@x'",
            [],
            |r| r.get(0),
        )
        .expect("stored");
    assert_eq!(status, "rate limited", "kept, with why");
    // The wrong password still counts towards the seat's lock.
    assert_eq!(
        judge.count("SELECT count(*) FROM events WHERE kind = 'password.refused'"),
        1
    );
}

#[test]
fn guesses_during_a_lock_apply_nothing_whatever_the_password() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "guess", now);
    let (france, england) = (POWERS[2].1, POWERS[1].1);
    let limit = legate::game::session::GUESS_LIMIT;
    // A guesser writing France's own address, a PRESS TO in each guess to see
    // which one is right.
    let guess =
        |pw: &str| format!("SIGNON Fguess {pw}\nPRESS TO E\nright: {pw}\nENDPRESS\nA Par - Pic");
    for i in 0..limit {
        judge.drop_mail(
            france,
            &format!("g{i}@x"),
            "x",
            &guess(&format!("wrong{i}")),
        );
    }
    judge.drop_mail(france, "g-right@x", "x", &guess("pw-F"));
    let before: Vec<String> = judge.sent().into_iter().map(|s| s.message_id).collect();
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, limit + 1, "{report:?}");
    let press: Vec<Sent> = judge
        .sent_to(england)
        .into_iter()
        .filter(|s| !before.contains(&s.message_id))
        .collect();
    assert!(
        press.is_empty(),
        "no press went out: {:#?}",
        press
            .iter()
            .map(|s| (&s.subject, &s.text))
            .collect::<Vec<_>>()
    );
    assert_eq!(orders_of(&judge, "France"), 0, "no order stored");
    let last = judge
        .sent_to(france)
        .into_iter()
        .find(|s| s.text.contains("is locked until"))
        .expect("the locked mail is answered");
    assert!(
        last.text.contains("Nothing in this mail was applied"),
        "{}",
        last.text
    );
    assert!(!last.text.contains("Signed on"), "{}", last.text);
    // The master was told of the guessing.
    assert!(
        judge
            .sent_to(GM)
            .iter()
            .any(|s| s.subject.contains("Wrong passwords"))
    );
    // An hour later the seat's player signs on as always.
    judge.drop_mail(france, "later@x", "x", "SIGNON Fguess pw-F\nA Par - Bur");
    judge.once(now + Duration::minutes(62));
    assert_eq!(orders_of(&judge, "France"), 1);
}

/// The text of the answer to the mail with Message-ID `id`.
fn account_zone(judge: &Judge, addr: &str) -> Option<String> {
    judge
        .sql()
        .query_row(
            "SELECT time_zone FROM accounts WHERE address = ?1 COLLATE NOCASE",
            [addr],
            |r| r.get(0),
        )
        .ok()
}

#[test]
fn forged_account_changes_change_nothing_and_say_why() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "acct", now);
    let france = POWERS[2].1;
    let zone_before = account_zone(&judge, france);
    // In France's name, without a password: a time zone, a registration, and
    // (with a sign-on that fails) a move of the seat's mail.
    judge.drop_mail(france, "f-tz@x", "x", "SET TIMEZONE Pacific/Kiritimati");
    judge.drop_mail(
        france,
        "f-reg@x",
        "x",
        "REGISTER\nname: Mallory\npassword: taken-over\ntimezone: Asia/Tokyo\nEND",
    );
    judge.drop_mail(
        france,
        "f-addr@x",
        "x",
        "SIGNON Facct guess\nSET ADDRESS thief@elsewhere.test",
    );
    // An observer place made in France's name proves nothing either.
    judge.drop_mail(
        france,
        "f-obs@x",
        "x",
        "OBSERVE acct anything\nSET ADDRESS thief@elsewhere.test",
    );
    judge.once(now + Duration::minutes(1));
    assert_eq!(account_zone(&judge, france), zone_before, "zone unchanged");
    let hash: Option<String> = judge
        .sql()
        .query_row(
            "SELECT password_hash FROM accounts WHERE address = ?1",
            [france],
            |r| r.get(0),
        )
        .expect("account");
    assert!(hash.is_none(), "no account password set");
    let seat: String = judge
        .sql()
        .query_row("SELECT state FROM games WHERE name = 'acct'", [], |r| {
            r.get(0)
        })
        .expect("state");
    assert!(!seat.contains("thief@"), "no seat moved");
    let why = |id: &str| judge.answer_to(france, id).text;
    for id in ["f-tz@x", "f-reg@x"] {
        let text = why(id);
        assert!(
            text.contains("signs on with the password of a seat")
                && text.contains("nothing was changed"),
            "{text}"
        );
    }
    assert!(why("f-obs@x").contains("signs on to it with its password"));

    // The player, with the password, changes the zone and moves the seat; the
    // judge's own address is refused, and the old address hears of the move.
    judge.drop_mail(
        france,
        "real-tz@x",
        "x",
        &format!("SIGNON Facct pw-F\nSET TIMEZONE Asia/Tokyo\nSET ADDRESS {JUDGE}"),
    );
    judge.once(now + Duration::minutes(2));
    assert_eq!(account_zone(&judge, france).as_deref(), Some("Asia/Tokyo"));
    let text = judge.answer_to(france, "real-tz@x").text;
    assert!(text.contains("this judge's own address"), "{text}");
    // From the player's new address, with the password: the seat moves, and
    // the address it leaves is told.
    let new = "new-france@example.test";
    judge.drop_mail(new, "real-move@x", "x", "SIGNON Facct pw-F\nSET ADDRESS");
    judge.once(now + Duration::minutes(3));
    assert!(
        judge
            .answer_to(new, "real-move@x")
            .text
            .contains(&format!("now goes to {new}"))
    );
    assert!(
        judge
            .sent_to(france)
            .iter()
            .any(|s| s.subject.contains("Address changed") && s.text.contains(new))
    );
}

fn lot(judge: &Judge, game: &str) -> (Option<String>, Option<String>) {
    judge
        .sql()
        .query_row(
            "SELECT lot_commitment, lot_secret FROM games WHERE name = ?1",
            [game],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("game")
}

#[test]
fn two_games_created_in_one_mail_have_unrelated_secrets() {
    use sha2::{Digest, Sha256};
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    judge.drop_mail(
        GM,
        "two@x",
        "new",
        "CREATE ?lotone pw-one\nCREATE ?lottwo pw-two\nCREATE ?lotthree pw-three",
    );
    judge.once(now);
    let games: Vec<(Option<String>, Option<String>)> = ["lotone", "lottwo", "lotthree"]
        .iter()
        .map(|g| lot(&judge, g))
        .collect();
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let zero = hex(&[0u8; 32]);
    let clock = hex(&Sha256::digest(now.to_rfc3339().as_bytes()));
    for (i, (commitment, secret)) in games.iter().enumerate() {
        let secret = secret.as_deref().expect("a secret");
        let commitment = commitment.as_deref().expect("a commitment");
        assert_ne!(secret, zero);
        assert_ne!(secret, clock, "not the clock's hash");
        assert_eq!(secret.len(), 64);
        for (other, _) in &games[i + 1..] {
            assert_ne!(Some(commitment), other.as_deref(), "unrelated commitments");
        }
        // Each reveals its own: the commitment is the SHA-256 of the secret.
        let bytes: Vec<u8> = (0..32)
            .map(|k| u8::from_str_radix(&secret[2 * k..2 * k + 2], 16).expect("hex"))
            .collect();
        assert_eq!(hex(&Sha256::digest(&bytes)), commitment);
    }
}

#[test]
fn a_game_without_a_lot_secret_does_not_start_on_a_made_up_one() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    judge.drop_mail(GM, "create@x", "new", "CREATE ?nolot gm-pw");
    judge.once(now);
    judge
        .sql()
        .execute(
            "UPDATE games SET lot_secret = NULL WHERE name = 'nolot'",
            [],
        )
        .expect("take the secret away");
    for (p, addr) in POWERS {
        judge.drop_mail(
            addr,
            &format!("join-{p}@x"),
            "join",
            &format!("SIGNON ?nolot pw-{p}"),
        );
    }
    let report = judge.once(now + Duration::minutes(1));
    // The seventh join would start the game: the engine refuses to draw the
    // powers without the game's secret, and the mail is kept for the operator.
    assert_eq!(report.intake.failed, 1, "{report:?}");
    let status: String = judge
        .sql()
        .query_row("SELECT status FROM games WHERE name = 'nolot'", [], |r| {
            r.get(0)
        })
        .expect("status");
    assert_eq!(status, "forming");
    let outcome: String = judge
        .sql()
        .query_row(
            "SELECT outcome FROM inbound_mails WHERE status = 'failed'",
            [],
            |r| r.get(0),
        )
        .expect("failed mail");
    assert!(outcome.contains("no lot secret"), "{outcome}");
}

#[test]
fn signed_orders_in_bulk_or_list_mail_are_applied_and_nothing_else_is_answered() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "bulk", now);
    let (england, france) = (POWERS[1].1, POWERS[2].1);
    let mail = |from: &str, id: &str, field: &str, body: &str| {
        format!(
            "From: {from}\nTo: {JUDGE}\nSubject: orders\nMessage-ID: <{id}>\n{field}\n\
             Date: Mon, 1 Mar 2027 09:00:00 +0000\n\n{body}\n"
        )
    };
    // A mail client that marks its mail as bulk, with France's signed orders.
    judge.drop_raw(&mail(
        france,
        "bulk1@x",
        "Precedence: bulk",
        "SIGNON Fbulk pw-F\nA Par - Bur",
    ));
    // The same from a list: applied, but the answer would go to the list.
    judge.drop_raw(&mail(
        england,
        "list1@x",
        "List-Id: <dip.lists.example.test>",
        "SIGNON Ebulk pw-E\nF Lon - Nth",
    ));
    // Bulk mail without a sign-on: kept with why, not answered.
    judge.drop_raw(&mail(france, "bulk2@x", "Precedence: bulk", "HELP"));
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, 2, "{report:?}");
    assert_eq!(report.intake.ignored, 1, "{report:?}");
    assert_eq!(orders_of(&judge, "France"), 1);
    assert_eq!(orders_of(&judge, "England"), 1);
    let answer = judge.answer_to(france, "bulk1@x").text;
    assert!(answer.contains("Accepted: A PAR - BUR"), "{answer}");
    let reply = judge
        .sent_to(france)
        .into_iter()
        .find(|s| s.text.contains("Accepted: A PAR - BUR"))
        .expect("reply");
    let raw = String::from_utf8_lossy(&reply.raw);
    assert!(
        raw.contains("Auto-Submitted: auto-replied"),
        "RFC 3834: {raw}"
    );
    assert!(
        !judge
            .sent_to(england)
            .iter()
            .any(|s| s.text.contains("F LON - NTH")),
        "list mail is not answered"
    );
    let kept: Vec<(String, String)> = judge
        .sql()
        .prepare("SELECT message_id, outcome FROM inbound_mails WHERE message_id LIKE '%1@x' OR message_id = 'bulk2@x' ORDER BY message_id")
        .expect("query")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(
        kept,
        vec![
            ("bulk1@x".to_string(), "applied".to_string()),
            (
                "bulk2@x".to_string(),
                "not answered: Precedence: bulk".to_string()
            ),
            ("list1@x".to_string(), "applied".to_string()),
        ]
    );
}

#[test]
fn mail_the_receiving_server_vouches_for_passes_its_seats_lock_and_alone_changes_accounts() {
    let mut judge = Judge::new("authserv_ids = [\"mx.judge.test\"]\n");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "vouch", now);
    let france = POWERS[2].1;
    let vouched = |id: &str, body: &str| {
        format!(
            "Authentication-Results: mx.judge.test;\n\tdkim=pass header.d=example.test header.s=s1;\n\
             \tdmarc=pass (p=reject) header.from=example.test\n\
             From: {france}\nTo: {JUDGE}\nSubject: orders\nMessage-ID: <{id}>\n\
             Date: Mon, 1 Mar 2027 09:00:00 +0000\n\n{body}\n"
        )
    };
    // Someone else's guesses lock France's seat.
    for i in 0..legate::game::session::GUESS_LIMIT {
        judge.drop_mail(
            france,
            &format!("g{i}@x"),
            "x",
            &format!("SIGNON Fvouch wrong{i}"),
        );
    }
    judge.once(now + Duration::minutes(1));
    // Unvouched, even with the right password: locked.
    judge.drop_mail(france, "plain@x", "x", "SIGNON Fvouch pw-F\nA Par - Bur");
    // A sender's own Authentication-Results with a server name the judge does
    // not trust changes nothing.
    judge.drop_raw(
        &vouched("fake@x", "SIGNON Fvouch pw-F\nA Par - Bur")
            .replace("mx.judge.test", "mx.evil.test"),
    );
    judge.once(now + Duration::minutes(2));
    assert_eq!(orders_of(&judge, "France"), 0);
    // Vouched for as France's own: read, lock or not.
    judge.drop_raw(&vouched("dkim@x", "SIGNON Fvouch pw-F\nA Par - Bur"));
    judge.once(now + Duration::minutes(3));
    assert_eq!(orders_of(&judge, "France"), 1);
    assert!(
        judge
            .answer_to(france, "dkim@x")
            .text
            .contains("Accepted: A PAR - BUR")
    );

    // Account settings: not by unvouched mail, even with the password.
    judge.drop_mail(
        POWERS[1].1,
        "tz-plain@x",
        "x",
        "SIGNON Evouch pw-E\nSET TIMEZONE Asia/Tokyo",
    );
    judge.once(now + Duration::minutes(4));
    assert_ne!(
        account_zone(&judge, POWERS[1].1).as_deref(),
        Some("Asia/Tokyo")
    );
    let why = judge.answer_to(POWERS[1].1, "tz-plain@x").text;
    assert!(why.contains("vouches"), "{why}");
    judge.drop_raw(&vouched(
        "tz-vouched@x",
        "SIGNON Fvouch pw-F\nSET TIMEZONE Asia/Tokyo",
    ));
    judge.once(now + Duration::minutes(5));
    assert_eq!(account_zone(&judge, france).as_deref(), Some("Asia/Tokyo"));
}

#[test]
fn guesses_over_the_hourly_cap_are_undone_but_still_lock_the_seat_and_the_master_hears() {
    let mut judge = Judge::new("replies_per_hour = 5\n");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "capped", now);
    let guesser = "guesser@elsewhere.test";
    // The cap is spent first, so every guess is read only to be undone.
    for i in 0..5 {
        judge.drop_mail(guesser, &format!("h{i}@x"), "x", "HELP");
    }
    let limit = legate::game::session::GUESS_LIMIT;
    for i in 0..limit {
        judge.drop_mail(
            guesser,
            &format!("g{i}@x"),
            "x",
            &format!("SIGNON Fcapped wrong{i}\nPRESS TO ALL\nhello\nENDPRESS"),
        );
    }
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, 5, "{report:?}");
    assert_eq!(report.intake.rate_limited, limit, "{report:?}");
    assert_eq!(
        judge.count("SELECT count(*) FROM events WHERE kind = 'password.refused'"),
        limit as i64,
        "every guess counted"
    );
    let told: Vec<Sent> = judge
        .sent_to(GM)
        .into_iter()
        .filter(|s| s.subject.contains("Wrong passwords"))
        .collect();
    assert_eq!(told.len(), 1, "the master hears of the lock once");
    assert_eq!(
        judge.sent_to(guesser).len(),
        6,
        "five answers and one notice"
    );
    // The seat is locked: even the right password, in an unvouched mail, is not read.
    judge.drop_mail(
        POWERS[2].1,
        "right@x",
        "x",
        "SIGNON Fcapped pw-F\nA Par - Bur",
    );
    judge.once(now + Duration::minutes(2));
    assert_eq!(orders_of(&judge, "France"), 0);
}
