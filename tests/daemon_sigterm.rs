//! A stop by SIGTERM (what `systemctl stop` and `systemctl restart` send) while the
//! daemon `legate run` is working through a mailbox of orders: the daemon finishes
//! the mail in hand and exits cleanly, and after a restart every mail has been
//! applied and answered exactly once and every order stored once, as in a run that
//! was never stopped. The trials send the signal at random moments, as the kill -9
//! trials of tests/daemon_crash.rs do.
//!
//! Trials: 12 by default; `LEGATE_SIGTERM_TRIALS=N` for more.

use crate::hardening_common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration as StdDuration, Instant};

use chrono::Utc;
use hardening_common::*;
use rand::Rng;

const GAME: &str = "term";
/// Order mails per power: with seven powers, more than one fetched batch (50).
const MAILS_PER_POWER: usize = 10;

/// Two sets of Spring 1901 orders per power; each mail carries one of them.
fn orders(power: &str, variant: usize) -> &'static str {
    match (power, variant % 2) {
        ("A", 0) => "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
        ("A", _) => "A Vie-Tri\nA Bud-Ser\nF Tri-Adr",
        ("E", 0) => "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor",
        ("E", _) => "F Lon-Eng\nF Edi-Nth\nA Lvp-Edi",
        ("F", 0) => "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
        ("F", _) => "A Par-Pic\nA Mar-Bur\nF Bre-Eng",
        ("G", 0) => "A Ber-Kie\nA Mun-Ruh\nF Kie-Den",
        ("G", _) => "A Ber-Sil\nA Mun-Tyr\nF Kie-Hol",
        ("I", 0) => "A Rom-Apu\nA Ven H\nF Nap-Ion",
        ("I", _) => "A Rom-Ven\nA Ven-Tyr\nF Nap-Tys",
        ("R", 0) => "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot",
        ("R", _) => "A Mos-Sev\nA War-Pru\nF Sev-Rum\nF Stp/sc-Fin",
        ("T", 0) => "F Ank-Bla\nA Con-Bul\nA Smy-Arm",
        _ => "F Ank-Con\nA Con-Bul\nA Smy-Ank",
    }
}

/// A judge with the game started and every order mail waiting in its inbox.
fn judge_with_mail() -> (Judge, usize) {
    let mut judge = Judge::new("");
    started_game(&mut judge, GAME, Utc::now());
    let mut n = 0;
    for round in 0..MAILS_PER_POWER {
        for (p, addr) in POWERS {
            judge.drop_mail(
                addr,
                &format!("orders-{p}-{round}@x"),
                "orders",
                &format!("SIGNON {p}{GAME} pw-{p}\n{}", orders(p, round)),
            );
            n += 1;
        }
    }
    (judge, n)
}

/// Starts `legate run` and returns once it says it is running (its signal
/// handler is in place by then). Its log is drained on a thread of its own.
fn daemon(judge: &Judge) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["run", "--config"])
        .arg(judge.path("legate.toml"))
        .env("RUST_LOG", "legate::daemon=info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start legate run");
    let stderr = child.stderr.take().expect("stderr");
    let (running, started) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("running") {
                let _ = running.send(());
            }
        }
    });
    started
        .recv()
        .expect("the daemon said it was running before its log ended");
    child
}

fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(status.success(), "kill -TERM failed");
}

/// The daemon stops by itself after SIGTERM, and says it ended well.
fn stop(mut child: Child) {
    sigterm(&child);
    let status = child.wait().expect("reap");
    assert_eq!(
        status.code(),
        Some(0),
        "after SIGTERM the daemon exits cleanly ({status})"
    );
}

/// The mails that created and started the game, before the order mails.
const START_MAILS: usize = 8;

/// Mails applied so far (stored and processed), the game's start included.
fn processed(judge: &Judge) -> usize {
    if !judge.db().exists() {
        return 0;
    }
    judge.count("SELECT count(*) FROM inbound_mails WHERE status = 'processed'") as usize
}

/// Runs the daemon until every mail is applied and every answer sent, then stops it.
fn run_until_done(judge: &Judge, mails: usize) {
    let child = daemon(judge);
    let started = Instant::now();
    // The daemon works on its own clock; this loop only watches, with a limit so a
    // daemon that stalls is reported instead of hanging the test.
    while !(processed(judge) == START_MAILS + mails && queued(judge) == 0) {
        assert!(
            started.elapsed() < StdDuration::from_secs(600),
            "the daemon did not finish: {} of {mails} mails, {} queued",
            processed(judge) - START_MAILS,
            queued(judge)
        );
        std::thread::sleep(StdDuration::from_millis(50));
    }
    stop(child);
}

fn queued(judge: &Judge) -> i64 {
    judge.count("SELECT count(*) FROM outbox WHERE status = 'queued'")
}

