//! The daemon over Maildir folders (no servers): one pass reads, guards, applies
//! and answers; a mail seen twice is applied once; robots get no answer; the rate
//! limit and the size limit hold; a crash between the database commit and the
//! mailbox commit does not apply a mail twice.

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use legate::config::Config;
use legate::daemon::intake::{IntakeSettings, Outcome, handle};
use legate::daemon::run_once;
use legate::game::{Engine, EngineConfig};
use legate::mail::IngestOptions;
use legate::mail::inbound::MaildirInbound;
use legate::store::{InboundStatus, Store};

const JUDGE: &str = "judge@judge.test";

struct Judge {
    dir: tempfile::TempDir,
    config: Config,
    n: usize,
}

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect("time")
        .with_timezone(&Utc)
}

impl Judge {
    fn new(extra_judge_keys: &str) -> Judge {
        let dir = tempfile::tempdir().expect("tempdir");
        let text = format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n{extra_judge_keys}\n\
             [inbound]\nkind = \"maildir\"\npath = \"in\"\npoll_seconds = 1\n\
             [outbound]\nkind = \"maildir\"\npath = \"out\"\n"
        );
        let config = Config::parse(&text, Some(dir.path()), |_| None).expect("config");
        for sub in ["in/new", "in/cur", "in/tmp"] {
            fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        Judge { dir, config, n: 0 }
    }

    fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }

    /// Drops a mail into the inbox; returns its file name.
    fn drop_raw(&mut self, raw: &str) -> String {
        self.n += 1;
        let name = format!("{:06}.test", self.n);
        fs::write(self.path("in/new").join(&name), raw.replace('\n', "\r\n")).expect("write");
        name
    }

    fn drop_mail(&mut self, from: &str, id: &str, subject: &str, body: &str) -> String {
        self.drop_raw(&format!(
            "From: {from}\nTo: {JUDGE}\nSubject: {subject}\nMessage-ID: <{id}>\n\
             Date: Mon, 1 Mar 2027 09:00:00 +0000\n\n{body}\n"
        ))
    }

    fn once(&self, now: &str) -> legate::daemon::PassReport {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime
            .block_on(run_once(&self.config, t(now)))
            .expect("pass")
    }

    /// Every mail the judge sent, parsed: (To, Subject, raw text).
    fn sent(&self) -> Vec<(String, String, String)> {
        let dir = self.path("out/new");
        let mut mails: Vec<(String, String, String)> = fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .map(|p| parse(&p))
            .collect();
        mails.sort();
        mails
    }

    /// Files in a folder (none before the folder exists).
    fn files_in(&self, sub: &str) -> usize {
        fs::read_dir(self.path(sub)).map(|d| d.count()).unwrap_or(0)
    }

    fn store(&self) -> Store {
        Store::open(&self.config.judge.database).expect("store")
    }
}

fn parse(path: &Path) -> (String, String, String) {
    let raw = fs::read(path).expect("read");
    let msg = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("a mail");
    let to = msg
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string();
    let subject = msg.subject().unwrap_or("").to_string();
    (to, subject, String::from_utf8_lossy(&raw).into_owned())
}

#[test]
fn one_pass_answers_a_mail_threaded_and_marks_it_read() {
    let mut judge = Judge::new("");
    judge.drop_mail(
        "gm@example.test",
        "create-1@example.test",
        "new game",
        "CREATE ?alpha gm-secret standard",
    );
    let report = judge.once("2027-03-01T09:00:00Z");
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert_eq!(report.delivery.sent, 1, "{report:?}");
    let sent = judge.sent();
    assert_eq!(sent.len(), 1);
    let (to, subject, raw) = &sent[0];
    assert_eq!(to, "gm@example.test");
    assert_eq!(subject, "Re: LEGT:alpha new game");
    assert!(
        raw.contains("In-Reply-To: <create-1@example.test>"),
        "{raw}"
    );
    assert!(raw.contains("Auto-Submitted: auto-replied"), "{raw}");
    assert!(raw.contains(":: Judge: LEGT"), "{raw}");
    assert!(raw.contains(JUDGE), "{raw}");
    assert_eq!(judge.files_in("in/new"), 0);
    assert_eq!(judge.files_in("in/cur"), 1);
    // Nothing left to do: a second pass sends nothing more.
    let again = judge.once("2027-03-01T09:05:00Z");
    assert_eq!(again.intake.fetched, 0);
    assert_eq!(judge.sent().len(), 1);
}

