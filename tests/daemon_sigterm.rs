//! A stop by SIGTERM (what `systemctl stop` and `systemctl restart` send) while the
//! daemon `legate run` is working through a mailbox of orders: the daemon finishes
//! the mail in hand and exits cleanly, and after a restart every mail has been
//! applied and answered exactly once and every order stored once, as in a run that
//! was never stopped. The trials send the signal at random moments, as the kill -9
//! trials of tests/daemon_crash.rs do.
//!
//! Trials: 12 by default; `LEGATE_SIGTERM_TRIALS=N` for more.

use crate::hardening_common;
use crate::mail_stack::MailServers;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
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
fn daemon(judge: &impl Site) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["run", "--config"])
        .arg(judge.config())
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
fn processed(judge: &impl Site) -> usize {
    if !judge.db().exists() {
        return 0;
    }
    count(
        judge,
        "SELECT count(*) FROM inbound_mails WHERE status = 'processed'",
    ) as usize
}

fn count(judge: &impl Site, query: &str) -> i64 {
    sql(judge)
        .query_row(query, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{query}: {e}"))
}

fn sql(judge: &impl Site) -> rusqlite::Connection {
    rusqlite::Connection::open(judge.db()).expect("sqlite")
}

/// Where the judge reads and sends mail: Maildir folders or real servers.
trait Site {
    fn config(&self) -> PathBuf;
    fn db(&self) -> PathBuf;
    /// Mails at the source not yet marked done (in `new/`, or unseen on the server).
    fn waiting(&self) -> usize;
    /// The judge's mails as they reached their recipients so far.
    fn sent(&self) -> Vec<Sent>;
}

impl Site for Judge {
    fn config(&self) -> PathBuf {
        self.path("legate.toml")
    }

    fn db(&self) -> PathBuf {
        Judge::db(self)
    }

    fn waiting(&self) -> usize {
        self.files_in("in/new")
    }

    fn sent(&self) -> Vec<Sent> {
        Judge::sent(self)
    }
}

/// Runs the daemon until every mail is applied and every answer sent, then stops
/// it. Returns how long the mails took to be applied.
fn run_until_done(judge: &impl Site, mails: usize) -> StdDuration {
    let child = daemon(judge);
    let started = Instant::now();
    let mut applied_in = None;
    // The daemon works on its own clock; this loop only watches, with a limit so a
    // daemon that stalls is reported instead of hanging the test.
    loop {
        let applied = processed(judge) == START_MAILS + mails;
        if applied && applied_in.is_none() {
            applied_in = Some(started.elapsed());
        }
        if applied && queued(judge) == 0 {
            break;
        }
        assert!(
            started.elapsed() < StdDuration::from_secs(600),
            "the daemon did not finish: {} of {mails} mails, {} queued",
            processed(judge) - START_MAILS,
            queued(judge)
        );
        std::thread::sleep(StdDuration::from_millis(20));
    }
    stop(child);
    applied_in.unwrap_or_default()
}

fn queued(judge: &impl Site) -> i64 {
    count(judge, "SELECT count(*) FROM outbox WHERE status = 'queued'")
}

/// What must hold right after a stop by SIGTERM: no mail stored and left half
/// done (the batch in hand was finished), each applied mail answered once and
/// taken out of `new/`, and no mail sent twice.
fn check_after_stop(judge: &impl Site, mails: usize) -> Result<(), String> {
    let conn = sql(judge);
    let rows = inbound_answers(&conn).map_err(|e| e.to_string())?;
    for (id, status, replies) in &rows {
        if (status.as_str(), *replies) != ("processed", 1) {
            return Err(format!(
                "mail {id}: {status} with {replies} answers after SIGTERM"
            ));
        }
    }
    let applied = rows.len() - START_MAILS;
    let waiting = judge.waiting();
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

fn outcome(judge: &impl Site) -> Outcome {
    let conn = sql(judge);
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
        stored_mails: count(judge, "SELECT count(*) FROM inbound_mails"),
    }
}

/// Every outbox entry sent, and in the outbound Maildir exactly once.
fn check_sent_once(judge: &impl Site) {
    let entries = count(judge, "SELECT count(*) FROM outbox");
    let sent = count(judge, "SELECT count(*) FROM outbox WHERE status = 'sent'");
    // Mail through a server arrives a moment after it was handed over.
    let started = Instant::now();
    while by_message_id(&judge.sent()).len() < entries as usize
        && started.elapsed() < StdDuration::from_secs(120)
    {
        std::thread::sleep(StdDuration::from_millis(100));
    }
    let counts = by_message_id(&judge.sent());
    assert_eq!(sent, entries, "every answer sent");
    assert_eq!(counts.len() as i64, entries, "one mail per outbox entry");
    assert!(counts.values().all(|n| *n == 1), "no mail sent twice");
}

/// The trials: the same mail on a fresh site each time, stopped up to three
/// times at random moments, then run to the end and compared with `expected`.
/// `span` is how long the whole intake takes without stops. Returns how many
/// stops came while mail was being applied.
fn stop_trials<S: Site>(
    trials: usize,
    span: StdDuration,
    expected: &Outcome,
    site: impl Fn() -> (S, usize),
) -> usize {
    let mut rng = rand::thread_rng();
    let mut mid_batch = 0;
    for trial in 1..=trials {
        let (judge, mails) = site();
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
            &outcome(&judge),
            expected,
            "trial {trial}: the orders or answers differ from a run never stopped"
        );
    }
    mid_batch
}

