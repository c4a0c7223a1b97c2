//! Trying a mail server without handing it any mail, for `legate check-config`:
//! the causes an operator can fix (a wrong port, password, security setting,
//! certificate or mailbox), sorted from the typed errors the clients return.
//! `inbound::imap` and `outbound::smtp` each have a `probe` built on these.

use std::error::Error as StdError;
use std::io;
use std::path::Path;

use tokio_rustls::rustls;

/// What a successful IMAP probe learnt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImapFacts {
    /// Mails in the configured mailbox.
    pub mails: u32,
    /// The server offers IDLE (new mail is seen at once).
    pub idle: bool,
}

/// Why a server cannot be used, in the operator's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    #[error("connection refused on port {port}: nothing listens there (check host and port)")]
    Refused { port: u16 },
    #[error("cannot reach the server: {reason}")]
    Unreachable { reason: String },
    #[error(
        "no answer within {seconds} s (a port that expects TLS from the first byte needs \
         security = \"tls\"; a firewall may also drop the connection)"
    )]
    Silent { seconds: u64 },
    #[error("certificate not trusted: {reason}")]
    Untrusted { reason: String },
    #[error("security setting mismatched: {reason}")]
    Mismatch { reason: String },
    #[error("TLS failed: {0}")]
    Tls(String),
    #[error("wrong user name or password: the server answered {0}")]
    Login(String),
    #[error("mailbox {name:?} does not exist on the server ({answer})")]
    NoMailbox { name: String, answer: String },
    #[error("Maildir {path} is missing (it needs the folders new, cur and tmp)")]
    MaildirMissing { path: String },
    #[error("cannot write in {path}: {reason}")]
    NotWritable { path: String, reason: String },
    #[error("{0}")]
    Other(String),
}

/// Checks that `root` is a Maildir this program can use (its three folders exist
/// and a file can be written in each) and returns how many mails wait in `new/`.
/// Creates nothing but a short-lived test file.
pub fn probe_maildir(root: &Path) -> Result<usize, ProbeError> {
    for sub in ["new", "cur", "tmp"] {
        let dir = root.join(sub);
        if !dir.is_dir() {
            return Err(ProbeError::MaildirMissing {
                path: root.display().to_string(),
            });
        }
        probe_writable(&dir)?;
    }
    std::fs::read_dir(root.join("new"))
        .map(|d| d.count())
        .map_err(|e| ProbeError::NotWritable {
            path: root.join("new").display().to_string(),
            reason: e.to_string(),
        })
}

/// Writes and removes a test file in `dir`: the one sure test of write access
/// (permissions alone say nothing of read-only mounts or of root).
pub fn probe_writable(dir: &Path) -> Result<(), ProbeError> {
    let test = dir.join(format!(".legate-check-{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&test);
    match written {
        Ok(_) => {
            let _ = std::fs::remove_file(&test);
            Ok(())
        }
        Err(e) => Err(ProbeError::NotWritable {
            path: dir.display().to_string(),
            reason: e.to_string(),
        }),
    }
}

impl ProbeError {
    /// The cause of a failed connection or TLS handshake, from the error chain.
    pub fn from_connection(error: &(dyn StdError + 'static), port: u16) -> ProbeError {
        if let Some(tls) = find::<rustls::Error>(error) {
            return ProbeError::from_tls(tls);
        }
        match find::<io::Error>(error) {
            Some(io) if io.kind() == io::ErrorKind::ConnectionRefused => {
                ProbeError::Refused { port }
            }
            Some(io) if io.kind() == io::ErrorKind::UnexpectedEof => ProbeError::Mismatch {
                reason: "the server closed the connection during the TLS handshake (it may \
                         expect security = \"starttls\" or \"none\" on this port)"
                    .into(),
            },
            Some(io) => ProbeError::Unreachable {
                reason: io.to_string(),
            },
            None => ProbeError::Other(chain(error)),
        }
    }

    /// The cause of a failed TLS handshake.
    pub fn from_tls(error: &rustls::Error) -> ProbeError {
        use rustls::CertificateError as C;
        match error {
            rustls::Error::InvalidCertificate(cert) => ProbeError::Untrusted {
                reason: match cert {
                    C::UnknownIssuer => "signed by an authority this machine does not know \
                                         (a self-signed server needs ca_file)"
                        .into(),
                    C::NotValidForName | C::NotValidForNameContext { .. } => {
                        "made for another host name (check host)".into()
                    }
                    C::Expired | C::ExpiredContext { .. } => "expired".into(),
                    other => format!("{other:?}"),
                },
            },
            // Plain text where a TLS record was expected: the port speaks plain
            // IMAP/SMTP (STARTTLS or none), not TLS from the first byte.
            rustls::Error::InvalidMessage(_) => ProbeError::Mismatch {
                reason: "the server does not speak TLS from the first byte on this port \
                         (try security = \"starttls\", or the TLS port)"
                    .into(),
            },
            other => ProbeError::Tls(other.to_string()),
        }
    }
}

/// The first error of type `T` in the chain, looking inside `io::Error`s, which
/// carry the error they wrap without naming it as their source.
pub fn find<'a, T: StdError + 'static>(error: &'a (dyn StdError + 'static)) -> Option<&'a T> {
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(found) = e.downcast_ref::<T>() {
            return Some(found);
        }
        if let Some(inner) = e.downcast_ref::<io::Error>().and_then(|io| io.get_ref())
            && let Some(found) = find::<T>(inner)
        {
            return Some(found);
        }
        current = e.source();
    }
    None
}

/// Every message of the chain, joined.
fn chain(error: &(dyn StdError + 'static)) -> String {
    let mut text = error.to_string();
    let mut current = error.source();
    while let Some(e) = current {
        text.push_str(": ");
        text.push_str(&e.to_string());
        current = e.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_connection_names_the_port() {
        let e = io::Error::from(io::ErrorKind::ConnectionRefused);
        assert_eq!(
            ProbeError::from_connection(&e, 993),
            ProbeError::Refused { port: 993 }
        );
    }

    #[test]
    fn tls_errors_inside_io_errors_are_found() {
        let tls = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let e = io::Error::new(io::ErrorKind::InvalidData, tls);
        assert!(matches!(
            ProbeError::from_connection(&e, 993),
            ProbeError::Untrusted { .. }
        ));
    }
}
