//! Crash safety: a child process applies a scripted game mail by mail (each
//! mail stored first, then applied in one transaction, as the daemon does)
//! and is killed at random moments. After each kill the database must open
//! cleanly, every stored mail must be either fully applied (exactly one reply,
//! its orders recorded once) or not at all, and after a final run the game
//! must end exactly as a run without crashes does.
//!
//! The binary re-executes itself as the child (env `LEGATE_CRASH_CHILD`).
//! Trials: 25 by default, `LEGATE_CRASH_TRIALS` to change.

mod engine_common;

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, Utc};
use engine_common::*;
use legate::game::{Engine, EngineConfig, Line, Request};
use legate::store::{InboundStatus, Store};
use rand::Rng;

const GAME: &str = "crash";

struct Mail {
    from: String,
    lines: Vec<Line>,
}

fn signon(power: &str) -> Line {
    let addr = address(power);
    cmd(Request::SignOn {
        power: Some(power.to_string()),
        game: GAME.into(),
        password: password(&addr),
    })
}

/// The whole game as mails: creation, seven joins, then per phase Italy's
/// `SET WAIT` (so nothing processes early), the scripted orders and the
/// master's `PROCESS`.
fn mails() -> Vec<Mail> {
    let map = legate::map::Map::standard();
    let master = "gm@judge.test".to_string();
    let mut out = vec![Mail {
        from: master.clone(),
        lines: vec![cmd(Request::Create {
            game: GAME.into(),
            password: "gm-pw".into(),
            variant: None,
        })],
    }];
    for power in POWERS {
        let addr = address(power);
        out.push(Mail {
            from: addr.clone(),
            lines: vec![
                cmd(Request::SignOn {
                    power: None,
                    game: GAME.into(),
                    password: password(&addr),
                }),
                cmd(Request::SetPreference(vec![vec![power.to_string()]])),
            ],
        });
    }
    for (_, powers) in read_script(include_str!("../fixtures/games/solo.txt")) {
        out.push(Mail {
            from: address("Italy"),
            lines: vec![signon("Italy"), cmd(Request::SetWait(true))],
        });
        for (power, orders) in powers {
            let mut lines = vec![signon(&power)];
            lines.extend(orders.iter().map(|o| ord(map, o)));
            out.push(Mail {
                from: address(&power),
                lines,
            });
        }
        out.push(Mail {
            from: master.clone(),
            lines: vec![
                cmd(Request::SignOn {
                    power: Some("M".into()),
                    game: GAME.into(),
                    password: "gm-pw".into(),
                }),
                cmd(Request::Process),
            ],
        });
    }
    out
}

fn mail_time(i: usize) -> DateTime<Utc> {
    t("2026-03-02T09:00:00Z") + Duration::minutes(10 * i as i64)
}

/// Stores and applies every mail not yet processed, as the daemon would.
fn run(db: &Path) {
    let mut engine = Engine::open(db, EngineConfig::default()).expect("open");
    engine.set_secret_source(|| [7; 32]);
    for (i, mail) in mails().iter().enumerate() {
        let now = mail_time(i);
        let raw = format!("Message-ID: <m{i}@test>\r\n\r\nmail {i}\r\n");
        let id = engine
            .store()
            .transaction(|tx| {
                tx.insert_inbound(
                    raw.as_bytes(),
                    Some(&format!("<m{i}@test>")),
                    &mail.from,
                    now,
                )
            })
            .expect("store inbound")
            .id();
        engine
            .apply(&mail.from, &mail.lines, Some(id), now)
            .expect("apply");
        // Applying it again must do nothing.
        let again = engine
            .apply(&mail.from, &mail.lines, Some(id), now)
            .expect("apply again");
        assert!(again.duplicate);
    }
}

/// A game state with the salted password hashes blanked, for comparison.
fn comparable_state(store: &mut Store) -> Option<serde_json::Value> {
    let row = store
        .transaction(|tx| tx.game_by_name(GAME))
        .expect("read")?;
    let mut v: serde_json::Value = serde_json::from_str(&row.state).expect("json");
    if let Some(members) = v.get_mut("members").and_then(|m| m.as_array_mut()) {
        for m in members {
            m["password_hash"] = serde_json::Value::Null;
        }
    }
    Some(v)
}

