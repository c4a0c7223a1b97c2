//! A judge over Maildir folders and a real SQLite file, for the hostile-mail and
//! fault tests: drop raw mail into `in/new`, run passes, read what went out.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use legate::config::Config;
use legate::daemon::{PassReport, run_once};

pub const JUDGE: &str = "judge@judge.test";
pub const GM: &str = "gm@example.test";
/// The seven players: power letter and address; each one's password is `pw-<letter>`.
pub const POWERS: [(&str, &str); 7] = [
    ("A", "austria@example.test"),
    ("E", "england@example.test"),
    ("F", "france@example.test"),
    ("G", "germany@example.test"),
    ("I", "italy@example.test"),
    ("R", "russia@example.test"),
    ("T", "turkey@example.test"),
];

pub fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect("time")
        .with_timezone(&Utc)
}

pub struct Judge {
    pub dir: tempfile::TempDir,
    pub config: Config,
    n: usize,
}

/// One mail the judge sent, as read back from the outbound Maildir.
#[derive(Debug, Clone)]
pub struct Sent {
    pub raw: Vec<u8>,
    pub to: Vec<String>,
    pub subject: String,
    pub message_id: String,
    pub text: String,
    /// Header field names in order, as on the wire.
    pub header_names: Vec<String>,
}

impl Judge {
    pub fn new(extra_judge_keys: &str) -> Judge {
        Judge::in_dir(tempfile::tempdir().expect("tempdir"), extra_judge_keys)
    }

    pub fn in_dir(dir: tempfile::TempDir, extra_judge_keys: &str) -> Judge {
        let text = Judge::config_text(extra_judge_keys);
        fs::write(dir.path().join("legate.toml"), &text).expect("config file");
        let config = Config::parse(&text, Some(dir.path()), |_| None).expect("config");
        for sub in ["in/new", "in/cur", "in/tmp"] {
            fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        Judge { dir, config, n: 0 }
    }

    pub fn config_text(extra_judge_keys: &str) -> String {
        format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n{extra_judge_keys}\n\
             [inbound]\nkind = \"maildir\"\npath = \"in\"\npoll_seconds = 1\n\
             [outbound]\nkind = \"maildir\"\npath = \"out\"\n"
        )
    }

    pub fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }

    pub fn db(&self) -> PathBuf {
        self.config.judge.database.clone()
    }

    /// Drops raw bytes into the inbox as they are (line ends untouched).
    pub fn drop_bytes(&mut self, raw: &[u8]) -> String {
        self.n += 1;
        let name = format!("{:08}.hostile", self.n);
        let tmp = self.path("in/tmp").join(&name);
        fs::write(&tmp, raw).expect("write");
        fs::rename(&tmp, self.path("in/new").join(&name)).expect("deliver");
        name
    }

    /// Drops a mail given with `\n` line ends (turned into CRLF).
    pub fn drop_raw(&mut self, raw: &str) -> String {
        self.drop_bytes(raw.replace('\n', "\r\n").as_bytes())
    }

    pub fn drop_mail(&mut self, from: &str, id: &str, subject: &str, body: &str) -> String {
        self.drop_raw(&format!(
            "From: {from}\nTo: {JUDGE}\nSubject: {subject}\nMessage-ID: <{id}>\n\
             Date: Mon, 1 Mar 2027 09:00:00 +0000\n\n{body}\n"
        ))
    }

    pub fn once(&self, now: DateTime<Utc>) -> PassReport {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(run_once(&self.config, now))
            .expect("pass")
    }

    /// Every mail the judge sent so far.
    pub fn sent(&self) -> Vec<Sent> {
        sent_in(&self.path("out"))
    }

    /// Every mail the judge sent to `addr` alone.
    pub fn sent_to(&self, addr: &str) -> Vec<Sent> {
        self.sent()
            .into_iter()
            .filter(|s| s.to == vec![addr.to_string()])
            .collect()
    }

    /// The judge's answer to `addr` for the mail with Message-ID `id` (the
    /// answer cites it).
    pub fn answer_to(&self, addr: &str, id: &str) -> Sent {
        self.sent_to(addr)
            .into_iter()
            .find(|s| s.raw.windows(id.len()).any(|w| w == id.as_bytes()))
            .unwrap_or_else(|| panic!("an answer to {id}"))
    }

    pub fn files_in(&self, sub: &str) -> usize {
        fs::read_dir(self.path(sub)).map(|d| d.count()).unwrap_or(0)
    }

    pub fn sql(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.db()).expect("sqlite")
    }

    /// `SELECT count(*) ...`
    pub fn count(&self, query: &str) -> i64 {
        self.sql()
            .query_row(query, [], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{query}: {e}"))
    }
}

/// Each stored inbound mail: its Message-ID, its status, and how many answers
/// the outbox holds for it, by Message-ID (what the crash and stop trials check).
pub fn inbound_answers(
    conn: &rusqlite::Connection,
) -> rusqlite::Result<Vec<(String, String, i64)>> {
    let mut stmt = conn.prepare(
        "SELECT i.message_id, i.status, (SELECT count(*) FROM outbox o WHERE o.in_reply_to = i.id) \
         FROM inbound_mails i ORDER BY i.message_id",
    )?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect()
}

/// Every mail in a Maildir's `new/` and `cur/`.
pub fn sent_in(root: &Path) -> Vec<Sent> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(dir) = fs::read_dir(root.join(sub)) else {
            continue;
        };
        for entry in dir.flatten() {
            let raw = fs::read(entry.path()).expect("read");
            out.push(read_sent(raw));
        }
    }
    out.sort_by(|a, b| a.message_id.cmp(&b.message_id));
    out
}

pub fn read_sent(raw: Vec<u8>) -> Sent {
    let msg = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("the judge sent a mail");
    let to = msg
        .to()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.address())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let header_names = msg.headers().iter().map(|h| h.name().to_string()).collect();
    Sent {
        to,
        subject: msg.subject().unwrap_or("").to_string(),
        message_id: msg.message_id().unwrap_or("").to_string(),
        text: msg.body_text(0).map(|b| b.into_owned()).unwrap_or_default(),
        header_names,
        raw: raw.clone(),
    }
}

/// Mails sent per Message-ID.
pub fn by_message_id(sent: &[Sent]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for s in sent {
        *m.entry(s.message_id.clone()).or_insert(0) += 1;
    }
    m
}

/// A game `name` with seven players, started.
pub fn started_game(judge: &mut Judge, name: &str, now: DateTime<Utc>) {
    judge.drop_mail(
        GM,
        &format!("create-{name}@x"),
        "new",
        &format!("CREATE ?{name} gm-pw standard"),
    );
    for (p, addr) in POWERS {
        judge.drop_mail(
            addr,
            &format!("join-{name}-{p}@x"),
            "join",
            &format!("SIGNON ?{name} pw-{p}\nSET PREFERENCE {p}"),
        );
    }
    let report = judge.once(now);
    assert_eq!(report.intake.applied, 8, "{report:?}");
}
