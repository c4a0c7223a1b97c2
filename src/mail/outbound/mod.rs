//! Sending the judge's mail: over SMTP, or into a local Maildir.

pub mod maildir;
pub mod smtp;

use std::path::PathBuf;
use std::time::Duration;

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

/// Pause before attempt number `failed + 1` of a mail that failed `failed` times
/// temporarily: 10 s, doubling, at most 30 minutes, so a server that is down for
/// hours is still tried twice an hour and one that blinked is retried at once.
pub fn retry_delay(failed: u32) -> Duration {
    const FIRST: Duration = Duration::from_secs(10);
    const MAX: Duration = Duration::from_secs(30 * 60);
    FIRST
        .saturating_mul(2u32.saturating_pow(failed.saturating_sub(1)))
        .min(MAX)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_delay_doubles_up_to_half_an_hour() {
        let secs: Vec<u64> = (0..6).map(|n| retry_delay(n).as_secs()).collect();
        assert_eq!(secs, [10, 10, 20, 40, 80, 160]);
        assert_eq!(retry_delay(20), Duration::from_secs(1800));
        assert_eq!(retry_delay(u32::MAX), Duration::from_secs(1800));
    }
}
