//! The daemon's configuration: a TOML file (every key is documented in
//! `config/legate.example.toml`), with passwords optionally taken from the
//! environment. A mistake is reported with the key it concerns and its line.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;

/// Environment variable that supplies `inbound.password`.
pub const INBOUND_PASSWORD_ENV: &str = "LEGATE_INBOUND_PASSWORD";
/// Environment variable that supplies `outbound.password`.
pub const OUTBOUND_PASSWORD_ENV: &str = "LEGATE_OUTBOUND_PASSWORD";

/// Used when no file is given: everything in local folders, no mail server needed.
pub const EMBEDDED_DEFAULT: &str = r#"[judge]
name = "LEGT"
address = "judge@localhost"
database = "legate.db"
timezone = "UTC"

[inbound]
kind = "maildir"
path = "mail/in"

[outbound]
kind = "maildir"
path = "mail/out"
"#;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub judge: JudgeConfig,
    pub inbound: InboundConfig,
    pub outbound: OutboundConfig,
}

/// The largest mail read when `[judge] max_mail_bytes` is not set: 25 MiB, what
/// common mail services let a player send (a phone photo attached to orders
/// is read; the photo itself is not).
pub const DEFAULT_MAX_MAIL_BYTES: usize = 25 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub struct JudgeConfig {
    /// Judge code shown in subjects, e.g. `LEGT`.
    pub name: String,
    /// The judge's own address.
    pub address: String,
    pub database: PathBuf,
    /// Default time zone for new accounts.
    pub timezone: chrono_tz::Tz,
    /// Mails larger than this get a short refusal.
    pub max_mail_bytes: usize,
    /// Replies per sender and hour, at most.
    pub replies_per_hour: u32,
    /// The `authserv-id`s of the receiving mail servers whose
    /// `Authentication-Results` fields the judge believes; empty: none.
    pub authserv_ids: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum InboundConfig {
    Imap(ImapConfig),
    Maildir(MaildirConfig),
}

#[derive(Debug, Clone, PartialEq)]
pub enum OutboundConfig {
    Smtp(SmtpConfig),
    Maildir(MaildirConfig),
}

#[derive(Debug, Clone, PartialEq)]
pub struct MaildirConfig {
    pub path: PathBuf,
    pub poll_seconds: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ImapConfig {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: String,
    pub password: Secret,
    pub mailbox: String,
    /// Committed mails are moved here; when `None` they are only marked seen.
    pub processed_mailbox: Option<String>,
    pub poll_seconds: u64,
    /// Use IMAP IDLE when the server offers it.
    pub idle: bool,
    /// Extra PEM certificates to trust (a self-signed server).
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// No authentication when `None`.
    pub username: Option<String>,
    pub password: Option<Secret>,
    pub ca_file: Option<PathBuf>,
    pub timeout_seconds: u64,
}

/// How a connection to a mail server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain connection upgraded with STARTTLS before logging in.
    StartTls,
    /// No encryption: allowed only for a loopback host.
    None,
}

/// A password: never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}{key}: {message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Key {
        /// Dotted key, e.g. `inbound.port`.
        key: String,
        line: Option<usize>,
        message: String,
    },
}

impl ConfigError {
    /// The dotted key the error is about, if any.
    pub fn key(&self) -> Option<&str> {
        match self {
            ConfigError::Key { key, .. } => Some(key),
            ConfigError::Read { .. } => None,
        }
    }
}

impl Config {
    /// The configuration used when no file is given.
    pub fn embedded_default() -> Config {
        // The embedded text is fixed and covered by a test.
        Config::parse(EMBEDDED_DEFAULT, None, |_| None)
            .unwrap_or_else(|e| unreachable!("the embedded default configuration is invalid: {e}"))
    }

