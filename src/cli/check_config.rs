//! `legate check-config --config FILE`: before the judge first runs, try every
//! part of the configuration the way `legate run` would use it (the database,
//! the way mail comes in, the way it goes out) without reading, sending or
//! changing anything, and print one line per part saying what works or why not.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::config::{Config, ImapConfig, InboundConfig, OutboundConfig, Security, SmtpConfig};
use crate::mail::inbound::ImapInbound;
use crate::mail::outbound::SmtpOutbound;
use crate::mail::probe::{probe_maildir, probe_writable};
use crate::store::{LATEST_VERSION, Store};

#[derive(clap::Args)]
pub struct Args {
    /// The configuration file to check (TOML; see config/legate.example.toml).
    #[arg(long)]
    config: PathBuf,
    /// Seconds to wait for each answer from a mail server.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
}

/// One line of the answer.
struct Check {
    part: &'static str,
    result: Result<String, String>,
}

impl Check {
    fn line(&self) -> String {
        match &self.result {
            Ok(text) => format!("ok   {}: {text}", self.part),
            Err(text) => format!("FAIL {}: {text}", self.part),
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    let config = match Config::load(&args.config) {
        Ok(c) => c,
        Err(e) => {
            println!("FAIL configuration: {}: {e}", args.config.display());
            return ExitCode::FAILURE;
        }
    };
    println!("ok   configuration: {}", args.config.display());
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("legate check-config: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    let timeout = Duration::from_secs(args.timeout.max(1));
    let checks = [
        Check {
            part: "database",
            result: database(&config.judge.database),
        },
        Check {
            part: "inbound",
            result: runtime.block_on(inbound(&config, timeout)),
        },
        Check {
            part: "outbound",
            result: runtime.block_on(outbound(&config.outbound, timeout)),
        },
    ];
    for check in &checks {
        println!("{}", check.line());
    }
    if checks.iter().all(|c| c.result.is_ok()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The folder must exist and be writable (SQLite writes its journal beside the
/// file); an existing file must be a database this program can use.
fn database(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !folder.is_dir() {
        return Err(format!(
            "{shown}: the folder {} does not exist (create it, or change judge.database)",
            folder.display()
        ));
    }
    probe_writable(folder).map_err(|e| format!("{shown}: {e}"))?;
    if !path.exists() {
        return Ok(format!(
            "{shown} does not exist yet; `legate run` creates it (schema version {LATEST_VERSION})"
        ));
    }
    let store = Store::open_reader(path).map_err(|e| e.to_string())?;
    let version = store.schema_version().map_err(|e| e.to_string())?;
    match version {
        v if v == LATEST_VERSION => Ok(format!("{shown}: schema version {v}, up to date")),
        v if v < LATEST_VERSION => Ok(format!(
            "{shown}: schema version {v}, {} migration(s) pending; `legate run` applies them \
             when it starts (back up first: legate db backup)",
            LATEST_VERSION - v
        )),
        v => Err(format!(
            "{shown}: schema version {v} is newer than this program knows ({LATEST_VERSION}); \
             use a newer legate"
        )),
    }
}

async fn inbound(config: &Config, timeout: Duration) -> Result<String, String> {
    match &config.inbound {
        InboundConfig::Maildir(m) => {
            let waiting = probe_maildir(&m.path).map_err(|e| e.to_string())?;
            Ok(format!(
                "Maildir {}: readable and writable, {waiting} mail(s) waiting in new/",
                m.path.display()
            ))
        }
        InboundConfig::Imap(imap) => {
            let what = imap_name(imap);
            let client = ImapInbound::new(imap.clone(), config.judge.max_mail_bytes)
                .map_err(|e| format!("{what}: {e}"))?
                .with_io_timeout(timeout);
            let facts = client.probe().await.map_err(|e| format!("{what}: {e}"))?;
            let idle = match (facts.idle, imap.idle) {
                (true, true) => "IDLE offered: new mail is seen at once".to_string(),
                (true, false) => format!(
                    "IDLE offered but not used (idle = false): mail is looked for every {} s",
                    imap.poll_seconds
                ),
                (false, _) => format!(
                    "IDLE not offered: mail is looked for every {} s",
                    imap.poll_seconds
                ),
            };
            Ok(format!(
                "{what}: logged in; mailbox {:?} exists with {} mail(s); {idle}",
                imap.mailbox, facts.mails
            ))
        }
    }
}

async fn outbound(config: &OutboundConfig, timeout: Duration) -> Result<String, String> {
    match config {
        OutboundConfig::Maildir(m) => {
            probe_maildir(&m.path).map_err(|e| e.to_string())?;
            Ok(format!("Maildir {}: writable", m.path.display()))
        }
        OutboundConfig::Smtp(smtp) => {
            let what = smtp_name(smtp);
            let quick = SmtpConfig {
                timeout_seconds: smtp.timeout_seconds.min(timeout.as_secs()),
                ..smtp.clone()
            };
            let client = SmtpOutbound::new(&quick).map_err(|e| format!("{what}: {e}"))?;
            client.probe().await.map_err(|e| format!("{what}: {e}"))?;
            let secured = match smtp.security {
                Security::Tls => "TLS accepted",
                Security::StartTls => "STARTTLS accepted",
                Security::None => "no encryption (loopback)",
            };
            let login = if smtp.username.is_some() {
                "login accepted"
            } else {
                "no login configured"
            };
            Ok(format!("{what}: {secured}, {login}; no mail sent"))
        }
    }
}

fn imap_name(c: &ImapConfig) -> String {
    format!(
        "IMAP {}:{} ({}) as {}",
        c.host,
        c.port,
        security_name(c.security),
        c.username
    )
}

fn smtp_name(c: &SmtpConfig) -> String {
    let user = c
        .username
        .as_deref()
        .map(|u| format!(" as {u}"))
        .unwrap_or_default();
    format!(
        "SMTP {}:{} ({}){user}",
        c.host,
        c.port,
        security_name(c.security)
    )
}

/// The value of the `security` key that chose this setting.
fn security_name(s: Security) -> &'static str {
    match s {
        Security::Tls => "tls",
        Security::StartTls => "starttls",
        Security::None => "none",
    }
}
