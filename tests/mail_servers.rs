//! The mail layer against real servers: Dovecot (IMAP) and Postfix (SMTP) started by
//! scripts/mail-servers.sh on loopback, one stack per test in its own folder and ports.
//! Needs the Debian packages dovecot-imapd, dovecot-lmtpd and postfix, and root
//! (`.ci/run` installs them).

use crate::mail_stack::MailServers;
use std::path::{Path, PathBuf};
use std::time::Duration;

use legate::config::{ImapConfig, Secret, Security, SmtpConfig};
use legate::mail::inbound::{Backoff, ImapInbound};
use legate::mail::outbound::SmtpOutbound;
use legate::mail::{
    Envelope, InboundError, InboundMail, IngestOptions, NoReply, OutgoingMail, RenderedMail,
    SubjectTag, Wake, render, reply_subject,
};
use tokio::time::Instant;

const JUDGE: &str = "judge@judge.test";
const PLAYER: &str = "alice@example.test";
const PATIENCE: Duration = Duration::from_secs(10);

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
        Stack::start_with(&[])
    }

    /// Only `addresses` exist (others are refused at RCPT); all exist when empty.
    fn start_with(addresses: &[&str]) -> Stack {
        Stack(MailServers::start_with(addresses))
    }

    fn imap(&self, user: &str, security: Security) -> ImapConfig {
        ImapConfig {
            host: "127.0.0.1".into(),
            port: if security == Security::Tls {
                self.base + 3
            } else {
                self.base
            },
            security,
            username: user.into(),
            password: Secret("pw".into()),
            mailbox: "INBOX".into(),
            processed_mailbox: None,
            poll_seconds: 3600,
            idle: true,
            ca_file: Some(self.cert()),
        }
    }

    fn smtp(&self, security: Security) -> SmtpOutbound {
        self.smtp_login(security, None)
    }

    fn smtp_login(&self, security: Security, login: Option<(&str, &str)>) -> SmtpOutbound {
        SmtpOutbound::new(&SmtpConfig {
            host: "127.0.0.1".into(),
            port: self.base + 1,
            security,
            username: login.map(|(user, _)| user.to_string()),
            password: login.map(|(_, pw)| Secret(pw.to_string())),
            ca_file: Some(self.cert()),
            timeout_seconds: 5,
        })
        .expect("smtp transport")
    }

    fn maildir(&self, user: &str) -> PathBuf {
        self.dir.path().join("mail").join(user).join("Maildir")
    }
}

fn opts() -> IngestOptions {
    IngestOptions {
        judge_address: JUDGE.into(),
        max_bytes: 64 * 1024,
    }
}

/// The plain order fixture as sent by `from`, with its own Message-ID.
fn order_mail(from: &str, message_id: &str) -> RenderedMail {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/plain-orders.eml");
    let text = std::fs::read_to_string(path).expect("fixture");
    // Drop the trace headers a receiving server adds; Postfix and Dovecot add their own.
    let start = text.find("From:").expect("From header");
    let text = text[start..]
        .replace("alice@example.test", from)
        .replace("plain-1@example.test", message_id);
    RenderedMail {
        message_id: message_id.into(),
        from: from.into(),
        to: vec![JUDGE.into()],
        bytes: text.into_bytes(),
    }
}

/// Fetches until at least `n` mails are there.
async fn fetch_n(inbound: &mut ImapInbound, n: usize) -> Vec<InboundMail> {
    let until = Instant::now() + PATIENCE;
    loop {
        match inbound.fetch().await {
            Ok(mails) if mails.len() >= n => return mails,
            Ok(_) | Err(InboundError::Unavailable { .. }) => {}
            Err(e) => eprintln!("fetch: {e}"),
        }
        assert!(
            Instant::now() < until,
            "mail did not arrive within {PATIENCE:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn envelope(mail: &InboundMail) -> Envelope {
    mail.envelope(&opts()).expect("parses")
}

fn seen_flag_files(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("cur"))
        .map(|d| {
            d.flatten()
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .rsplit(":2,")
                        .next()
                        .is_some_and(|f| f.contains('S'))
                })
                .count()
        })
        .unwrap_or(0)
}