fn trials_from_env() -> usize {
    std::env::var("LEGATE_SIGTERM_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

/// The run never stopped: its outcome and how long the intake took.
fn reference() -> (Outcome, StdDuration) {
    let (reference, mails) = judge_with_mail();
    let span = run_until_done(&reference, mails);
    println!("reference: {mails} mails applied in {span:?}");
    let expected = outcome(&reference);
    check_sent_once(&reference);
    assert_eq!(expected.stored_mails as usize, START_MAILS + mails);
    assert!(expected.answers.values().all(|n| *n == 1));
    (expected, span)
}

#[test]
fn sigterm_mid_batch_loses_and_repeats_nothing() {
    let trials = trials_from_env();
    let (expected, span) = reference();
    let mid_batch = stop_trials(trials, span, &expected, judge_with_mail);
    println!("SIGTERM test: {trials} trials, {mid_batch} stops while mail was being applied");
    assert!(mid_batch > 0, "no stop landed while mail was being applied");
}

/// The same over real servers: the judge reads its mailbox in Dovecot over IMAPS
/// and sends through Postfix with STARTTLS (scripts/mail-servers.sh, as in
/// tests/mail_servers.rs). Here a stop can fall while mails are being marked
/// seen on the server or handed to Postfix: after it, the server must agree with
/// the database (every applied mail seen, no other), and no mail may arrive twice.
#[test]
fn sigterm_over_imap_and_smtp_loses_and_repeats_nothing() {
    let trials = (trials_from_env() / 3).max(3);
    let (expected, _) = reference();
    let (site, mails) = Servers::with_mail();
    let span = run_until_done(&site, mails);
    println!("over the servers: {mails} mails applied in {span:?}");
    check_sent_once(&site);
    assert_eq!(outcome(&site), expected, "over the servers as over Maildir");
    drop(site);
    let mid_batch = stop_trials(trials, span, &expected, Servers::with_mail);
    println!(
        "SIGTERM over IMAP/SMTP: {trials} trials, {mid_batch} stops while mail was being applied"
    );
    assert!(mid_batch > 0, "no stop landed while mail was being applied");
}

/// A judge on loopback Dovecot and Postfix; the servers stop when it is dropped.
struct Servers {
    stack: MailServers,
    judge: tempfile::TempDir,
    dropped: usize,
}

impl Servers {
    /// The game started (its mails applied by the daemon), every order mail waiting.
    fn with_mail() -> (Servers, usize) {
        let site = Servers::start();
        let mut setup = vec![(
            GM.to_string(),
            format!("create-{GAME}@x"),
            format!("CREATE ?{GAME} gm-pw standard"),
        )];
        for (p, addr) in POWERS {
            setup.push((
                addr.to_string(),
                format!("join-{GAME}-{p}@x"),
                format!("SIGNON ?{GAME} pw-{p}\nSET PREFERENCE {p}"),
            ));
        }
        let mut site = site;
        site.deliver(&setup);
        run_until_done(&site, 0);
        let mut orders_mails = Vec::new();
        for round in 0..MAILS_PER_POWER {
            for (p, addr) in POWERS {
                orders_mails.push((
                    addr.to_string(),
                    format!("orders-{p}-{round}@x"),
                    format!("SIGNON {p}{GAME} pw-{p}\n{}", orders(p, round)),
                ));
            }
        }
        site.deliver(&orders_mails);
        (site, orders_mails.len())
    }

    fn start() -> Servers {
        let stack = MailServers::start();
        let judge = tempfile::tempdir().expect("tempdir");
        let cert = stack.cert();
        let text = format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\n\
             [inbound]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"tls\"\n\
             username = \"{JUDGE}\"\npassword = \"pw\"\npoll_seconds = 1\nca_file = \"{}\"\n\n\
             [outbound]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\n\
             security = \"starttls\"\nca_file = \"{}\"\n",
            stack.imaps_port(),
            cert.display(),
            stack.smtp_port(),
            cert.display()
        );
        std::fs::write(judge.path().join("legate.toml"), text).expect("config");
        Servers {
            stack,
            judge,
            dropped: 0,
        }
    }

    fn mailbox(&self, address: &str) -> PathBuf {
        self.stack
            .dir
            .path()
            .join("mail")
            .join(address)
            .join("Maildir")
    }

    /// Puts mails straight into the judge's mailbox, as the server's delivery would.
    fn deliver(&mut self, mails: &[(String, String, String)]) {
        let root = self.mailbox(JUDGE);
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(root.join(sub)).expect("mkdir");
        }
        for (from, id, body) in mails {
            self.dropped += 1;
            let raw = format!(
                "From: {from}\r\nTo: {JUDGE}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\
                 Date: Mon, 1 Mar 2027 09:00:00 +0000\r\n\r\n{}\r\n",
                body.replace('\n', "\r\n")
            );
            let name = format!(
                "{:010}.M{}P1.legate",
                1_800_000_000 + self.dropped,
                self.dropped
            );
            std::fs::write(root.join("tmp").join(&name), raw).expect("write");
            std::fs::rename(root.join("tmp").join(&name), root.join("new").join(&name))
                .expect("deliver");
        }
        // Dovecot works on the mailbox as this user (see scripts/mail-servers.sh).
        let owned = Command::new("chown")
            .args(["-R", "nobody:nogroup"])
            .arg(self.stack.dir.path().join("mail"))
            .status()
            .expect("chown");
        assert!(owned.success(), "chown the mailbox");
    }
}

