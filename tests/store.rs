//! The SQLite store: schema, integrity checks, transactions and each table's rules.

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, Duration, TimeZone, Utc};
use legate::store::{
    Game, GameId, GameStatus, InboundInsert, InboundStatus, LATEST_VERSION, NewAttachment,
    NewEvent, NewGame, NewMembership, NewOrder, NewOutbox, NewPhase, NewPress, OutboxId,
    OutboxStatus, Role, Store, StoreError, Tx, Vote, hash_password, verify_password,
};

fn t(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_800_000_000 + secs, 0).unwrap()
}

fn db_path(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("legate.db")
}

/// A store in a new file: the directory (kept while the test runs), the
/// file's path and the store.
fn temp_store() -> (tempfile::TempDir, PathBuf, Store) {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    let store = Store::open(&path).unwrap();
    (dir, path, store)
}

fn new_game<'a>(name: &'a str) -> NewGame<'a> {
    NewGame {
        name,
        variant: "standard",
        rules_preset: "njudge",
        settings: "{}",
        state: r#"{"units":[]}"#,
        lot_commitment: Some("00ff"),
        lot_secret: Some("secret"),
    }
}

fn add_game(store: &mut Store, name: &str) -> GameId {
    store
        .transaction(|tx| tx.insert_game(&new_game(name), t(0)))
        .unwrap()
}

fn reply<'a>(to: &'a [String], subject: &'a str) -> NewOutbox<'a> {
    NewOutbox {
        recipients: to,
        subject,
        body: "body",
        ..NewOutbox::default()
    }
}

fn queue(tx: &Tx<'_>, subject: &str, now: DateTime<Utc>) -> Result<OutboxId, StoreError> {
    let to = vec!["player@example.org".to_string()];
    tx.queue_outbox(&reply(&to, subject), now)
}

/// A second, plain connection to the file, to try what the API does not offer.
fn raw(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn fresh_file_is_migrated_and_reopening_keeps_data() {
    let (_dir, path, mut store) = temp_store();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
    let id = add_game(&mut store, "alpha");
    drop(store);

    let mut again = Store::open(&path).unwrap();
    assert_eq!(again.schema_version().unwrap(), LATEST_VERSION);
    let game = again.transaction(|tx| tx.game(id)).unwrap().unwrap();
    assert_eq!(game.name, "alpha");
    let version: i64 = raw(&path)
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, LATEST_VERSION);
}

#[test]
fn legate_db_migrate_reports_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    let run = |p: &Path| {
        Command::new(env!("CARGO_BIN_EXE_legate"))
            .args(["db", "migrate", "--database"])
            .arg(p)
            .output()
            .unwrap()
    };
    let first = run(&path);
    assert!(first.status.success(), "{first:?}");
    let out = String::from_utf8_lossy(&first.stdout);
    assert!(out.contains(&format!("0 -> {LATEST_VERSION}")), "{out}");

    let second = run(&path);
    assert!(second.status.success());
    let out = String::from_utf8_lossy(&second.stdout);
    assert!(out.contains("up to date"), "{out}");

    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
    add_game(&mut store, "usable");
    drop(store);

    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![0x5a; 8192]).unwrap();
    let refused = run(&junk);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("damaged"), "{err}");
}

#[test]
fn journal_is_wal_and_foreign_keys_are_enforced() {
    let (_dir, path, mut store) = temp_store();
    let mode: String = raw(&path)
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");

    let err = store
        .transaction(|tx| {
            tx.insert_membership(
                &NewMembership {
                    game: GameId(424242),
                    account: legate::store::AccountId(7),
                    role: Role::Player,
                    power: None,
                    preferences: &[],
                },
                t(0),
            )
        })
        .unwrap_err();
    assert!(matches!(err, StoreError::Constraint(_)), "{err:?}");
}

#[test]
fn newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    drop(Store::open(&path).unwrap());
    raw(&path)
        .pragma_update(None, "user_version", LATEST_VERSION + 5)
        .unwrap();
    match Store::open(&path) {
        Err(StoreError::TooNew {
            found, supported, ..
        }) => {
            assert_eq!(found, LATEST_VERSION + 5);
            assert_eq!(supported, LATEST_VERSION);
        }
        other => panic!("expected TooNew, got {:?}", other.err()),
    }
}

/// A file big enough that its middle pages are table and index b-tree pages.
/// A filled store's file, closed: the directory (kept while the test runs),
/// the file's path and its bytes.
fn filled_file() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    filled_db(&path);
    let bytes = std::fs::read(&path).unwrap();
    (dir, path, bytes)
}

fn filled_db(path: &Path) {
    let mut store = Store::open(path).unwrap();
    store
        .transaction(|tx| {
            for i in 0..300 {
                let raw = format!("Subject: mail {i}\r\n\r\n{}", "x".repeat(900));
                tx.insert_inbound(raw.as_bytes(), Some(&format!("<{i}@x>")), "a@b", t(i))?;
                queue(tx, &format!("reply {i}"), t(i))?;
            }
            Ok::<_, StoreError>(())
        })
        .unwrap();
    drop(store);
    // The last connection closing checkpoints the log into the main file.
    assert!(!path.with_extension("db-wal").exists());
}

