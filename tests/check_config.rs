//! `legate check-config` against real servers: Dovecot (IMAP) and Postfix (SMTP, with
//! logins checked by Dovecot) started by scripts/mail-servers.sh on loopback, one
//! stack per test. One test where every check passes, then one per mistake an
//! operator makes; each asserts the one line that names the cause, and that the
//! exit status says something failed. Needs the Debian packages dovecot-imapd,
//! dovecot-lmtpd and postfix, and root (as tests/mail_servers.rs).

use crate::mail_stack::MailServers;
use std::path::{Path, PathBuf};
use std::process::Command;

const JUDGE: &str = "judge@judge.test";

/// One Dovecot + Postfix pair (`mail_stack`), with this file's ways to use it.
struct Stack(MailServers);

impl std::ops::Deref for Stack {
    type Target = MailServers;

    fn deref(&self) -> &MailServers {
        &self.0
    }
}

impl Stack {
    fn start() -> Stack {
        Stack(MailServers::start())
    }

    /// A configuration that works: IMAPS, SMTP with STARTTLS and a login, the
    /// stack's certificate trusted, the database in a folder that exists.
    fn config(&self) -> Setup {
        let cert = self.dir.path().join("cert.pem");
        Setup {
            dir: tempfile::tempdir().expect("tempdir"),
            database: "data/legate.db".into(),
            inbound: format!(
                "kind = \"imap\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"tls\"\n\
                 username = \"{JUDGE}\"\npassword = \"pw\"\nmailbox = \"INBOX\"\n\
                 ca_file = \"{}\"\n",
                self.imaps_port(),
                cert.display()
            ),
            outbound: format!(
                "kind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"starttls\"\n\
                 username = \"{JUDGE}\"\npassword = \"pw\"\nca_file = \"{}\"\n",
                self.smtp_port(),
                cert.display()
            ),
        }
    }
}

/// A configuration file being put together, and the folder it lives in.
struct Setup {
    dir: tempfile::TempDir,
    database: String,
    inbound: String,
    outbound: String,
}

/// What `legate check-config` printed, and whether it succeeded.
struct Answer {
    lines: Vec<String>,
    success: bool,
}

impl Answer {
    fn failures(&self) -> Vec<&String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("FAIL"))
            .collect()
    }

    /// Exactly one check failed, the one for `part`, and its line says `cause`.
    fn one_failure(&self, part: &str, cause: &str) -> &str {
        assert!(!self.success, "exit status must say a check failed");
        let failures = self.failures();
        assert_eq!(failures.len(), 1, "one failing check: {:#?}", self.lines);
        let line = failures[0].as_str();
        assert!(
            line.starts_with(&format!("FAIL {part}: ")) && line.contains(cause),
            "expected {part} to fail with {cause:?}, got {line:?}"
        );
        line
    }
}

impl Setup {
    fn edit(mut self, side: Side, from: &str, to: &str) -> Setup {
        let text = match side {
            Side::Inbound => &mut self.inbound,
            Side::Outbound => &mut self.outbound,
        };
        assert!(text.contains(from), "{from:?} not in {text}");
        *text = text.replace(from, to);
        self
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("legate.toml")
    }

    fn check(&self) -> Answer {
        std::fs::create_dir_all(self.dir.path().join("data")).expect("data folder");
        let text = format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"{}\"\n\n\
             [inbound]\n{}\n[outbound]\n{}",
            self.database, self.inbound, self.outbound
        );
        std::fs::write(self.path(), text).expect("config file");
        let out = Command::new(env!("CARGO_BIN_EXE_legate"))
            .args(["check-config", "--timeout", "5", "--config"])
            .arg(self.path())
            .output()
            .expect("run legate check-config");
        let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        for line in &lines {
            println!("{line}");
        }
        Answer {
            lines,
            success: out.status.success(),
        }
    }
}

#[derive(Clone, Copy)]
enum Side {
    Inbound,
    Outbound,
}

/// A port nothing listens on (bound and released at once).
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