#[test]
fn the_same_message_id_twice_is_applied_once() {
    let mut judge = Judge::new("");
    for _ in 0..2 {
        judge.drop_mail(
            "gm@example.test",
            "same@example.test",
            "new game",
            "CREATE ?beta gm-secret standard",
        );
    }
    let report = judge.once("2027-03-01T09:00:00Z");
    assert_eq!(report.intake.fetched, 2);
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert_eq!(report.intake.duplicates, 1, "{report:?}");
    let sent = judge.sent();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(!sent[0].2.contains("Error Flag"), "{}", sent[0].2);
    assert_eq!(judge.files_in("in/cur"), 2, "both copies are marked read");
}

#[test]
fn robots_get_no_answer() {
    let mut judge = Judge::new("");
    judge.drop_raw(
        "From: vacation@example.test\nTo: judge@judge.test\nSubject: Away\n\
         Auto-Submitted: auto-replied\nMessage-ID: <away@example.test>\n\nI am away.\n",
    );
    judge.drop_raw(
        "From: MAILER-DAEMON@example.test\nTo: judge@judge.test\nSubject: Undelivered\n\
         Message-ID: <bounce@example.test>\n\nCREATE ?x pw\n",
    );
    judge.drop_raw(
        "From: judge@judge.test\nTo: judge@judge.test\nSubject: Re: LEGT\n\
         Message-ID: <self@judge.test>\n\nCREATE ?y pw\n",
    );
    judge.drop_raw(
        "From: list@example.test\nTo: judge@judge.test\nSubject: News\nPrecedence: bulk\n\
         Message-ID: <bulk@example.test>\n\nCREATE ?z pw\n",
    );
    let report = judge.once("2027-03-01T09:00:00Z");
    assert_eq!(report.intake.ignored, 4, "{report:?}");
    assert_eq!(report.intake.applied, 0, "{report:?}");
    assert!(judge.sent().is_empty(), "{:?}", judge.sent());
    assert_eq!(judge.files_in("in/cur"), 4);
    let mut store = judge.store();
    let pending = store
        .transaction(|tx| tx.pending_inbound(10))
        .expect("pending");
    assert!(pending.is_empty());
}

#[test]
fn a_sender_over_the_rate_gets_one_notice_then_silence() {
    let mut judge = Judge::new("replies_per_hour = 2\n");
    for i in 0..5 {
        judge.drop_mail(
            "chatty@example.test",
            &format!("c{i}@example.test"),
            "hi",
            "HELP",
        );
    }
    let report = judge.once("2027-03-01T09:00:00Z");
    assert_eq!(report.intake.applied, 2, "{report:?}");
    assert_eq!(report.intake.rate_limited, 3, "{report:?}");
    let sent = judge.sent();
    assert_eq!(sent.len(), 3, "two answers and one notice: {sent:?}");
    let notices = sent
        .iter()
        .filter(|(_, _, raw)| raw.contains("more than 2 mails"))
        .count();
    assert_eq!(notices, 1);
    // An hour later the sender is heard again.
    judge.drop_mail("chatty@example.test", "c9@example.test", "hi", "HELP");
    let later = judge.once("2027-03-01T10:01:00Z");
    assert_eq!(later.intake.applied, 1, "{later:?}");
    assert_eq!(judge.sent().len(), 4);
}

