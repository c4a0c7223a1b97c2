//! Inbound mail over IMAP (async-imap on tokio, TLS by rustls): implicit TLS, STARTTLS,
//! or plain on loopback. Mails are read with `BODY.PEEK[]`, so nothing is marked seen
//! until `commit`. IDLE is used when offered, polling otherwise. A dropped connection
//! is reopened on the next call, with growing pauses while the server stays away.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::time::Duration;

use async_imap::{Client, Session};
use futures::TryStreamExt;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;

use super::stream::ImapStream;
use super::{FETCH_BATCH, InboundError, InboundMail, MailKey, Wake, batch_len};
use crate::config::{ImapConfig, Security};
use crate::mail::probe::{ImapFacts, ProbeError};
use crate::mail::tls::{client_config, tls_name};

/// IDLE is restarted at least this often: RFC 2177 asks clients to re-issue it within
/// 29 minutes so that servers do not drop the connection as inactive.
const MAX_IDLE: Duration = Duration::from_secs(29 * 60);

/// Pauses between reconnection attempts: doubling from `initial` up to `max`.
#[derive(Debug, Clone)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
    current: Duration,
    next_attempt: Option<Instant>,
}

impl Backoff {
    pub fn new(initial: Duration, max: Duration) -> Self {
        Backoff {
            initial,
            max,
            current: initial,
            next_attempt: None,
        }
    }

    /// Time left before another attempt is allowed.
    pub fn remaining(&self) -> Option<Duration> {
        let next = self.next_attempt?;
        let now = Instant::now();
        (next > now).then(|| next - now)
    }

    fn failed(&mut self) {
        self.next_attempt = Some(Instant::now() + self.current);
        self.current = (self.current * 2).min(self.max);
    }

    fn succeeded(&mut self) {
        self.current = self.initial;
        self.next_attempt = None;
    }
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::new(Duration::from_secs(1), Duration::from_secs(300))
    }
}

type ImapSession = Session<ImapStream>;

/// What the server told us when we logged in.
#[derive(Debug, Clone, Copy, Default)]
struct ServerFacts {
    uid_validity: u32,
    /// Mails in the mailbox when it was selected.
    exists: u32,
    idle: bool,
    move_: bool,
    uidplus: bool,
}

pub struct ImapInbound {
    config: ImapConfig,
    tls: TlsConnector,
    max_bytes: usize,
    io_timeout: Duration,
    backoff: Backoff,
    session: Option<ImapSession>,
    facts: ServerFacts,
    /// Highest UID handed out by `fetch`, so `wait` notices only mail newer than that.
    highest_uid: u32,
}

impl fmt::Debug for ImapInbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapInbound")
            .field("server", &self.server())
            .field("mailbox", &self.config.mailbox)
            .field("connected", &self.session.is_some())
            .finish()
    }
}

impl ImapInbound {
    /// Prepares the client (reads `ca_file`); the server is contacted on first use.
    pub fn new(config: ImapConfig, max_bytes: usize) -> Result<Self, InboundError> {
        if config.security == Security::None && !crate::config::is_loopback(&config.host) {
            return Err(InboundError::Tls(format!(
                "refusing to send the password in clear to {}: plain IMAP is for loopback only",
                config.host
            )));
        }
        let tls = TlsConnector::from(
            client_config(config.ca_file.as_deref()).map_err(InboundError::Tls)?,
        );
        Ok(ImapInbound {
            config,
            tls,
            max_bytes,
            io_timeout: Duration::from_secs(60),
            backoff: Backoff::default(),
            session: None,
            facts: ServerFacts::default(),
            highest_uid: 0,
        })
    }

    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// Longest wait for any single answer from the server.
    pub fn with_io_timeout(mut self, timeout: Duration) -> Self {
        self.io_timeout = timeout;
        self
    }

    pub fn is_connected(&self) -> bool {
        self.session.is_some()
    }

    /// True once connected to a server that offers IDLE.
    pub fn server_has_idle(&self) -> bool {
        self.facts.idle
    }

    fn server(&self) -> String {
        format!("{}:{}", self.config.host, self.config.port)
    }

    /// The oldest unseen mails in the mailbox (at most [`FETCH_BATCH`]), oldest first.
    /// Mails over the size limit come with their header only.
    pub async fn fetch(&mut self) -> Result<Vec<InboundMail>, InboundError> {
        self.connected().await?;
        let result = self.fetch_unseen().await;
        self.keep_or_drop(result)
    }