#[test]
fn everything_passes_and_says_what_works() {
    let stack = Stack::start();
    let setup = stack.config();
    let answer = setup.check();
    assert!(answer.success, "{:#?}", answer.lines);
    assert!(answer.failures().is_empty());
    let [config, database, inbound, outbound] = &answer.lines[..] else {
        panic!("four lines: {:#?}", answer.lines)
    };
    assert!(config.starts_with("ok   configuration: "));
    assert!(
        database.starts_with("ok   database: ") && database.contains("`legate run` creates it"),
        "{database}"
    );
    assert!(
        inbound.starts_with("ok   inbound: IMAP ")
            && inbound.contains("logged in; mailbox \"INBOX\" exists with 0 mail(s)")
            && inbound.contains("IDLE offered"),
        "{inbound}"
    );
    assert!(
        outbound.starts_with("ok   outbound: SMTP ")
            && outbound.contains("STARTTLS accepted, login accepted; no mail sent"),
        "{outbound}"
    );
    // Nothing was sent: the judge's own mailbox (and every other) is still empty.
    let delivered = stack.dir.path().join("mail");
    let files = walk(&delivered)
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("new")))
        .count();
    assert_eq!(files, 0, "check-config must not send mail");
}

#[test]
fn plain_imap_with_starttls_passes_too() {
    let stack = Stack::start();
    let port = stack.imap_port();
    let setup = stack
        .config()
        .edit(
            Side::Inbound,
            &format!("port = {}", stack.imaps_port()),
            &format!("port = {port}"),
        )
        .edit(
            Side::Inbound,
            "security = \"tls\"",
            "security = \"starttls\"",
        );
    let answer = setup.check();
    assert!(answer.success, "{:#?}", answer.lines);
}

#[test]
fn wrong_imap_password() {
    let stack = Stack::start();
    let answer = stack
        .config()
        .edit(Side::Inbound, "password = \"pw\"", "password = \"wrong\"")
        .check();
    answer.one_failure("inbound", "wrong user name or password");
}

#[test]
fn wrong_smtp_password() {
    let stack = Stack::start();
    let answer = stack
        .config()
        .edit(Side::Outbound, "password = \"pw\"", "password = \"wrong\"")
        .check();
    let line = answer.one_failure("outbound", "wrong user name or password");
    assert!(line.contains("535"), "{line}");
}

#[test]
fn wrong_port_is_connection_refused() {
    let stack = Stack::start();
    let port = closed_port();
    let answer = stack
        .config()
        .edit(
            Side::Inbound,
            &format!("port = {}", stack.imaps_port()),
            &format!("port = {port}"),
        )
        .check();
    answer.one_failure("inbound", &format!("connection refused on port {port}"));
    let answer = stack
        .config()
        .edit(
            Side::Outbound,
            &format!("port = {}", stack.smtp_port()),
            &format!("port = {port}"),
        )
        .check();
    answer.one_failure("outbound", &format!("connection refused on port {port}"));
}

#[test]
fn tls_setting_mismatched() {
    let stack = Stack::start();
    // TLS from the first byte against the ports that speak plain text first.
    let answer = stack
        .config()
        .edit(
            Side::Inbound,
            &format!("port = {}", stack.imaps_port()),
            &format!("port = {}", stack.imap_port()),
        )
        .check();
    answer.one_failure("inbound", "security setting mismatched");
    let answer = stack
        .config()
        .edit(
            Side::Outbound,
            "security = \"starttls\"",
            "security = \"tls\"",
        )
        .check();
    answer.one_failure("outbound", "security setting mismatched");
}

#[test]
fn plain_text_to_the_tls_port_names_the_setting() {
    let stack = Stack::start();
    // STARTTLS against the port that waits for TLS: the server never greets.
    let answer = stack
        .config()
        .edit(
            Side::Inbound,
            "security = \"tls\"",
            "security = \"starttls\"",
        )
        .check();
    answer.one_failure("inbound", "security = \"tls\"");
}

#[test]
fn certificate_not_trusted() {
    let stack = Stack::start();
    let mut setup = stack.config();
    let cert = format!(
        "ca_file = \"{}\"\n",
        stack.dir.path().join("cert.pem").display()
    );
    setup = setup.edit(Side::Inbound, &cert, "");
    let answer = setup.check();
    answer.one_failure("inbound", "certificate not trusted");
    let answer = stack.config().edit(Side::Outbound, &cert, "").check();
    answer.one_failure("outbound", "certificate not trusted");
}