/// What must hold right after a stop by SIGTERM: no mail stored and left half
/// done (the batch in hand was finished), each applied mail answered once and
/// taken out of `new/`, and no mail sent twice.
fn check_after_stop(judge: &Judge, mails: usize) -> Result<(), String> {
    let conn = judge.sql();
    let mut stmt = conn
        .prepare(
            "SELECT i.message_id, i.status, (SELECT count(*) FROM outbox o WHERE o.in_reply_to = i.id) \
             FROM inbound_mails i",
        )
        .map_err(|e| e.to_string())?;
    let rows: Vec<(String, String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .map_err(|e| e.to_string())?
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    for (id, status, replies) in &rows {
        if (status.as_str(), *replies) != ("processed", 1) {
            return Err(format!(
                "mail {id}: {status} with {replies} answers after SIGTERM"
            ));
        }
    }
    let applied = rows.len() - START_MAILS;
    let waiting = judge.files_in("in/new");
    if waiting + applied != mails {
        return Err(format!(
            "{applied} applied and {waiting} still waiting, of {mails} mails"
        ));
    }
    if let Some((id, n)) = by_message_id(&judge.sent()).iter().find(|(_, n)| **n > 1) {
        return Err(format!("{id} sent {n} times"));
    }
    Ok(())
}

/// The stored orders, as (mail, power, text, canonical), in the order received.
type Orders = Vec<(String, String, String, Option<String>)>;

/// Every order stored, answers per mail and mails per Message-ID, for comparison
/// with a run that was never stopped.
#[derive(Debug, PartialEq)]
struct Outcome {
    orders: Orders,
    answers: BTreeMap<String, i64>,
    stored_mails: i64,
}

fn outcome(judge: &Judge) -> Outcome {
    let conn = judge.sql();
    let mut stmt = conn
        .prepare(
            "SELECT i.message_id, o.power, o.text, o.canonical FROM orders o \
             JOIN inbound_mails i ON i.id = o.inbound_id ORDER BY o.id",
        )
        .expect("orders");
    let orders = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut stmt = conn
        .prepare(
            "SELECT i.message_id, (SELECT count(*) FROM outbox o WHERE o.in_reply_to = i.id) \
             FROM inbound_mails i",
        )
        .expect("answers");
    let answers = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    Outcome {
        orders,
        answers,
        stored_mails: judge.count("SELECT count(*) FROM inbound_mails"),
    }
}

/// Every outbox entry sent, and in the outbound Maildir exactly once.
fn check_sent_once(judge: &Judge) {
    let counts = by_message_id(&judge.sent());
    let entries = judge.count("SELECT count(*) FROM outbox");
    let sent = judge.count("SELECT count(*) FROM outbox WHERE status = 'sent'");
    assert_eq!(sent, entries, "every answer sent");
    assert_eq!(counts.len() as i64, entries, "one mail per outbox entry");
    assert!(counts.values().all(|n| *n == 1), "no mail sent twice");
}

#[test]
fn sigterm_mid_batch_loses_and_repeats_nothing() {
    let trials: usize = std::env::var("LEGATE_SIGTERM_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);

    let (reference, mails) = judge_with_mail();
    let started = Instant::now();
    run_until_done(&reference, mails);
    let span = started.elapsed();
    println!("reference: {mails} mails in {span:?}");
    let expected = outcome(&reference);
    check_sent_once(&reference);
    assert_eq!(expected.stored_mails as usize, START_MAILS + mails);
    assert!(expected.answers.values().all(|n| *n == 1));

    let mut rng = rand::thread_rng();
    let mut mid_batch = 0;
    for trial in 1..=trials {
        let (judge, mails) = judge_with_mail();
        // Up to three stops, each at a random moment of what is left to do.
        for _ in 0..3 {
            let left = START_MAILS + mails - processed(&judge);
            if left == 0 {
                break;
            }
            let child = daemon(&judge);
            let window = span.as_micros() as u64 * left as u64 / mails as u64;
            std::thread::sleep(StdDuration::from_micros(rng.gen_range(0..window.max(1000))));
            let before = processed(&judge);
            stop(child);
            let after = processed(&judge);
            println!("trial {trial}: stop with {before} applied, {after} after the stop");
            if after > START_MAILS && after < START_MAILS + mails && after != before {
                mid_batch += 1;
            }
            if let Err(e) = check_after_stop(&judge, mails) {
                panic!("trial {trial}: {e}");
            }
        }
        run_until_done(&judge, mails);
        check_sent_once(&judge);
        assert_eq!(
            outcome(&judge),
            expected,
            "trial {trial}: the orders or answers differ from a run never stopped"
        );
    }
    println!("SIGTERM test: {trials} trials, {mid_batch} stops while mail was being applied");
    assert!(mid_batch > 0, "no stop landed while mail was being applied");
}