#[tokio::test]
async fn starttls_inbound_marks_seen_only_after_commit() {
    let stack = Stack::start();
    stack
        .smtp(Security::StartTls)
        .send(&order_mail(PLAYER, "o1@example.test"))
        .await
        .expect("accepted");
    let mut inbound =
        ImapInbound::new(stack.imap(JUDGE, Security::StartTls), 64 * 1024).expect("client");

    let mails = fetch_n(&mut inbound, 1).await;
    assert_eq!(mails.len(), 1);
    let env = envelope(&mails[0]);
    assert_eq!(env.sender.as_deref(), Some(PLAYER));
    assert_eq!(env.message_id.as_deref(), Some("o1@example.test"));
    assert_eq!(
        env.body_lines[1..4],
        ["A Par - Bur", "F Bre - MAO", "A Mar S A Par - Bur"]
    );
    assert_eq!(env.no_reply, None);

    // Not committed: still unseen, fetched again, no Seen flag on disk.
    let again = inbound.fetch().await.expect("fetch");
    assert_eq!(again.len(), 1, "an uncommitted mail must stay unseen");
    assert_eq!(seen_flag_files(&stack.maildir(JUDGE)), 0);

    inbound.commit(&mails[0].key).await.expect("commit");
    assert!(
        inbound.fetch().await.expect("fetch").is_empty(),
        "committed mail is seen"
    );
    assert_eq!(seen_flag_files(&stack.maildir(JUDGE)), 1);
}

#[tokio::test]
async fn imaps_inbound_moves_committed_mail_to_the_processed_folder() {
    let stack = Stack::start();
    let smtp = stack.smtp(Security::StartTls);
    smtp.send(&order_mail(PLAYER, "m1@example.test"))
        .await
        .expect("accepted");
    smtp.send(&order_mail("bob@example.test", "m2@example.test"))
        .await
        .expect("accepted");
    let mut config = stack.imap(JUDGE, Security::Tls);
    config.processed_mailbox = Some("Processed".into());
    let mut inbound = ImapInbound::new(config, 64 * 1024).expect("client");

    let mails = fetch_n(&mut inbound, 2).await;
    let senders: Vec<_> = mails
        .iter()
        .map(|m| envelope(m).sender.unwrap_or_default())
        .collect();
    assert_eq!(senders, [PLAYER, "bob@example.test"], "oldest first");
    inbound.commit(&mails[0].key).await.expect("commit");

    let left = inbound.fetch().await.expect("fetch");
    assert_eq!(left.len(), 1);
    assert_eq!(
        envelope(&left[0]).sender.as_deref(),
        Some("bob@example.test")
    );
    let processed = stack.maildir(JUDGE).join(".Processed");
    assert_eq!(seen_flag_files(&processed), 1, "moved and flagged seen");
}

#[tokio::test]
async fn inbound_survives_the_server_restarting() {
    let stack = Stack::start();
    let smtp = stack.smtp(Security::None);
    let backoff = Backoff::new(Duration::from_millis(50), Duration::from_millis(400));
    let mut inbound = ImapInbound::new(stack.imap(JUDGE, Security::None), 64 * 1024)
        .expect("client")
        .with_backoff(backoff)
        .with_io_timeout(Duration::from_secs(5));

    smtp.send(&order_mail(PLAYER, "before@example.test"))
        .await
        .expect("accepted");
    let first = fetch_n(&mut inbound, 1).await;
    inbound.commit(&first[0].key).await.expect("commit");
    assert!(inbound.is_connected());

    stack.stop();
    let err = inbound.fetch().await.expect_err("server is down");
    assert!(
        matches!(
            err,
            InboundError::Imap(_) | InboundError::Connect { .. } | InboundError::Timeout(_)
        ),
        "{err}"
    );
    assert!(!inbound.is_connected());
    // While down, further calls are refused quickly or fail to connect, never panic.
    let _ = inbound.fetch().await.expect_err("still down");

    stack.restart();
    smtp.send(&order_mail(PLAYER, "after@example.test"))
        .await
        .expect("accepted after restart");
    let until = Instant::now() + PATIENCE;
    let mails = loop {
        let _ = inbound.wait(Duration::from_millis(300)).await;
        if let Ok(m) = inbound.fetch().await
            && !m.is_empty()
        {
            break m;
        }
        assert!(
            Instant::now() < until,
            "no reconnection within {PATIENCE:?}"
        );
    };
    assert_eq!(mails.len(), 1);
    assert_eq!(
        envelope(&mails[0]).message_id.as_deref(),
        Some("after@example.test")
    );
    inbound
        .commit(&mails[0].key)
        .await
        .expect("commit after reconnect");
}

