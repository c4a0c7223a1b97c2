//! Crash safety of the store: a child process applies "commands" the way the
//! judge does (store the mail, change the game, queue replies, log an event,
//! all in one transaction) and is killed with SIGKILL at random moments. After
//! each kill the file must pass `quick_check`, and every command must be either
//! completely there or not at all, never twice, and every command the child
//! reported as committed must have survived.
//!
//! Runs without the test harness: `main` is either the parent (the test) or,
//! with `LEGATE_CRASH_CHILD` set, the child. `LEGATE_CRASH_TRIALS=N` sets the
//! number of kills (default 30); `LEGATE_CRASH_SEED` replays a run.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use legate::store::{
    GameStatus, InboundInsert, InboundStatus, NewEvent, NewGame, NewOutbox, Store, StoreError,
};
use rand::{Rng, SeedableRng};

const CHILD_ENV: &str = "LEGATE_CRASH_CHILD";
const FROM_ENV: &str = "LEGATE_CRASH_FROM";
const GAME: &str = "crash";
/// Replies queued per command.
const REPLIES: usize = 3;

fn main() -> ExitCode {
    match std::env::var_os(CHILD_ENV) {
        Some(path) => child(Path::new(&path)),
        None => parent(),
    }
}

fn t(seq: u64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_800_000_000 + seq as i64 * 60, 0)
        .single()
        .expect("valid time")
}

fn message_id(seq: u64) -> String {
    format!("<cmd-{seq}@players.example.org>")
}

/// A mail of a few KB, so that a transaction spans several pages.
fn raw_mail(seq: u64) -> Vec<u8> {
    let filler = format!("order line for command {seq}\r\n").repeat(40 + (seq % 50) as usize);
    format!(
        "Message-ID: {}\r\nFrom: player@example.org\r\nSubject: cmd {seq}\r\n\r\n{filler}",
        message_id(seq)
    )
    .into_bytes()
}

fn reply_subject(seq: u64, k: usize) -> String {
    format!("Re: cmd {seq} part {k}")
}

// ---------------------------------------------------------------- the child

/// Applies commands from `LEGATE_CRASH_FROM` on, forever, printing
/// `begin N` before and `committed N` after each transaction.
fn child(path: &Path) -> ExitCode {
    match run_child(path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("child failed: {e}");
            ExitCode::from(3)
        }
    }
}

