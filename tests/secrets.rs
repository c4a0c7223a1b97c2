//! What each player may read: every mail the judge sent in a standard game is read
//! back per recipient (real intake path: Maildir inbox, SQLite file, `run_once`,
//! Maildir outbox). Before the deadline nobody sees another power's orders or press
//! not addressed to them; passwords are kept only as argon2 hashes and never sent.

use crate::hardening_common;

use chrono::Duration;
use hardening_common::*;
use legate::game::{Engine, EngineConfig};

/// Each power's Spring 1901 orders, with a move as the judge echoes it and the
/// full name of the province it goes to (no announcement names it).
const ORDERS: [(&str, &str, &str, &str); 7] = [
    (
        "A",
        "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
        "VIE - GAL",
        "Galicia",
    ),
    (
        "E",
        "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
        "EDI - NWG",
        "Norwegian Sea",
    ),
    (
        "F",
        "A Par - Pic\nA Mar - Spa\nF Bre - Mao",
        "PAR - PIC",
        "Picardy",
    ),
    (
        "G",
        "A Ber - Kie\nA Mun - Ruh\nF Kie - Hol",
        "MUN - RUH",
        "Ruhr",
    ),
    (
        "I",
        "A Ven - Pie\nA Rom - Apu\nF Nap - Ion",
        "VEN - PIE",
        "Piedmont",
    ),
    (
        "R",
        "A Mos - Ukr\nA War - Sil\nF Sev - Rum\nF Stp/sc - Bot",
        "MOS - UKR",
        "Ukraine",
    ),
    // Turkey's WAIT keeps the phase open although every order is in.
    (
        "T",
        "A Con - Bul\nA Smy - Arm\nF Ank - Bla\nSET WAIT",
        "SMY - ARM",
        "Armenia",
    ),
];

/// Press: (from, the words after PRESS TO, the text, who may read it).
const PRESS: [(&str, &str, &str, &[&str]); 3] = [
    ("F", "ENGLAND", "quietly-channel-xyzzy", &["E"]),
    ("G", "RUSSIA TURKEY", "eastern-pact-plugh", &["R", "T"]),
    (
        "I",
        "ALL",
        "open-letter-frotz",
        &["A", "E", "F", "G", "I", "R", "T"],
    ),
];

fn address(power: &str) -> &'static str {
    POWERS
        .iter()
        .find(|(p, _)| *p == power)
        .map(|(_, a)| *a)
        .expect("a power")
}

fn text_to(sent: &[Sent], to: &str) -> String {
    sent.iter()
        .filter(|m| m.to.iter().any(|t| t == to))
        .map(|m| format!("{}\n{}\n", m.subject, m.text))
        .collect()
}

fn play_until_deadline(judge: &mut Judge) -> Vec<Sent> {
    let start = t("2027-03-01T09:00:00Z");
    started_game(judge, "sealed", start);
    for (power, orders, _, _) in ORDERS {
        let body = format!("SIGNON {power}sealed pw-{power}\n{orders}\n");
        judge.drop_mail(
            address(power),
            &format!("orders-{power}@x"),
            "orders",
            &body,
        );
    }
    for (from, to, text, _) in PRESS {
        let body = format!("SIGNON {from}sealed pw-{from}\nPRESS TO {to}\n{text}\nENDPRESS\n");
        judge.drop_mail(address(from), &format!("press-{from}@x"), "press", &body);
    }
    let report = judge.once(start + Duration::hours(1));
    assert_eq!(report.intake.applied, 10, "{report:?}");
    judge.sent()
}

#[test]
fn before_the_deadline_nobody_reads_another_powers_orders() {
    let mut judge = Judge::new("");
    let sent = play_until_deadline(&mut judge);
    for (power, _, echo, place) in ORDERS {
        assert!(
            text_to(&sent, address(power)).contains(echo),
            "{power}'s own answer echoes its orders ({echo})"
        );
        for (other, _) in POWERS.iter().filter(|(p, _)| *p != power) {
            let theirs = text_to(&sent, address(other));
            assert!(!theirs.is_empty(), "{other} got mail");
            for word in [echo, place] {
                assert!(
                    !theirs.contains(word),
                    "{other} read {power}'s {word}:\n{theirs}"
                );
            }
        }
    }
}

