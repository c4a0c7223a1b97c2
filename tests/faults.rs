//! Faults around the daemon: the database locked by another connection, the clock
//! going backwards, the disk full, the SMTP server away for a while, the IMAP
//! connection cut in the middle of a fetch. In each case the judge keeps running,
//! says what is wrong in its log, loses nothing and catches up afterwards.
//! The disk-full test needs root (it mounts a small tmpfs); the IMAP test needs
//! Dovecot and Postfix (scripts/mail-servers.sh), as the end-to-end tests do.

use crate::hardening_common;
use crate::mail_stack::MailServers;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use hardening_common::*;

const PATIENCE: StdDuration = StdDuration::from_secs(45);

/// `legate run` as a program, killed when dropped; its log goes to a file.
struct Daemon {
    child: Child,
    log: PathBuf,
}

impl Daemon {
    fn start(config: &Path, log: PathBuf) -> Daemon {
        let file = fs::File::create(&log).expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_legate"))
            .args(["run", "--config"])
            .arg(config)
            .env("LEGATE_INBOUND_PASSWORD", "pw")
            .env("LEGATE_OUTBOUND_PASSWORD", "pw")
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("start legate run");
        Daemon { child, log }
    }

    fn log(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn assert_running(&mut self) {
        let state = self.child.try_wait().expect("daemon state");
        assert!(
            state.is_none(),
            "the daemon stopped: {state:?}\n{}",
            self.log()
        );
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_until(what: &str, daemon: &Daemon, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + PATIENCE;
    while !done() {
        assert!(
            Instant::now() < until,
            "{what}; daemon log:\n{}",
            daemon.log()
        );
        std::thread::sleep(StdDuration::from_millis(100));
    }
}

/// Every stored mail processed with exactly one answer, and `n` of them.
fn each_answered_once(judge: &Judge, n: i64) {
    let conn = judge.sql();
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM inbound_mails", [], |r| r.get(0))
        .expect("count");
    assert_eq!(stored, n, "each mail stored once");
    let wrong: i64 = conn
        .query_row(
            "SELECT count(*) FROM inbound_mails i WHERE i.status <> 'processed' OR \
             (SELECT count(*) FROM outbox o WHERE o.in_reply_to = i.id) <> 1",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(wrong, 0, "every mail applied and answered once");
}

fn answered(judge: &Judge) -> i64 {
    judge
        .sql()
        .query_row(
            "SELECT count(*) FROM inbound_mails WHERE status = 'processed'",
            [],
            |r| r.get(0),
        )
        .unwrap_or(0)
}

#[test]
fn a_database_locked_by_another_connection_delays_but_loses_nothing() {
    let mut judge = Judge::new("");
    judge.drop_mail("a@example.test", "first@x", "x", "HELP");
    judge.once(t("2027-03-01T09:00:00Z"));
    let mut daemon = Daemon::start(&judge.path("legate.toml"), judge.path("daemon.log"));
    wait_until("the daemon starts", &daemon, || {
        daemon.log().contains("running")
    });
    // Another program takes the write lock and keeps it longer than the busy timeout.
    let mut other = rusqlite::Connection::open(judge.db()).expect("open");
    let tx = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .expect("write lock");
    for i in 0..3 {
        judge.drop_mail("b@example.test", &format!("locked{i}@x"), "x", "HELP");
    }
    std::thread::sleep(StdDuration::from_secs(13));
    daemon.assert_running();
    assert_eq!(judge.files_in("in/new"), 3, "nothing taken while locked");
    tx.rollback().expect("release");
    drop(other);
    wait_until("the mails are answered", &daemon, || {
        judge.files_in("in/new") == 0 && judge.sent().len() == 4
    });
    daemon.assert_running();
    let log = daemon.log();
    assert!(log.contains("locked"), "the log names the lock:\n{log}");
    drop(daemon);
    each_answered_once(&judge, 4);
}

#[test]
fn the_clock_going_backwards_repeats_nothing() {
    let mut judge = Judge::new("");
    let t0 = t("2027-03-01T09:00:00Z");
    judge.drop_mail("gm@example.test", "c@x", "x", "CREATE ?back gm-pw standard");
    for (p, n) in ["A", "E", "F", "G", "I", "R", "T"].iter().zip(0..) {
        judge.drop_mail(
            &format!("p{n}@example.test"),
            &format!("j{n}@x"),
            "x",
            &format!("SIGNON ?back pw-{p}\nSET PREFERENCE {p}"),
        );
    }
    assert_eq!(judge.once(t0).intake.applied, 8);
    let orders = [
        "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
        "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor",
        "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
        "A Ber-Kie\nA Mun-Ruh\nF Kie-Den",
        "A Rom-Apu\nA Ven H\nF Nap-Ion",
        "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot",
        "F Ank-Bla\nA Con-Bul\nA Smy-Arm\nSET WAIT",
    ];
    for ((p, n), o) in ["A", "E", "F", "G", "I", "R", "T"]
        .iter()
        .zip(0..)
        .zip(orders)
    {
        judge.drop_mail(
            &format!("p{n}@example.test"),
            &format!("o{n}@x"),
            "x",
            &format!("SIGNON {p}back pw-{p}\n{o}"),
        );
    }
    assert_eq!(judge.once(t0 + Duration::minutes(5)).intake.applied, 7);
    // Deadline, then grace: pass after pass until the phase is processed.
    let mut late = t0;
    let mut processed = 0;
    for _ in 0..4 {
        let next = legate::game::Engine::open(judge.db(), Default::default())
            .expect("engine")
            .next_wakeup()
            .expect("wakeup")
            .expect("deadline");
        late = late.max(next) + Duration::minutes(1);
        processed = judge.once(late).processed;
        if processed == 1 {
            break;
        }
    }
    assert_eq!(processed, 1, "the deadline processed the phase");
    let sent_after = judge.sent().len();
    // The clock is set back by a day: nothing due, nothing sent again.
    let report = judge.once(t0 - Duration::days(1));
    assert_eq!(
        (report.processed, report.delivery.sent),
        (0, 0),
        "{report:?}"
    );
    // A copy of an old mail and a new one arrive while the clock is behind.
    judge.drop_mail("gm@example.test", "c@x", "x", "CREATE ?back gm-pw standard");
    judge.drop_mail("p0@example.test", "new@x", "x", "HELP");
    let report = judge.once(t0 - Duration::days(1));
    assert_eq!(report.intake.duplicates, 1, "{report:?}");
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert_eq!(judge.sent().len(), sent_after + 1);
    // Forward again past the same deadline: the phase is not processed twice.
    let report = judge.once(late + Duration::minutes(1));
    assert_eq!(report.delivery.sent, 0, "{report:?}");
    let phases = judge.count("SELECT count(*) FROM phases");
    assert_eq!(phases, 1);
    each_answered_once(&judge, 16);
}

/// Mounts a small tmpfs at `dir`; false when this machine does not allow it.
fn mount_tmpfs(dir: &Path, size: &str) -> bool {
    fs::create_dir_all(dir).expect("mount point");
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
        .arg(dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

struct Unmount(PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_stops_the_judge_for_a_while_and_loses_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let small = dir.path().join("small");
    if !mount_tmpfs(&small, "4m") {
        // Documented in docs/hardening.md: needs root (as in CI).
        eprintln!("cannot mount a tmpfs here: disk-full test not run");
        assert_ne!(unsafe_uid(), 0, "root could not mount a tmpfs");
        return;
    }
    let _unmount = Unmount(small.clone());
    let text = format!(
        "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"{db}\"\n\
         [inbound]\nkind = \"maildir\"\npath = \"in\"\npoll_seconds = 1\n\
         [outbound]\nkind = \"maildir\"\npath = \"{out}\"\n",
        db = small.join("legate.db").display(),
        out = small.join("out").display(),
    );
    let judge_dir = tempfile::tempdir().expect("tempdir");
    fs::write(judge_dir.path().join("legate.toml"), &text).expect("config");
    let mut judge = Judge::in_dir(judge_dir, "");
    fs::write(judge.path("legate.toml"), &text).expect("config");
    judge.config =
        legate::config::Config::parse(&text, Some(judge.dir.path()), |_| None).expect("config");
    judge.drop_mail(
        "gm@example.test",
        "before@x",
        "x",
        "CREATE ?full gm-pw standard",
    );
    let mut daemon = Daemon::start(&judge.path("legate.toml"), judge.path("daemon.log"));
    let out = small.join("out");
    wait_until("the first answer", &daemon, || sent_in(&out).len() == 1);
    // Fill the disk to the last byte.
    let filler = small.join("filler");
    {
        let mut f = fs::File::create(&filler).expect("filler");
        let block = vec![0u8; 64 * 1024];
        while f.write_all(&block).is_ok() {}
        let _ = f.write_all(&[0u8; 512]);
        let _ = f.sync_all();
    }
    for i in 0..5 {
        judge.drop_mail(
            &format!("p{i}@example.test"),
            &format!("full{i}@x"),
            "x",
            &format!(
                "SIGNON ?full pw-{i}\nPRESS TO ALL\n{}\nENDPRESS",
                "words ".repeat(200)
            ),
        );
    }
    std::thread::sleep(StdDuration::from_secs(4));
    daemon.assert_running();
    let log = daemon.log();
    assert!(
        log.contains("full") && (log.contains("ERROR") || log.contains("WARN")),
        "the log says the disk is full:\n{log}"
    );
    fs::remove_file(&filler).expect("free the disk");
    wait_until(
        "every mail answered after the disk has room",
        &daemon,
        || judge.files_in("in/new") == 0 && sent_in(&out).len() >= 6,
    );
    daemon.assert_running();
    drop(daemon);
    each_answered_once(&judge, 6);
    let sent = sent_in(&out);
    let ids = by_message_id(&sent);
    assert!(ids.values().all(|n| *n == 1));
    let outbox = judge.count("SELECT count(*) FROM outbox WHERE status = 'sent'");
    assert_eq!(
        outbox as usize,
        sent.len(),
        "every queued mail went out once"
    );
}

fn unsafe_uid() -> u32 {
    // The owner of /proc/self is the process's user.
    use std::os::unix::fs::MetadataExt;
    fs::metadata("/proc/self").map(|m| m.uid()).unwrap_or(0)
}

/// A minimal SMTP server that keeps every message it accepts.
fn smtp_sink(listener: TcpListener, got: Arc<Mutex<Vec<Vec<u8>>>>) {
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let got = got.clone();
            std::thread::spawn(move || {
                let _ = serve(stream, &got);
            });
        }
    });
}

fn serve(stream: TcpStream, got: &Mutex<Vec<Vec<u8>>>) -> std::io::Result<()> {
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    out.write_all(b"220 sink ESMTP\r\n")?;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => out.write_all(b"250 sink\r\n")?,
            "DATA" => {
                out.write_all(b"354 go on\r\n")?;
                let mut data = Vec::new();
                loop {
                    let mut l = Vec::new();
                    if reader.by_ref().take(1 << 20).read_until(b'\n', &mut l)? == 0 {
                        return Ok(());
                    }
                    if l == b".\r\n" {
                        break;
                    }
                    data.extend_from_slice(&l);
                }
                got.lock().expect("sink").push(data);
                out.write_all(b"250 kept\r\n")?;
            }
            "QUIT" => {
                out.write_all(b"221 bye\r\n")?;
                return Ok(());
            }
            _ => out.write_all(b"250 ok\r\n")?,
        }
    }
}

#[test]
fn mail_queued_while_smtp_is_down_goes_out_once_when_it_returns() {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port");
    let dir = tempfile::tempdir().expect("tempdir");
    let text = format!(
        "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\
         [inbound]\nkind = \"maildir\"\npath = \"in\"\npoll_seconds = 1\n\
         [outbound]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {port}\n\
         security = \"none\"\ntimeout_seconds = 2\n"
    );
    let mut judge = Judge::in_dir(dir, "");
    fs::write(judge.path("legate.toml"), &text).expect("config");
    judge.config =
        legate::config::Config::parse(&text, Some(judge.dir.path()), |_| None).expect("config");
    let mut daemon = Daemon::start(&judge.path("legate.toml"), judge.path("daemon.log"));
    for i in 0..6 {
        judge.drop_mail(
            &format!("p{i}@example.test"),
            &format!("down{i}@x"),
            "x",
            "HELP",
        );
    }
    wait_until("the mails are applied while SMTP is down", &daemon, || {
        answered(&judge) == 6
    });
    std::thread::sleep(StdDuration::from_secs(2));
    daemon.assert_running();
    let log = daemon.log();
    assert!(
        log.contains("will retry"),
        "the log says sending failed:\n{log}"
    );
    let got = Arc::new(Mutex::new(Vec::new()));
    smtp_sink(
        TcpListener::bind(("127.0.0.1", port)).expect("port again"),
        got.clone(),
    );
    wait_until("the queued mail goes out", &daemon, || {
        got.lock().expect("sink").len() >= 6
    });
    std::thread::sleep(StdDuration::from_secs(1));
    daemon.assert_running();
    drop(daemon);
    let mails: Vec<Sent> = got
        .lock()
        .expect("sink")
        .iter()
        .cloned()
        .map(read_sent)
        .collect();
    let ids = by_message_id(&mails);
    assert_eq!(ids.len(), 6, "{ids:?}");
    assert!(ids.values().all(|n| *n == 1), "{ids:?}");
    assert_eq!(
        judge.count("SELECT count(*) FROM outbox WHERE status <> 'sent'"),
        0
    );
    each_answered_once(&judge, 6);
}

#[test]
fn an_imap_connection_cut_during_a_fetch_loses_and_repeats_nothing() {
    let servers = MailServers::start();
    let n = 150;
    // Deliver over SMTP so Dovecot owns the mailbox.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let smtp = legate::mail::outbound::SmtpOutbound::new(&legate::config::SmtpConfig {
        host: "127.0.0.1".into(),
        port: servers.base + 1,
        security: legate::config::Security::StartTls,
        username: None,
        password: None,
        ca_file: Some(servers.dir.path().join("cert.pem")),
        timeout_seconds: 10,
    })
    .expect("smtp");
    for i in 0..n {
        // Padded so that the mailbox is far larger than the point of the cut.
        let padding: String = (0..16)
            .map(|k| format!("X-Pad-{k}: {}\r\n", "x".repeat(64)))
            .collect();
        let bytes = format!(
            "From: p{i}@example.test\r\nTo: {JUDGE}\r\nSubject: help\r\nMessage-ID: <cut{i}@x>\r\n{padding}\r\nHELP\r\n"
        );
        let mail = legate::mail::RenderedMail {
            message_id: format!("cut{i}@x"),
            from: format!("p{i}@example.test"),
            to: vec![JUDGE.into()],
            bytes: bytes.into_bytes(),
        };
        rt.block_on(smtp.send(&mail)).expect("accepted");
    }
    let inbox = servers.dir.path().join(format!("mail/{JUDGE}/Maildir"));
    let delivered = || {
        ["new", "cur"]
            .iter()
            .map(|s| fs::read_dir(inbox.join(s)).map(|d| d.count()).unwrap_or(0))
            .sum::<usize>()
    };
    let until = Instant::now() + PATIENCE;
    while delivered() < n {
        assert!(Instant::now() < until, "only {} delivered", delivered());
        std::thread::sleep(StdDuration::from_millis(50));
    }
    let judge_dir = tempfile::tempdir().expect("tempdir");
    // The first batch gets through, and the cut comes in the middle of the second.
    let db = judge_dir.path().join("legate.db");
    let proxy = CuttingProxy::start(servers.base, 110_000, move || {
        rusqlite::Connection::open(&db)
            .and_then(|c| {
                c.query_row(
                    "SELECT count(*) FROM inbound_mails WHERE status = 'processed'",
                    [],
                    |r| r.get(0),
                )
            })
            .unwrap_or(0)
    });
    let text = format!(
        "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\
         [inbound]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {imap}\nsecurity = \"starttls\"\n\
         username = \"{JUDGE}\"\nmailbox = \"INBOX\"\npoll_seconds = 1\nca_file = \"{cert}\"\n\
         [outbound]\nkind = \"maildir\"\npath = \"out\"\n",
        imap = proxy.port,
        cert = servers.dir.path().join("cert.pem").display()
    );
    let mut judge = Judge::in_dir(judge_dir, "");
    fs::write(judge.path("legate.toml"), &text).expect("config");
    judge.config =
        legate::config::Config::parse(&text, Some(judge.dir.path()), |_| Some("pw".into()))
            .expect("config");
    let mut daemon = Daemon::start(&judge.path("legate.toml"), judge.path("daemon.log"));
    wait_until("the first connection is cut", &daemon, || {
        proxy.cut_at().is_some()
    });
    let cut_at = proxy.cut_at().expect("cut");
    daemon.assert_running();
    wait_until("every mail answered after the cut", &daemon, || {
        answered(&judge) == n as i64
    });
    wait_until("every answer sent", &daemon, || judge.sent().len() >= n);
    std::thread::sleep(StdDuration::from_secs(2));
    daemon.assert_running();
    let log = daemon.log();
    drop(daemon);
    assert!(
        cut_at > 0 && cut_at < n as i64,
        "the cut came part-way through the mailbox: {cut_at}"
    );
    assert!(log.contains("reading mail failed"), "{log}");
    each_answered_once(&judge, n as i64);
    let sent = judge.sent();
    assert_eq!(sent.len(), n, "one answer per mail");
    assert!(by_message_id(&sent).values().all(|c| *c == 1));
    println!("cut after {cut_at} of {n} mails");
}