#[test]
fn an_oversize_mail_gets_one_short_refusal() {
    let mut judge = Judge::new("max_mail_bytes = 1024\n");
    let body = "A Par - Bur\n".repeat(200);
    judge.drop_mail("big@example.test", "big@example.test", "orders", &body);
    let report = judge.once("2027-03-01T09:00:00Z");
    assert_eq!(report.intake.oversize, 1, "{report:?}");
    let sent = judge.sent();
    assert_eq!(sent.len(), 1);
    let (to, subject, raw) = &sent[0];
    assert_eq!(to, "big@example.test");
    assert!(subject.starts_with("Re: [Error Flag] LEGT"), "{subject}");
    assert!(raw.contains("larger than this judge accepts"), "{raw}");
    assert!(raw.len() < 2000, "a short refusal: {raw}");
    assert!(raw.contains("In-Reply-To: <big@example.test>"), "{raw}");
}

#[test]
fn a_crash_between_the_database_and_the_mailbox_does_not_apply_twice() {
    let mut judge = Judge::new("");
    judge.drop_mail(
        "gm@example.test",
        "crash@example.test",
        "new game",
        "CREATE ?gamma gm-secret standard",
    );
    let now = t("2027-03-01T09:00:00Z");
    // Apply the mail as the daemon does, then "crash" before telling the mailbox.
    {
        let inbox = MaildirInbound::open(&judge.path("in"), 1, 262_144).expect("inbox");
        let mails = inbox.fetch().expect("fetch");
        assert_eq!(mails.len(), 1);
        let mut engine =
            Engine::open(&judge.config.judge.database, EngineConfig::default()).expect("engine");
        let settings = IntakeSettings {
            ingest: IngestOptions {
                judge_address: JUDGE.into(),
                max_bytes: 262_144,
            },
            judge_name: "LEGT".into(),
            per_hour: 30,
            authserv_ids: Vec::new(),
        };
        let outcome = handle(&mut engine, &settings, &mails[0], now).expect("handled");
        assert_eq!(outcome, Outcome::Applied { errors: 0 });
    }
    assert_eq!(judge.files_in("in/new"), 1, "still unread on the server");
    let report = judge.once("2027-03-01T09:01:00Z");
    assert_eq!(report.intake.duplicates, 1, "{report:?}");
    assert_eq!(report.intake.applied, 0, "{report:?}");
    assert_eq!(judge.files_in("in/new"), 0);
    let sent = judge.sent();
    assert_eq!(sent.len(), 1, "one answer only: {sent:?}");
    let mut store = judge.store();
    let rows = store
        .transaction(|tx| {
            let id = tx
                .insert_inbound(b"", Some("crash@example.test"), "gm@example.test", now)?
                .id();
            Ok::<_, legate::store::StoreError>((tx.inbound_status(id)?, tx.outbox_replies_to(id)?))
        })
        .expect("rows");
    assert_eq!(rows.0, InboundStatus::Processed);
    assert_eq!(rows.1.len(), 1);
}

#[test]
fn the_demo_plays_a_game_and_shows_the_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["demo", "--dir"])
        .arg(dir.path())
        .output()
        .expect("run legate demo");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for phase in ["S1901M results", "F1901M results", "W1901A results"] {
        assert!(stdout.contains(phase), "{phase} missing:\n{stdout}");
    }
    let new = dir.path().join("mail/out/new");
    assert!(stdout.contains(&new.display().to_string()), "{stdout}");
    let files = fs::read_dir(&new).expect("out").count();
    assert!(files > 40, "{files} mails");
    // Every player got the Fall results.
    let results: Vec<(String, String, String)> = fs::read_dir(&new)
        .expect("out")
        .flatten()
        .map(|e| parse(&e.path()))
        .filter(|(_, s, _)| s.ends_with("F1901M results"))
        .collect();
    assert_eq!(results.len(), 8, "seven players and the master");
}

