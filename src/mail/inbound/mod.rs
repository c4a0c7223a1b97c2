//! Reading mail sent to the judge: from an IMAP mailbox or a local Maildir.
//!
//! The caller fetches, stores each raw mail, applies it, commits its transaction, and
//! only then calls `commit` for that mail: a crash in between leaves the mail unread,
//! so it is fetched again (and recognised by its Message-ID) rather than lost.

pub mod imap;
pub mod maildir;
pub mod stream;

use std::time::Duration;

pub use imap::{Backoff, ImapInbound};
pub use maildir::MaildirInbound;

use crate::config::InboundConfig;
use crate::mail::ingest::{Envelope, IngestError, IngestOptions, ingest_sized};

/// At most this many mails per `fetch`, so a full mailbox does not have to fit in
/// memory at once; the rest come with the next calls.
pub const FETCH_BATCH: usize = 50;

/// At most this many bytes of mail per `fetch` (but always at least one mail):
/// fifty mails of the largest size the judge reads (25 MB by default) must not
/// be held in memory together.
pub const FETCH_BYTES: usize = 64 * 1024 * 1024;

/// How many of the mails of sizes `sizes` (in fetch order, each as it will be
/// read: a mail over the size limit is read as its header only) one batch
/// takes: as many as fit in [`FETCH_BYTES`], at least one.
pub fn batch_len(sizes: impl IntoIterator<Item = usize>) -> usize {
    let (mut total, mut n) = (0usize, 0usize);
    for size in sizes {
        if n > 0 && total.saturating_add(size) > FETCH_BYTES {
            break;
        }
        total = total.saturating_add(size);
        n += 1;
    }
    n
}

/// Identifies a fetched mail to its source, for `commit`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MailKey {
    Imap { uid_validity: u32, uid: u32 },
    Maildir { name: String },
}

/// One mail as fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundMail {
    pub key: MailKey,
    /// The whole mail, or only its header when `size` is over the limit.
    pub raw: Vec<u8>,
    /// Size of the whole mail in bytes.
    pub size: usize,
}

impl InboundMail {
    pub fn envelope(&self, opts: &IngestOptions) -> Result<Envelope, IngestError> {
        ingest_sized(&self.raw, self.size, opts)
    }
}

/// What ended a wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// New mail may be waiting.
    NewMail,
    /// The time ran out (or the server is unreachable and the wait stood in for the
    /// pause before the next attempt).
    Timeout,
}

#[derive(Debug, thiserror::Error)]
pub enum InboundError {
    #[error("cannot connect to {server}: {reason}")]
    Connect { server: String, reason: String },
    #[error("login to {server} refused: {reason}")]
    Login { server: String, reason: String },
    #[error("IMAP: {0}")]
    Imap(String),
    #[error("no answer from the server within {0:?}")]
    Timeout(Duration),
    #[error("server unavailable; next attempt in {retry_in:?}")]
    Unavailable { retry_in: Duration },
    #[error("mail {0:?} is no longer in the mailbox")]
    Gone(MailKey),
    #[error("{0}")]
    Tls(String),
    #[error("maildir {path}: {reason}")]
    Maildir { path: String, reason: String },
}

/// The configured way in.
#[derive(Debug)]
pub enum Inbound {
    Imap(Box<ImapInbound>),
    Maildir(MaildirInbound),
}

impl Inbound {
    /// Prepares the source; an IMAP server is contacted on first use.
    pub fn from_config(config: &InboundConfig, max_bytes: usize) -> Result<Self, InboundError> {
        match config {
            InboundConfig::Imap(c) => Ok(Inbound::Imap(Box::new(ImapInbound::new(
                c.clone(),
                max_bytes,
            )?))),
            InboundConfig::Maildir(m) => Ok(Inbound::Maildir(MaildirInbound::open(
                &m.path,
                m.poll_seconds,
                max_bytes,
            )?)),
        }
    }

    /// Every mail not yet committed, oldest first.
    pub async fn fetch(&mut self) -> Result<Vec<InboundMail>, InboundError> {
        match self {
            Inbound::Imap(i) => i.fetch().await,
            Inbound::Maildir(m) => m.fetch(),
        }
    }

    /// Marks a mail as done (seen, moved, or moved to `cur/`).
    pub async fn commit(&mut self, key: &MailKey) -> Result<(), InboundError> {
        match self {
            Inbound::Imap(i) => i.commit(key).await,
            Inbound::Maildir(m) => m.commit(key),
        }
    }

    /// Logs out of an IMAP server (nothing to do for a Maildir).
    pub async fn disconnect(&mut self) {
        if let Inbound::Imap(i) = self {
            i.disconnect().await;
        }
    }

    /// Waits up to `timeout` for new mail.
    pub async fn wait(&mut self, timeout: Duration) -> Result<Wake, InboundError> {
        match self {
            Inbound::Imap(i) => i.wait(timeout).await,
            Inbound::Maildir(m) => m.wait(timeout).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, MaildirConfig};

    #[tokio::test]
    async fn maildir_source_from_config_round_trip() {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = InboundConfig::Maildir(MaildirConfig {
            path: dir.path().join("in"),
            poll_seconds: 1,
        });
        let mut inbound = Inbound::from_config(&config, 10_000).expect("opens");
        assert!(inbound.fetch().await.expect("fetch").is_empty());
        std::fs::write(
            dir.path().join("in/new/1.m"),
            "From: a@example.test\r\nMessage-ID: <m1@x>\r\n\r\nA Par H\r\n",
        )
        .expect("write");
        assert_eq!(
            inbound.wait(Duration::from_secs(2)).await.expect("wait"),
            Wake::NewMail
        );
        let mails = inbound.fetch().await.expect("fetch");
        let opts = IngestOptions {
            judge_address: "judge@localhost".into(),
            max_bytes: 10_000,
        };
        assert_eq!(
            mails[0].envelope(&opts).expect("parses").body_lines,
            vec!["A Par H"]
        );
        inbound.commit(&mails[0].key).await.expect("commit");
        assert!(inbound.fetch().await.expect("fetch").is_empty());
    }

    #[test]
    fn embedded_default_needs_no_server() {
        let config = Config::embedded_default();
        let dir = tempfile::tempdir().expect("tempdir");
        let InboundConfig::Maildir(m) = &config.inbound else {
            panic!("maildir expected")
        };
        let local = InboundConfig::Maildir(MaildirConfig {
            path: dir.path().join(&m.path),
            ..m.clone()
        });
        assert!(matches!(
            Inbound::from_config(&local, 1000),
            Ok(Inbound::Maildir(_))
        ));
    }
}