#[test]
fn damaged_file_is_refused_and_left_untouched() {
    let (_dir, path, mut bytes) = filled_file();
    let len = bytes.len();
    assert!(len > 100_000, "{len}");
    let mid = len / 2 / 4096 * 4096;
    for b in &mut bytes[mid..mid + 3 * 4096] {
        *b = 0xA7;
    }
    std::fs::write(&path, &bytes).unwrap();

    match Store::open(&path) {
        Err(StoreError::Damaged { path: p, detail }) => {
            assert_eq!(p, path);
            assert!(!detail.is_empty());
        }
        Err(other) => panic!("expected Damaged, got {other:?}"),
        Ok(_) => panic!("a damaged file was accepted"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn wrong_cell_counts_in_index_pages_are_refused() {
    let (_dir, path, mut bytes) = filled_file();
    let page = u32::from_be_bytes([0, 0, bytes[16], bytes[17]]) as usize;
    let mut touched = 0;
    // Page 1 carries the file header; b-tree page type 0x0a is an index leaf.
    for start in (page..bytes.len()).step_by(page) {
        if bytes[start] == 0x0a {
            bytes[start + 4] ^= 0x01;
            touched += 1;
        }
    }
    assert!(touched > 0);
    std::fs::write(&path, &bytes).unwrap();
    let err = Store::open(&path).err().expect("damaged indexes accepted");
    assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
}

#[test]
fn garbage_header_is_refused_as_damaged() {
    let (_dir, path, mut bytes) = filled_file();
    bytes[..100].copy_from_slice(&[0x42; 100]);
    std::fs::write(&path, &bytes).unwrap();
    let err = Store::open(&path).err().expect("garbage header accepted");
    assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
    assert!(err.to_string().contains("damaged"));
}

#[test]
fn duplicate_message_id_is_reported_and_changes_nothing() {
    let mut store = Store::open_in_memory().unwrap();
    let (first, second, mail) = store
        .transaction(|tx| {
            let first = tx.insert_inbound(b"one", Some("<m1@example.org>"), "a@x", t(1))?;
            let second = tx.insert_inbound(b"two", Some("<m1@example.org>"), "b@x", t(2))?;
            let mail = tx.inbound(first.id())?;
            Ok::<_, StoreError>((first, second, mail))
        })
        .unwrap();
    let InboundInsert::New(id) = first else {
        panic!("first insert was {first:?}")
    };
    assert_eq!(second, InboundInsert::Duplicate(id));
    let mail = mail.unwrap();
    assert_eq!(mail.raw, b"one");
    assert_eq!(mail.sender, "a@x");
    assert_eq!(mail.status, InboundStatus::Pending);
}

#[test]
fn mail_without_message_id_is_keyed_by_its_bytes() {
    let mut store = Store::open_in_memory().unwrap();
    let (a, b, c) = store
        .transaction(|tx| {
            Ok::<_, StoreError>((
                tx.insert_inbound(b"same", None, "a@x", t(1))?,
                tx.insert_inbound(b"same", None, "a@x", t(2))?,
                tx.insert_inbound(b"other", None, "a@x", t(3))?,
            ))
        })
        .unwrap();
    assert!(matches!(a, InboundInsert::New(_)));
    assert_eq!(b, InboundInsert::Duplicate(a.id()));
    assert!(matches!(c, InboundInsert::New(id) if id != a.id()));
}

#[test]
fn inbound_outcome_and_pending_list() {
    let mut store = Store::open_in_memory().unwrap();
    store
        .transaction(|tx| {
            let a = tx.insert_inbound(b"a", Some("<a@x>"), "a@x", t(1))?.id();
            let b = tx.insert_inbound(b"b", Some("<b@x>"), "b@x", t(2))?.id();
            let c = tx.insert_inbound(b"c", Some("<c@x>"), "c@x", t(3))?.id();
            tx.set_inbound_outcome(b, InboundStatus::Processed, "orders accepted", t(4))?;
            let pending: Vec<_> = tx.pending_inbound(10)?.into_iter().map(|m| m.id).collect();
            assert_eq!(pending, vec![a, c]);
            assert_eq!(tx.pending_inbound(1)?.len(), 1);
            let done = tx.inbound(b)?.unwrap();
            assert_eq!(done.status, InboundStatus::Processed);
            assert_eq!(done.outcome.as_deref(), Some("orders accepted"));
            assert_eq!(done.processed_at, Some(t(4)));
            assert_eq!(tx.inbound_status(a)?, InboundStatus::Pending);
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn received_mail_cannot_be_altered() {
    let (_dir, path, mut store) = temp_store();
    store
        .transaction(|tx| tx.insert_inbound(b"raw", Some("<r@x>"), "a@x", t(0)))
        .unwrap();
    let conn = raw(&path);
    let err = conn
        .execute("UPDATE inbound_mails SET raw = x'00'", [])
        .unwrap_err();
    assert!(err.to_string().contains("immutable"), "{err}");
    assert!(conn.execute("DELETE FROM inbound_mails", []).is_err());
}

#[test]
fn events_cannot_be_updated_or_deleted() {
    let (_dir, path, mut store) = temp_store();
    let game = add_game(&mut store, "g");
    store
        .transaction(|tx| {
            tx.append_event(&NewEvent {
                at: t(5),
                game: Some(game),
                account: None,
                inbound: None,
                kind: "game.created",
                detail: r#"{"by":"gm"}"#,
            })
        })
        .unwrap();
    let conn = raw(&path);
    let err = conn
        .execute("UPDATE events SET kind = 'x'", [])
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    let err = conn.execute("DELETE FROM events", []).unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");

    let events = store.transaction(|tx| tx.game_events(game)).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].kind, "game.created");
    assert_eq!(events[0].at, t(5));
    let all = store.transaction(|tx| tx.events_after(None, 10)).unwrap();
    assert_eq!(all, events);
    let later = store
        .transaction(|tx| tx.events_after(Some(events[0].id), 10))
        .unwrap();
    assert!(later.is_empty());
}

#[test]
fn sent_outbox_rows_are_final() {
    let (_dir, path, mut store) = temp_store();
    let id = store
        .transaction(|tx| {
            let id = queue(tx, "results", t(0))?;
            tx.set_outbox_message(id, b"From: judge\r\n\r\nhello")?;
            tx.mark_sent(id, t(10))?;
            Ok::<_, StoreError>(id)
        })
        .unwrap();
    let sent = store.transaction(|tx| tx.outbox(id)).unwrap().unwrap();
    assert_eq!(sent.status, OutboxStatus::Sent);
    assert_eq!(sent.sent_at, Some(t(10)));

    let again = store.transaction(|tx| tx.mark_sent(id, t(20)));
    assert!(
        matches!(again, Err(StoreError::NotFound { .. })),
        "{again:?}"
    );
    let retry = store.transaction(|tx| tx.mark_attempt_failed(id, t(30), "x"));
    assert!(retry.is_err());
    let rewrite = store.transaction(|tx| tx.set_outbox_message(id, b"other"));
    assert!(rewrite.is_err());

    let conn = raw(&path);
    let err = conn
        .execute("UPDATE outbox SET status = 'queued'", [])
        .unwrap_err();
    assert!(err.to_string().contains("cannot be changed"), "{err}");
    assert!(conn.execute("DELETE FROM outbox", []).is_err());
    let unchanged = store.transaction(|tx| tx.outbox(id)).unwrap().unwrap();
    assert_eq!(unchanged, sent);
}

#[test]
fn outbox_attachments_round_trip_in_order_and_freeze_with_the_mail() {
    let (_dir, path, mut store) = temp_store();
    let png = [0x89u8, b'P', b'N', b'G', 0, 1, 2, 255];
    let (with, without) = store
        .transaction(|tx| {
            let with = queue(tx, "results", t(0))?;
            let without = queue(tx, "notice", t(0))?;
            for (name, kind, bytes) in [
                ("game-S1901M.png", "image/png", &png[..]),
                ("game-S1901M.svg", "image/svg+xml", b"<svg/>".as_slice()),
            ] {
                let file = NewAttachment {
                    filename: name,
                    content_type: kind,
                    bytes,
                };
                tx.add_outbox_attachment(with, &file)?;
            }
            Ok::<_, StoreError>((with, without))
        })
        .unwrap();
    let read = store.transaction(|tx| tx.outbox(with)).unwrap().unwrap();
    let names: Vec<_> = read
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(names, ["game-S1901M.png", "game-S1901M.svg"]);
    assert_eq!(read.attachments[0].content_type, "image/png");
    assert_eq!(read.attachments[0].bytes, png);
    assert_eq!(read.attachments[1].bytes, b"<svg/>");
    let queued = store.transaction(|tx| tx.queued_outbox(t(0), 10)).unwrap();
    let counts: Vec<_> = queued.iter().map(|m| (m.id, m.attachments.len())).collect();
    assert_eq!(counts, [(with, 2), (without, 0)]);

    // Once the bytes are composed, the files are part of them: no more may be added.
    let late = NewAttachment {
        filename: "late.txt",
        content_type: "text/plain",
        bytes: b"late",
    };
    store
        .transaction(|tx| tx.set_outbox_message(with, b"From: judge\r\n\r\nhello"))
        .unwrap();
    let refused = store.transaction(|tx| tx.add_outbox_attachment(with, &late));
    assert!(refused.is_err(), "{refused:?}");
    store.transaction(|tx| tx.mark_sent(with, t(5))).unwrap();

    let conn = raw(&path);
    let err = conn
        .execute("UPDATE outbox_attachments SET filename = 'other.png'", [])
        .unwrap_err();
    assert!(err.to_string().contains("cannot be changed"), "{err}");
    let err = conn
        .execute("UPDATE attachment_files SET bytes = x'00'", [])
        .unwrap_err();
    assert!(err.to_string().contains("cannot be changed"), "{err}");
    let err = conn
        .execute("DELETE FROM outbox_attachments", [])
        .unwrap_err();
    assert!(err.to_string().contains("cannot be changed"), "{err}");
    let unchanged = store.transaction(|tx| tx.outbox(with)).unwrap().unwrap();
    assert_eq!(unchanged.attachments, read.attachments);
}

#[test]
fn version_two_file_gains_outbox_attachments_and_keeps_its_mail() {
    let (_dir, path, mut store) = temp_store();
    let id = store.transaction(|tx| queue(tx, "old", t(0))).unwrap();
    drop(store);
    // Roll the file back to version 2, as an older program left it.
    let conn = raw(&path);
    conn.execute_batch(
        "DROP TABLE outbox_attachments; DROP TABLE attachment_files;
         ALTER TABLE inbound_mails DROP COLUMN signed; PRAGMA user_version = 2;",
    )
    .unwrap();
    drop(conn);

    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
    let mail = store.transaction(|tx| tx.outbox(id)).unwrap().unwrap();
    assert_eq!(mail.subject, "old");
    assert!(mail.attachments.is_empty());
    let file = NewAttachment {
        filename: "a.svg",
        content_type: "image/svg+xml",
        bytes: b"<svg/>",
    };
    store
        .transaction(|tx| tx.add_outbox_attachment(id, &file))
        .unwrap();
}

#[test]
fn composed_message_is_fixed_once_set() {
    let mut store = Store::open_in_memory().unwrap();
    let id = store
        .transaction(|tx| {
            let id = queue(tx, "s", t(0))?;
            tx.set_outbox_message(id, b"bytes")?;
            tx.set_outbox_message(id, b"bytes")?;
            Ok::<_, StoreError>(id)
        })
        .unwrap();
    let err = store
        .transaction(|tx| tx.set_outbox_message(id, b"different"))
        .unwrap_err();
    assert!(matches!(err, StoreError::Constraint(_)), "{err:?}");
    let mail = store.transaction(|tx| tx.outbox(id)).unwrap().unwrap();
    assert_eq!(mail.message.as_deref(), Some(&b"bytes"[..]));
}

#[test]
fn outbox_queue_order_and_retry_times() {
    let mut store = Store::open_in_memory().unwrap();
    let (a, b, c) = store
        .transaction(|tx| {
            let a = queue(tx, "a", t(0))?;
            let b = queue(tx, "b", t(5))?;
            let c = queue(tx, "c", t(5))?;
            Ok::<_, StoreError>((a, b, c))
        })
        .unwrap();
    let ids = |store: &mut Store, now, limit| -> Vec<OutboxId> {
        store
            .transaction(|tx| tx.queued_outbox(now, limit))
            .unwrap()
            .into_iter()
            .map(|m| m.id)
            .collect()
    };
    assert_eq!(ids(&mut store, t(4), 10), vec![a]);
    assert_eq!(ids(&mut store, t(5), 10), vec![a, b, c]);
    assert_eq!(ids(&mut store, t(5), 2), vec![a, b]);

    store
        .transaction(|tx| tx.mark_attempt_failed(a, t(60), "connection refused"))
        .unwrap();
    assert_eq!(ids(&mut store, t(59), 10), vec![b, c]);
    assert_eq!(ids(&mut store, t(60), 10), vec![b, c, a]);
    let failed = store.transaction(|tx| tx.outbox(a)).unwrap().unwrap();
    assert_eq!(failed.attempts, 1);
    assert_eq!(failed.next_attempt_at, t(60));
    assert_eq!(failed.last_error.as_deref(), Some("connection refused"));
    assert_eq!(failed.status, OutboxStatus::Queued);

    store
        .transaction(|tx| {
            tx.mark_sent(b, t(61))?;
            tx.mark_failed(c, "no such user")
        })
        .unwrap();
    assert_eq!(ids(&mut store, t(1000), 10), vec![a]);
    let next = store.transaction(|tx| tx.next_outbox_attempt()).unwrap();
    assert_eq!(next, Some(t(60)));
    store.transaction(|tx| tx.mark_sent(a, t(62))).unwrap();
    let next = store.transaction(|tx| tx.next_outbox_attempt()).unwrap();
    assert_eq!(next, None);
}

#[test]
fn outbox_keeps_parts_and_threading() {
    let mut store = Store::open_in_memory().unwrap();
    let game = add_game(&mut store, "g");
    store
        .transaction(|tx| {
            let inbound = tx.insert_inbound(b"m", Some("<q@x>"), "p@x", t(0))?.id();
            let to = vec!["p@x".to_string(), "gm@x".to_string()];
            let headers = vec![("In-Reply-To".to_string(), "<q@x>".to_string())];
            let id = tx.queue_outbox(
                &NewOutbox {
                    recipients: &to,
                    subject: "Re: orders",
                    headers: &headers,
                    body: "Orders received.",
                    message: None,
                    in_reply_to: Some(inbound),
                    game: Some(game),
                },
                t(1),
            )?;
            let m = tx.outbox(id)?.unwrap();
            assert_eq!(m.recipients, to);
            assert_eq!(m.headers, headers);
            assert_eq!(m.body, "Orders received.");
            assert_eq!(m.message, None);
            assert_eq!(m.created_at, t(1));
            assert_eq!(m.game, Some(game));
            assert_eq!(tx.outbox_replies_to(inbound)?, vec![m]);
            let none: Vec<String> = vec![];
            assert!(tx.queue_outbox(&reply(&none, "x"), t(1)).is_err());
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn error_rolls_back_everything() {
    let mut store = Store::open_in_memory().unwrap();
    let result: Result<(), StoreError> = store.transaction(|tx| {
        let game = tx.insert_game(&new_game("doomed"), t(0))?;
        let mail = tx.insert_inbound(b"x", Some("<d@x>"), "a@x", t(0))?.id();
        queue(tx, "reply", t(0))?;
        tx.append_event(&NewEvent {
            at: t(0),
            game: Some(game),
            account: None,
            inbound: Some(mail),
            kind: "game.created",
            detail: "{}",
        })?;
        Err(StoreError::NotFound {
            what: "anything",
            id: 1,
        })
    });
    assert!(result.is_err());
    store
        .transaction(|tx| {
            assert_eq!(tx.game_by_name("doomed")?, None);
            assert!(tx.pending_inbound(10)?.is_empty());
            assert!(tx.queued_outbox(t(100), 10)?.is_empty());
            assert!(tx.events_after(None, 10)?.is_empty());
            // The Message-ID is free again: the mail was never stored.
            let again = tx.insert_inbound(b"x", Some("<d@x>"), "a@x", t(1))?;
            assert!(matches!(again, InboundInsert::New(_)));
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn panic_rolls_back_and_store_stays_usable() {
    let mut store = Store::open_in_memory().unwrap();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _: Result<(), StoreError> = store.transaction(|tx| {
            tx.insert_game(&new_game("half"), t(0))?;
            panic!("engine bug");
        });
    }));
    assert!(outcome.is_err());
    let found = store.transaction(|tx| tx.game_by_name("half")).unwrap();
    assert_eq!(found, None);
    add_game(&mut store, "whole");
}

#[test]
fn games_update_lookup_and_deadlines() {
    let mut store = Store::open_in_memory().unwrap();
    let a = add_game(&mut store, "Alpha");
    let b = add_game(&mut store, "beta");
    let c = add_game(&mut store, "gamma");
    let dup = store.transaction(|tx| tx.insert_game(&new_game("ALPHA"), t(0)));
    assert!(matches!(dup, Err(StoreError::Constraint(_))), "{dup:?}");
    let bad_json = store.transaction(|tx| {
        tx.insert_game(
            &NewGame {
                state: "{not json",
                ..new_game("delta")
            },
            t(0),
        )
    });
    assert!(matches!(bad_json, Err(StoreError::Constraint(_))));

    store
        .transaction(|tx| {
            let set = |id, status, deadline: Option<i64>| -> Result<Game, StoreError> {
                let mut g = tx.game(id)?.unwrap();
                g.status = status;
                g.current_phase = Some("S1901M".into());
                g.next_deadline = deadline.map(t);
                g.state = format!(r#"{{"id":{}}}"#, id.0);
                tx.update_game(&g)?;
                Ok(g)
            };
            let ga = set(a, GameStatus::Active, Some(100))?;
            set(b, GameStatus::Active, Some(50))?;
            set(c, GameStatus::Paused, Some(10))?;
            assert_eq!(tx.game(a)?.unwrap(), ga);
            assert_eq!(tx.game_by_name("alpha")?.map(|g| g.id), Some(a));
            // A paused game's wake-up is its next reminder.
            assert_eq!(tx.due_games(t(9))?, vec![]);
            assert_eq!(tx.due_games(t(49))?, vec![c]);
            assert_eq!(tx.due_games(t(100))?, vec![c, b, a]);
            assert_eq!(tx.next_deadline()?, Some(t(10)));
            let active: Vec<_> = tx
                .games(Some(GameStatus::Active))?
                .into_iter()
                .map(|g| g.name)
                .collect();
            assert_eq!(active, vec!["Alpha", "beta"]);
            assert_eq!(tx.games(None)?.len(), 3);
            let mut ghost = ga.clone();
            ghost.id = GameId(999);
            assert!(matches!(
                tx.update_game(&ghost),
                Err(StoreError::NotFound { .. })
            ));
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn accounts_and_memberships() {
    let mut store = Store::open_in_memory().unwrap();
    let game = add_game(&mut store, "g");
    let hash = hash_password("hunter2").unwrap();
    store
        .transaction(|tx| {
            let ann = tx.insert_account("Ann@Example.org", Some(&hash), "Europe/Paris", t(0))?;
            let bob = tx.insert_account("bob@example.org", None, "UTC", t(0))?;
            assert!(
                tx.insert_account("ANN@example.org", None, "UTC", t(0))
                    .is_err()
            );
            let found = tx.account_by_address("ann@example.ORG")?.unwrap();
            assert_eq!(found.id, ann);
            assert!(verify_password(
                "hunter2",
                found.password_hash.as_deref().unwrap()
            ));
            let mut changed = found.clone();
            changed.time_zone = "America/New_York".into();
            tx.update_account(&changed)?;
            assert_eq!(tx.account(ann)?.unwrap(), changed);

            let prefs = vec!["France".to_string(), "Italy".to_string()];
            let m = tx.insert_membership(
                &NewMembership {
                    game,
                    account: ann,
                    role: Role::Player,
                    power: Some("France"),
                    preferences: &prefs,
                },
                t(1),
            )?;
            // One player per power, one current role per person.
            let clash = tx.insert_membership(
                &NewMembership {
                    game,
                    account: bob,
                    role: Role::Player,
                    power: Some("France"),
                    preferences: &[],
                },
                t(1),
            );
            assert!(matches!(clash, Err(StoreError::Constraint(_))));
            let standby = tx.insert_membership(
                &NewMembership {
                    game,
                    account: bob,
                    role: Role::Standby,
                    power: None,
                    preferences: &[],
                },
                t(2),
            )?;
            assert_eq!(tx.memberships(game)?.len(), 2);
            assert_eq!(tx.membership(m)?.unwrap().preferences, prefs);

            // Bob replaces Ann as France.
            tx.end_membership(m, t(3))?;
            assert!(tx.end_membership(m, t(4)).is_err());
            let mut b = tx.membership(standby)?.unwrap();
            b.role = Role::Player;
            b.power = Some("France".into());
            tx.update_membership(&b)?;
            let current = tx.memberships(game)?;
            assert_eq!(current, vec![b.clone()]);
            assert_eq!(tx.membership_history(game)?.len(), 2);
            assert_eq!(tx.memberships_of(ann)?, vec![]);
            assert_eq!(tx.memberships_of(bob)?, vec![b]);
            assert_eq!(tx.membership(m)?.unwrap().left_at, Some(t(3)));
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn phases_are_history_and_can_only_be_rolled_back() {
    let (_dir, path, mut store) = temp_store();
    let game = add_game(&mut store, "g");
    let record = |tx: &Tx<'_>, name: &str, at| {
        tx.insert_phase(&NewPhase {
            game,
            phase: name,
            position_before: r#"{"p":0}"#,
            orders: "[]",
            results: "[]",
            position_after: r#"{"p":1}"#,
            processed_at: t(at),
        })
    };
    store
        .transaction(|tx| {
            record(tx, "S1901M", 1)?;
            record(tx, "F1901M", 2)?;
            record(tx, "W1901A", 3)?;
            assert_eq!(tx.mark_rolled_back(game, 2)?, 2);
            assert_eq!(tx.mark_rolled_back(game, 2)?, 0);
            assert_eq!(tx.last_phase(game)?.unwrap().phase, "S1901M");
            record(tx, "F1901M", 4)?;
            Ok::<_, StoreError>(())
        })
        .unwrap();
    let phases = store.transaction(|tx| tx.phases(game)).unwrap();
    let summary: Vec<_> = phases
        .iter()
        .map(|p| (p.seq, p.phase.as_str(), p.rolled_back))
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, "S1901M", false),
            (2, "F1901M", true),
            (3, "W1901A", true),
            (4, "F1901M", false)
        ]
    );
    assert_eq!(phases[3].processed_at, t(4));

    let conn = raw(&path);
    assert!(
        conn.execute("UPDATE phases SET results = '[1]'", [])
            .is_err()
    );
    assert!(
        conn.execute("UPDATE phases SET rolled_back = 0", [])
            .is_err()
    );
    assert!(conn.execute("DELETE FROM phases", []).is_err());
}

#[test]
fn orders_press_and_votes_round_trip() {
    let mut store = Store::open_in_memory().unwrap();
    let game = add_game(&mut store, "g");
    store
        .transaction(|tx| {
            let mail = tx.insert_inbound(b"m", Some("<o@x>"), "p@x", t(0))?.id();
            for (power, text, canonical) in [
                ("France", "a par-bur", Some("A Par-Bur")),
                ("France", "f bre xx", None),
                ("England", "f lon h", Some("F Lon H")),
            ] {
                tx.insert_order(&NewOrder {
                    game,
                    phase: "S1901M",
                    power,
                    text,
                    canonical,
                    submitter: "p@x",
                    submitted_at: t(1),
                    inbound: Some(mail),
                })?;
            }
            let french = tx.orders(game, "S1901M", Some("France"))?;
            assert_eq!(french.len(), 2);
            assert_eq!(french[0].canonical.as_deref(), Some("A Par-Bur"));
            assert_eq!(french[1].canonical, None);
            assert_eq!(french[1].inbound, Some(mail));
            assert_eq!(tx.orders(game, "S1901M", None)?.len(), 3);
            assert!(tx.orders(game, "F1901M", None)?.is_empty());

            let to = vec!["England".to_string()];
            tx.insert_press(&NewPress {
                game,
                phase: Some("S1901M"),
                from_account: None,
                from_power: Some("France"),
                recipients: &to,
                broadcast: false,
                grey: true,
                body: "Channel stays empty?",
                sent_at: t(2),
                inbound: Some(mail),
            })?;
            let press = tx.press(game)?;
            assert_eq!(press.len(), 1);
            assert_eq!(press[0].recipients, to);
            assert!(press[0].grey && !press[0].broadcast);

            let vote = |power: &str, value: &str, at| Vote {
                game,
                power: power.into(),
                kind: "draw".into(),
                value: value.into(),
                phase: Some("S1901M".into()),
                cast_at: t(at),
                inbound: None,
            };
            tx.set_vote(&vote("France", "yes", 3))?;
            tx.set_vote(&vote("England", "yes", 3))?;
            tx.set_vote(&vote("France", "no", 4))?;
            let votes = tx.votes(game, "draw")?;
            assert_eq!(
                votes,
                vec![vote("England", "yes", 3), vote("France", "no", 4)]
            );
            assert_eq!(tx.clear_votes(game, "draw", Some("France"))?, 1);
            assert_eq!(tx.clear_votes(game, "draw", None)?, 1);
            assert!(tx.votes(game, "draw")?.is_empty());
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn second_connection_sees_committed_work() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    let mut writer = Store::open(&path).unwrap();
    let mut reader = Store::open(&path).unwrap();
    let id = add_game(&mut writer, "shared");
    let seen = reader.transaction(|tx| tx.game(id)).unwrap();
    assert_eq!(seen.map(|g| g.name), Some("shared".to_string()));
}

#[test]
fn times_drop_subseconds_and_keep_utc() {
    let mut store = Store::open_in_memory().unwrap();
    let precise = t(7) + Duration::milliseconds(999);
    let id = store
        .transaction(|tx| tx.insert_game(&new_game("g"), precise))
        .unwrap();
    let game = store.transaction(|tx| tx.game(id)).unwrap().unwrap();
    assert_eq!(game.created_at, t(7));
}

#[test]
fn version_one_file_is_upgraded_keeping_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    let conn = raw(&path);
    conn.execute_batch(include_str!("../src/store/migrations/0001_initial.sql"))
        .unwrap();
    conn.pragma_update(None, "user_version", 1).unwrap();
    conn.execute(
        "INSERT INTO games (name, variant, rules_preset, created_at)
         VALUES ('old', 'standard', 'njudge', 0)",
        [],
    )
    .unwrap();
    drop(conn);

    let (before, after) = legate::store::migrate(&path).unwrap();
    assert_eq!((before, after), (1, LATEST_VERSION));
    let mut store = Store::open(&path).unwrap();
    let old = store.transaction(|tx| tx.game_by_name("old")).unwrap();
    assert_eq!(old.map(|g| g.status), Some(GameStatus::Forming));
    let indexes: i64 = raw(&path)
        .query_row(
            "SELECT count(*) FROM sqlite_master
             WHERE type = 'index' AND name IN ('inbound_by_sender', 'outbox_by_created')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(indexes, 2);
}

#[test]
fn mail_times_per_address_for_rate_limits() {
    let mut store = Store::open_in_memory().unwrap();
    store
        .transaction(|tx| {
            for (i, sender) in ["Bot@x.org", "bot@x.org", "ann@x.org", "BOT@X.ORG"]
                .iter()
                .enumerate()
            {
                let id = format!("<{i}@x>");
                tx.insert_inbound(b"m", Some(&id), sender, t(i as i64 * 10))?;
            }
            assert_eq!(
                tx.inbound_times_from("bot@x.org", t(0))?,
                vec![t(0), t(10), t(30)]
            );
            assert_eq!(
                tx.inbound_times_from("bot@x.org", t(10))?,
                vec![t(10), t(30)]
            );
            assert!(tx.inbound_times_from("nobody@x.org", t(0))?.is_empty());

            let bot = vec!["bot@x.org".to_string()];
            let both = vec!["ann@x.org".to_string(), "Bot@X.org".to_string()];
            let ann = vec!["ann@x.org".to_string()];
            tx.queue_outbox(&reply(&bot, "1"), t(5))?;
            tx.queue_outbox(&reply(&both, "2"), t(6))?;
            tx.queue_outbox(&reply(&ann, "3"), t(7))?;
            let sent = queue(tx, "4", t(8))?;
            tx.mark_sent(sent, t(9))?;
            assert_eq!(tx.outbox_times_to("BOT@x.org", t(0))?, vec![t(5), t(6)]);
            assert_eq!(tx.outbox_times_to("ann@x.org", t(6))?, vec![t(6), t(7)]);
            assert_eq!(tx.outbox_times_to("player@example.org", t(0))?, vec![t(8)]);
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn concurrent_openers_and_writers_lose_nothing() {
    const WRITERS: usize = 4;
    const EACH: usize = 40;
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    let start = std::sync::Barrier::new(WRITERS);
    std::thread::scope(|s| {
        for w in 0..WRITERS {
            let (path, start) = (&path, &start);
            s.spawn(move || {
                start.wait();
                // All open the fresh file at once: migration must happen once.
                let mut store = Store::open(path).unwrap();
                for i in 0..EACH {
                    store
                        .transaction(|tx| {
                            let game = match tx.game_by_name("counter")? {
                                Some(g) => g,
                                None => {
                                    let id = tx.insert_game(
                                        &NewGame {
                                            state: r#"{"n":0}"#,
                                            ..new_game("counter")
                                        },
                                        t(0),
                                    )?;
                                    tx.game(id)?.unwrap()
                                }
                            };
                            // Read, then write: only safe if no one else
                            // can write in between.
                            let state: serde_json::Value =
                                serde_json::from_str(&game.state).unwrap();
                            let n = state["n"].as_i64().unwrap();
                            let mut next = game.clone();
                            next.state = format!(r#"{{"n":{}}}"#, n + 1);
                            tx.update_game(&next)?;
                            let id = format!("<{w}-{i}@x>");
                            tx.insert_inbound(b"m", Some(&id), "a@x", t(0))?;
                            Ok::<_, StoreError>(())
                        })
                        .unwrap();
                }
            });
        }
    });
    let mut store = Store::open(&path).unwrap();
    let game = store
        .transaction(|tx| tx.game_by_name("counter"))
        .unwrap()
        .unwrap();
    assert_eq!(game.state, format!(r#"{{"n":{}}}"#, WRITERS * EACH));
    let mails = store
        .transaction(|tx| tx.inbound_times_from("a@x", t(0)))
        .unwrap();
    assert_eq!(mails.len(), WRITERS * EACH);
}

#[cfg(unix)]
#[test]
fn new_database_is_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, path, mut store) = temp_store();
    add_game(&mut store, "g");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    let wal = path.with_extension("db-wal");
    assert!(wal.exists());
    assert_eq!(mode(&wal), 0o600);
}

#[test]
fn backup_is_a_complete_usable_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = db_path(&dir);
    let copy = dir.path().join("copy.db");
    let mut store = Store::open(&path).unwrap();
    add_game(&mut store, "kept");
    store.backup_to(&copy).unwrap();
    add_game(&mut store, "later");
    assert!(store.backup_to(&copy).is_err(), "overwrote a backup");

    let mut restored = Store::open(&copy).unwrap();
    let names: Vec<String> = restored
        .transaction(|tx| tx.games(None))
        .unwrap()
        .into_iter()
        .map(|g| g.name)
        .collect();
    assert_eq!(names, vec!["kept"]);

    let cli_copy = dir.path().join("cli.db");
    let out = Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["db", "backup", "--database"])
        .arg(&path)
        .arg("--to")
        .arg(&cli_copy)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut from_cli = Store::open(&cli_copy).unwrap();
    assert_eq!(from_cli.transaction(|tx| tx.games(None)).unwrap().len(), 2);
}

#[test]
fn blank_message_id_counts_as_missing() {
    let mut store = Store::open_in_memory().unwrap();
    store
        .transaction(|tx| {
            let a = tx.insert_inbound(b"first", Some("  "), "a@x", t(0))?;
            let b = tx.insert_inbound(b"second", Some(""), "a@x", t(0))?;
            assert!(matches!(a, InboundInsert::New(_)));
            assert!(matches!(b, InboundInsert::New(_)));
            let key = tx.inbound(a.id())?.unwrap().message_id;
            assert!(key.starts_with("sha256:"), "{key}");
            Ok::<_, StoreError>(())
        })
        .unwrap();
}

#[test]
fn the_same_file_on_many_mails_is_stored_once() {
    let (_dir, path, mut store) = temp_store();
    let picture = vec![7u8; 50_000];
    let ids = store
        .transaction(|tx| {
            let mut ids = Vec::new();
            for k in 0..8 {
                let id = queue(tx, &format!("results {k}"), t(0))?;
                for (name, bytes) in [
                    ("board.png", &picture[..]),
                    ("board.svg", b"<svg/>".as_slice()),
                ] {
                    let file = NewAttachment {
                        filename: name,
                        content_type: "application/octet-stream",
                        bytes,
                    };
                    tx.add_outbox_attachment(id, &file)?;
                }
                ids.push(id);
            }
            Ok::<_, StoreError>(ids)
        })
        .unwrap();
    for id in ids {
        let mail = store.transaction(|tx| tx.outbox(id)).unwrap().unwrap();
        assert_eq!(mail.attachments.len(), 2);
        assert_eq!(mail.attachments[0].bytes, picture);
        assert_eq!(mail.attachments[1].bytes, b"<svg/>");
    }
    let conn = raw(&path);
    let (files, bytes): (i64, i64) = conn
        .query_row(
            "SELECT count(*), sum(length(bytes)) FROM attachment_files",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(files, 2, "one row per distinct file");
    assert_eq!(bytes, 50_006);
    let named: i64 = conn
        .query_row("SELECT count(*) FROM outbox_attachments", [], |r| r.get(0))
        .unwrap();
    assert_eq!(named, 16);
}

#[test]
fn version_three_attachments_are_carried_over() {
    let (_dir, path, mut store) = temp_store();
    let id = store.transaction(|tx| queue(tx, "old", t(0))).unwrap();
    drop(store);
    // The file as version 3 left it: bytes in each attachment row.
    let conn = raw(&path);
    conn.execute_batch(
        "DROP TABLE outbox_attachments; DROP TABLE attachment_files;
         CREATE TABLE outbox_attachments (
             outbox_id INTEGER NOT NULL REFERENCES outbox (id),
             position INTEGER NOT NULL CHECK (position >= 0),
             filename TEXT NOT NULL, content_type TEXT NOT NULL, bytes BLOB NOT NULL,
             PRIMARY KEY (outbox_id, position));
         ALTER TABLE inbound_mails DROP COLUMN signed;
         PRAGMA user_version = 3;",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO outbox_attachments VALUES (?1, 0, 'a.png', 'image/png', x'89504e47'),
                                               (?1, 1, 'a.svg', 'image/svg+xml', x'3c7376672f3e')",
        [id.0],
    )
    .unwrap();
    drop(conn);
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
    let mail = store.transaction(|tx| tx.outbox(id)).unwrap().unwrap();
    let files: Vec<(&str, &[u8])> = mail
        .attachments
        .iter()
        .map(|a| (a.filename.as_str(), a.bytes.as_slice()))
        .collect();
    assert_eq!(
        files,
        [("a.png", &b"\x89PNG"[..]), ("a.svg", &b"<svg/>"[..])]
    );
}

#[test]
fn grouped_syncs_leave_commits_in_the_files_and_a_reader_sees_them() {
    let (_dir, path, mut store) = temp_store();
    assert!(!store.syncs_grouped());
    store.group_syncs().unwrap();
    assert!(store.syncs_grouped());
    let id = add_game(&mut store, "grouped");
    // Not synced yet, but written: the files as a killed process leaves them
    // (copied now, the connection still open) hold the commit.
    let copy = tempfile::tempdir().unwrap();
    for suffix in ["", "-wal"] {
        let from = format!("{}{suffix}", path.display());
        let to = format!("{}{suffix}", db_path(&copy).display());
        std::fs::copy(&from, &to).unwrap();
    }
    let mut copied = Store::open(db_path(&copy)).unwrap();
    let found = copied.transaction(|tx| tx.game(id)).unwrap();
    assert_eq!(found.map(|g| g.name).as_deref(), Some("grouped"));
    store.sync().unwrap();
    // A second, read-only connection sees the commit and cannot write.
    let mut reader = Store::open_reader(&path).unwrap();
    let name = reader.read(|tx| tx.game(id)).unwrap().map(|g| g.name);
    assert_eq!(name.as_deref(), Some("grouped"));
    assert!(
        reader
            .read(|tx| tx.insert_game(&new_game("other"), t(0)))
            .is_err()
    );
}