impl Site for Servers {
    fn config(&self) -> PathBuf {
        self.judge.path().join("legate.toml")
    }

    fn db(&self) -> PathBuf {
        self.judge.path().join("legate.db")
    }

    fn waiting(&self) -> usize {
        // Dovecot keeps a Maildir mail's flags in its file name (":2,S" when seen).
        let root = self.mailbox(JUDGE);
        let unseen_in = |sub: &str| {
            std::fs::read_dir(root.join(sub))
                .map(|d| {
                    d.flatten()
                        .filter(|e| {
                            let name = e.file_name().to_string_lossy().into_owned();
                            !name
                                .rsplit_once(":2,")
                                .is_some_and(|(_, flags)| flags.contains('S'))
                        })
                        .count()
                })
                .unwrap_or(0)
        };
        unseen_in("new") + unseen_in("cur")
    }

    fn sent(&self) -> Vec<Sent> {
        // A mail to several players arrives once in each of their mailboxes: it
        // counts once, unless it arrives twice in the same mailbox.
        let mut first_in: BTreeMap<String, String> = BTreeMap::new();
        let mut all = Vec::new();
        let Ok(boxes) = std::fs::read_dir(self.stack.dir.path().join("mail")) else {
            return all;
        };
        for mailbox in boxes.flatten() {
            let name = mailbox.file_name().to_string_lossy().into_owned();
            if name == JUDGE {
                continue;
            }
            for mail in sent_in(&mailbox.path().join("Maildir")) {
                let first = first_in
                    .entry(mail.message_id.clone())
                    .or_insert_with(|| name.clone());
                if *first == name {
                    all.push(mail);
                }
            }
        }
        all
    }
}
