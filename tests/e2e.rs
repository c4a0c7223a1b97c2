//! The judge end to end against real servers: Dovecot (IMAP) and Postfix (SMTP)
//! started by scripts/mail-servers.sh on loopback. Players are plain SMTP clients
//! and read their mail over IMAP; the judge is `legate run` (as a program) or the
//! daemon's one-pass API.
//! Needs the Debian packages dovecot-imapd, dovecot-lmtpd and postfix, and root
//! (`.ci/run` installs them).

use crate::mail_stack::MailServers;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use chrono::{DateTime, Utc};
use legate::config::{Config, ImapConfig, Secret, Security, SmtpConfig};
use legate::daemon::run_once;
use legate::game::{Engine, EngineConfig};
use legate::mail::RenderedMail;
use legate::mail::inbound::{ImapInbound, InboundError, InboundMail};
use legate::mail::outbound::SmtpOutbound;
use mail_parser::{Message, MessageParser, MimeHeaders};
use tokio::time::Instant;

use crate::hardening_common;
use hardening_common::{GM as MASTER, JUDGE, POWERS, t};

const GAME: &str = "e2e";
const PATIENCE: Duration = Duration::from_secs(20);

/// One Dovecot + Postfix pair (`mail_stack`), with this file's ways to use it.
struct Stack(MailServers);

impl std::ops::Deref for Stack {
    type Target = MailServers;

    fn deref(&self) -> &MailServers {
        &self.0
    }
}

impl Stack {
    fn start() -> Stack {
        Stack(MailServers::start())
    }

    /// The judge's configuration file: IMAP with STARTTLS, SMTP with STARTTLS and login.
    fn judge_config(&self) -> PathBuf {
        self.judge_config_with(true)
    }