    /// Marks the mail seen, and moves it to the processed folder if one is configured.
    /// Call it only after the transaction that applied the mail has committed.
    pub async fn commit(&mut self, key: &MailKey) -> Result<(), InboundError> {
        let MailKey::Imap { uid_validity, uid } = *key else {
            return Err(InboundError::Gone(key.clone()));
        };
        self.connected().await?;
        if uid_validity != self.facts.uid_validity {
            // The mailbox was rebuilt: UIDs no longer mean the same mails. The mail will
            // be fetched again under its new UID and recognised by its Message-ID.
            return Err(InboundError::Gone(key.clone()));
        }
        let result = self.mark_done(uid).await;
        self.keep_or_drop(result)
    }

    /// Waits up to `timeout` for mail newer than the last fetch: with IDLE when the
    /// server offers it (and `idle` is configured), else by polling. While the server
    /// is unreachable, waits out the pause before the next attempt instead.
    ///
    /// Cancelling the returned future is safe; it may only cost a reconnection.
    pub async fn wait(&mut self, timeout: Duration) -> Result<Wake, InboundError> {
        if self.session.is_none()
            && let Some(pause) = self.backoff.remaining()
        {
            tokio::time::sleep(pause.min(timeout)).await;
            return Ok(Wake::Timeout);
        }
        self.connected().await?;
        let result = self.newer_unseen().await;
        if self.keep_or_drop(result)? {
            return Ok(Wake::NewMail);
        }
        if self.facts.idle && self.config.idle {
            return self.idle(timeout.min(MAX_IDLE)).await;
        }
        tokio::time::sleep(timeout.min(Duration::from_secs(self.config.poll_seconds))).await;
        let result = self.newer_unseen().await;
        Ok(if self.keep_or_drop(result)? {
            Wake::NewMail
        } else {
            Wake::Timeout
        })
    }

    /// Logs out politely; the next call connects again.
    pub async fn disconnect(&mut self) {
        if let Some(mut session) = self.session.take() {
            let _ = tokio::time::timeout(self.io_timeout, session.logout()).await;
        }
    }

    async fn connected(&mut self) -> Result<&mut ImapSession, InboundError> {
        if self.session.is_none() {
            if let Some(retry_in) = self.backoff.remaining() {
                return Err(InboundError::Unavailable { retry_in });
            }
            match self.open().await {
                Ok((session, facts)) => {
                    self.backoff.succeeded();
                    if facts.uid_validity != self.facts.uid_validity {
                        self.highest_uid = 0;
                    }
                    self.facts = facts;
                    self.session = Some(session);
                }
                Err(e) => {
                    self.backoff.failed();
                    return Err(e);
                }
            }
        }
        self.session
            .as_mut()
            .ok_or_else(|| InboundError::Imap("no session".into()))
    }

    /// A failed command may leave the connection in any state: start afresh next time.
    fn keep_or_drop<T>(&mut self, result: Result<T, InboundError>) -> Result<T, InboundError> {
        if result.is_err() {
            self.session = None;
            self.backoff.failed();
        }
        result
    }

    async fn open(&self) -> Result<(ImapSession, ServerFacts), InboundError> {
        self.open_session(Purpose::Work)
            .await
            .map_err(|failure| failure.into_inbound(self.server()))
    }

    /// Connects, logs in and selects the mailbox without reading any mail, and says
    /// what works (the mailbox's size, IDLE) or, in the operator's words, what not.
    pub async fn probe(&self) -> Result<ImapFacts, ProbeError> {
        let (mut session, facts) = self
            .open_session(Purpose::Probe)
            .await
            .map_err(|failure| failure.cause(self.config.port, &self.config.mailbox))?;
        let _ = tokio::time::timeout(self.io_timeout, session.logout()).await;
        Ok(ImapFacts {
            mails: facts.exists,
            idle: facts.idle,
        })
    }