#[test]
fn a_mail_the_engine_fails_on_is_kept_and_answered_once() {
    let mut judge = Judge::new("");
    judge.drop_mail(
        "gm@example.test",
        "make@example.test",
        "new game",
        "CREATE ?broken gm-secret standard",
    );
    judge.once("2027-03-01T09:00:00Z");
    // Damage the stored game, as a faulty upgrade might.
    let conn = rusqlite::Connection::open(&judge.config.judge.database).expect("sqlite");
    conn.execute(
        "UPDATE games SET state = '{\"nonsense\": 1}' WHERE name = 'broken'",
        [],
    )
    .expect("damage");
    drop(conn);
    judge.drop_mail(
        "gm@example.test",
        "fail@example.test",
        "orders",
        "SIGNON Mbroken gm-secret\nPROCESS",
    );
    let report = judge.once("2027-03-01T09:05:00Z");
    assert_eq!(report.intake.failed, 1, "{report:?}");
    assert_eq!(judge.files_in("in/new"), 0, "not retried for ever");
    let sent = judge.sent();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(
        sent.iter()
            .any(|(_, _, raw)| raw.contains("problem in the judge")),
        "{sent:?}"
    );
    let mut store = judge.store();
    let status = store
        .transaction(|tx| {
            let id = tx
                .insert_inbound(
                    b"",
                    Some("fail@example.test"),
                    "",
                    t("2027-03-01T09:05:00Z"),
                )?
                .id();
            tx.inbound_status(id)
        })
        .expect("status");
    assert_eq!(status, InboundStatus::Failed);
}

