//! TLS settings shared by the IMAP and SMTP clients.

use std::path::Path;
use std::sync::Arc;

use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// A client configuration trusting the public authorities plus, optionally, the
/// certificates in the PEM file `ca_file` (for a server with a self-signed certificate).
pub fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        let bad = |e: &dyn std::fmt::Display| format!("ca_file {}: {e}", path.display());
        let pem = std::fs::read(path).map_err(|e| bad(&e))?;
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(&pem) {
            roots.add(cert.map_err(|e| bad(&e))?).map_err(|e| bad(&e))?;
            added += 1;
        }
        if added == 0 {
            return Err(bad(&"no certificate in the file"));
        }
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The name the server's certificate must carry. A loopback IP address is checked as
/// "localhost", the name local test certificates are made for.
pub fn tls_name(host: &str) -> String {
    if crate::config::is_loopback(host) && host.parse::<std::net::IpAddr>().is_ok() {
        "localhost".into()
    } else {
        host.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_ip_is_checked_as_localhost() {
        assert_eq!(tls_name("127.0.0.1"), "localhost");
        assert_eq!(tls_name("imap.example.org"), "imap.example.org");
    }

    #[test]
    fn unreadable_or_empty_ca_file_is_refused() {
        assert!(client_config(Some(Path::new("/nonexistent/ca.pem"))).is_err());
        let empty = tempfile::NamedTempFile::new().expect("temp file");
        let err = client_config(Some(empty.path())).expect_err("no certificate");
        assert!(err.contains("no certificate"), "{err}");
        assert!(client_config(None).is_ok());
    }
}