#[tokio::test]
async fn idle_wakes_on_new_mail() {
    let stack = Stack::start();
    let mut inbound =
        ImapInbound::new(stack.imap(JUDGE, Security::StartTls), 64 * 1024).expect("client");
    assert!(inbound.fetch().await.expect("connect").is_empty());
    assert!(inbound.server_has_idle(), "Dovecot offers IDLE");

    let smtp = stack.smtp(Security::StartTls);
    let sender = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(400)).await;
        smtp.send(&order_mail(PLAYER, "idle@example.test")).await
    });
    // poll_seconds is an hour and the wait 30 s: polling would only look again at the
    // end of the wait, so an answer well before that can only come from IDLE.
    let started = Instant::now();
    let wake = inbound.wait(Duration::from_secs(30)).await.expect("wait");
    let waited = started.elapsed();
    sender.await.expect("task").expect("accepted");
    assert!(
        waited < Duration::from_secs(20),
        "woke after {waited:?}: not by IDLE"
    );
    assert_eq!(wake, Wake::NewMail);
    let mails = fetch_n(&mut inbound, 1).await;
    assert_eq!(
        envelope(&mails[0]).message_id.as_deref(),
        Some("idle@example.test")
    );

    // With nothing new, the wait times out.
    inbound.commit(&mails[0].key).await.expect("commit");
    assert_eq!(
        inbound
            .wait(Duration::from_millis(300))
            .await
            .expect("wait"),
        Wake::Timeout
    );
}

#[tokio::test]
async fn without_idle_the_wait_polls() {
    let stack = Stack::start();
    let mut config = stack.imap(JUDGE, Security::StartTls);
    config.idle = false;
    config.poll_seconds = 1;
    let mut inbound = ImapInbound::new(config, 64 * 1024).expect("client");
    assert!(inbound.fetch().await.expect("connect").is_empty());
    assert_eq!(
        inbound
            .wait(Duration::from_millis(200))
            .await
            .expect("wait"),
        Wake::Timeout
    );

    stack
        .smtp(Security::StartTls)
        .send(&order_mail(PLAYER, "poll@example.test"))
        .await
        .expect("accepted");
    let until = Instant::now() + PATIENCE;
    while inbound.wait(Duration::from_secs(5)).await.expect("wait") != Wake::NewMail {
        assert!(Instant::now() < until, "polling never saw the mail");
    }
    let mails = inbound.fetch().await.expect("fetch");
    assert_eq!(
        envelope(&mails[0]).message_id.as_deref(),
        Some("poll@example.test")
    );
}

#[tokio::test]
async fn threaded_reply_reaches_the_players_mailbox() {
    let stack = Stack::start();
    let smtp = stack.smtp(Security::StartTls);
    smtp.send(&order_mail(PLAYER, "thread-1@example.test"))
        .await
        .expect("accepted");
    let mut judge_in =
        ImapInbound::new(stack.imap(JUDGE, Security::StartTls), 64 * 1024).expect("client");
    let order = envelope(&fetch_n(&mut judge_in, 1).await[0]);

    let tag = SubjectTag {
        judge: "LEGT",
        game: Some("alpha"),
        phase: Some("S1901M"),
        error: true,
    };
    let subject = reply_subject(&tag, &order.subject);
    let body = ":: Judge: LEGT  Game: alpha\n:: Deadline: S1901M Tue Nov 24 2026 20:00 UTC\n\nA Par - Bur\nF Bre - MAO\n".to_string();
    let reply = OutgoingMail::reply_to(&order, JUDGE, subject, body).expect("has a sender");
    let rendered = render(&reply).expect("renders");
    smtp.send(&rendered).await.expect("accepted");

    let mut player_in =
        ImapInbound::new(stack.imap(PLAYER, Security::Tls), 64 * 1024).expect("client");
    let got = fetch_n(&mut player_in, 1).await;
    let raw = String::from_utf8_lossy(&got[0].raw).to_string();
    let back = envelope(&got[0]);
    assert_eq!(back.subject, "Re: [Error Flag] LEGT:alpha - S1901M orders");
    assert_eq!(back.in_reply_to, ["thread-1@example.test"]);
    assert_eq!(back.references, ["thread-1@example.test"]);
    assert_eq!(
        back.message_id.as_deref(),
        Some(rendered.message_id.as_str())
    );
    assert_eq!(
        back.body_lines[..2],
        [
            ":: Judge: LEGT  Game: alpha",
            ":: Deadline: S1901M Tue Nov 24 2026 20:00 UTC"
        ]
    );
    assert!(
        raw.contains("\r\nAuto-Submitted: auto-replied\r\n"),
        "{raw}"
    );
    assert!(raw.contains("\r\nDate: "), "{raw}");
    // The judge's own replies are robots to anyone who reads them: no reply loops.
    assert_eq!(
        back.no_reply,
        Some(NoReply::AutoSubmitted("auto-replied".into()))
    );
}