    /// Reads `path`; relative paths in it are taken relative to the file's folder.
    /// Passwords may come from `LEGATE_INBOUND_PASSWORD` / `LEGATE_OUTBOUND_PASSWORD`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let base = path.parent().filter(|p| !p.as_os_str().is_empty());
        Config::parse(&text, base, |name| std::env::var(name).ok())
    }

    /// Parses `text`. `base` anchors relative paths; `env` looks up environment
    /// variables (they win over passwords in the file).
    pub fn parse(
        text: &str,
        base: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let v = Validator {
            text,
            base,
            env: &env,
        };
        Ok(Config {
            judge: v.judge(raw.judge)?,
            inbound: v.inbound(raw.inbound)?,
            outbound: v.outbound(raw.outbound)?,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    judge: RawJudge,
    inbound: RawSide,
    outbound: RawSide,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawJudge {
    name: String,
    address: String,
    database: PathBuf,
    timezone: Option<String>,
    max_mail_bytes: Option<usize>,
    replies_per_hour: Option<u32>,
    authserv_ids: Option<Vec<String>>,
}

/// Both `[inbound]` and `[outbound]`; which keys apply depends on `kind`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSide {
    kind: String,
    host: Option<String>,
    port: Option<u16>,
    security: Option<String>,
    username: Option<String>,
    password: Option<String>,
    mailbox: Option<String>,
    processed_mailbox: Option<String>,
    poll_seconds: Option<u64>,
    idle: Option<bool>,
    ca_file: Option<PathBuf>,
    timeout_seconds: Option<u64>,
    path: Option<PathBuf>,
}

struct Validator<'a, E> {
    text: &'a str,
    base: Option<&'a Path>,
    env: &'a E,
}

impl<E: Fn(&str) -> Option<String>> Validator<'_, E> {
    fn err(&self, table: &str, key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::Key {
            key: format!("{table}.{key}"),
            line: key_line(self.text, table, key),
            message: message.into(),
        }
    }

    fn path(&self, p: PathBuf) -> PathBuf {
        match self.base {
            Some(base) if p.is_relative() => base.join(p),
            _ => p,
        }
    }

    fn judge(&self, raw: RawJudge) -> Result<JudgeConfig, ConfigError> {
        let name = raw.name.trim().to_string();
        if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c == ':') {
            return Err(self.err(
                "judge",
                "name",
                "must be one word without ':' (e.g. \"LEGT\")",
            ));
        }
        check_address(&raw.address).map_err(|m| self.err("judge", "address", m))?;
        let tz_name = raw.timezone.unwrap_or_else(|| "UTC".into());
        let timezone = chrono_tz::Tz::from_str(&tz_name).map_err(|_| {
            self.err(
                "judge",
                "timezone",
                format!("unknown time zone {tz_name:?} (e.g. \"Europe/Paris\")"),
            )
        })?;
        let max_mail_bytes = raw.max_mail_bytes.unwrap_or(DEFAULT_MAX_MAIL_BYTES);
        if max_mail_bytes < 1024 {
            return Err(self.err("judge", "max_mail_bytes", "must be at least 1024"));
        }
        let replies_per_hour = raw.replies_per_hour.unwrap_or(30);
        if replies_per_hour == 0 {
            return Err(self.err("judge", "replies_per_hour", "must be at least 1"));
        }
        let authserv_ids: Vec<String> = raw
            .authserv_ids
            .unwrap_or_default()
            .into_iter()
            .map(|id| id.trim().to_string())
            .collect();
        if authserv_ids
            .iter()
            .any(|id| id.is_empty() || id.contains(|c: char| c.is_whitespace() || c == ';'))
        {
            return Err(self.err(
                "judge",
                "authserv_ids",
                "each must be one word: the authserv-id the mail server writes first in \
                 its Authentication-Results fields (e.g. \"mx.example.org\")",
            ));
        }
        Ok(JudgeConfig {
            authserv_ids,
            name,
            address: raw.address.trim().to_string(),
            database: self.path(raw.database),
            timezone,
            max_mail_bytes,
            replies_per_hour,
        })
    }

    fn inbound(&self, raw: RawSide) -> Result<InboundConfig, ConfigError> {
        const T: &str = "inbound";
        match raw.kind.as_str() {
            "maildir" => {
                self.only(T, &raw, &["kind", "path", "poll_seconds"])?;
                Ok(InboundConfig::Maildir(self.maildir(T, &raw)?))
            }
            "imap" => {
                self.only(
                    T,
                    &raw,
                    &[
                        "kind",
                        "host",
                        "port",
                        "security",
                        "username",
                        "password",
                        "mailbox",
                        "processed_mailbox",
                        "poll_seconds",
                        "idle",
                        "ca_file",
                    ],
                )?;
                let host = self.required(T, "host", raw.host.clone())?;
                let security = self.security(T, raw.security.as_deref(), &host)?;
                let username = self.required(T, "username", raw.username.clone())?;
                let password = (self.env)(INBOUND_PASSWORD_ENV)
                    .or(raw.password.clone())
                    .ok_or_else(|| {
                        self.err(
                            T,
                            "password",
                            format!("missing (or set {INBOUND_PASSWORD_ENV})"),
                        )
                    })?;
                let default_port = if security == Security::Tls { 993 } else { 143 };
                Ok(InboundConfig::Imap(ImapConfig {
                    host,
                    port: self.port(T, raw.port, default_port)?,
                    security,
                    username,
                    password: Secret(password),
                    mailbox: raw.mailbox.clone().unwrap_or_else(|| "INBOX".into()),
                    processed_mailbox: raw.processed_mailbox.clone().filter(|m| !m.is_empty()),
                    poll_seconds: self.poll(T, raw.poll_seconds)?,
                    idle: raw.idle.unwrap_or(true),
                    ca_file: raw.ca_file.clone().map(|p| self.path(p)),
                }))
            }
            other => Err(self.err(
                T,
                "kind",
                format!("{other:?} is not \"imap\" or \"maildir\""),
            )),
        }
    }

    fn outbound(&self, raw: RawSide) -> Result<OutboundConfig, ConfigError> {
        const T: &str = "outbound";
        match raw.kind.as_str() {
            "maildir" => {
                self.only(T, &raw, &["kind", "path"])?;
                Ok(OutboundConfig::Maildir(self.maildir(T, &raw)?))
            }
            "smtp" => {
                self.only(
                    T,
                    &raw,
                    &[
                        "kind",
                        "host",
                        "port",
                        "security",
                        "username",
                        "password",
                        "ca_file",
                        "timeout_seconds",
                    ],
                )?;
                let host = self.required(T, "host", raw.host.clone())?;
                let security = self.security(T, raw.security.as_deref(), &host)?;
                let password = (self.env)(OUTBOUND_PASSWORD_ENV).or(raw.password.clone());
                if raw.username.is_some() && password.is_none() {
                    return Err(self.err(
                        T,
                        "password",
                        format!("missing (or set {OUTBOUND_PASSWORD_ENV})"),
                    ));
                }
                let default_port = match security {
                    Security::Tls => 465,
                    Security::StartTls => 587,
                    Security::None => 25,
                };
                let timeout_seconds = raw.timeout_seconds.unwrap_or(30);
                if timeout_seconds == 0 {
                    return Err(self.err(T, "timeout_seconds", "must be at least 1"));
                }
                Ok(OutboundConfig::Smtp(SmtpConfig {
                    host,
                    port: self.port(T, raw.port, default_port)?,
                    security,
                    username: raw.username.clone(),
                    password: password.map(Secret),
                    ca_file: raw.ca_file.clone().map(|p| self.path(p)),
                    timeout_seconds,
                }))
            }
            other => Err(self.err(
                T,
                "kind",
                format!("{other:?} is not \"smtp\" or \"maildir\""),
            )),
        }
    }

    fn maildir(&self, table: &str, raw: &RawSide) -> Result<MaildirConfig, ConfigError> {
        let path = self.required(table, "path", raw.path.clone())?;
        Ok(MaildirConfig {
            path: self.path(path),
            poll_seconds: self.poll(table, raw.poll_seconds)?,
        })
    }

    /// Keys that belong to another `kind` are an error rather than silently ignored.
    fn only(&self, table: &str, raw: &RawSide, allowed: &[&str]) -> Result<(), ConfigError> {
        let present = [
            ("host", raw.host.is_some()),
            ("port", raw.port.is_some()),
            ("security", raw.security.is_some()),
            ("username", raw.username.is_some()),
            ("password", raw.password.is_some()),
            ("mailbox", raw.mailbox.is_some()),
            ("processed_mailbox", raw.processed_mailbox.is_some()),
            ("poll_seconds", raw.poll_seconds.is_some()),
            ("idle", raw.idle.is_some()),
            ("ca_file", raw.ca_file.is_some()),
            ("timeout_seconds", raw.timeout_seconds.is_some()),
            ("path", raw.path.is_some()),
        ];
        match present.iter().find(|(k, set)| *set && !allowed.contains(k)) {
            Some((key, _)) => Err(self.err(
                table,
                key,
                format!("does not apply to kind = {:?}", raw.kind),
            )),
            None => Ok(()),
        }
    }

    fn required<T>(&self, table: &str, key: &str, value: Option<T>) -> Result<T, ConfigError> {
        value.ok_or_else(|| self.err(table, key, "missing"))
    }

    fn security(
        &self,
        table: &str,
        value: Option<&str>,
        host: &str,
    ) -> Result<Security, ConfigError> {
        let default = if table == "inbound" {
            "tls"
        } else {
            "starttls"
        };
        let security = match value.unwrap_or(default) {
            "tls" => Security::Tls,
            "starttls" => Security::StartTls,
            "none" => Security::None,
            other => {
                return Err(self.err(
                    table,
                    "security",
                    format!("{other:?} is not \"tls\", \"starttls\" or \"none\""),
                ));
            }
        };
        if security == Security::None && !is_loopback(host) {
            return Err(self.err(
                table,
                "security",
                format!("\"none\" sends the password in clear; it is allowed only for a loopback host, not {host:?}"),
            ));
        }
        Ok(security)
    }

    fn port(&self, table: &str, port: Option<u16>, default: u16) -> Result<u16, ConfigError> {
        match port {
            Some(0) => Err(self.err(table, "port", "must be 1 to 65535")),
            Some(p) => Ok(p),
            None => Ok(default),
        }
    }

    fn poll(&self, table: &str, seconds: Option<u64>) -> Result<u64, ConfigError> {
        match seconds {
            Some(0) => Err(self.err(table, "poll_seconds", "must be at least 1")),
            Some(s) => Ok(s),
            None => Ok(60),
        }
    }
}