    async fn open_session(
        &self,
        purpose: Purpose,
    ) -> Result<(ImapSession, ServerFacts), OpenFailure> {
        let tcp = self
            .timed_step(TcpStream::connect((
                self.config.host.as_str(),
                self.config.port,
            )))
            .await?
            .map_err(OpenFailure::Connect)?;
        let client = match self.config.security {
            Security::None => self.greeted(Client::new(ImapStream::Plain(tcp))).await?,
            Security::Tls => {
                let tls = self.tls_handshake(tcp).await?;
                self.greeted(Client::new(tls)).await?
            }
            Security::StartTls => {
                let mut plain = self.greeted(Client::new(ImapStream::Plain(tcp))).await?;
                self.timed_step(plain.run_command_and_check_ok("STARTTLS", None))
                    .await?
                    .map_err(OpenFailure::StartTls)?;
                let ImapStream::Plain(tcp) = plain.into_inner() else {
                    return Err(OpenFailure::Other(InboundError::Tls(
                        "STARTTLS on a TLS stream".into(),
                    )));
                };
                // No second greeting after STARTTLS (RFC 3501 6.2.1).
                Client::new(self.tls_handshake(tcp).await?)
            }
        };
        let mut session = self
            .timed_step(client.login(&self.config.username, self.config.password.expose()))
            .await?
            .map_err(|(e, _)| OpenFailure::Login(e))?;
        let caps = self
            .timed_step(session.capabilities())
            .await?
            .map_err(|e| OpenFailure::Other(imap_err(e)))?;
        let mut facts = ServerFacts {
            uid_validity: 0,
            exists: 0,
            idle: caps.has_str("IDLE"),
            move_: caps.has_str("MOVE"),
            uidplus: caps.has_str("UIDPLUS"),
        };
        if let (Some(folder), Purpose::Work) = (&self.config.processed_mailbox, purpose) {
            // Fails harmlessly when the folder exists.
            let _ = self.timed_step(session.create(folder)).await?;
        }
        let mailbox = self
            .timed_step(session.select(&self.config.mailbox))
            .await?
            .map_err(OpenFailure::Select)?;
        facts.uid_validity = mailbox.uid_validity.unwrap_or(0);
        facts.exists = mailbox.exists;
        Ok((session, facts))
    }

    async fn greeted(
        &self,
        mut client: Client<ImapStream>,
    ) -> Result<Client<ImapStream>, OpenFailure> {
        match self.timed_step(client.read_response()).await? {
            Ok(Some(_greeting)) => Ok(client),
            Ok(None) => Err(OpenFailure::Closed),
            Err(e) => Err(OpenFailure::Greeting(e)),
        }
    }

    async fn tls_handshake(&self, tcp: TcpStream) -> Result<ImapStream, OpenFailure> {
        let name = ServerName::try_from(tls_name(&self.config.host)).map_err(|e| {
            OpenFailure::Other(InboundError::Tls(format!(
                "server name {:?}: {e}",
                self.config.host
            )))
        })?;
        let tls = self
            .timed_step(self.tls.connect(name, tcp))
            .await?
            .map_err(OpenFailure::Handshake)?;
        Ok(ImapStream::Tls(Box::new(tls)))
    }

    async fn timed_step<F: Future>(&self, fut: F) -> Result<F::Output, OpenFailure> {
        tokio::time::timeout(self.io_timeout, fut)
            .await
            .map_err(|_| OpenFailure::Timeout(self.io_timeout))
    }