    /// `smtp_login`: whether the judge logs in to send (Postfix asks Dovecot to check).
    fn judge_config_with(&self, smtp_login: bool) -> PathBuf {
        let judge = self.dir.path().join("judge");
        fs::create_dir_all(&judge).expect("judge dir");
        let cert = self.cert().display().to_string();
        let text = format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\n\
             [inbound]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {imap}\n\
             security = \"starttls\"\nusername = \"{JUDGE}\"\nmailbox = \"INBOX\"\n\
             poll_seconds = 1\nca_file = \"{cert}\"\n\n\
             [outbound]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {smtp}\n\
             security = \"starttls\"\n{login}ca_file = \"{cert}\"\n\
             timeout_seconds = 5\n",
            login = if smtp_login {
                format!("username = \"{JUDGE}\"\n")
            } else {
                String::new()
            },
            imap = self.base,
            smtp = self.base + 1,
        );
        let path = judge.join("legate.toml");
        fs::write(&path, text).expect("config");
        path
    }

    fn config(&self) -> Config {
        Config::parse(
            &fs::read_to_string(self.judge_config()).expect("config"),
            Some(&self.dir.path().join("judge")),
            |_| Some("pw".to_string()),
        )
        .expect("config parses")
    }

    fn database(&self) -> PathBuf {
        self.dir.path().join("judge/legate.db")
    }

    fn smtp(&self) -> SmtpOutbound {
        SmtpOutbound::new(&SmtpConfig {
            host: "127.0.0.1".into(),
            port: self.base + 1,
            security: Security::StartTls,
            username: None,
            password: None,
            ca_file: Some(self.cert()),
            timeout_seconds: 5,
        })
        .expect("smtp transport")
    }

    fn imap(&self, user: &str) -> ImapInbound {
        ImapInbound::new(
            ImapConfig {
                host: "127.0.0.1".into(),
                port: self.base,
                security: Security::StartTls,
                username: user.into(),
                password: Secret("pw".into()),
                mailbox: "INBOX".into(),
                processed_mailbox: None,
                poll_seconds: 3600,
                idle: false,
                ca_file: Some(self.cert()),
            },
            1 << 20,
        )
        .expect("imap client")
    }

    fn maildir(&self, user: &str) -> PathBuf {
        self.dir.path().join("mail").join(user).join("Maildir")
    }

    /// Mails delivered to `user` so far (read or not).
    fn delivered(&self, user: &str) -> usize {
        ["new", "cur"]
            .iter()
            .map(|sub| {
                fs::read_dir(self.maildir(user).join(sub))
                    .map(|d| d.count())
                    .unwrap_or(0)
            })
            .sum()
    }

    async fn wait_delivered(&self, user: &str, n: usize) {
        let until = Instant::now() + PATIENCE;
        while self.delivered(user) < n {
            assert!(
                Instant::now() < until,
                "{user} has {} mails, expected {n}",
                self.delivered(user)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Ends one server's process group (Postfix or Dovecot) and waits for its port.
    fn kill_master(&self, pid_file: &str, port: u16) {
        let pid = fs::read_to_string(self.dir.path().join(pid_file)).expect("pid file");
        let pid = pid.trim();
        let status = Command::new("kill")
            .args(["-TERM", "--", &format!("-{pid}")])
            .status()
            .expect("kill");
        assert!(status.success(), "kill {pid}");
        wait_port(port, false);
        let _ = fs::remove_file(self.dir.path().join(pid_file));
    }

    fn stop_postfix(&self) {
        self.kill_master("postfix/spool/pid/master.pid", self.base + 1);
    }

    fn start_postfix(&self) {
        let status = Command::new("/usr/lib/postfix/sbin/master")
            .arg("-w")
            .env("MAIL_CONFIG", self.dir.path().join("postfix"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("postfix master");
        assert!(status.success(), "postfix did not start");
        wait_port(self.base + 1, true);
    }

    fn stop_dovecot(&self) {
        self.kill_master("dovecot/run/master.pid", self.base);
    }

    fn start_dovecot(&self) {
        let status = Command::new("dovecot")
            .arg("-c")
            .arg(self.dir.path().join("dovecot.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("dovecot");
        assert!(status.success(), "dovecot did not start");
        wait_port(self.base, true);
    }
}

fn wait_port(port: u16, open: bool) {
    let until = std::time::Instant::now() + PATIENCE;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() != open {
        assert!(
            std::time::Instant::now() < until,
            "port {port} never became {}",
            if open { "open" } else { "closed" }
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A mail from a player to the judge, as raw RFC 5322 text.
struct PlayerMail<'a> {
    from: &'a str,
    id: String,
    subject: &'a str,
    /// Header fields after the usual ones (content type, threading).
    extra: String,
    body: String,
}

impl PlayerMail<'_> {
    fn plain<'a>(from: &'a str, id: &str, subject: &'a str, body: &str) -> PlayerMail<'a> {
        PlayerMail {
            from,
            id: id.to_string(),
            subject,
            extra: "Content-Type: text/plain; charset=utf-8\r\n".into(),
            body: body.to_string(),
        }
    }

    fn rendered(&self) -> RenderedMail {
        let text = format!(
            "From: {from}\r\nTo: {JUDGE}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\
             Date: Mon, 1 Mar 2027 09:00:00 +0000\r\nMIME-Version: 1.0\r\n{extra}\r\n{body}\r\n",
            from = self.from,
            subject = self.subject,
            id = self.id,
            extra = self.extra,
            body = self.body.replace("\r\n", "\n").replace('\n', "\r\n"),
        );
        RenderedMail {
            message_id: self.id.clone(),
            from: self.from.to_string(),
            to: vec![JUDGE.into()],
            bytes: text.into_bytes(),
        }
    }
}

async fn send_all(stack: &Stack, mails: &[PlayerMail<'_>]) {
    let smtp = stack.smtp();
    let before = stack.delivered(JUDGE);
    for mail in mails {
        smtp.send(&mail.rendered())
            .await
            .expect("the server accepts");
    }
    stack.wait_delivered(JUDGE, before + mails.len()).await;
}

/// `legate run --config FILE --once --now TIME`; returns its standard output.
fn legate_once(config: &Path, now: DateTime<Utc>) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["run", "--once", "--config"])
        .arg(config)
        .args(["--now", &now.to_rfc3339()])
        .env("LEGATE_INBOUND_PASSWORD", "pw")
        .env("LEGATE_OUTBOUND_PASSWORD", "pw")
        .env("RUST_LOG", "warn")
        .output()
        .expect("run legate");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "legate run --once failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Every mail in `user`'s mailbox, read over IMAP.
async fn mailbox(stack: &Stack, user: &str) -> Vec<InboundMail> {
    let mut imap = stack.imap(user);
    let until = Instant::now() + PATIENCE;
    loop {
        match imap.fetch().await {
            Ok(mails) => return mails,
            Err(InboundError::Unavailable { .. }) => {}
            Err(e) => panic!("IMAP for {user}: {e}"),
        }
        assert!(Instant::now() < until, "IMAP for {user} never answered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn parsed(mail: &InboundMail) -> Message<'_> {
    MessageParser::default().parse(&mail.raw).expect("a mail")
}

fn subject_of(mail: &InboundMail) -> String {
    parsed(mail).subject().unwrap_or("").to_string()
}

fn text_of(mail: &InboundMail) -> String {
    parsed(mail)
        .body_text(0)
        .map(|b| b.into_owned())
        .unwrap_or_default()
}

/// The mail with a subject containing `part`, if exactly one has it.
fn one_with<'a>(mails: &'a [InboundMail], part: &str) -> &'a InboundMail {
    let found: Vec<&InboundMail> = mails
        .iter()
        .filter(|m| subject_of(m).contains(part))
        .collect();
    let subjects: Vec<String> = mails.iter().map(subject_of).collect();
    assert_eq!(found.len(), 1, "one mail with {part:?} among {subjects:?}");
    found[0]
}

/// A mail as a plain client shows it: decoded header fields, then the text.
fn as_client_shows(mail: &InboundMail) -> String {
    let msg = parsed(mail);
    let addr = |a: Option<&mail_parser::Address<'_>>| {
        a.and_then(|a| a.first())
            .map(|a| match (a.name(), a.address()) {
                (Some(n), Some(x)) => format!("{n} <{x}>"),
                (None, Some(x)) => x.to_string(),
                _ => String::new(),
            })
            .unwrap_or_default()
    };
    let mut out = String::new();
    out.push_str(&format!("From: {}\n", addr(msg.from())));
    out.push_str(&format!("To: {}\n", addr(msg.to())));
    out.push_str(&format!("Subject: {}\n", msg.subject().unwrap_or("")));
    if let Some(d) = msg.date() {
        out.push_str(&format!("Date: {}\n", d.to_rfc822()));
    }
    out.push_str(&format!(
        "Message-ID: <{}>\n",
        msg.message_id().unwrap_or("")
    ));
    if let Some(r) = msg.in_reply_to().as_text() {
        out.push_str(&format!("In-Reply-To: <{r}>\n"));
    }
    let auto = msg
        .header_raw("Auto-Submitted")
        .map(str::trim)
        .unwrap_or("(missing)");
    out.push_str(&format!("Auto-Submitted: {auto}\n\n"));
    out.push_str(&text_of(mail));
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_game_by_mail() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);

    // The Gamemaster creates the game.
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "create@example.test",
            "A new game",
            &format!("CREATE ?{GAME} gm-secret standard\n"),
        )],
    )
    .await;
    legate_once(&config, t0);
    stack.wait_delivered(MASTER, 1).await;

    // Seven players join, each with a preference list.
    let joins: Vec<PlayerMail> = POWERS
        .iter()
        .map(|(power, address)| {
            let others: String = POWERS.iter().map(|p| p.0).filter(|p| p != power).collect();
            PlayerMail::plain(
                address,
                &format!("join-{power}@example.test"),
                "Joining",
                &format!("Hello!\n\nSIGNON ?{GAME} pw-{power}\nSET PREFERENCE {power}{others}\n"),
            )
        })
        .collect();
    send_all(&stack, &joins).await;
    let out = legate_once(&config, minutes(5));
    assert!(out.contains("applied 7"), "{out}");
    for (_, address) in POWERS {
        // The answer to the sign-on and the announcement that the game starts.
        stack.wait_delivered(address, 2).await;
    }

    // Spring 1901 orders: one HTML-only mail, one with a typo, one asking to wait.
    let orders = |power: &str, lines: &str| format!("SIGNON {power}{GAME} pw-{power}\n{lines}\n");
    let html = "<html><body><p>SIGNON Ee2e pw-E<br>F Lon-Nth<br>F Edi-Nwg<br>\
                A Lvp-Yor</p><div class=\"moz-signature\">-- <br>Edith</div></body></html>";
    let spring = [
        PlayerMail::plain(
            POWERS[0].1,
            "s-A@example.test",
            "orders",
            &orders("A", "A Vie-Gal\nA Bud-Ser\nF Tri-Alb"),
        ),
        PlayerMail {
            from: POWERS[1].1,
            id: "s-E@example.test".into(),
            subject: "orders",
            extra: "Content-Type: text/html; charset=utf-8\r\n".into(),
            body: html.into(),
        },
        PlayerMail::plain(
            POWERS[2].1,
            "s-F1@example.test",
            "my orders",
            &orders("F", "A Parris-Bur\nA Mar-Spa\nF Bre-Mid"),
        ),
        PlayerMail::plain(
            POWERS[3].1,
            "s-G@example.test",
            "orders",
            &orders("G", "A Ber-Kie\nA Mun-Ruh\nF Kie-Den"),
        ),
        PlayerMail::plain(
            POWERS[4].1,
            "s-I@example.test",
            "orders",
            &orders("I", "A Rom-Apu\nA Ven H\nF Nap-Ion"),
        ),
        PlayerMail::plain(
            POWERS[5].1,
            "s-R@example.test",
            "orders",
            &orders("R", "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot"),
        ),
        PlayerMail::plain(
            POWERS[6].1,
            "s-T@example.test",
            "orders",
            &orders("T", "F Ank-Bla\nA Con-Bul\nA Smy-Arm\nSET WAIT"),
        ),
    ];
    send_all(&stack, &spring).await;
    let out = legate_once(&config, minutes(10));
    assert!(out.contains("applied 7"), "{out}");
    for (_, address) in POWERS {
        stack.wait_delivered(address, 3).await;
    }
    let england = mailbox(&stack, POWERS[1].1).await;
    let answer = one_with(&england, "Re: LEGT:e2e - S1901M orders");
    let text = text_of(answer);
    assert!(
        text.contains("F LON - NTH") && text.contains("A LVP - YOR"),
        "{text}"
    );
    assert!(!subject_of(answer).contains("Error Flag"));

    // France reads the error and answers it, quoting the judge's reply.
    let france = mailbox(&stack, POWERS[2].1).await;
    let error = one_with(&france, "[Error Flag] LEGT:e2e - S1901M my orders");
    let error_text = text_of(error);
    assert!(error_text.contains("Parris"), "{error_text}");
    let quoted: String = error_text.lines().map(|l| format!("> {l}\n")).collect();
    let error_id = parsed(error).message_id().unwrap_or("").to_string();
    let fix = PlayerMail {
        from: POWERS[2].1,
        id: "s-F2@example.test".into(),
        subject: "Re: [Error Flag] LEGT:e2e - S1901M my orders",
        extra: format!(
            "Content-Type: text/plain; charset=utf-8\r\nIn-Reply-To: <{error_id}>\r\n\
             References: <s-F1@example.test> <{error_id}>\r\n"
        ),
        body: format!(
            "{}\nOn Mon, 1 Mar 2027 at 09:10, LEGT <{JUDGE}> wrote:\n{quoted}",
            orders("F", "A Par-Bur\nA Mar-Spa\nF Bre-Mid")
        ),
    };
    send_all(&stack, &[fix]).await;
    legate_once(&config, minutes(15));
    stack.wait_delivered(POWERS[2].1, 4).await;
    let france = mailbox(&stack, POWERS[2].1).await;
    let fixed = one_with(&france, "Re: LEGT:e2e - S1901M my orders");
    let fixed_text = text_of(fixed);
    assert!(fixed_text.contains("A PAR - BUR"), "{fixed_text}");
    assert!(
        parsed(fixed).in_reply_to().as_text() == Some("s-F2@example.test"),
        "threaded under the player's mail"
    );

    // The deadline (and the grace Turkey's WAIT asked for) passes on the test clock.
    let mut now = minutes(20);
    let mut processed = false;
    for _ in 0..4 {
        let next = Engine::open(stack.database(), EngineConfig::default())
            .expect("engine")
            .next_wakeup()
            .expect("next wakeup")
            .expect("a deadline");
        now = now.max(next) + chrono::Duration::minutes(1);
        let out = legate_once(&config, now);
        if out.contains("phases processed at their deadline: 1") {
            processed = true;
            break;
        }
    }
    assert!(processed, "the deadline never processed the phase");

    // Everyone finds the results in their own mailbox.
    let mut results = None;
    for address in POWERS.iter().map(|p| p.1).chain([MASTER]) {
        let until = Instant::now() + PATIENCE;
        let mails = loop {
            let mails = mailbox(&stack, address).await;
            if mails
                .iter()
                .any(|m| subject_of(m).contains("S1901M results"))
            {
                break mails;
            }
            assert!(Instant::now() < until, "no results for {address}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let r = one_with(&mails, "LEGT:e2e - S1901M results");
        let text = text_of(r);
        assert!(text.contains("Burgundy"), "{address}: {text}");
        assert!(text.contains("Spring of 1901"), "{address}: {text}");
        if address == POWERS[2].1 {
            results = Some(r.clone());
        }
    }

    // One reply and one results mail as a plain client shows them.
    let results = results.expect("France's results");
    let sample = format!(
        "===== A reply (France's corrected orders) =====\n{}\n\n===== A results mail =====\n{}\n",
        as_client_shows(fixed),
        as_client_shows(&results)
    );
    assert!(sample.contains("Auto-Submitted: auto-replied"), "{sample}");
    assert!(
        sample.contains("Auto-Submitted: auto-generated"),
        "{sample}"
    );
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    fs::create_dir_all(&artifacts).expect("artifacts dir");
    fs::write(artifacts.join("e2e-sample-mails.txt"), &sample).expect("write sample");
    println!("{sample}");

    // The results mail carries the board after the phase, as PNG and SVG.
    let msg = parsed(&results);
    let file = |ext: &str| {
        msg.attachments()
            .find(|p| p.attachment_name().is_some_and(|n| n.ends_with(ext)))
            .map(|p| p.contents().to_vec())
    };
    let png = file(".png").expect("a PNG attached to the results");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(png.len() < 300 * 1024, "{} bytes", png.len());
    let svg = file(".svg").expect("an SVG attached to the results");
    assert!(String::from_utf8_lossy(&svg).contains("<svg"));
    fs::write(artifacts.join("e2e-results-board.png"), &png).expect("write board");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mail_queued_while_postfix_is_down_is_delivered_once() {
    let stack = Stack::start();
    let config = stack.config();
    let t0 = t("2027-03-01T09:00:00Z");
    let mut mails = vec![PlayerMail::plain(
        MASTER,
        "create@example.test",
        "A new game",
        &format!("CREATE ?{GAME} gm-secret standard\n"),
    )];
    for (power, address) in POWERS {
        mails.push(PlayerMail::plain(
            address,
            &format!("join-{power}@example.test"),
            "Joining",
            &format!("SIGNON ?{GAME} pw-{power}\nSET PREFERENCE {power}\n"),
        ));
    }
    send_all(&stack, &mails).await;

    stack.stop_postfix();
    let first = run_once(&config, t0).await.expect("pass");
    assert_eq!(first.intake.applied, 8, "{first:?}");
    assert_eq!(first.delivery.sent, 0, "{first:?}");
    let queued = first.delivery.postponed;
    // A reply to each of the eight, the master and the players already in
    // the game told of each of the seven sign-ons (7 + 0 + 1 + ... + 6), the
    // master told of each of the seven preference lists, and the start
    // announcement to all eight.
    assert_eq!(queued, 8 + 7 + 21 + 7 + 8, "{first:?}");
    // Not yet due again: nothing is tried.
    let early = run_once(&config, t0 + chrono::Duration::seconds(5))
        .await
        .expect("pass");
    assert_eq!(early.delivery, Default::default(), "{early:?}");
    // Still down when due: tried, postponed further.
    let second = run_once(&config, t0 + chrono::Duration::seconds(11))
        .await
        .expect("pass");
    assert_eq!(second.delivery.postponed, queued, "{second:?}");

    stack.start_postfix();
    let third = run_once(&config, t0 + chrono::Duration::hours(1))
        .await
        .expect("pass");
    assert_eq!(third.delivery.sent, queued, "{third:?}");
    let again = run_once(&config, t0 + chrono::Duration::hours(2))
        .await
        .expect("pass");
    assert_eq!(again.delivery.sent, 0, "{again:?}");

    // The master has a notice of each of the seven sign-ons and of each
    // preference list; each player one of every sign-on after theirs (they
    // joined in the order of POWERS).
    let notices = |address: &str| match POWERS.iter().position(|p| p.1 == address) {
        Some(k) => POWERS.len() - 1 - k,
        None => 14,
    };
    stack.wait_delivered(MASTER, 16).await;
    for (_, address) in POWERS {
        stack.wait_delivered(address, 2 + notices(address)).await;
    }
    // Let any stray duplicate arrive before counting.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for address in POWERS.iter().map(|p| p.1).chain([MASTER]) {
        let mails = mailbox(&stack, address).await;
        let want = 2 + notices(address);
        assert_eq!(
            mails.len(),
            want,
            "{address}: exactly one reply, one announcement and the notices"
        );
        let ids: std::collections::BTreeSet<String> = mails
            .iter()
            .map(|m| parsed(m).message_id().unwrap_or("").to_string())
            .collect();
        assert_eq!(ids.len(), want);
    }
}

/// The running daemon, killed when dropped.
struct Daemon(Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daemon_survives_the_imap_server_restarting() {
    let stack = Stack::start();
    // Without SMTP login: Postfix checks logins with Dovecot, which is restarted here.
    let config = stack.judge_config_with(false);
    let log = fs::File::create(stack.dir.path().join("judge/daemon.log")).expect("log");
    let daemon = Daemon(
        Command::new(env!("CARGO_BIN_EXE_legate"))
            .args(["run", "--config"])
            .arg(&config)
            .env("LEGATE_INBOUND_PASSWORD", "pw")
            .env("LEGATE_OUTBOUND_PASSWORD", "pw")
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start legate run"),
    );
    let smtp = stack.smtp();
    let first = PlayerMail::plain(
        MASTER,
        "d1@example.test",
        "create",
        "CREATE ?live gm-secret\n",
    );
    smtp.send(&first.rendered()).await.expect("accepted");
    stack.wait_delivered(MASTER, 1).await;

    stack.stop_dovecot();
    tokio::time::sleep(Duration::from_secs(2)).await;
    stack.start_dovecot();

    let second = PlayerMail::plain(POWERS[0].1, "d2@example.test", "help", "HELP\n");
    smtp.send(&second.rendered()).await.expect("accepted");
    let until = Instant::now() + PATIENCE;
    while stack.delivered(POWERS[0].1) == 0 {
        if Instant::now() > until {
            let log = fs::read_to_string(stack.dir.path().join("judge/daemon.log"));
            panic!(
                "no answer after the restart; daemon log:\n{}",
                log.unwrap_or_default()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mails = mailbox(&stack, POWERS[0].1).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(
        parsed(&mails[0]).in_reply_to().as_text(),
        Some("d2@example.test")
    );
    // The first mail was answered once, not again after the restart.
    assert_eq!(stack.delivered(MASTER), 1);
    drop(daemon);
    let log = fs::read_to_string(stack.dir.path().join("judge/daemon.log")).unwrap_or_default();
    assert!(log.contains("running"), "{log}");
    println!("daemon log:\n{log}");
}

/// The commander of `unit` (`A LVP`) in the start announcement of a GTD game.
fn gtd_commander(announcement: &str, unit: &str) -> String {
    announcement
        .lines()
        .find(|l| l.contains(&format!(" {unit} ")))
        .and_then(|l| l.split_whitespace().last())
        .unwrap_or_else(|| panic!("{unit} in {announcement}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grand_tournament_game_by_mail() {
    let stack = Stack::start();
    let config = stack.config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    let game = "gtde2e";
    let players: Vec<String> = (1..=22)
        .map(|i| format!("gtd{i:02}@example.test"))
        .collect();
    let mut mails = vec![PlayerMail::plain(
        MASTER,
        "gtd-create@example.test",
        "A new game",
        &format!("CREATE ?{game} gm-secret gtd\n"),
    )];
    for (i, address) in players.iter().enumerate() {
        let pref = if i == 0 { "SET PREFERENCE F\n" } else { "" };
        mails.push(PlayerMail::plain(
            address,
            &format!("gtd-join-{i}@example.test"),
            "Joining",
            &format!("SIGNON ?{game} pw-{i}\n{pref}"),
        ));
    }
    send_all(&stack, &mails).await;
    let pass = run_once(&config, t0).await.expect("pass");
    assert_eq!(pass.intake.applied, 23, "{pass:?}");
    // Each player: the answer to the sign-on and the start announcement.
    for address in &players {
        stack.wait_delivered(address, 2).await;
    }
    let first = mailbox(&stack, &players[0]).await;
    let announcement = text_of(one_with(&first, "Game starting"));
    assert!(
        announcement.contains("head of government"),
        "{announcement}"
    );
    let lvp = gtd_commander(&announcement, "A LVP");
    let par = gtd_commander(&announcement, "A PAR");
    let at = |name: &str| format!("{name}@example.test");
    let pw = |name: &str| {
        let i = players
            .iter()
            .position(|p| *p == at(name))
            .expect("a player");
        format!("pw-{i}")
    };

    // Spring 1901: the army in Liverpool moves; its commander's order only.
    let lvp_at = at(&lvp);
    let par_at = at(&par);
    let spring = [
        PlayerMail::plain(
            &lvp_at,
            "gtd-s1@example.test",
            "orders",
            &format!("SIGNON ?{game} {}\nA Lvp-Yor\n", pw(&lvp)),
        ),
        PlayerMail::plain(
            &par_at,
            "gtd-s2@example.test",
            "orders",
            &format!("SIGNON ?{game} {}\nA Lvp-Wal\nA Par-Bur\n", pw(&par)),
        ),
    ];
    let before_lvp = stack.delivered(&lvp_at);
    let before_par = stack.delivered(&par_at);
    send_all(&stack, &spring).await;
    run_once(&config, minutes(5)).await.expect("pass");
    stack.wait_delivered(&par_at, before_par + 1).await;
    let replies = mailbox(&stack, &par_at).await;
    let reply = replies
        .iter()
        .map(text_of)
        .find(|t| t.contains("Lvp-Wal"))
        .expect("the answer to the orders");
    assert!(
        reply.contains("does not command the unit in LVP"),
        "{reply}"
    );
    assert!(reply.contains("A PAR - BUR"), "{reply}");

    // The Gamemaster processes; every player gets the season's report.
    let process = |id: &str| {
        PlayerMail::plain(
            MASTER,
            id,
            "process",
            &format!("SIGNON M{game} gm-secret\nPROCESS\n"),
        )
    };
    send_all(&stack, &[process("gtd-p1@example.test")]).await;
    run_once(&config, minutes(10)).await.expect("pass");
    stack.wait_delivered(&lvp_at, before_lvp + 2).await;
    let mails = mailbox(&stack, &lvp_at).await;
    let results = text_of(one_with(&mails, "S1901M results"));
    assert!(results.contains("A LVP - YOR"), "{results}");
    assert!(results.contains(&lvp), "{results}");
    assert!(
        results.contains("You command: A YOR (England)"),
        "{results}"
    );
    assert!(results.contains("F1901M"), "{results}");

    // Fall 1901 with no orders: units hold, and the Winter comes next.
    send_all(&stack, &[process("gtd-p2@example.test")]).await;
    run_once(&config, minutes(15)).await.expect("pass");
    stack.wait_delivered(&lvp_at, before_lvp + 3).await;
    let mails = mailbox(&stack, &lvp_at).await;
    let fall = text_of(one_with(&mails, "F1901M results"));
    assert!(
        fall.contains("W1901A"),
        "the Winter is always played: {fall}"
    );
    println!("{fall}");

    // A 23rd player asks to enter; the Gamemaster approves by mail (rule 1).
    let late = "gtd23@example.test";
    let before_gm = stack.delivered(MASTER);
    let ask = PlayerMail::plain(
        late,
        "gtd-late@example.test",
        "entry",
        &format!("SIGNON ?{game} pw-late\n"),
    );
    send_all(&stack, &[ask]).await;
    run_once(&config, minutes(20)).await.expect("pass");
    stack.wait_delivered(MASTER, before_gm + 1).await;
    let request = text_of(one_with(&mailbox(&stack, MASTER).await, "Request to enter"));
    assert!(request.contains("APPROVE gtd23"), "{request}");
    let approve = PlayerMail::plain(
        MASTER,
        "gtd-approve@example.test",
        "approve",
        &format!("SIGNON M{game} gm-secret\nAPPROVE gtd23\n"),
    );
    send_all(&stack, &[approve]).await;
    run_once(&config, minutes(25)).await.expect("pass");
    stack.wait_delivered(late, 2).await;
    let approved = text_of(one_with(&mailbox(&stack, late).await, "Entry approved"));
    assert!(approved.contains("stand-by list"), "{approved}");
}

/// Waits for a mail to `user` whose subject contains `part`; returns its text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_masters_rules_game_by_mail() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    let game = "masters";
    let names = [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
    ];

    // Minor powers, variable control and disarmament.
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "mr-create@example.test",
            "A Masters game",
            &format!("CREATE ?{game} gm-secret standard masters=MR1,MR2,MR5\n"),
        )],
    )
    .await;
    legate_once(&config, t0);
    let created = mail_text(&stack, MASTER, "LEGT:masters", "").await;
    assert!(created.contains("MR1 Minor Powers"), "{created}");

    let joins: Vec<PlayerMail> = POWERS
        .iter()
        .zip(names)
        .map(|((initial, address), name)| {
            PlayerMail::plain(
                address,
                &format!("mr-join-{initial}@example.test"),
                "Joining",
                &format!("SIGNON ?{game} pw-{initial}\nSET PREFERENCE {name}\n"),
            )
        })
        .collect();
    send_all(&stack, &joins).await;
    let out = legate_once(&config, minutes(5));
    assert!(out.contains("applied 7"), "{out}");
    for (_, address) in POWERS {
        mail_text(&stack, address, "Game starting", "").await;
    }

    // Spring 1901, then the master processes.
    let orders =
        |initial: &str, lines: &str| format!("SIGNON {initial}{game} pw-{initial}\n{lines}\n");
    let spring = [
        PlayerMail::plain(
            POWERS[2].1,
            "mr-s-F@example.test",
            "orders",
            &orders("F", "F Bre - Gas"),
        ),
        PlayerMail::plain(
            POWERS[3].1,
            "mr-s-G@example.test",
            "orders",
            &orders("G", "F Kie - Hel\nA Ber - Kie"),
        ),
        PlayerMail::plain(
            POWERS[4].1,
            "mr-s-I@example.test",
            "orders",
            &orders("I", "F Nap - TyS"),
        ),
    ];
    send_all(&stack, &spring).await;
    legate_once(&config, minutes(10));
    let process = |id: &str| {
        PlayerMail::plain(
            MASTER,
            id,
            "process",
            &format!("SIGNON M{game} gm-secret\nPROCESS\n"),
        )
    };
    send_all(&stack, &[process("mr-p1@example.test")]).await;
    legate_once(&config, minutes(15));
    mail_text(&stack, MASTER, "S1901M results", "").await;

    // Fall 1901: the rule text's example, written as the text writes it.
    let fall = [
        PlayerMail::plain(
            POWERS[2].1,
            "mr-f-F@example.test",
            "orders",
            &orders(
                "F",
                "F Gas -S- A Mar-Spa\nA Mar - Spa\nPortugal A Por -S- (French) A Mar-Spa",
            ),
        ),
        PlayerMail::plain(
            POWERS[3].1,
            "mr-f-G@example.test",
            "orders",
            &orders(
                "G",
                "F Hel -S- A Kie-Den\nA Kie - Den\nPortugal A Por -S- (Spanish) A Spa",
            ),
        ),
        PlayerMail::plain(
            POWERS[4].1,
            "mr-f-I@example.test",
            "orders",
            &orders(
                "I",
                "F TyS - Wes\nPortugal\nA Por -S- (Spanish) A Spa\nA Por -S- (Spanish) A Spa",
            ),
        ),
    ];
    send_all(&stack, &fall).await;
    legate_once(&config, minutes(20));
    let france = mail_text(&stack, POWERS[2].1, "F1901M orders", "").await;
    assert!(france.contains("variable control"), "{france}");
    assert!(!france.contains("Error"), "{france}");
    send_all(&stack, &[process("mr-p2@example.test")]).await;
    legate_once(&config, minutes(25));
    let results = mail_text(&stack, POWERS[4].1, "F1901M results", "").await;
    assert!(
        results.contains("Portugal: A POR S A SPA (3: Germany 1, Italy 2) - carried out"),
        "{results}"
    );
    assert!(
        results.contains("Portugal: A POR S A MAR - SPA (1: France 1) - out-voted"),
        "{results}"
    );

    // Winter 1901: Germany builds, England disbands a unit it need not lose.
    let winter = [
        PlayerMail::plain(
            POWERS[3].1,
            "mr-w-G@example.test",
            "builds",
            &orders("G", "Build A Ber"),
        ),
        PlayerMail::plain(
            POWERS[1].1,
            "mr-w-E@example.test",
            "builds",
            &orders("E", "Disband A Lvp"),
        ),
    ];
    send_all(&stack, &winter).await;
    legate_once(&config, minutes(30));
    send_all(&stack, &[process("mr-p3@example.test")]).await;
    legate_once(&config, minutes(35));
    let results = mail_text(&stack, MASTER, "W1901A results", "").await;
    assert!(
        results.contains("Voluntary disbands: England REMOVE A LVP"),
        "{results}"
    );
    assert!(results.contains("Germany: BUILD A BER - done"), "{results}");
}

/// Waits for mails to `user` until one whose subject has `subject` and whose
/// text has `part`; returns that text.
/// The text of the first mail to `user` whose subject holds `subject` and whose
/// text holds `part`, waiting for it to arrive.
async fn mail_text(stack: &Stack, user: &str, subject: &str, part: &str) -> String {
    let until = Instant::now() + PATIENCE;
    loop {
        let mails = mailbox(stack, user).await;
        if let Some(m) = mails
            .iter()
            .find(|m| subject_of(m).contains(subject) && text_of(m).contains(part))
        {
            return text_of(m);
        }
        assert!(
            Instant::now() < until,
            "no mail {subject:?} with {part:?} for {user}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agora_tournament_by_mail() {
    let stack = Stack::start();
    let config = stack.config();
    let t0 = t("2027-03-01T09:00:00Z");
    let game = "bday";
    let contestants: Vec<String> = (1..=4).map(|i| format!("c{i}@example.test")).collect();

    // The Gamemaster creates the tournament and publishes the regulations.
    let regs = "0. The Gamemaster never plays.\n5. Sections 0 to 5 are protected.\n\
                8. Proposals pass with three votes in favour.\n";
    let mut mails = vec![PlayerMail::plain(
        MASTER,
        "ag-create@example.test",
        "Birthday tournament",
        &format!("CREATE ?{game} gm-secret agora\nAMEND REGULATIONS\n{regs}ENDREGULATIONS\n"),
    )];
    for (i, c) in contestants.iter().enumerate() {
        mails.push(PlayerMail::plain(
            c,
            &format!("ag-enter-{i}@example.test"),
            "Entering",
            &format!("ENTER ?{game} pw-{i}\n"),
        ));
    }
    send_all(&stack, &mails).await;
    let pass = run_once(&config, t0).await.expect("pass");
    assert_eq!(pass.intake.applied, 5, "{pass:?}");
    mail_text(
        &stack,
        &contestants[0],
        "Tournament",
        "c4@example.test enters the tournament.",
    )
    .await;

    // Entry closes after seven days: the judge's clock begins play by itself.
    let begin = t0 + chrono::Duration::days(8);
    run_once(&config, begin).await.expect("pass");
    mail_text(&stack, &contestants[0], "Tournament", "Entry closed at").await;
    let start = mail_text(&stack, &contestants[0], "Game starting", "Powers:").await;
    let power_of = |c: &str| {
        start
            .lines()
            .find(|l| l.contains(c))
            .and_then(|l| l.split_whitespace().next())
            .expect("a power for each contestant")
            .to_string()
    };
    let power = power_of(&contestants[0]);
    let (order, canonical) = match power.as_str() {
        "Austria" => ("A Vie - Gal", "Army Vienna -> Galicia"),
        "England" => ("F Lon - Nth", "Fleet London -> North Sea"),
        "France" => ("A Par - Bur", "Army Paris -> Burgundy"),
        "Germany" => ("A Ber - Kie", "Army Berlin -> Kiel"),
        "Italy" => ("A Rom - Apu", "Army Rome -> Apulia"),
        "Russia" => ("A Mos - Ukr", "Army Moscow -> Ukraine"),
        // No centre changes hands: the draw clock runs from the start.
        _ => ("F Ank - Bla", "Fleet Ankara -> Black Sea"),
    };

    // A proposal, three private votes, enactment with the counts only; and
    // the proposer's orders for the first turn.
    let initial = &power[..1];
    send_all(
        &stack,
        &[PlayerMail::plain(
            &contestants[0],
            "ag-propose@example.test",
            "proposal",
            &format!(
                "SIGNON {initial}{game} pw-0\nPROPOSE\n8. Proposals pass with two votes in favour.\nENDPROPOSAL\n{order}\n"
            ),
        )],
    )
    .await;
    run_once(&config, begin + chrono::Duration::minutes(5))
        .await
        .expect("pass");
    mail_text(
        &stack,
        &contestants[3],
        "Tournament",
        "Proposal 1 submitted",
    )
    .await;
    let votes: Vec<PlayerMail> = (1..=3)
        .map(|i| {
            PlayerMail::plain(
                &contestants[i],
                &format!("ag-vote-{i}@example.test"),
                "vote",
                &format!(
                    "SIGNON {}{game} pw-{i}\nVOTE FOR PROPOSAL 1\n",
                    &power_of(&contestants[i])[..1]
                ),
            )
        })
        .collect();
    send_all(&stack, &votes).await;
    let pass = run_once(&config, begin + chrono::Duration::minutes(10))
        .await
        .expect("pass");
    assert_eq!(pass.intake.applied, 3, "{pass:?}");
    let enacted = mail_text(
        &stack,
        &contestants[0],
        "Tournament",
        "Proposal 1 is enacted with 3 votes in favour and 0 against",
    )
    .await;
    assert!(
        enacted.contains("8. Proposals pass with two votes in favour."),
        "{enacted}"
    );
    votes_stay_private(&stack, &contestants).await;
    let reply = mail_text(
        &stack,
        &contestants[1],
        "",
        "Your vote for proposal 1 is recorded",
    )
    .await;
    assert!(!reply.contains("against"), "{reply}");

    // The turn is processed at 12:00 UTC on the second day after the start.
    let deadline = t("2027-03-11T12:00:00Z");
    run_once(&config, deadline).await.expect("pass");
    let results = mail_text(&stack, &contestants[2], "S1901M results", "").await;
    assert!(results.contains(canonical), "{results}");
    assert!(results.contains("F1901M"), "{results}");

    // Too soon for a draw: the Gamemaster is told when one may be declared.
    let gm = format!("SIGNON M{game} gm-secret\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "ag-draw-early@example.test",
            "draw?",
            &format!("{gm}DECLARE DRAW\n"),
        )],
    )
    .await;
    run_once(&config, deadline + chrono::Duration::minutes(5))
        .await
        .expect("pass");
    mail_text(
        &stack,
        MASTER,
        "",
        "a draw may be declared after the Fall of 1903",
    )
    .await;

    // Nobody orders again: every unit holds and no centre changes hands.
    // The judge's clock plays each turn at its deadline through the Fall of
    // 1903, and then tells the Gamemaster a draw may be declared (section 9).
    let mut now = deadline;
    let mut guard = 0;
    while agora_phase(&stack, game) != "S1904M" {
        now = now.max(agora_wakeup(&stack));
        let pass = run_once(&config, now).await.expect("pass");
        assert_eq!(pass.processed, 1, "one turn at {now}: {pass:?}");
        guard += 1;
        assert!(
            guard <= 5,
            "still at {} at {now}",
            agora_phase(&stack, game)
        );
    }
    assert_eq!(
        now,
        t("2027-03-21T12:00:00Z"),
        "Fall 1903 closes on its day"
    );
    mail_text(
        &stack,
        MASTER,
        "Tournament",
        "No centre has changed hands in three game-years: you may declare a draw (section 9).",
    )
    .await;
    let fall = mail_text(&stack, &contestants[1], "F1903M results", "").await;
    assert!(fall.contains("the Gamemaster may declare a draw"), "{fall}");

    // The Gamemaster declares the draw by mail, with two days' notice.
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "ag-draw@example.test",
            "draw",
            &format!("{gm}DECLARE DRAW\n"),
        )],
    )
    .await;
    let declared = now + chrono::Duration::minutes(5);
    let pass = run_once(&config, declared).await.expect("pass");
    assert_eq!(pass.intake.applied, 1, "{pass:?}");
    mail_text(
        &stack,
        MASTER,
        "",
        "The draw is declared, with two days' notice.",
    )
    .await;
    let takes_effect = declared + chrono::Duration::days(2);
    for c in &contestants {
        mail_text(
            &stack,
            c,
            "Tournament",
            &format!("the Gamemaster declares the game a draw, to take effect at {takes_effect}"),
        )
        .await;
    }
    assert_eq!(agora_wakeup(&stack), takes_effect);

    // No turn is played while the notice runs, even past S1904's deadline.
    let pass = run_once(&config, takes_effect - chrono::Duration::hours(1))
        .await
        .expect("pass");
    assert_eq!(pass.processed, 0, "{pass:?}");
    assert_eq!(agora_phase(&stack, game), "S1904M");

    // The notice runs: every contestant wins, and everyone hears it.
    run_once(&config, takes_effect).await.expect("pass");
    for c in &contestants {
        let end = mail_text(&stack, c, "Tournament", "The game is drawn (section 9).").await;
        let winners = mail_text(
            &stack,
            c,
            "Tournament",
            "The judge announces the winners of the tournament:",
        )
        .await;
        for w in &contestants {
            assert!(winners.contains(w.as_str()), "{w} not among {winners}");
        }
        assert!(!end.contains("no longer a contestant"), "{end}");
        mail_text(&stack, c, "", "The game is drawn between").await;
    }

    // The game is over: LIST says so, and so does the store.
    send_all(
        &stack,
        &[PlayerMail::plain(
            &contestants[3],
            "ag-list@example.test",
            "list",
            &format!("LIST {game}\n"),
        )],
    )
    .await;
    run_once(&config, takes_effect + chrono::Duration::minutes(5))
        .await
        .expect("pass");
    let list = mail_text(&stack, &contestants[3], "", "Outcome: Draw").await;
    assert!(list.contains("Finished"), "{list}");
    for c in &contestants {
        let power = power_of(c);
        assert!(list.contains(&format!("\"{power}\"")), "{power} in {list}");
    }
    assert_eq!(agora_wakeup_opt(&stack), None, "nothing more to do");

    // Votes were only ever counted, in every mailbox, to the end.
    votes_stay_private(&stack, &contestants).await;
}

/// No contestant's mail shows another contestant's vote.
async fn votes_stay_private(stack: &Stack, contestants: &[String]) {
    for c in contestants.iter().map(String::as_str).chain([MASTER]) {
        for m in mailbox(stack, c).await {
            let text = text_of(&m);
            for (i, voter) in contestants.iter().enumerate().skip(1) {
                if voter != c {
                    assert!(
                        !(text.contains("Your vote") && text.contains(voter.as_str())),
                        "c{}'s vote reached {c}",
                        i + 1
                    );
                }
            }
        }
    }
}

/// The tournament's current phase, as the judge's store has it.
fn agora_phase(stack: &Stack, game: &str) -> String {
    let mut engine = Engine::open(stack.database(), EngineConfig::default()).expect("engine");
    let name = game.to_string();
    engine
        .store()
        .transaction(|tx| tx.game_by_name(&name))
        .expect("store")
        .and_then(|row| row.current_phase)
        .unwrap_or_default()
}

/// When the judge's clock next has something to do, if ever.
fn agora_wakeup_opt(stack: &Stack) -> Option<DateTime<Utc>> {
    Engine::open(stack.database(), EngineConfig::default())
        .expect("engine")
        .next_wakeup()
        .expect("next wakeup")
}

fn agora_wakeup(stack: &Stack) -> DateTime<Utc> {
    agora_wakeup_opt(stack).expect("a deadline")
}

// ----- Twilight Zone -----

const TZ_NORTH_CHANNEL: &str = include_str!("../config/twilight/north-channel.txt");
const TZ_BALTIC_GATE: &str = include_str!("../config/twilight/baltic-gate.txt");
const TZ_IONIAN_BRIDGE: &str = include_str!("../config/twilight/ionian-bridge.txt");

/// A Twilight Zone design from its `MAP` line on.
fn tz_design(text: &str) -> String {
    let at = text.find("MAP\n").expect("MAP line");
    text[at..].to_string()
}

/// The design with two seas' names exchanged everywhere.
fn tz_swap(text: &str, a: &str, b: &str) -> String {
    let word = |w: &str| -> String {
        let (name, colon) = w.strip_suffix(':').map_or((w, ""), |x| (x, ":"));
        let name = if name == a {
            b
        } else if name == b {
            a
        } else {
            name
        };
        format!("{name}{colon}")
    };
    tz_design(text)
        .lines()
        .map(|l| l.split(' ').map(word).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Seven different maps, by initial: England's Mid-Atlantic touches
/// Edinburgh, Turkey's touches Constantinople, France's Brest - Picardy is
/// land only.
fn tz_maps() -> Vec<(&'static str, String)> {
    let nc = TZ_NORTH_CHANNEL;
    vec![
        ("A", tz_design(TZ_BALTIC_GATE)),
        ("E", tz_swap(nc, "nao", "mao")),
        (
            "F",
            tz_design(nc).replace("LAND ONLY\n", "LAND ONLY\nbre - pic\n"),
        ),
        ("G", tz_design(nc)),
        ("I", tz_design(TZ_IONIAN_BRIDGE)),
        (
            "R",
            tz_design(nc).replace("LAND ONLY\n", "LAND ONLY\nbre - gas\n"),
        ),
        ("T", tz_swap(nc, "bla", "mao")),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_twilight_zone_game_by_mail() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    let game = "tze2e";
    let address = |initial: &str| {
        POWERS
            .iter()
            .find(|(i, _)| *i == initial)
            .map(|(_, a)| *a)
            .expect("a power")
    };
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "tz-create@example.test",
            "A Twilight Zone game",
            &format!("CREATE ?{game} gm-secret twilight\n"),
        )],
    )
    .await;
    legate_once(&config, t0);

    // Each player joins with their own map in the mail body.
    let maps = tz_maps();
    let joins: Vec<PlayerMail> = maps
        .iter()
        .map(|(initial, map)| {
            PlayerMail::plain(
                address(initial),
                &format!("tz-join-{initial}@example.test"),
                "Joining with my map",
                &format!("SIGNON ?{game} pw-{initial}\nSET PREFERENCE {initial}\n{map}"),
            )
        })
        .collect();
    send_all(&stack, &joins).await;
    let out = legate_once(&config, minutes(5));
    assert!(out.contains("applied 7"), "{out}");
    for (initial, _) in &maps {
        let who = address(initial);
        mail_text(&stack, who, "Game starting", "").await;
        let picture = mail_text(&stack, who, "your Twilight Zone map", "").await;
        assert!(picture.contains("Only you receive it"), "{picture}");
    }
    // The picture came as files, and only to its designer.
    let france = mailbox(&stack, address("F")).await;
    let own = france
        .iter()
        .find(|m| subject_of(m).contains("your Twilight Zone map"))
        .expect("the picture mail");
    let parts: Vec<String> = parsed(own)
        .attachments()
        .map(|a| a.attachment_name().unwrap_or("").to_string())
        .collect();
    assert!(parts.iter().any(|n| n.ends_with("-map.svg")), "{parts:?}");
    let pictures = france
        .iter()
        .filter(|m| subject_of(m).contains("your Twilight Zone map"))
        .count();
    assert_eq!(pictures, 1);
    let started = mail_text(&stack, address("R"), "Game starting", "").await;
    assert!(started.contains("BUILD A Par"), "{started}");

    // Rule 3: the placement. All in: played at once.
    let placement = [
        ("A", "BUILD A Vie\nBUILD A Bud\nBUILD A Tri\n"),
        ("E", "BUILD F Edi\nBUILD F Lon\nBUILD A Lvp\n"),
        ("F", "BUILD F Bre\nBUILD A Par\nBUILD F Mar\n"),
        ("G", "BUILD A Mun\nBUILD F Kie\nBUILD A Ber\n"),
        ("I", "BUILD A Rom\nBUILD A Ven\nBUILD F Nap\n"),
        ("R", "BUILD A Mos\nBUILD A War\nBUILD F Stp/nc\n"),
        ("T", "BUILD F Con\nBUILD F Ank\nBUILD A Smy\n"),
    ];
    let builds: Vec<PlayerMail> = placement
        .iter()
        .map(|(initial, lines)| {
            PlayerMail::plain(
                address(initial),
                &format!("tz-place-{initial}@example.test"),
                "placement",
                &format!("SIGNON {initial}{game} pw-{initial}\n{lines}"),
            )
        })
        .collect();
    send_all(&stack, &builds).await;
    legate_once(&config, minutes(10));
    let placed = mail_text(&stack, address("G"), "W1900A results", "").await;
    assert!(placed.contains("Spring of 1901 BC"), "{placed}");

    // Spring 1901 BC: Constantinople and Edinburgh both reach the Mid-Atlantic,
    // each on its own player's map: a stand-off. France's own map has no
    // coastline from Brest to Picardy; Germany's has.
    let spring = [
        ("E", "F Edi - MAO (English Map)\n"),
        ("T", "F Con - MAO (Turkish Map)\n"),
        ("F", "F Bre - Pic\nF Bre - Pic (German Map)\n"),
    ];
    let orders: Vec<PlayerMail> = spring
        .iter()
        .map(|(initial, lines)| {
            PlayerMail::plain(
                address(initial),
                &format!("tz-s1-{initial}@example.test"),
                "orders",
                &format!("SIGNON {initial}{game} pw-{initial}\n{lines}"),
            )
        })
        .collect();
    let before_france = stack.delivered(address("F"));
    send_all(&stack, &orders).await;
    legate_once(&config, minutes(15));
    stack.wait_delivered(address("F"), before_france + 1).await;
    let reply = mailbox(&stack, address("F"))
        .await
        .iter()
        .map(text_of)
        .find(|t| t.contains("F Bre - Pic (German Map)"))
        .expect("the answer to France's orders");
    assert!(reply.contains("not possible on the French map"), "{reply}");
    assert!(reply.contains("F BRE - PIC (German Map)"), "{reply}");

    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "tz-p1@example.test",
            "process",
            &format!("SIGNON M{game} gm-secret\nPROCESS\n"),
        )],
    )
    .await;
    legate_once(&config, minutes(20));
    let results = mail_text(&stack, address("R"), "S1901M results", "").await;
    assert!(results.contains("Spring of 1901 BC"), "{results}");
    assert!(results.contains("Fall of 1901 BC"), "{results}");
    assert!(
        results.contains("Constantinople -> Mid-Atlantic Ocean (Turkish Map)"),
        "{results}"
    );
    assert!(results.contains("(English Map)"), "{results}");
    assert!(
        results.contains("Brest -> Picardy (German Map)"),
        "{results}"
    );
    assert!(results.contains("bounce"), "{results}");

    // Rule 4.3: no mail to one player holds a line only another's map has.
    for (initial, design) in &maps {
        let unique: Vec<&str> = design
            .lines()
            .filter(|l| l.len() > 4)
            .filter(|l| {
                maps.iter()
                    .filter(|(_, d)| d.lines().any(|x| x == *l))
                    .count()
                    == 1
            })
            .collect();
        for (other, _) in &maps {
            if other == initial {
                continue;
            }
            for m in mailbox(&stack, address(other)).await {
                let text = text_of(&m);
                for line in &unique {
                    assert!(
                        !text.contains(line),
                        "{other} saw {line:?} of {initial}'s map"
                    );
                }
                assert!(!text.contains("can retreat to"), "{text}");
            }
        }
    }
}