#[test]
fn a_failed_delivery_is_retried_later_with_the_same_bytes() {
    use legate::daemon::delivery::{DeliverySettings, deliver_due};
    use legate::mail::outbound::{MaildirOutbound, Outbound};
    use legate::store::{NewOutbox, OutboxStatus};

    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = Store::open(dir.path().join("legate.db")).expect("store");
    let now = t("2027-03-01T09:00:00Z");
    let to = vec!["alice@example.test".to_string()];
    let id = store
        .transaction(|tx| {
            tx.queue_outbox(
                &NewOutbox {
                    recipients: &to,
                    subject: "LEGT:alpha - S1901M results",
                    body: "Movement results\n",
                    ..NewOutbox::default()
                },
                now,
            )
        })
        .expect("queued");
    let out_dir = dir.path().join("out");
    let outbound = Outbound::Maildir(MaildirOutbound::open(&out_dir).expect("out"));
    // The mail folder is broken: new/ is a file.
    fs::remove_dir(out_dir.join("new")).expect("rm new");
    fs::write(out_dir.join("new"), b"").expect("file");
    let settings = DeliverySettings {
        judge_address: JUDGE.into(),
        judge_name: "LEGT".into(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let first = runtime
        .block_on(deliver_due(&mut store, &outbound, &settings, now))
        .expect("pass");
    assert_eq!((first.sent, first.postponed), (0, 1));
    let entry = store
        .transaction(|tx| tx.outbox(id))
        .expect("read")
        .expect("entry");
    assert_eq!(entry.status, OutboxStatus::Queued);
    assert_eq!(entry.attempts, 1);
    assert!(entry.next_attempt_at >= now + chrono::Duration::seconds(10));
    let fixed = entry
        .message
        .clone()
        .expect("bytes fixed before the first attempt");
    let fixed_text = String::from_utf8_lossy(&fixed);
    assert!(
        fixed_text.contains("Auto-Submitted: auto-generated"),
        "{fixed_text}"
    );
    assert!(
        fixed_text.contains("Subject: LEGT:alpha - S1901M results"),
        "{fixed_text}"
    );

    // Not due yet: nothing tried.
    let early = runtime
        .block_on(deliver_due(&mut store, &outbound, &settings, now))
        .expect("pass");
    assert_eq!(early, Default::default());

    fs::remove_file(out_dir.join("new")).expect("rm file");
    fs::create_dir(out_dir.join("new")).expect("mkdir");
    let later = now + chrono::Duration::minutes(5);
    let second = runtime
        .block_on(deliver_due(&mut store, &outbound, &settings, later))
        .expect("pass");
    assert_eq!(second.sent, 1);
    let files: Vec<PathBuf> = fs::read_dir(out_dir.join("new"))
        .expect("new")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1);
    assert_eq!(
        fs::read(&files[0]).expect("read"),
        fixed,
        "the very same mail"
    );
    let entry = store
        .transaction(|tx| tx.outbox(id))
        .expect("read")
        .expect("entry");
    assert_eq!(entry.status, OutboxStatus::Sent);
    // Sent is final: another pass sends nothing.
    let third = runtime
        .block_on(deliver_due(
            &mut store,
            &outbound,
            &settings,
            later + chrono::Duration::hours(1),
        ))
        .expect("pass");
    assert_eq!(third.sent, 0);
}

#[test]
fn an_undeliverable_address_is_given_up() {
    use legate::daemon::delivery::{DeliverySettings, deliver_due};
    use legate::mail::outbound::{MaildirOutbound, Outbound};
    use legate::store::{NewOutbox, OutboxStatus};

    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = Store::open(dir.path().join("legate.db")).expect("store");
    let now = t("2027-03-01T09:00:00Z");
    let to = vec!["not an address".to_string()];
    let id = store
        .transaction(|tx| {
            tx.queue_outbox(
                &NewOutbox {
                    recipients: &to,
                    subject: "LEGT",
                    body: "x\n",
                    ..NewOutbox::default()
                },
                now,
            )
        })
        .expect("queued");
    let outbound = Outbound::Maildir(MaildirOutbound::open(&dir.path().join("out")).expect("out"));
    let settings = DeliverySettings {
        judge_address: JUDGE.into(),
        judge_name: "LEGT".into(),
    };
    let report = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
        .block_on(deliver_due(&mut store, &outbound, &settings, now))
        .expect("pass");
    assert_eq!((report.sent, report.failed), (0, 1));
    let entry = store
        .transaction(|tx| tx.outbox(id))
        .expect("read")
        .expect("entry");
    assert_eq!(entry.status, OutboxStatus::Failed);
    assert!(entry.last_error.is_some());
}

#[test]
fn legate_run_once_from_the_command_line() {
    let mut judge = Judge::new("");
    judge.drop_mail("gm@example.test", "cli@example.test", "hello", "HELP");
    let config = judge.path("legate.toml");
    fs::write(
        &config,
        format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\
             [inbound]\nkind = \"maildir\"\npath = \"in\"\n\
             [outbound]\nkind = \"maildir\"\npath = \"out\"\n"
        ),
    )
    .expect("config");
    let legate = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_legate"))
            .arg("run")
            .args(args)
            .env("RUST_LOG", "warn")
            .output()
            .expect("run legate")
    };
    let config_arg = config.display().to_string();
    let bad = legate(&["--config", &config_arg, "--once", "--now", "tomorrow"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--now"));
    let without_once = legate(&["--config", &config_arg, "--now", "2027-03-01T09:00:00Z"]);
    assert!(!without_once.status.success(), "--now needs --once");
    let ok = legate(&[
        "--config",
        &config_arg,
        "--once",
        "--now",
        "2027-03-01T09:00:00Z",
    ]);
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{stdout}");
    assert!(stdout.contains("mail read: 1 (applied 1"), "{stdout}");
    assert!(stdout.contains("mail sent: 1"), "{stdout}");
    let sent = judge.sent();
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].2.contains("Date: Mon, 01 Mar 2027 09:00:00"),
        "{}",
        sent[0].2
    );
}