fn run_child(path: &Path) -> Result<(), String> {
    let from: u64 = std::env::var(FROM_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut store = Store::open(path).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    let game_exists = store
        .transaction(|tx| tx.game_by_name(GAME))
        .map_err(|e| e.to_string())?
        .is_some();
    if !game_exists {
        store
            .transaction(|tx| {
                tx.insert_game(
                    &NewGame {
                        name: GAME,
                        variant: "standard",
                        rules_preset: "test",
                        settings: "{}",
                        state: r#"{"seq":0,"applied":0}"#,
                        lot_commitment: None,
                        lot_secret: None,
                    },
                    t(0),
                )
            })
            .map_err(|e| e.to_string())?;
    }
    for seq in from.. {
        writeln!(out, "begin {seq}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
        store
            .transaction(|tx| apply_command(tx, seq))
            .map_err(|e| format!("command {seq}: {e}"))?;
        writeln!(out, "committed {seq}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
        // The sender's side: deliver the oldest queued mail.
        store
            .transaction(|tx| {
                for mail in tx.queued_outbox(t(seq), 1)? {
                    tx.mark_sent(mail.id, t(seq))?;
                }
                Ok::<_, StoreError>(())
            })
            .map_err(|e| format!("sending after {seq}: {e}"))?;
    }
    Ok(())
}

/// One command: exactly what the judge does with one mail.
fn apply_command(tx: &legate::store::Tx<'_>, seq: u64) -> Result<(), StoreError> {
    let now = t(seq);
    let raw = raw_mail(seq);
    let mail = match tx.insert_inbound(&raw, Some(&message_id(seq)), "player@example.org", now)? {
        InboundInsert::New(id) => id,
        InboundInsert::Duplicate(id) => {
            // Seen before: it must have been handled completely already.
            return match tx.inbound_status(id)? {
                InboundStatus::Processed => Ok(()),
                other => Err(StoreError::BadValue {
                    column: "duplicate mail status",
                    value: other.to_string(),
                }),
            };
        }
    };
    let mut game = tx.game_by_name(GAME)?.ok_or(StoreError::NotFound {
        what: "game",
        id: 0,
    })?;
    let state: serde_json::Value =
        serde_json::from_str(&game.state).map_err(|e| StoreError::BadValue {
            column: "games.state",
            value: e.to_string(),
        })?;
    let applied = state["applied"].as_u64().unwrap_or(u64::MAX);
    game.state = serde_json::json!({ "seq": seq, "applied": applied + 1 }).to_string();
    game.status = GameStatus::Active;
    game.current_phase = Some(format!("S{}M", 1901 + seq));
    game.next_deadline = Some(t(seq + 1000));
    tx.update_game(&game)?;
    let to = vec!["player@example.org".to_string()];
    let body = format!("Your command {seq} was applied.\n").repeat(20);
    for k in 0..REPLIES {
        let subject = reply_subject(seq, k);
        tx.queue_outbox(
            &NewOutbox {
                recipients: &to,
                subject: &subject,
                body: &body,
                in_reply_to: Some(mail),
                game: Some(game.id),
                ..NewOutbox::default()
            },
            now,
        )?;
    }
    let detail = serde_json::json!({ "seq": seq }).to_string();
    tx.append_event(&NewEvent {
        at: now,
        game: Some(game.id),
        account: None,
        inbound: Some(mail),
        kind: "command.applied",
        detail: &detail,
    })?;
    tx.set_inbound_outcome(mail, InboundStatus::Processed, "applied", now)?;
    Ok(())
}

// ---------------------------------------------------------------- the parent

struct Report {
    /// Last `committed N` line the child printed.
    committed: Option<u64>,
    /// The last line was `begin N`: the kill came during a transaction.
    inside_transaction: bool,
}

fn parent() -> ExitCode {
    let trials: usize = std::env::var("LEGATE_CRASH_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let seed: u64 = std::env::var("LEGATE_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().r#gen());
    println!("\nrunning {trials} crash trials (LEGATE_CRASH_SEED={seed})");
    match run_trials(trials, seed) {
        Ok(summary) => {
            println!("test crash_trials ... ok ({summary})");
            println!("\ntest result: ok. 1 passed; 0 failed");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("test crash_trials ... FAILED\n{e}\n(replay with LEGATE_CRASH_SEED={seed})");
            println!("\ntest result: FAILED. 0 passed; 1 failed");
            ExitCode::FAILURE
        }
    }
}

fn run_trials(trials: usize, seed: u64) -> Result<String, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("crash.db");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let started = Instant::now();
    let mut applied: u64 = 0;
    let mut inside = 0;
    for trial in 0..trials {
        let resume_from = applied.saturating_sub(3).max(1);
        // Early trials die young (during open and migration), later ones
        // after a varying number of commands.
        let delay = if trial < 3 {
            rng.gen_range(0..15)
        } else {
            rng.gen_range(5..120)
        };
        let report = run_child_and_kill(&path, resume_from, Duration::from_millis(delay))
            .map_err(|e| format!("trial {trial}: {e}"))?;
        let found = verify(&path).map_err(|e| format!("trial {trial}: {e}"))?;
        if let Some(committed) = report.committed
            && found < committed
        {
            return Err(format!(
                "trial {trial}: command {committed} was committed but only {found} survived"
            ));
        }
        if found < applied {
            return Err(format!(
                "trial {trial}: {applied} commands went down to {found}"
            ));
        }
        applied = found;
        inside += usize::from(report.inside_transaction);
    }
    if applied == 0 {
        return Err("no command was ever committed: the trials tested nothing".into());
    }
    Ok(format!(
        "{trials} kills, {inside} inside a transaction, {applied} commands applied, {:.1}s",
        started.elapsed().as_secs_f64()
    ))
}

fn run_child_and_kill(path: &Path, from: u64, delay: Duration) -> Result<Report, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child: Child = Command::new(exe)
        .env(CHILD_ENV, path)
        .env(FROM_ENV, from.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start child: {e}"))?;
    std::thread::sleep(delay);
    if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
        let mut err = String::new();
        if let Some(mut s) = child.stderr.take() {
            let _ = s.read_to_string(&mut err);
        }
        return Err(format!("child stopped by itself ({status}): {err}"));
    }
    child.kill().map_err(|e| format!("kill: {e}"))?;
    child.wait().map_err(|e| e.to_string())?;
    let stdout = child.stdout.take().ok_or("no child stdout")?;
    let mut report = Report {
        committed: None,
        inside_transaction: false,
    };
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(n) = line.strip_prefix("committed ") {
            report.committed = n.parse().ok();
            report.inside_transaction = false;
        } else if line.starts_with("begin ") {
            report.inside_transaction = true;
        }
    }
    Ok(report)
}

/// subject, in_reply_to, game_id, status, sent_at
type ReplyRow = (String, i64, Option<i64>, String, Option<i64>);

/// Checks the file after a kill and returns how many commands it holds.
fn verify(path: &Path) -> Result<u64, String> {
    if !path.exists() {
        return Ok(0);
    }
    // Opening runs quick_check and refuses a damaged file.
    let store = Store::open(path).map_err(|e| format!("reopen: {e}"))?;
    drop(store);
    let conn = rusqlite::Connection::open(path).map_err(|e| e.to_string())?;
    let sql_err = |e: rusqlite::Error| e.to_string();

    let mails: Vec<(i64, String, Vec<u8>, String)> = conn
        .prepare("SELECT id, message_id, raw, status FROM inbound_mails ORDER BY id")
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect()
        })
        .map_err(sql_err)?;
    let count = mails.len() as u64;
    let mut mail_of_seq = BTreeMap::new();
    for (i, (id, msgid, raw, status)) in mails.into_iter().enumerate() {
        let seq = i as u64 + 1;
        if msgid != message_id(seq) || raw != raw_mail(seq) {
            return Err(format!("mail {id} is not command {seq}: {msgid}"));
        }
        if status != "processed" {
            return Err(format!(
                "command {seq}: mail stored but {status}: half applied"
            ));
        }
        mail_of_seq.insert(seq, id);
    }

    let game: Option<String> = conn
        .query_row("SELECT state FROM games WHERE name = ?1", [GAME], |r| {
            r.get(0)
        })
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })
        .map_err(sql_err)?;
    match game {
        None if count == 0 => {}
        None => return Err(format!("{count} commands but no game")),
        Some(state) => {
            let state: serde_json::Value =
                serde_json::from_str(&state).map_err(|e| e.to_string())?;
            if state["seq"].as_u64() != Some(count) || state["applied"].as_u64() != Some(count) {
                return Err(format!("{count} mails but game state {state}"));
            }
        }
    }

    let replies: Vec<ReplyRow> = conn
        .prepare("SELECT subject, in_reply_to, game_id, status, sent_at FROM outbox ORDER BY id")
        .and_then(|mut s| {
            s.query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })?
            .collect()
        })
        .map_err(sql_err)?;
    if replies.len() as u64 != count * REPLIES as u64 {
        return Err(format!("{count} commands but {} replies", replies.len()));
    }
    for (i, (subject, reply_to, game_id, status, sent_at)) in replies.iter().enumerate() {
        let seq = (i / REPLIES) as u64 + 1;
        if *subject != reply_subject(seq, i % REPLIES) || Some(reply_to) != mail_of_seq.get(&seq) {
            return Err(format!(
                "reply {i} ({subject}) does not belong to command {seq}"
            ));
        }
        if game_id.is_none() || (status == "sent") != sent_at.is_some() {
            return Err(format!("reply {i}: status {status}, sent_at {sent_at:?}"));
        }
    }

    let events: Vec<(String, Option<i64>)> = conn
        .prepare("SELECT detail, inbound_id FROM events ORDER BY id")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .map_err(sql_err)?;
    if events.len() as u64 != count {
        return Err(format!("{count} commands but {} events", events.len()));
    }
    for (i, (detail, inbound)) in events.iter().enumerate() {
        let seq = i as u64 + 1;
        let expected = serde_json::json!({ "seq": seq }).to_string();
        if *detail != expected || inbound.as_ref() != mail_of_seq.get(&seq) {
            return Err(format!("event {i} is {detail}, expected command {seq}"));
        }
    }
    Ok(count)
}