/// The rule of blocks by mail (issue: nothing a player writes is misread):
/// one player's mail with press to the master holding an order-like line, a
/// press closed by `END PRESS` with an order after it, and a broadcast ended by
/// `SIGNOFF` above a signature. Each press reaches only its readers' mailboxes,
/// with its own text and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn press_ends_where_njudge_ends_it_in_every_mailbox() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    start_game(&stack, &config, t0).await;
    let (france, england, germany) = (POWERS[2].1, POWERS[1].1, POWERS[3].1);
    let before = |who: &str| stack.delivered(who);
    let counts = [
        before(MASTER),
        before(france),
        before(england),
        before(germany),
    ];
    let body = format!(
        "SIGNON F{GAME} pw-F\nPRESS TO M\nPlease extend.\nF Bre - Eng\nENDPRESS\n\
         PRESS TO g\ntext for Germany\nEND PRESS\nA Par - Bur\n\
         BROADCAST\nHello all.\nSIGNOFF\nJohn Smith\nACME Corp, tel 555-1234\n"
    );
    send_all(
        &stack,
        &[PlayerMail::plain(
            france,
            "press-F@example.test",
            "press",
            &body,
        )],
    )
    .await;
    legate_once(&config, minutes(10));
    stack.wait_delivered(MASTER, counts[0] + 1).await;
    stack.wait_delivered(france, counts[1] + 1).await;
    stack.wait_delivered(england, counts[2] + 1).await;
    stack.wait_delivered(germany, counts[3] + 2).await;

    let press_texts = |mails: &[InboundMail]| -> Vec<String> {
        mails
            .iter()
            .filter(|m| subject_of(m).contains("Press from"))
            .map(text_of)
            .collect()
    };
    let master = press_texts(&mailbox(&stack, MASTER).await);
    let to_master: Vec<&String> = master
        .iter()
        .filter(|t| t.contains("to the master"))
        .collect();
    assert_eq!(to_master.len(), 1, "{master:?}");
    assert!(to_master[0].contains("Please extend.") && to_master[0].contains("F Bre - Eng"));
    let england_press = press_texts(&mailbox(&stack, england).await);
    assert_eq!(england_press.len(), 1, "{england_press:?}");
    let germany_press = press_texts(&mailbox(&stack, germany).await);
    assert_eq!(germany_press.len(), 2, "{germany_press:?}");
    for text in england_press.iter().chain(&germany_press) {
        for never in [
            "SIGNOFF",
            "John Smith",
            "ACME",
            "A Par - Bur",
            "END PRESS",
            "Please extend",
        ] {
            assert!(!text.contains(never), "{never} in {text}");
        }
    }
    assert!(germany_press.iter().any(|t| t.contains("text for Germany")));
    assert!(england_press[0].contains("Hello all."));
    let reply = text_of(one_with(
        &mailbox(&stack, france).await,
        "Re: LEGT:e2e - S1901M press",
    ));
    assert!(reply.contains("Accepted: A PAR - BUR"), "{reply}");
    assert!(!reply.contains("F BRE - ENG"), "{reply}");
}