/// True for `localhost` and loopback IP addresses.
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn check_address(address: &str) -> Result<(), String> {
    address
        .trim()
        .parse::<lettre::Address>()
        .map(|_| ())
        .map_err(|e| format!("{address:?} is not a mail address ({e})"))
}

/// The 1-based line on which `key` is set inside `[table]`.
fn key_line(text: &str, table: &str, key: &str) -> Option<usize> {
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            current = header.trim_end_matches(']').trim().to_string();
            continue;
        }
        let Some((k, _)) = line.split_once('=') else {
            continue;
        };
        if current == table && k.trim().trim_matches('"') == key {
            return Some(i + 1);
        }
    }
    None
}

const TABLES: [&str; 3] = ["judge", "inbound", "outbound"];

/// Turns a TOML or type error into one that names the key: the key on the offending
/// line, or the field a "missing field" message names inside the table it concerns.
fn toml_error(text: &str, e: &toml::de::Error) -> ConfigError {
    let message = e.message().trim().to_string();
    let Some(span) = e.span() else {
        return ConfigError::Key {
            key: "(file)".into(),
            line: None,
            message,
        };
    };
    let start = span.start.min(text.len());
    let line_no = text[..start].matches('\n').count() + 1;
    let table = table_at(text, start);
    let line = text.lines().nth(line_no - 1).unwrap_or("").trim();
    let quoted = message.split('`').nth(1).map(str::to_string);
    let key = if message.starts_with("missing field") {
        let field = quoted.unwrap_or_default();
        // A missing table is named alone, a missing key with its table.
        if table.is_empty() || TABLES.contains(&field.as_str()) {
            field
        } else {
            format!("{table}.{field}")
        }
    } else if let Some((k, _)) = line.split_once('=').filter(|_| !line.starts_with('[')) {
        let k = k.trim().trim_matches('"');
        if table.is_empty() {
            k.to_string()
        } else {
            format!("{table}.{k}")
        }
    } else if line.starts_with('[') {
        line.trim_matches(['[', ']']).trim().to_string()
    } else {
        table
    };
    ConfigError::Key {
        key,
        line: Some(line_no),
        message,
    }
}

