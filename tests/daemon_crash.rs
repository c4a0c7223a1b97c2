//! Crash safety of the daemon itself: `legate run --once --now T` (the judge's one
//! pass: intake, deadlines, delivery) is killed with SIGKILL at random moments
//! while it reads a batch of mail and while it processes a deadline, then started
//! again. Afterwards every accepted mail is applied exactly once (one stored row,
//! processed, one answer), every outbox entry is in the outbound Maildir exactly
//! once (counted by Message-ID), and the game equals that of a run without kills.
//!
//! Trials (kills attempted): 20 by default; `LEGATE_CRASH_TRIALS=200` for the
//! long run described in docs/hardening.md.

use crate::hardening_common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use hardening_common::*;
use legate::game::{Engine, EngineConfig};
use rand::Rng;

const GAME: &str = "crash";
const GM: &str = "gm@example.test";
const POWERS: [(&str, &str, &str); 7] = [
    (
        "A",
        "austria@example.test",
        "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
    ),
    (
        "E",
        "england@example.test",
        "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor",
    ),
    (
        "F",
        "france@example.test",
        "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
    ),
    (
        "G",
        "germany@example.test",
        "A Ber-Kie\nA Mun-Ruh\nF Kie-Den",
    ),
    ("I", "italy@example.test", "A Rom-Apu\nA Ven H\nF Nap-Ion"),
    (
        "R",
        "russia@example.test",
        "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot",
    ),
    (
        "T",
        "turkey@example.test",
        "F Ank-Bla\nA Con-Bul\nA Smy-Arm\nSET WAIT",
    ),
];

/// The mails of each step, dropped into the inbox before the step runs.
fn step_mails(step: usize) -> Vec<(String, String, String)> {
    match step {
        0 => {
            let mut v = vec![(
                GM.to_string(),
                "create@x".to_string(),
                format!("CREATE ?{GAME} gm-pw standard"),
            )];
            for (p, addr, _) in POWERS {
                v.push((
                    addr.to_string(),
                    format!("join-{p}@x"),
                    format!("SIGNON ?{GAME} pw-{p}\nSET PREFERENCE {p}"),
                ));
            }
            v
        }
        1 => POWERS
            .iter()
            .map(|(p, addr, orders)| {
                (
                    addr.to_string(),
                    format!("orders-{p}@x"),
                    format!("SIGNON {p}{GAME} pw-{p}\n{orders}"),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn legate_once(judge: &Judge, now: DateTime<Utc>) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["run", "--once", "--config"])
        .arg(judge.path("legate.toml"))
        .args(["--now", &now.to_rfc3339()])
        .env("RUST_LOG", "off")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start legate run")
}

fn run_to_end(judge: &Judge, now: DateTime<Utc>) {
    let status = legate_once(judge, now).wait().expect("legate run");
    assert!(status.success(), "legate run --once at {now} failed");
}

/// The times of the passes: intake of the joins, intake of the orders, then the
/// deadline (found from the game, as an operator's cron would).
struct Plan {
    times: Vec<DateTime<Utc>>,
}

fn deadline_after(judge: &Judge) -> DateTime<Utc> {
    Engine::open(judge.db(), EngineConfig::default())
        .expect("engine")
        .next_wakeup()
        .expect("next wakeup")
        .expect("a deadline")
}

/// The game and mail as comparable facts: the state (password hashes blanked),
/// the recorded phases, and per recipient the subjects sent.
#[derive(Debug, PartialEq)]
struct Outcome {
    state: serde_json::Value,
    phases: Vec<(String, String)>,
    mail: BTreeMap<String, Vec<String>>,
    inbound: Vec<(String, String, i64)>,
}

fn outcome(judge: &Judge) -> Outcome {
    let conn = judge.sql();
    let state: String = conn
        .query_row("SELECT state FROM games WHERE name = ?1", [GAME], |r| {
            r.get(0)
        })
        .expect("the game");
    let mut state: serde_json::Value = serde_json::from_str(&state).expect("json");
    blank(&mut state);
    let mut stmt = conn
        .prepare("SELECT phase, orders FROM phases ORDER BY seq")
        .expect("phases");
    let phases = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<Vec<_>, _>>()
        .expect("rows");
    let inbound = inbound_answers(&conn).expect("inbound");
    let mut mail: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in judge.sent() {
        for to in &s.to {
            mail.entry(to.clone()).or_default().push(s.subject.clone());
        }
    }
    for v in mail.values_mut() {
        v.sort();
    }
    Outcome {
        state,
        phases,
        mail,
        inbound,
    }
}

/// Salted hashes and the commitment to a fresh random lot secret differ from run
/// to run by design.
fn blank(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if k.contains("password") || k.contains("secret") || k.contains("lot_") {
                    *x = serde_json::Value::Null;
                } else {
                    blank(x);
                }
            }
        }
        serde_json::Value::Array(list) => list.iter_mut().for_each(blank),
        _ => {}
    }
}