/// The game `GAME` created by the master at `t0` and joined by the seven powers
/// five minutes later, each with its own power as preference; every mail answered.
async fn start_game(stack: &Stack, config: &Path, t0: DateTime<Utc>) {
    send_all(
        stack,
        &[PlayerMail::plain(
            MASTER,
            "create@example.test",
            "A new game",
            &format!("CREATE ?{GAME} gm-secret standard\n"),
        )],
    )
    .await;
    legate_once(config, t0);
    stack.wait_delivered(MASTER, 1).await;
    let joins: Vec<PlayerMail> = POWERS
        .iter()
        .map(|(power, address)| {
            PlayerMail::plain(
                address,
                &format!("join-{power}@example.test"),
                "Joining",
                &format!("SIGNON ?{GAME} pw-{power}\nSET PREFERENCE {power}\n"),
            )
        })
        .collect();
    send_all(stack, &joins).await;
    legate_once(config, t0 + chrono::Duration::minutes(5));
    for (_, address) in POWERS {
        stack.wait_delivered(address, 2).await;
    }
    // The master: the answer to CREATE, a notice of each sign-on, the start.
    stack.wait_delivered(MASTER, 9).await;
}

/// njudge's settings and deadline habits by real mail, where the effect is on
/// other players' mailboxes: a deadline moved to a day is announced to every
/// player; a bare PRESS reaches nobody; under SET NO PARTIAL private press
/// reaches nobody while a broadcast still reaches everyone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadline_changes_and_press_settings_reach_every_mailbox_as_on_njudge() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    start_game(&stack, &config, t0).await;
    let (france, england) = (POWERS[2].1, POWERS[1].1);
    let count = |who: &str| stack.delivered(who);
    let press_in = |mails: &[InboundMail]| -> usize {
        mails
            .iter()
            .filter(|m| subject_of(m).contains("Press from"))
            .count()
    };

    // The master moves the deadline to a weekday: every player is told.
    let before: Vec<usize> = POWERS.iter().map(|(_, a)| count(a)).collect();
    let master = format!("SIGNON M{GAME} gm-secret\nSET DEADLINE Tue\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "deadline@example.test",
            "deadline",
            &master,
        )],
    )
    .await;
    legate_once(&config, minutes(10));
    for ((_, address), n) in POWERS.iter().zip(&before) {
        stack.wait_delivered(address, n + 1).await;
        let told = mailbox(&stack, address).await;
        assert!(
            told.iter()
                .any(|m| subject_of(m).contains("Deadline changed")),
            "{address} was not told of the new deadline"
        );
    }

    // A bare PRESS: France is told what is missing, England gets nothing.
    let england_press = press_in(&mailbox(&stack, england).await);
    let (f, e) = (count(france), count(england));
    let bare = format!("SIGNON F{GAME} pw-F\nPRESS\nOur secret plan.\nENDPRESS\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            france,
            "bare@example.test",
            "bare press",
            &bare,
        )],
    )
    .await;
    legate_once(&config, minutes(15));
    stack.wait_delivered(france, f + 1).await;
    let reply = text_of(one_with(&mailbox(&stack, france).await, "bare press"));
    assert!(reply.contains("PRESS TO"), "{reply}");
    assert_eq!(count(england), e, "the bare press reached England");

    // SET NO PARTIAL: private press is refused, a broadcast still goes out.
    let master = format!("SIGNON M{GAME} gm-secret\nSET NO PARTIAL\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "nopartial@example.test",
            "no partial",
            &master,
        )],
    )
    .await;
    legate_once(&config, minutes(20));
    let f = count(france);
    let mails = format!(
        "SIGNON F{GAME} pw-F\nPRESS TO E\nJust us two?\nENDPRESS\nBROADCAST\nHello all.\nENDPRESS\n"
    );
    send_all(
        &stack,
        &[PlayerMail::plain(
            france,
            "partial@example.test",
            "partial press",
            &mails,
        )],
    )
    .await;
    legate_once(&config, minutes(25));
    stack.wait_delivered(france, f + 1).await;
    stack.wait_delivered(england, e + 1).await;
    let reply = text_of(one_with(&mailbox(&stack, france).await, "partial press"));
    assert!(reply.contains("no partial press"), "{reply}");
    let england_mail = mailbox(&stack, england).await;
    assert_eq!(
        press_in(&england_mail),
        england_press + 1,
        "only the broadcast"
    );
    assert!(
        england_mail
            .iter()
            .filter(|m| subject_of(m).contains("Press from"))
            .all(|m| !text_of(m).contains("Just us two?")),
        "the private press reached England"
    );
}