    async fn fetch_unseen(&mut self) -> Result<Vec<InboundMail>, InboundError> {
        let (io, max_bytes, validity) = (self.io_timeout, self.max_bytes, self.facts.uid_validity);
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| InboundError::Imap("no session".into()))?;
        let mut uids: Vec<u32> = timed(io, session.uid_search("UNSEEN"))
            .await?
            .map_err(imap_err)?
            .into_iter()
            .collect();
        uids.sort_unstable();
        uids.truncate(FETCH_BATCH);
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let sizes = fetch_sizes(session, io, &uid_set(&uids)).await?;
        let read_size = |uid: &u32| match sizes.get(uid) {
            Some(s) if (*s as usize) <= max_bytes => *s as usize,
            _ => 0,
        };
        uids.truncate(batch_len(uids.iter().map(read_size).collect::<Vec<_>>()));
        let (small, large): (Vec<u32>, Vec<u32>) = uids
            .iter()
            .partition(|uid| sizes.get(uid).is_none_or(|s| *s as usize <= max_bytes));
        let mut raw = fetch_section(session, io, &small, "BODY.PEEK[]").await?;
        raw.extend(fetch_section(session, io, &large, "BODY.PEEK[HEADER]").await?);
        let mut mails: Vec<InboundMail> = raw
            .into_iter()
            .map(|(uid, bytes)| InboundMail {
                key: MailKey::Imap {
                    uid_validity: validity,
                    uid,
                },
                size: sizes.get(&uid).map_or(bytes.len(), |s| *s as usize),
                raw: bytes,
            })
            .collect();
        mails.sort_by_key(|m| match m.key {
            MailKey::Imap { uid, .. } => uid,
            MailKey::Maildir { .. } => 0,
        });
        if let Some(max) = uids.last() {
            self.highest_uid = self.highest_uid.max(*max);
        }
        Ok(mails)
    }

    async fn mark_done(&mut self, uid: u32) -> Result<(), InboundError> {
        let (io, facts) = (self.io_timeout, self.facts);
        let folder = self.config.processed_mailbox.clone();
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| InboundError::Imap("no session".into()))?;
        let set = uid.to_string();
        let _: Vec<_> = timed(io, async {
            session
                .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                .await?
                .try_collect()
                .await
        })
        .await?
        .map_err(imap_err)?;
        let Some(folder) = folder else { return Ok(()) };
        if facts.move_ {
            timed(io, session.uid_mv(&set, &folder))
                .await?
                .map_err(imap_err)?;
        } else if facts.uidplus {
            timed(io, session.uid_copy(&set, &folder))
                .await?
                .map_err(imap_err)?;
            let _: Vec<_> = timed(io, async {
                session
                    .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                    .await?
                    .try_collect()
                    .await
            })
            .await?
            .map_err(imap_err)?;
            let _: Vec<_> = timed(io, async {
                session.uid_expunge(&set).await?.try_collect().await
            })
            .await?
            .map_err(imap_err)?;
        }
        // Without MOVE or UIDPLUS an EXPUNGE could remove other clients' deleted mail:
        // the mail then stays, marked seen.
        Ok(())
    }

    /// True when an unseen mail newer than the last fetch exists.
    async fn newer_unseen(&mut self) -> Result<bool, InboundError> {
        let (io, highest) = (self.io_timeout, self.highest_uid);
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| InboundError::Imap("no session".into()))?;
        let query = format!("UNSEEN UID {}:*", highest.saturating_add(1));
        let uids = timed(io, session.uid_search(query))
            .await?
            .map_err(imap_err)?;
        // "n:*" always matches the highest UID, even when it is below n.
        Ok(uids.into_iter().any(|uid| uid > highest))
    }

    async fn idle(&mut self, timeout: Duration) -> Result<Wake, InboundError> {
        let io = self.io_timeout;
        let Some(session) = self.session.take() else {
            return Err(InboundError::Imap("no session".into()));
        };
        let mut handle = session.idle();
        let outcome: Result<Wake, InboundError> = async {
            timed(io, handle.init()).await?.map_err(imap_err)?;
            let (wait, _stop) = handle.wait_with_timeout(timeout);
            match wait.await.map_err(imap_err)? {
                async_imap::extensions::idle::IdleResponse::NewData(_) => Ok(Wake::NewMail),
                _ => Ok(Wake::Timeout),
            }
        }
        .await;
        let wake = match outcome {
            Ok(w) => w,
            Err(e) => {
                self.backoff.failed();
                return Err(e);
            }
        };
        match timed(io, handle.done()).await {
            Ok(Ok(session)) => self.session = Some(session),
            // The wake is still true; the next call reconnects.
            _ => self.backoff.failed(),
        }
        Ok(wake)
    }
}

/// Why a session is opened: a probe changes nothing on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Work,
    Probe,
}

/// Where opening a session failed, with the error as the client gave it: kept
/// typed so that a probe can name the cause, and turned into an [`InboundError`]
/// for the daemon.
enum OpenFailure {
    Connect(std::io::Error),
    Closed,
    Greeting(std::io::Error),
    StartTls(async_imap::error::Error),
    Handshake(std::io::Error),
    Login(async_imap::error::Error),
    Select(async_imap::error::Error),
    Timeout(Duration),
    Other(InboundError),
}

impl OpenFailure {
    fn into_inbound(self, server: String) -> InboundError {
        match self {
            OpenFailure::Connect(e) => InboundError::Connect {
                server,
                reason: e.to_string(),
            },
            OpenFailure::Closed => InboundError::Connect {
                server,
                reason: "closed before greeting".into(),
            },
            OpenFailure::Greeting(e) => InboundError::Connect {
                server,
                reason: e.to_string(),
            },
            OpenFailure::StartTls(e) => {
                InboundError::Tls(format!("STARTTLS refused by {server}: {e}"))
            }
            OpenFailure::Handshake(e) => InboundError::Tls(format!("TLS with {server}: {e}")),
            OpenFailure::Login(e) => InboundError::Login {
                server,
                reason: e.to_string(),
            },
            OpenFailure::Select(e) => imap_err(e),
            OpenFailure::Timeout(t) => InboundError::Timeout(t),
            OpenFailure::Other(e) => e,
        }
    }