/// Every stored mail is applied completely or not at all.
fn check_consistent(db: &Path) -> Result<usize, String> {
    let mut store = Store::open(db).map_err(|e| format!("reopen: {e}"))?;
    store
        .transaction(|tx| -> Result<usize, legate::store::StoreError> {
            let mut processed = 0;
            for i in 0..mails().len() {
                let Some(id) = probe(tx, i)? else { continue };
                let replies = tx.outbox_replies_to(id)?.len();
                match tx.inbound_status(id)? {
                    InboundStatus::Processed => {
                        processed += 1;
                        assert_eq!(replies, 1, "mail {i} processed with {replies} replies");
                    }
                    InboundStatus::Pending => {
                        assert_eq!(replies, 0, "mail {i} pending with replies")
                    }
                    other => panic!("mail {i} is {other:?}"),
                }
            }
            Ok(processed)
        })
        .map_err(|e| e.to_string())
}

/// The stored mail `i` (the child stores them in order, so row ids are 1, 2, ...).
fn probe(
    tx: &legate::store::Tx<'_>,
    i: usize,
) -> Result<Option<legate::store::InboundId>, legate::store::StoreError> {
    let id = legate::store::InboundId(i as i64 + 1);
    match tx.inbound(id)? {
        Some(m) => {
            assert_eq!(
                m.message_id,
                format!("<m{i}@test>"),
                "mails stored in order"
            );
            Ok(Some(id))
        }
        None => Ok(None),
    }
}

fn spawn_child(db: &Path) -> std::process::Child {
    let exe = std::env::current_exe().expect("test binary");
    Command::new(exe)
        .env("LEGATE_CRASH_CHILD", db)
        .spawn()
        .expect("spawn child")
}

fn main() -> ExitCode {
    if let Ok(db) = std::env::var("LEGATE_CRASH_CHILD") {
        run(Path::new(&db));
        return ExitCode::SUCCESS;
    }
    let trials: usize = std::env::var("LEGATE_CRASH_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25);
    let dir = tempfile::tempdir().expect("temp dir");

    // The reference: the same mails without crashes, in a child of its own.
    let reference_db = dir.path().join("reference.db");
    let started = Instant::now();
    let status = spawn_child(&reference_db).wait().expect("reference run");
    assert!(status.success(), "the reference run failed");
    let full = started.elapsed();
    let mut store = Store::open(&reference_db).expect("reference db");
    let reference = comparable_state(&mut store).expect("reference game");
    assert_eq!(reference["status"], "finished", "the scripted game ends");
    drop(store);

    let mut rng = rand::thread_rng();
    let mut kills = 0;
    let mut trial = 0;
    while trial < trials {
        // Each database takes up to three kills before a final run completes it.
        let db = dir.path().join(format!("trial{trial}.db"));
        for attempt in 0..3u64 {
            if trial >= trials {
                break;
            }
            trial += 1;
            let mut child = spawn_child(&db);
            // Each restart has less left to do, so later kills come sooner.
            let span = (full.as_millis() as u64 * 9 / 10 / (attempt + 1)).max(2);
            let delay = rng.gen_range(0..span);
            std::thread::sleep(StdDuration::from_millis(delay));
            if child.try_wait().expect("child state").is_none() {
                child.kill().expect("kill");
                kills += 1;
            }
            child.wait().expect("reap");
            if db.exists()
                && let Err(e) = check_consistent(&db)
            {
                eprintln!("trial {trial}: {e}");
                return ExitCode::FAILURE;
            }
        }
        let status = spawn_child(&db).wait().expect("final run");
        assert!(status.success(), "the run after the crashes failed");
        let done = check_consistent(&db).expect("consistent");
        assert_eq!(done, mails().len(), "every mail applied");
        let mut store = Store::open(&db).expect("db");
        let state = comparable_state(&mut store).expect("game");
        if state != reference {
            eprintln!("trial {trial}: the game differs from the run without crashes");
            return ExitCode::FAILURE;
        }
        // Phases are recorded once each.
        let phases = store
            .transaction(|tx| {
                let g = tx.game_by_name(GAME)?.expect("game");
                tx.phases(g.id)
            })
            .expect("phases");
        assert_eq!(phases.len(), 8, "each phase recorded once");
    }
    println!("crash test: {trials} trials, {kills} kills mid-run, all consistent");
    ExitCode::SUCCESS
}