#[test]
fn missing_mailbox() {
    let stack = Stack::start();
    let answer = stack
        .config()
        .edit(Side::Inbound, "mailbox = \"INBOX\"", "mailbox = \"Judge\"")
        .check();
    answer.one_failure("inbound", "mailbox \"Judge\" does not exist");
}

/// Maildir on both sides: the database and Maildir checks need no server.
fn maildir_setup() -> Setup {
    let setup = Setup {
        dir: tempfile::tempdir().expect("tempdir"),
        database: "data/legate.db".into(),
        inbound: "kind = \"maildir\"\npath = \"in\"\n".into(),
        outbound: "kind = \"maildir\"\npath = \"out\"\n".into(),
    };
    for side in ["in", "out"] {
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(setup.dir.path().join(side).join(sub)).expect("mkdir");
        }
    }
    setup
}

#[test]
fn maildirs_that_exist_pass() {
    let setup = maildir_setup();
    let answer = setup.check();
    assert!(answer.success, "{:#?}", answer.lines);
    assert!(
        answer.lines[2].contains("0 mail(s) waiting in new/"),
        "{:#?}",
        answer.lines
    );
}

#[test]
fn missing_maildir() {
    let setup = maildir_setup();
    std::fs::remove_dir_all(setup.dir.path().join("in")).expect("rm");
    setup.check().one_failure("inbound", "Maildir");
    let setup = maildir_setup();
    std::fs::remove_dir_all(setup.dir.path().join("out/tmp")).expect("rm");
    let answer = setup.check();
    answer.one_failure(
        "outbound",
        "is missing (it needs the folders new, cur and tmp)",
    );
}

#[test]
fn missing_database_folder() {
    let mut setup = maildir_setup();
    setup.database = "nowhere/legate.db".into();
    let answer = setup.check();
    answer.one_failure("database", "the folder");
    assert!(answer.failures()[0].contains("nowhere does not exist"));
}

#[test]
fn unreadable_database_file() {
    let setup = maildir_setup();
    std::fs::create_dir_all(setup.dir.path().join("data")).expect("mkdir");
    std::fs::write(
        setup.dir.path().join("data/legate.db"),
        "not a database, a text file\n".repeat(200),
    )
    .expect("write");
    setup.check().one_failure("database", "is damaged");
}

#[test]
fn database_with_pending_migrations_passes_and_says_so() {
    let setup = maildir_setup();
    std::fs::create_dir_all(setup.dir.path().join("data")).expect("mkdir");
    // A database file of schema version 0: every migration is still to come.
    rusqlite::Connection::open(setup.dir.path().join("data/legate.db"))
        .and_then(|c| c.execute_batch("CREATE TABLE t (x); DROP TABLE t;"))
        .expect("sqlite");
    let answer = setup.check();
    assert!(answer.success, "{:#?}", answer.lines);
    let line = &answer.lines[1];
    assert!(
        line.contains("schema version 0") && line.contains("migration(s) pending"),
        "{line}"
    );
    // ...and it only looked: the file is still at version 0.
    let version: i64 = rusqlite::Connection::open(setup.dir.path().join("data/legate.db"))
        .and_then(|c| c.query_row("PRAGMA user_version", [], |r| r.get(0)))
        .expect("version");
    assert_eq!(version, 0);
}

#[test]
fn an_unreadable_configuration_fails_at_once() {
    let setup = maildir_setup();
    let out = Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["check-config", "--config"])
        .arg(setup.dir.path().join("absent.toml"))
        .output()
        .expect("run");
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("FAIL configuration: ") && text.contains("cannot read"),
        "{text}"
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_check_creates_no_folder_on_the_server() {
    let stack = Stack::start();
    // The judge creates its processed_mailbox when it runs; the check must not.
    let answer = stack
        .config()
        .edit(
            Side::Inbound,
            "mailbox = \"INBOX\"\n",
            "mailbox = \"INBOX\"\nprocessed_mailbox = \"Handled\"\n",
        )
        .check();
    assert!(answer.success, "{:#?}", answer.lines);
    let maildir = stack.dir.path().join("mail").join(JUDGE).join("Maildir");
    assert!(maildir.is_dir(), "the judge's mailbox was opened");
    assert!(
        !maildir.join(".Handled").exists(),
        "check-config created the processed mailbox"
    );
}
