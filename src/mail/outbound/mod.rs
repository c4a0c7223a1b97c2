//! Sending the judge's mail: over SMTP, or into a local Maildir.

pub mod maildir;
pub mod smtp;

use std::path::PathBuf;

pub use maildir::MaildirOutbound;
pub use smtp::SmtpOutbound;

use crate::config::OutboundConfig;
use crate::mail::compose::RenderedMail;

/// Why a mail was not handed over.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Try again later: the server is down or busy, or answered 4xx.
    #[error("temporary failure: {0}")]
    Transient(String),
    /// The server refused this mail for good (5xx for the message or a recipient):
    /// sending it again would fail the same way.
    #[error("permanent failure: {0}")]
    Permanent(String),
}

impl SendError {
    pub fn is_permanent(&self) -> bool {
        matches!(self, SendError::Permanent(_))
    }
}

/// The configured way out.
#[derive(Debug, Clone)]
pub enum Outbound {
    Smtp(SmtpOutbound),
    Maildir(MaildirOutbound),
}

/// Where a mail went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// Accepted by the SMTP server.
    Smtp,
    /// Written to this file.
    File(PathBuf),
}

impl Outbound {
    pub fn from_config(config: &OutboundConfig) -> Result<Self, SendError> {
        match config {
            OutboundConfig::Smtp(smtp) => Ok(Outbound::Smtp(SmtpOutbound::new(smtp)?)),
            OutboundConfig::Maildir(m) => MaildirOutbound::open(&m.path)
                .map(Outbound::Maildir)
                .map_err(|e| SendError::Transient(format!("{}: {e}", m.path.display()))),
        }
    }

    pub async fn send(&self, mail: &RenderedMail) -> Result<Sent, SendError> {
        match self {
            Outbound::Smtp(smtp) => smtp.send(mail).await.map(|()| Sent::Smtp),
            Outbound::Maildir(dir) => dir.send(mail).map(Sent::File),
        }
    }
}
