//! Sending over SMTP with lettre: implicit TLS, STARTTLS, or plain on loopback, with
//! optional authentication. Failures are sorted into "try again later" and "this mail
//! will never be accepted", which decides whether the outbox keeps retrying.

use std::time::Duration;

use lettre::address::Envelope as SmtpEnvelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::SendError;
use crate::config::{Security, SmtpConfig};
use crate::mail::compose::RenderedMail;
use crate::mail::probe::ProbeError;
use crate::mail::tls::tls_name;

#[derive(Clone)]
pub struct SmtpOutbound {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    server: String,
    port: u16,
    timeout_seconds: u64,
}

impl std::fmt::Debug for SmtpOutbound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpOutbound")
            .field("server", &self.server)
            .finish()
    }
}

/// Reply codes that mean the judge's own login is wrong or missing (RFC 4954): not the
/// mail's fault, so it is kept and retried once the operator has fixed the account.
const AUTH_CODES: &[&str] = &["530", "534", "535", "538"];

impl SmtpOutbound {
    /// Prepares the transport; nothing is connected until the first `send`.
    pub fn new(config: &SmtpConfig) -> Result<Self, SendError> {
        if config.security == Security::None
            && config.username.is_some()
            && !crate::config::is_loopback(&config.host)
        {
            // Not the mail's fault: kept and retried once the configuration is fixed.
            return Err(SendError::Transient(format!(
                "refusing to send the password in clear to {}: plain SMTP login is for loopback only",
                config.host
            )));
        }
        let mut builder =
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(config.host.as_str())
                .port(config.port)
                .timeout(Some(Duration::from_secs(config.timeout_seconds)));
        builder = match config.security {
            Security::None => builder.tls(Tls::None),
            Security::StartTls => builder.tls(Tls::Required(tls_parameters(config)?)),
            Security::Tls => builder.tls(Tls::Wrapper(tls_parameters(config)?)),
        };
        if let (Some(user), Some(password)) = (&config.username, &config.password) {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                password.expose().to_string(),
            ));
        }
        Ok(SmtpOutbound {
            transport: builder.build(),
            server: format!("{}:{}", config.host, config.port),
            port: config.port,
            timeout_seconds: config.timeout_seconds,
        })
    }

    /// Hands `mail` to the server. `Ok` means the server accepted it for delivery.
    pub async fn send(&self, mail: &RenderedMail) -> Result<(), SendError> {
        let envelope = envelope(mail)?;
        self.transport
            .send_raw(&envelope, &mail.bytes)
            .await
            .map(|_| ())
            .map_err(|e| classify(&self.server, &e))
    }
}

impl SmtpOutbound {
    /// Connects, says hello, secures the connection and logs in as configured, then
    /// says goodbye: no mail is handed over. The error names the cause.
    pub async fn probe(&self) -> Result<(), ProbeError> {
        match self.transport.test_connection().await {
            Ok(true) => Ok(()),
            Ok(false) => Err(ProbeError::Other(
                "the server did not answer NOOP after the login".into(),
            )),
            Err(e) => Err(probe_cause(&e, self.port, self.timeout_seconds)),
        }
    }
}

/// The operator's cause of a failed SMTP probe.
fn probe_cause(e: &lettre::transport::smtp::Error, port: u16, timeout: u64) -> ProbeError {
    let code = e.status().map(|c| c.to_string());
    if code.as_deref().is_some_and(|c| AUTH_CODES.contains(&c)) {
        return ProbeError::Login(e.to_string());
    }
    if e.is_timeout() {
        return ProbeError::Silent { seconds: timeout };
    }
    if e.is_client() {
        // lettre refuses on its own side, e.g. STARTTLS required but not offered.
        return ProbeError::Mismatch {
            reason: e.to_string(),
        };
    }
    if e.is_response() {
        // Bytes that are not an SMTP reply: TLS spoken to a plain port's client.
        return ProbeError::Mismatch {
            reason: format!(
                "the server's answer was not SMTP ({e}); it may expect security = \"tls\" \
                 on this port"
            ),
        };
    }
    if e.is_permanent() || e.is_transient() {
        return ProbeError::Other(e.to_string());
    }
    ProbeError::from_connection(e, port)
}

fn tls_parameters(config: &SmtpConfig) -> Result<TlsParameters, SendError> {
    let mut params = TlsParameters::builder(tls_name(&config.host));
    if let Some(path) = &config.ca_file {
        let pem = std::fs::read(path)
            .map_err(|e| SendError::Transient(format!("ca_file {}: {e}", path.display())))?;
        let cert = Certificate::from_pem(&pem)
            .map_err(|e| SendError::Transient(format!("ca_file {}: {e}", path.display())))?;
        params = params.add_root_certificate(cert);
    }
    params
        .build_rustls()
        .map_err(|e| SendError::Transient(format!("TLS setup: {e}")))
}

fn envelope(mail: &RenderedMail) -> Result<SmtpEnvelope, SendError> {
    let parse = |a: &str| {
        a.trim()
            .parse::<Address>()
            .map_err(|e| SendError::Permanent(format!("address {a:?}: {e}")))
    };
    let from = parse(&mail.from)?;
    let to = mail
        .to
        .iter()
        .map(|a| parse(a))
        .collect::<Result<Vec<_>, _>>()?;
    SmtpEnvelope::new(Some(from), to).map_err(|e| SendError::Permanent(e.to_string()))
}

/// 5xx for the mail or a recipient is permanent; everything else (connection refused,
/// timeouts, TLS trouble, 4xx, a refused login) is worth another try later.
fn classify(server: &str, e: &lettre::transport::smtp::Error) -> SendError {
    let text = format!("{server}: {e}");
    let code = e.status().map(|c| c.to_string());
    let auth_problem = code.as_deref().is_some_and(|c| AUTH_CODES.contains(&c));
    if (e.is_permanent() && !auth_problem) || e.is_client() {
        SendError::Permanent(text)
    } else {
        SendError::Transient(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

    fn config(port: u16) -> SmtpConfig {
        SmtpConfig {
            host: "127.0.0.1".into(),
            port,
            security: Security::None,
            username: Some("judge".into()),
            password: Some(Secret("pw".into())),
            ca_file: None,
            timeout_seconds: 2,
        }
    }

    #[tokio::test]
    async fn nothing_listening_is_transient() {
        // Bind and drop to find a port with (almost certainly) no listener.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("free port");
        let smtp = SmtpOutbound::new(&config(port)).expect("builds");
        let mail = RenderedMail {
            message_id: "x@judge.test".into(),
            from: "judge@judge.test".into(),
            to: vec!["a@example.test".into()],
            bytes: b"Subject: x\r\n\r\nx\r\n".to_vec(),
        };
        let err = smtp.send(&mail).await.expect_err("nobody listens");
        assert!(!err.is_permanent(), "{err}");
    }

    #[test]
    fn plain_login_only_to_loopback() {
        let remote = SmtpConfig {
            host: "smtp.example.org".into(),
            ..config(25)
        };
        assert!(SmtpOutbound::new(&remote).is_err());
        assert!(SmtpOutbound::new(&config(25)).is_ok());
    }

    #[test]
    fn bad_recipient_is_permanent() {
        let mail = RenderedMail {
            message_id: "x@judge.test".into(),
            from: "judge@judge.test".into(),
            to: vec!["not an address".into()],
            bytes: Vec::new(),
        };
        assert!(envelope(&mail).expect_err("invalid").is_permanent());
    }
}