/// njudge's Master notices by real mail, each read in someone else's mailbox:
/// `BECOME Fra` mails France's player a copy of what was done, `EJECT` tells
/// the ejected player and the others, `PAUSE` tells every player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn master_habits_reach_the_players_mailboxes_as_on_njudge() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    start_game(&stack, &config, t0).await;
    let (austria, england, france) = (POWERS[0].1, POWERS[1].1, POWERS[2].1);
    let count = |who: &str| stack.delivered(who);
    let before: Vec<usize> = POWERS.iter().map(|(_, a)| count(a)).collect();
    let master = format!("SIGNON M{GAME} gm-secret\nBECOME Fra\nA Par - Bur\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "become@example.test",
            "become",
            &master,
        )],
    )
    .await;
    legate_once(&config, minutes(10));
    stack.wait_delivered(france, before[2] + 1).await;
    let copy = text_of(one_with(&mailbox(&stack, france).await, "Master as France"));
    assert!(
        copy.contains("A PAR - BUR") || copy.contains("A Par - Bur"),
        "{copy}"
    );
    // The master's sign-on answer (every power's orders) is not in the copy.
    assert!(!copy.contains("Orders for S1901M"), "{copy}");
    assert_eq!(count(england), before[1], "England got a copy");

    let (a, e) = (count(austria), count(england));
    let master = format!("SIGNON M{GAME} gm-secret\nEJECT Austria\nPAUSE\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "eject@example.test",
            "eject",
            &master,
        )],
    )
    .await;
    legate_once(&config, minutes(20));
    stack.wait_delivered(austria, a + 1).await;
    stack.wait_delivered(england, e + 2).await;
    let ejected = text_of(one_with(&mailbox(&stack, austria).await, "Ejected"));
    assert!(ejected.contains("removed you (Austria)"), "{ejected}");
    let england_mail = mailbox(&stack, england).await;
    for subject in ["Ejection", "Paused"] {
        assert!(
            england_mail.iter().any(|m| subject_of(m).contains(subject)),
            "England was not told: {subject}"
        );
    }
}

