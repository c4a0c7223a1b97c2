//! Dovecot (IMAP, IMAPS, LMTP) and Postfix (SMTP) on loopback for the mail tests,
//! started by `scripts/mail-servers.sh`: one pair per test, in its own folder and
//! ports, stopped when dropped. Needs the Debian packages dovecot-imapd,
//! dovecot-lmtpd and postfix, and root (`scripts/test` installs them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct MailServers {
    pub dir: tempfile::TempDir,
    /// IMAP (STARTTLS); SMTP is `base + 1`, LMTP `+ 2`, IMAPS `+ 3`, Dovecot's
    /// authentication for Postfix `+ 4`.
    pub base: u16,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

/// Five ports in 12000-31999, below Linux's ephemeral range: one counter for the
/// whole test binary, so its tests never pick the same ports; spread by process.
fn candidate_base() -> u16 {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let slot = std::process::id().wrapping_mul(7919).wrapping_add(n * 17) % 4000;
    12000 + (slot * 5) as u16
}

fn ports_free(base: u16) -> bool {
    (0..5).all(|i| std::net::TcpListener::bind(("127.0.0.1", base + i)).is_ok())
}

impl MailServers {
    /// Every mailbox at judge.test and example.test exists.
    pub fn start() -> MailServers {
        MailServers::start_with(&[])
    }

    /// Only `addresses` exist (others are refused at RCPT); all exist when empty.
    pub fn start_with(addresses: &[&str]) -> MailServers {
        for _ in 0..10 {
            let base = candidate_base();
            if !ports_free(base) {
                continue;
            }
            let servers = MailServers {
                dir: tempfile::tempdir().expect("tempdir"),
                base,
            };
            let (dir, base) = (servers.dir_str(), base.to_string());
            let mut args = vec!["start", &dir, &base];
            args.extend_from_slice(addresses);
            if servers.script(&args) {
                return servers;
            }
            // Lost a race for a port: dropping stops whatever started; try others.
        }
        panic!("could not start the mail servers (see messages above)");
    }

    pub fn dir_str(&self) -> String {
        self.dir.path().display().to_string()
    }

    /// Runs `scripts/mail-servers.sh` with `args`; says why on failure.
    pub fn script(&self, args: &[&str]) -> bool {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mail-servers.sh");
        let out = Command::new("bash")
            .arg(script)
            .args(args)
            .output()
            .expect("run bash");
        if !out.status.success() {
            eprintln!(
                "mail-servers.sh {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        out.status.success()
    }

    pub fn stop(&self) {
        assert!(self.script(&["stop", &self.dir_str()]), "stop failed");
    }

    /// Starts the servers again on the same folder and ports, keeping mailboxes.
    pub fn restart(&self) {
        assert!(
            self.script(&["start", &self.dir_str(), &self.base.to_string()]),
            "restart failed"
        );
    }

    pub fn imap_port(&self) -> u16 {
        self.base
    }

    pub fn smtp_port(&self) -> u16 {
        self.base + 1
    }

    pub fn imaps_port(&self) -> u16 {
        self.base + 3
    }

    /// The servers' self-signed certificate, for the client to trust.
    pub fn cert(&self) -> PathBuf {
        self.dir.path().join("cert.pem")
    }
}

impl Drop for MailServers {
    fn drop(&mut self) {
        self.script(&["stop", &self.dir_str()]);
    }
}