#[test]
fn the_running_daemon_answers_new_mail_and_stops_on_request() {
    let mut judge = Judge::new("");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = judge.config.clone();
    let daemon = runtime.spawn(async move {
        legate::daemon::run(&config, async {
            let _ = stopped.await;
        })
        .await
    });
    judge.drop_mail("gm@example.test", "live-1@example.test", "hi", "HELP");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while judge.sent().is_empty() {
        assert!(
            std::time::Instant::now() < until,
            "no answer from the daemon"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // A second mail while it runs is answered too.
    judge.drop_mail("gm@example.test", "live-2@example.test", "again", "HELP");
    while judge.sent().len() < 2 {
        assert!(std::time::Instant::now() < until, "no second answer");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    stop.send(()).expect("daemon still running");
    let result = runtime.block_on(daemon).expect("task");
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(judge.files_in("in/cur"), 2);
}

#[test]
fn a_batch_is_stored_in_one_commit_and_each_mail_applied_in_one_more() {
    let mut judge = Judge::new("");
    judge.drop_mail(
        "gm@example.test",
        "b0@example.test",
        "new",
        "CREATE ?batch gm-pw",
    );
    for i in 1..=4 {
        judge.drop_mail(
            &format!("p{i}@example.test"),
            &format!("b{i}@example.test"),
            "join",
            &format!("SIGNON ?batch pw-{i}"),
        );
    }
    // A robot and a mail that is no mail: settled by the guard in the same one commit.
    judge.drop_raw(
        "From: MAILER-DAEMON@example.test\nTo: judge@judge.test\nSubject: failure\n\
         Message-ID: <b5@example.test>\nAuto-Submitted: auto-replied\n\nundeliverable\n",
    );
    let inbox = MaildirInbound::open(&judge.path("in"), 10, 262_144).expect("inbox");
    let mails = inbox.fetch().expect("fetch");
    assert_eq!(mails.len(), 6);
    let mut engine =
        Engine::open(&judge.config.judge.database, EngineConfig::default()).expect("engine");
    let settings = IntakeSettings {
        ingest: IngestOptions {
            judge_address: JUDGE.into(),
            max_bytes: 262_144,
        },
        judge_name: "LEGT".into(),
        per_hour: 30,
        authserv_ids: Vec::new(),
    };
    let before = engine.store().commits();
    let outcomes = legate::daemon::intake::handle_batch(
        &mut engine,
        &settings,
        &mails,
        t("2027-03-01T09:00:00Z"),
    )
    .expect("batch");
    let commits = engine.store().commits() - before;
    let applied = outcomes
        .iter()
        .filter(|o| matches!(o, Ok(Outcome::Applied { errors: 0 })))
        .count();
    assert_eq!(applied, 5, "{outcomes:?}");
    assert!(
        matches!(outcomes[5], Ok(Outcome::Ignored(_))),
        "{outcomes:?}"
    );
    assert_eq!(commits, 1 + 6, "the raw batch, then one per mail");
    // And every mail is settled: nothing pending, one answer each but the robot's.
    let mut store = judge.store();
    let pending = store
        .transaction(|tx| tx.pending_inbound(10))
        .expect("pending");
    assert!(pending.is_empty(), "{pending:?}");
}

/// A Twilight Zone map may come as a plain-text attachment: the judge reads a
/// mail's body and then its text attachments as one text.
#[test]
fn a_map_attached_as_a_text_file_is_read_after_the_body() {
    let mut judge = Judge::new("");
    judge.drop_mail(
        "gm@example.test",
        "create-tz@example.test",
        "new game",
        "CREATE ?tz gm-secret twilight",
    );
    judge.once("2027-03-01T09:00:00Z");
    let map = include_str!("../config/twilight/north-channel.txt");
    judge.drop_raw(&format!(
        "From: player@example.test\nTo: {JUDGE}\nSubject: my map\n\
         Message-ID: <map-1@example.test>\nDate: Mon, 1 Mar 2027 09:10:00 +0000\n\
         MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b1\"\n\n\
         --b1\nContent-Type: text/plain; charset=utf-8\n\n\
         SIGNON ?tz player-secret\nMy map is attached.\n\
         --b1\nContent-Type: text/plain; charset=utf-8; name=\"north-channel.txt\"\n\
         Content-Disposition: attachment; filename=\"north-channel.txt\"\n\n\
         {map}\n--b1--\n"
    ));
    let report = judge.once("2027-03-01T09:10:00Z");
    assert_eq!(report.intake.applied, 1, "{report:?}");
    let to_player: Vec<_> = judge
        .sent()
        .into_iter()
        .filter(|(to, _, _)| to == "player@example.test")
        .collect();
    assert!(
        to_player
            .iter()
            .any(|(_, _, raw)| raw.contains("Map accepted")),
        "{to_player:#?}"
    );
    assert!(
        to_player
            .iter()
            .any(|(_, subject, _)| subject.contains("your Twilight Zone map")),
        "the picture goes to the designer"
    );
}