#[tokio::test]
async fn refused_recipient_is_permanent_and_a_down_server_transient() {
    let stack = Stack::start();
    let smtp = stack.smtp(Security::StartTls);
    let mut mail = order_mail(JUDGE, "relay@judge.test");
    mail.to = vec!["someone@elsewhere.test".into()];
    let err = smtp.send(&mail).await.expect_err("relaying is refused");
    assert!(err.is_permanent(), "{err}");

    stack.stop();
    let err = smtp
        .send(&order_mail(PLAYER, "down@example.test"))
        .await
        .expect_err("server is down");
    assert!(!err.is_permanent(), "{err}");
}

#[tokio::test]
async fn unknown_local_recipient_is_permanent() {
    let stack = Stack::start_with(&[JUDGE, PLAYER]);
    let smtp = stack.smtp(Security::StartTls);
    let mut mail = order_mail(JUDGE, "gone@judge.test");
    mail.to = vec![PLAYER.into()];
    smtp.send(&mail)
        .await
        .expect("a listed address is accepted");
    mail.to = vec!["left-the-hobby@example.test".into()];
    let err = smtp.send(&mail).await.expect_err("unknown user");
    assert!(err.is_permanent(), "{err}");
    assert!(err.to_string().contains("550"), "{err}");
}

#[tokio::test]
async fn smtp_login_works_and_a_refused_login_is_transient() {
    let stack = Stack::start();
    let good = stack.smtp_login(Security::StartTls, Some((JUDGE, "pw")));
    good.send(&order_mail(PLAYER, "auth@example.test"))
        .await
        .expect("accepted after login");
    let mut inbound =
        ImapInbound::new(stack.imap(JUDGE, Security::StartTls), 64 * 1024).expect("client");
    assert_eq!(fetch_n(&mut inbound, 1).await.len(), 1);

    let bad = stack.smtp_login(Security::StartTls, Some((JUDGE, "wrong")));
    let err = bad
        .send(&order_mail(PLAYER, "noauth@example.test"))
        .await
        .expect_err("login refused");
    // The judge's own login is wrong: keep the mail and retry once the operator fixes it.
    assert!(!err.is_permanent(), "{err}");
    assert!(err.to_string().contains("535"), "{err}");
}

#[tokio::test]
async fn oversize_mail_comes_with_its_header_only() {
    let stack = Stack::start();
    let mut big = order_mail(PLAYER, "big@example.test");
    big.bytes.extend(b"A Par - Bur\r\n".repeat(400));
    let full = big.bytes.len();
    stack
        .smtp(Security::StartTls)
        .send(&big)
        .await
        .expect("accepted");

    let mut inbound =
        ImapInbound::new(stack.imap(JUDGE, Security::StartTls), 2048).expect("client");
    let mails = fetch_n(&mut inbound, 1).await;
    assert!(
        mails[0].size >= full,
        "size {} < sent {full}",
        mails[0].size
    );
    assert!(mails[0].raw.len() < 2048, "only the header is fetched");
    let env = mails[0]
        .envelope(&IngestOptions {
            max_bytes: 2048,
            ..opts()
        })
        .expect("parses");
    assert!(env.oversize);
    assert_eq!(env.sender.as_deref(), Some(PLAYER));
    assert!(env.body_lines.is_empty());
}