/// The `[table]` in force at byte offset `pos`.
fn table_at(text: &str, pos: usize) -> String {
    let mut current = String::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if offset > pos {
            break;
        }
        // A span that starts on a header line belongs to that header.
        let trimmed = line.trim();
        if let Some(h) = trimmed.strip_prefix('[') {
            current = h.trim_end_matches(']').trim().to_string();
        }
        offset += line.len();
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, None, |_| None)
    }

    const IMAP_SMTP: &str = r#"[judge]
name = "LEGT"
address = "judge@example.org"
database = "legate.db"
timezone = "Europe/Paris"

[inbound]
kind = "imap"
host = "imap.example.org"
port = 993
security = "tls"
username = "judge"
password = "secret"
mailbox = "INBOX"
poll_seconds = 60

[outbound]
kind = "smtp"
host = "smtp.example.org"
port = 587
security = "starttls"
username = "judge"
password = "secret"
"#;

    #[test]
    fn embedded_default_uses_maildir_on_both_sides() {
        let c = Config::embedded_default();
        assert!(
            matches!(c.inbound, InboundConfig::Maildir(ref m) if m.path == Path::new("mail/in"))
        );
        assert!(
            matches!(c.outbound, OutboundConfig::Maildir(ref m) if m.path == Path::new("mail/out"))
        );
        assert_eq!(c.judge.name, "LEGT");
    }

    #[test]
    fn documented_example_parses() {
        let text = include_str!("../config/legate.example.toml");
        let c = parse(text).expect("the example configuration is valid");
        assert!(matches!(c.inbound, InboundConfig::Imap(_)));
        assert!(matches!(c.outbound, OutboundConfig::Smtp(_)));
        assert_eq!(c.judge.max_mail_bytes, DEFAULT_MAX_MAIL_BYTES);
        assert_eq!(c.judge.authserv_ids, ["mx.example.org"]);
    }

    #[test]
    fn issue_keys_parse() {
        let c = parse(IMAP_SMTP).expect("valid");
        let InboundConfig::Imap(imap) = &c.inbound else {
            panic!("imap expected")
        };
        assert_eq!(
            (imap.host.as_str(), imap.port, imap.security),
            ("imap.example.org", 993, Security::Tls)
        );
        assert_eq!(imap.password.expose(), "secret");
        assert_eq!(c.judge.timezone, chrono_tz::Europe::Paris);
        let OutboundConfig::Smtp(smtp) = &c.outbound else {
            panic!("smtp expected")
        };
        assert_eq!((smtp.port, smtp.security), (587, Security::StartTls));
        assert!(
            !format!("{c:?}").contains("secret"),
            "passwords must not be printed"
        );
    }

    #[test]
    fn environment_supplies_passwords() {
        let text = IMAP_SMTP.replace("password = \"secret\"\n", "");
        let c = Config::parse(&text, None, |k| Some(format!("from-{k}"))).expect("valid");
        let InboundConfig::Imap(imap) = &c.inbound else {
            panic!()
        };
        assert_eq!(imap.password.expose(), "from-LEGATE_INBOUND_PASSWORD");
        let e = parse(&text).expect_err("no password anywhere");
        assert_eq!(e.key(), Some("inbound.password"));
    }

    #[test]
    fn errors_name_the_key_and_line() {
        let e = parse(&IMAP_SMTP.replace("port = 993", "port = \"x\"")).expect_err("bad type");
        assert_eq!(e.key(), Some("inbound.port"), "{e}");
        assert!(e.to_string().starts_with("line 10: inbound.port"), "{e}");

        let e = parse(&IMAP_SMTP.replace("host = \"smtp", "hots = \"smtp")).expect_err("typo");
        assert_eq!(e.key(), Some("outbound.hots"), "{e}");

        let e =
            parse(&IMAP_SMTP.replace("timezone = \"Europe/Paris\"", "timezone = \"Mars/Olympus\""))
                .expect_err("tz");
        assert_eq!(e.key(), Some("judge.timezone"));
        assert!(e.to_string().contains("line 5"), "{e}");

        let e = parse(&IMAP_SMTP.replace("address = \"judge@example.org\"\n", ""))
            .expect_err("missing");
        assert_eq!(e.key(), Some("judge.address"), "{e}");

        let e =
            parse(&IMAP_SMTP.replace("kind = \"smtp\"", "kind = \"pigeon\"")).expect_err("kind");
        assert_eq!(e.key(), Some("outbound.kind"));
    }

    #[test]
    fn missing_and_misspelt_tables_are_named() {
        let without_outbound =
            &EMBEDDED_DEFAULT[..EMBEDDED_DEFAULT.find("[outbound]").expect("table")];
        let e = parse(without_outbound).expect_err("no [outbound]");
        assert_eq!(e.key(), Some("outbound"), "{e}");
        let e = parse(&EMBEDDED_DEFAULT.replace("[inbound]", "[inbund]")).expect_err("typo");
        assert_eq!(e.key(), Some("inbund"), "{e}");
        let e = parse("[judge\nname = 1").expect_err("not TOML");
        assert!(e.to_string().starts_with("line 1"), "{e}");
    }

    #[test]
    fn plain_connections_only_on_loopback() {
        let e = parse(&IMAP_SMTP.replace("security = \"tls\"", "security = \"none\""))
            .expect_err("remote");
        assert_eq!(e.key(), Some("inbound.security"));
        let local = IMAP_SMTP
            .replace("security = \"tls\"", "security = \"none\"")
            .replace("imap.example.org", "127.0.0.1");
        assert!(parse(&local).is_ok());
        assert!(is_loopback("::1") && is_loopback("localhost") && !is_loopback("10.0.0.1"));
    }

    #[test]
    fn keys_of_the_other_kind_are_refused() {
        let e = parse(
            &EMBEDDED_DEFAULT.replace("path = \"mail/in\"", "path = \"mail/in\"\nhost = \"x\""),
        )
        .expect_err("host on maildir");
        assert_eq!(e.key(), Some("inbound.host"));
    }

    #[test]
    fn relative_paths_follow_the_config_file() {
        let c = Config::parse(EMBEDDED_DEFAULT, Some(Path::new("/srv/legate")), |_| None)
            .expect("valid");
        assert_eq!(c.judge.database, Path::new("/srv/legate/legate.db"));
        let InboundConfig::Maildir(m) = c.inbound else {
            panic!()
        };
        assert_eq!(m.path, Path::new("/srv/legate/mail/in"));
    }
}