#[test]
fn press_reaches_only_those_it_is_addressed_to() {
    let mut judge = Judge::new("");
    let sent = play_until_deadline(&mut judge);
    for (from, _, text, readers) in PRESS {
        for (power, addr) in POWERS {
            let got = text_to(&sent, addr).contains(text);
            let may = readers.contains(&power) || power == from;
            if readers.contains(&power) {
                assert!(got, "{power} should read {from}'s press {text:?}");
            }
            if !may {
                assert!(
                    !got,
                    "{power} read {from}'s press {text:?} meant for {readers:?}"
                );
            }
        }
    }
}

#[test]
fn after_the_deadline_everyone_reads_every_order() {
    let mut judge = Judge::new("");
    play_until_deadline(&mut judge);
    let results = |judge: &Judge, addr: &str| -> String {
        judge
            .sent()
            .iter()
            .filter(|m| m.to.iter().any(|t| t == addr) && m.subject.contains("S1901M results"))
            .map(|m| m.text.clone())
            .collect()
    };
    // The deadline, then Turkey's grace.
    for _ in 0..2 {
        let wakeup = Engine::open(judge.db(), EngineConfig::default())
            .expect("engine")
            .next_wakeup()
            .expect("wakeup")
            .expect("a deadline");
        judge.once(wakeup + Duration::minutes(1));
    }
    for (_, addr) in POWERS {
        let text = results(&judge, addr);
        for (power, _, _, place) in ORDERS {
            assert!(
                text.contains(place),
                "{addr} lacks {power}'s {place}:\n{text}"
            );
        }
    }
}

#[test]
fn passwords_are_kept_only_as_argon2_hashes_and_never_sent() {
    let mut judge = Judge::new("");
    let sent = play_until_deadline(&mut judge);
    let passwords: Vec<String> = POWERS
        .iter()
        .map(|(p, _)| format!("pw-{p}"))
        .chain(["gm-pw".to_string()])
        .collect();
    for mail in &sent {
        let raw = String::from_utf8_lossy(&mail.raw);
        for pw in &passwords {
            assert!(
                !raw.contains(pw.as_str()),
                "{pw} sent to {:?}:\n{raw}",
                mail.to
            );
        }
    }
    let sql = judge.sql();
    // Seats keep their hashes in the game's state; addresses in `accounts`.
    let hashes: Vec<Option<String>> = sql
        .prepare(
            "SELECT value FROM games, json_tree(games.state) WHERE key = 'password_hash' \
             UNION ALL SELECT password_hash FROM accounts",
        )
        .and_then(|mut s| {
            s.query_map([], |r| r.get(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .expect("memberships");
    assert!(hashes.len() >= 8, "{hashes:?}");
    for hash in hashes.iter().flatten() {
        assert!(hash.starts_with("$argon2id$"), "{hash}");
    }
    // Every text and blob in the database but the raw mails as received.
    for (table, column) in text_columns(&sql) {
        if table == "inbound_mails" {
            continue;
        }
        for pw in &passwords {
            let query = format!(
                "SELECT count(*) FROM \"{table}\" WHERE instr(CAST(\"{column}\" AS BLOB), CAST(?1 AS BLOB)) > 0"
            );
            let n: i64 = sql
                .query_row(&query, [pw], |r| r.get(0))
                .unwrap_or_else(|e| panic!("{query}: {e}"));
            assert_eq!(n, 0, "{pw} in {table}.{column}");
        }
    }
}

/// (table, column) for every column of every table.
fn text_columns(sql: &rusqlite::Connection) -> Vec<(String, String)> {
    let tables: Vec<String> = sql
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut s| {
            s.query_map([], |r| r.get(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .expect("tables");
    let mut out = Vec::new();
    for table in tables {
        let columns: Vec<String> = sql
            .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
            .and_then(|mut s| {
                s.query_map([], |r| r.get(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .expect("columns");
        out.extend(columns.into_iter().map(|c| (table.clone(), c)));
    }
    assert!(out.len() > 20, "{out:?}");
    out
}