/// What must hold after any kill: the database opens; a stored mail is either
/// pending without an answer or done with exactly one; no Message-ID is in the
/// outbound Maildir twice and every file there is an outbox entry.
fn check_after_kill(judge: &Judge) -> Result<(), String> {
    if !judge.db().exists() {
        return Ok(());
    }
    let store = legate::store::Store::open(judge.db()).map_err(|e| format!("reopen: {e}"))?;
    drop(store);
    let conn = judge.sql();
    let rows = inbound_answers(&conn).map_err(|e| e.to_string())?;
    for (id, status, replies) in rows {
        let ok = matches!(
            (status.as_str(), replies),
            ("pending", 0) | ("processed", 1)
        );
        if !ok {
            return Err(format!("mail {id}: {status} with {replies} answers"));
        }
    }
    let files = judge.sent();
    let counts = by_message_id(&files);
    if let Some((id, n)) = counts.iter().find(|(_, n)| **n > 1) {
        return Err(format!("{id} delivered {n} times"));
    }
    let entries: i64 = conn
        .query_row(
            "SELECT count(*) FROM outbox WHERE message IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .map_err(|e| e.to_string())?;
    if files.len() as i64 > entries {
        return Err(format!(
            "{} files for {entries} composed entries",
            files.len()
        ));
    }
    Ok(())
}

/// Everything done: no mail waiting, every outbox entry sent and in the Maildir once.
fn check_complete(judge: &Judge, expected_mails: usize) {
    let conn = judge.sql();
    let pending: i64 = conn
        .query_row(
            "SELECT count(*) FROM inbound_mails WHERE status <> 'processed'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(pending, 0, "every mail processed");
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM inbound_mails", [], |r| r.get(0))
        .expect("count");
    assert_eq!(stored as usize, expected_mails, "each mail stored once");
    let mut stmt = conn
        .prepare("SELECT status, message FROM outbox")
        .expect("outbox");
    let entries: Vec<(String, Option<Vec<u8>>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let counts = by_message_id(&judge.sent());
    for (status, message) in &entries {
        assert_eq!(status, "sent");
        let bytes = message.clone().expect("composed");
        let id = read_sent(bytes).message_id;
        assert_eq!(counts.get(&id), Some(&1), "{id} delivered once");
    }
    assert_eq!(counts.len(), entries.len(), "no mail outside the outbox");
}

fn drop_step(judge: &mut Judge, step: usize) {
    for (from, id, body) in step_mails(step) {
        judge.drop_mail(&from, &id, "orders", &body);
    }
}

/// Runs the game without kills and returns the pass times and step durations.
fn reference() -> (Judge, Plan, Vec<StdDuration>) {
    let mut judge = Judge::new("");
    let t0 = t("2027-03-01T09:00:00Z");
    let mut times = vec![t0, t0 + Duration::minutes(5)];
    let mut spans = Vec::new();
    for (step, now) in times.clone().into_iter().enumerate() {
        drop_step(&mut judge, step);
        let started = Instant::now();
        run_to_end(&judge, now);
        spans.push(started.elapsed());
    }
    // Turkey asked to wait: the phase is processed at the deadline (or its grace).
    let mut now = times[1];
    for _ in 0..4 {
        now = now.max(deadline_after(&judge)) + Duration::minutes(1);
        let started = Instant::now();
        run_to_end(&judge, now);
        spans.push(started.elapsed());
        times.push(now);
        let done: i64 = judge
            .sql()
            .query_row("SELECT count(*) FROM phases", [], |r| r.get(0))
            .expect("phases");
        if done == 1 {
            break;
        }
    }
    let phases: i64 = judge
        .sql()
        .query_row("SELECT count(*) FROM phases", [], |r| r.get(0))
        .expect("phases");
    assert_eq!(phases, 1, "the deadline processed Spring 1901");
    (judge, Plan { times }, spans)
}

#[test]
fn killed_at_random_the_daemon_loses_nothing_and_repeats_nothing() {
    let trials: usize = std::env::var("LEGATE_CRASH_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let (reference_judge, plan, spans) = reference();
    let expected = outcome(&reference_judge);
    let total_mails = step_mails(0).len() + step_mails(1).len();
    check_complete(&reference_judge, total_mails);
    assert_eq!(
        expected.mail.len(),
        8,
        "seven players and the master got mail"
    );

    let mut rng = rand::thread_rng();
    let (mut trial, mut kills) = (0, 0);
    while trial < trials {
        let mut judge = Judge::new("");
        for (step, now) in plan.times.iter().enumerate() {
            drop_step(&mut judge, step);
            // Up to two kills per step, the second sooner (less is left to do).
            for attempt in 0..2u32 {
                if trial >= trials {
                    break;
                }
                trial += 1;
                let span = (spans[step].as_micros() as u64 / u64::from(attempt + 1)).max(1000);
                let mut child = legate_once(&judge, *now);
                std::thread::sleep(StdDuration::from_micros(rng.gen_range(0..span)));
                if child.try_wait().expect("child").is_none() {
                    child.kill().expect("SIGKILL");
                    kills += 1;
                }
                child.wait().expect("reap");
                if let Err(e) = check_after_kill(&judge) {
                    panic!("trial {trial} (step {step}): {e}");
                }
            }
            run_to_end(&judge, *now);
        }
        check_complete(&judge, total_mails);
        let got = outcome(&judge);
        assert_eq!(got, expected, "the game differs from the run without kills");
    }
    println!("daemon crash test: {trials} trials, {kills} kills mid-pass, all consistent");
    assert!(kills > 0, "no kill landed during a pass");
    let _ = Path::new(".");
}