    fn cause(self, port: u16, mailbox: &str) -> ProbeError {
        match self {
            OpenFailure::Connect(e) | OpenFailure::Handshake(e) => {
                ProbeError::from_connection(&e, port)
            }
            OpenFailure::Closed => ProbeError::Mismatch {
                reason: "the server closed the connection before greeting (it may expect \
                         security = \"tls\" on this port)"
                    .into(),
            },
            OpenFailure::Greeting(e) => ProbeError::Mismatch {
                reason: format!("the server's greeting was not IMAP ({e})"),
            },
            OpenFailure::StartTls(e) => ProbeError::Mismatch {
                reason: format!(
                    "the server refused STARTTLS ({e}); try security = \"tls\" on its TLS port"
                ),
            },
            OpenFailure::Login(async_imap::error::Error::No(answer)) => {
                ProbeError::Login(server_text(&answer))
            }
            OpenFailure::Login(e) => ProbeError::Login(e.to_string()),
            OpenFailure::Select(async_imap::error::Error::No(answer)) => ProbeError::NoMailbox {
                name: mailbox.to_string(),
                answer: server_text(&answer),
            },
            OpenFailure::Select(e) => ProbeError::Other(e.to_string()),
            OpenFailure::Timeout(t) => ProbeError::Silent {
                seconds: t.as_secs(),
            },
            OpenFailure::Other(e) => ProbeError::Other(e.to_string()),
        }
    }
}

/// The server's own words in a NO answer, which async-imap hands over wrapped in
/// the debug form of its response (`... information: Some("...") ...`).
fn server_text(answer: &str) -> String {
    answer
        .split_once("Some(\"")
        .and_then(|(_, rest)| rest.rsplit_once("\")"))
        .map_or(answer, |(text, _)| text)
        .trim()
        .to_string()
}

async fn timed<F: Future>(io: Duration, fut: F) -> Result<F::Output, InboundError> {
    tokio::time::timeout(io, fut)
        .await
        .map_err(|_| InboundError::Timeout(io))
}

fn imap_err(e: async_imap::error::Error) -> InboundError {
    InboundError::Imap(e.to_string())
}

fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

async fn fetch_sizes(
    session: &mut ImapSession,
    io: Duration,
    set: &str,
) -> Result<BTreeMap<u32, u32>, InboundError> {
    let fetches: Vec<_> = timed(io, async {
        session
            .uid_fetch(set, "(UID RFC822.SIZE)")
            .await?
            .try_collect()
            .await
    })
    .await?
    .map_err(imap_err)?;
    Ok(fetches
        .iter()
        .filter_map(|f| Some((f.uid?, f.size?)))
        .collect())
}

async fn fetch_section(
    session: &mut ImapSession,
    io: Duration,
    uids: &[u32],
    section: &str,
) -> Result<Vec<(u32, Vec<u8>)>, InboundError> {
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    let query = format!("(UID RFC822.SIZE {section})");
    let set = uid_set(uids);
    let fetches: Vec<_> = timed(io, async {
        session.uid_fetch(&set, &query).await?.try_collect().await
    })
    .await?
    .map_err(imap_err)?;
    let header_only = section.contains("HEADER");
    Ok(fetches
        .iter()
        .filter_map(|f| {
            let bytes = if header_only { f.header() } else { f.body() }?;
            Some((f.uid?, bytes.to_vec()))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_the_cap_and_resets() {
        let mut b = Backoff::new(Duration::from_millis(100), Duration::from_millis(250));
        assert_eq!(b.remaining(), None);
        b.failed();
        assert!(
            b.remaining()
                .is_some_and(|r| r <= Duration::from_millis(100))
        );
        b.failed();
        b.failed();
        assert_eq!(b.current, Duration::from_millis(250));
        b.succeeded();
        assert_eq!(
            (b.current, b.remaining()),
            (Duration::from_millis(100), None)
        );
    }

    #[test]
    fn plain_imap_only_to_loopback() {
        let config = ImapConfig {
            host: "imap.example.org".into(),
            port: 143,
            security: Security::None,
            username: "judge".into(),
            password: crate::config::Secret("pw".into()),
            mailbox: "INBOX".into(),
            processed_mailbox: None,
            poll_seconds: 60,
            idle: true,
            ca_file: None,
        };
        assert!(matches!(
            ImapInbound::new(config.clone(), 1000),
            Err(InboundError::Tls(_))
        ));
        let local = ImapConfig {
            host: "127.0.0.1".into(),
            ..config
        };
        assert!(ImapInbound::new(local, 1000).is_ok());
    }

    #[test]
    fn server_text_is_unwrapped() {
        assert_eq!(
            server_text("code: None, info: Some(\"[AUTHENTICATIONFAILED] Failed.\")"),
            "[AUTHENTICATIONFAILED] Failed."
        );
        assert_eq!(server_text("plain words"), "plain words");
    }

    #[test]
    fn uid_sets() {
        assert_eq!(uid_set(&[3, 5, 9]), "3,5,9");
    }
}