/// njudge's player habits by real mail, where the effect is on other
/// players' mailboxes: a resignation and a take-over are announced to every
/// player, and press to `+g` (njudge's list of initials) reaches Germany only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_a_take_over_and_initials_press_reach_every_mailbox() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    start_game(&stack, &config, t0).await;
    let (france, england, germany) = (POWERS[2].1, POWERS[1].1, POWERS[3].1);
    let count = |who: &str| stack.delivered(who);

    // France resigns: England is told, and how to take France over.
    let (f, e) = (count(france), count(england));
    let resign = format!("SIGNON F{GAME} pw-F\nRESIGN\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            france,
            "resign@example.test",
            "resign",
            &resign,
        )],
    )
    .await;
    legate_once(&config, minutes(10));
    stack.wait_delivered(france, f + 1).await;
    stack.wait_delivered(england, e + 1).await;
    let told = mail_text(&stack, england, "France resigned", "has resigned").await;
    assert!(told.contains(&format!("SIGNON F{GAME}")), "{told}");

    // The player comes back by signing on to the empty power: all are told
    // it is a return (njudge: "has returned as France").
    let (f, e) = (count(france), count(england));
    let back = format!("SIGNON F{GAME} pw-back\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            france,
            "back@example.test",
            "back",
            &back,
        )],
    )
    .await;
    legate_once(&config, minutes(15));
    stack.wait_delivered(france, f + 1).await;
    stack.wait_delivered(england, e + 1).await;
    let told = mail_text(&stack, england, "France player returned", "signed on again").await;
    assert!(told.contains(france), "{told}");
    let reply = mail_text(&stack, france, "back", "You have returned as France").await;
    assert!(reply.contains("France"), "{reply}");

    // England writes `PRESS +g`: Germany reads it, France does not.
    let (f, g) = (count(france), count(germany));
    let press = format!("SIGNON E{GAME} pw-E\nPRESS +g\nJust you.\nENDPRESS\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            england,
            "plus@example.test",
            "plus",
            &press,
        )],
    )
    .await;
    legate_once(&config, minutes(20));
    stack.wait_delivered(germany, g + 1).await;
    let got = mail_text(&stack, germany, "Press from England", "Just you.").await;
    assert!(got.contains("to Germany"), "{got}");
    assert_eq!(count(france), f, "the press to +g reached France");
}