/// A TCP relay to the IMAP server that cuts its first connection once the server has
/// sent `after` bytes through it, in the middle of a fetch; later connections pass.
struct CuttingProxy {
    port: u16,
    cut_at: Arc<Mutex<Option<i64>>>,
}

/// When to cut, and how to record how far the judge got at that moment.
struct Cut {
    after: usize,
    answered: Box<dyn FnOnce() -> i64 + Send>,
    recorded: Arc<Mutex<Option<i64>>>,
}

impl CuttingProxy {
    fn start(
        target: u16,
        after: usize,
        answered: impl FnOnce() -> i64 + Send + 'static,
    ) -> CuttingProxy {
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("proxy port");
        let port = listener.local_addr().expect("proxy address").port();
        let cut_at = Arc::new(Mutex::new(None));
        let mut cut = Some(Cut {
            after,
            answered: Box::new(answered),
            recorded: Arc::clone(&cut_at),
        });
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if let Ok(server) = TcpStream::connect(("127.0.0.1", target)) {
                    relay(client, server, cut.take());
                }
            }
        });
        CuttingProxy { port, cut_at }
    }

    fn cut_at(&self) -> Option<i64> {
        *self.cut_at.lock().expect("proxy state")
    }
}

/// Copies both ways on two threads; with a cut, shuts both sockets down once the
/// server has sent that many bytes.
fn relay(client: TcpStream, server: TcpStream, cut: Option<Cut>) {
    let mut up_from = client.try_clone().expect("clone");
    let mut up_to = server.try_clone().expect("clone");
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut up_from, &mut up_to);
        let _ = up_to.shutdown(std::net::Shutdown::Write);
    });
    std::thread::spawn(move || {
        let (mut from, mut to) = (server, client);
        let mut room = cut.as_ref().map_or(usize::MAX, |c| c.after);
        let mut buf = [0u8; 4096];
        while let Ok(read @ 1..) = from.read(&mut buf) {
            let pass = read.min(room);
            if to.write_all(&buf[..pass]).is_err() {
                break;
            }
            room -= pass;
            if room == 0 {
                let _ = to.shutdown(std::net::Shutdown::Both);
                let _ = from.shutdown(std::net::Shutdown::Both);
                if let Some(cut) = cut {
                    *cut.recorded.lock().expect("proxy state") = Some((cut.answered)());
                }
                return;
            }
        }
        let _ = to.shutdown(std::net::Shutdown::Write);
    });
}