/// njudge's fake press and its notices by real mail: in a game whose master
/// allows fake press, Italy's message to everyone but Germany arrives headed
/// as a broadcast and Germany gets nothing; the master's copy says who really
/// read it; an observer joining is told to the players too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_press_and_an_observers_notice_reach_the_players_mailboxes_as_on_njudge() {
    let stack = Stack::start();
    let config = stack.judge_config();
    let t0 = t("2027-03-01T09:00:00Z");
    let minutes = |m: i64| t0 + chrono::Duration::minutes(m);
    start_game(&stack, &config, t0).await;
    let (england, germany, italy) = (POWERS[1].1, POWERS[3].1, POWERS[4].1);
    let count = |who: &str| stack.delivered(who);

    let master = format!("SIGNON M{GAME} gm-secret\nSET GREY\nSET PARTIAL MAY BE FAKED\n");
    let m = count(MASTER);
    send_all(
        &stack,
        &[PlayerMail::plain(
            MASTER,
            "fake-on@example.test",
            "fake",
            &master,
        )],
    )
    .await;
    legate_once(&config, minutes(5));
    stack.wait_delivered(MASTER, m + 1).await;

    let (e, g, m) = (count(england), count(germany), count(MASTER));
    let press = format!(
        "SIGNON I{GAME} pw-I\nPRESS TO ALL BUT G FAKE BROADCAST\nThis is Germany: you are all wimps.\nENDPRESS\n"
    );
    send_all(
        &stack,
        &[PlayerMail::plain(
            italy,
            "faked@example.test",
            "faked",
            &press,
        )],
    )
    .await;
    legate_once(&config, minutes(10));
    stack.wait_delivered(england, e + 1).await;
    stack.wait_delivered(MASTER, m + 1).await;
    let got = mail_text(&stack, england, "Press from", "wimps").await;
    assert!(
        got.contains("Press from an anonymous power to everyone:"),
        "{got}"
    );
    assert!(!got.contains("Italy"), "{got}");
    let truth = mail_text(&stack, MASTER, "Press from", "wimps").await;
    assert!(truth.contains("(faked: really to"), "{truth}");
    assert_eq!(count(germany), g, "Germany read press not sent to it");

    let (e, g) = (count(england), count(germany));
    let watch = format!("OBSERVE {GAME} pw-fan\n");
    send_all(
        &stack,
        &[PlayerMail::plain(
            "fan@example.test",
            "watch@example.test",
            "watch",
            &watch,
        )],
    )
    .await;
    legate_once(&config, minutes(15));
    stack.wait_delivered(england, e + 1).await;
    stack.wait_delivered(germany, g + 1).await;
    let told = mail_text(&stack, england, "Notice: observer", "now observes").await;
    assert!(told.contains("fan@example.test"), "{told}");
}
