//! `legate demo [--dir DIR]`: a short game played by mail through local folders,
//! with no mail server: a Gamemaster creates a game, seven players join, orders
//! come in, deadlines pass on a moving clock, and the judge's replies and reports
//! land as mail files in DIR/mail/out.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use chrono::{DateTime, Duration, Utc};

use crate::config::Config;
use crate::daemon::{PassReport, run_once};
use crate::game::{Engine, EngineConfig};

#[derive(clap::Args)]
pub struct Args {
    /// Folder for the demo's database and mail folders (created if missing).
    #[arg(long, default_value = "legate-demo")]
    dir: PathBuf,
}

const JUDGE: &str = "judge@judge.example";
const MASTER: &str = "gm@players.example";
const GAME: &str = "demo";

/// Power, player's address, Spring 1901 orders, Fall 1901 orders (empty: none sent).
const PLAYERS: [(&str, &str, &str, &str); 7] = [
    (
        "A",
        "anna@players.example",
        "A Vie-Gal\nA Bud-Ser\nF Tri-Alb",
        "F Alb-Gre\nA Ser S F Alb-Gre\nA Vie H",
    ),
    (
        "E",
        "ed@players.example",
        "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor",
        "F Nth-Nwy\nF Nwg H\nA Yor H",
    ),
    (
        "F",
        "flo@players.example",
        "A Par-Bur\nA Mar-Spa\nF Bre-Mid",
        "A Bur-Bel\nF Mid-Por\nA Spa H",
    ),
    (
        "G",
        "gus@players.example",
        "A Ber-Kie\nA Mun-Ruh\nF Kie-Den",
        "A Kie-Hol\nA Ruh H\nF Den H",
    ),
    (
        "I",
        "ida@players.example",
        "A Rom-Apu\nA Ven H\nF Nap-Ion",
        "F Ion-Tun\nA Apu H\nA Ven H",
    ),
    (
        "R",
        "rob@players.example",
        "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot",
        "F Bot-Swe\nA Ukr-Rum\nA War H\nF Sev H",
    ),
    (
        "T",
        "tom@players.example",
        "F Ank-Bla\nA Con-Bul\nA Smy-Arm",
        "",
    ),
];

pub fn run(args: Args) -> ExitCode {
    match play(&args.dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("legate demo: {e}");
            ExitCode::FAILURE
        }
    }
}

struct Demo {
    dir: PathBuf,
    config: Config,
    now: DateTime<Utc>,
    runtime: tokio::runtime::Runtime,
    mails: usize,
}

fn play(dir: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(dir)?;
    for sub in ["mail/in/new", "mail/in/cur", "mail/in/tmp"] {
        fs::create_dir_all(dir.join(sub))?;
    }
    if dir.join("legate.db").exists() {
        anyhow::bail!(
            "{} already holds a demo; remove it or choose another --dir",
            dir.display()
        );
    }
    let config_text = format!(
        "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\
         timezone = \"UTC\"\n\n[inbound]\nkind = \"maildir\"\npath = \"mail/in\"\n\n\
         [outbound]\nkind = \"maildir\"\npath = \"mail/out\"\n"
    );
    fs::write(dir.join("legate.toml"), &config_text)?;
    let mut demo = Demo {
        dir: dir.to_path_buf(),
        config: Config::load(&dir.join("legate.toml"))?,
        now: DateTime::parse_from_rfc3339("2027-03-01T09:00:00Z")?.with_timezone(&Utc),
        runtime: tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?,
        mails: 0,
    };
    println!(
        "A short game of Diplomacy played by mail, in {}",
        dir.display()
    );
    println!(
        "(the judge reads {0}/mail/in and writes {0}/mail/out)\n",
        dir.display()
    );

    demo.step("The Gamemaster creates the game", |d| {
        d.mail(
            MASTER,
            "New game",
            &format!("CREATE ?{GAME} gm-secret standard\nSET NMR\n"),
        )
    })?;
    demo.step("Seven players join, each with a preference list", |d| {
        for (power, address, _, _) in PLAYERS {
            let rest: String = PLAYERS
                .iter()
                .map(|p| p.0)
                .filter(|p| *p != power)
                .collect();
            let body = format!("SIGNON ?{GAME} pw-{power}\nSET PREFERENCE {power}{rest}\n");
            d.mail(address, "Joining", &body)?;
        }
        Ok(())
    })?;
    demo.step(
        "Spring 1901 orders (all in: the phase is processed at once)",
        |d| {
            for (power, address, spring, _) in PLAYERS {
                let body = format!("SIGNON {power}{GAME} pw-{power}\n{spring}\n");
                d.mail(address, "Spring orders", &body)?;
            }
            Ok(())
        },
    )?;
    demo.step("Fall 1901 orders (Turkey sends none)", |d| {
        for (power, address, _, fall) in PLAYERS {
            if !fall.is_empty() {
                let body = format!("SIGNON {power}{GAME} pw-{power}\n{fall}\n");
                d.mail(address, "Fall orders", &body)?;
            }
        }
        Ok(())
    })?;
    demo.pass_deadlines("The Fall deadline and grace pass: Turkey's units hold")?;
    demo.step(
        "Winter 1901: France builds; the others let the clock decide",
        |d| {
            d.mail(
                "flo@players.example",
                "Builds",
                "SIGNON Fdemo pw-F\nBUILD A Par\nBUILD F Bre\nBUILD A Mar\n",
            )
        },
    )?;
    demo.pass_deadlines("The Winter deadline and grace pass: missing builds are waived")?;

    let out = dir.join("mail/out/new");
    println!(
        "\nEvery mail the judge sent is a file in {} ({} mails).",
        out.display(),
        fs::read_dir(&out)?.count()
    );
    println!(
        "Read them with any mail client, e.g.  mutt -f {}",
        dir.join("mail/out").display()
    );
    println!(
        "The game is in {} (legate run --config {} continues it).",
        dir.join("legate.db").display(),
        dir.join("legate.toml").display()
    );
    Ok(())
}

impl Demo {
    /// Drops mails into the inbox, lets the judge run once, and shows what it sent.
    fn step(
        &mut self,
        title: &str,
        write: impl FnOnce(&mut Demo) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        println!(
            "== {} ({})",
            title,
            self.now.format("%a %b %d %Y %H:%M UTC")
        );
        write(self)?;
        self.pass().map(|_| ())
    }

    /// Moves the clock past every deadline and grace until a phase is processed.
    fn pass_deadlines(&mut self, title: &str) -> anyhow::Result<()> {
        println!("== {title}");
        for _ in 0..4 {
            let next = Engine::open(&self.config.judge.database, EngineConfig::default())?
                .next_wakeup()?;
            let Some(next) = next else { break };
            self.now = self.now.max(next) + Duration::minutes(1);
            println!(
                "   (the clock moves to {})",
                self.now.format("%a %b %d %Y %H:%M UTC")
            );
            if self.pass()?.processed > 0 {
                break;
            }
        }
        Ok(())
    }

    fn pass(&mut self) -> anyhow::Result<PassReport> {
        let before = self.sent_files()?;
        let report = self.runtime.block_on(run_once(&self.config, self.now))?;
        let mut sent = Vec::new();
        for path in self.sent_files()?.difference(&before) {
            let (to, subject) = summary(path)?;
            sent.push((subject, to));
        }
        sent.sort();
        for (subject, to) in sent {
            println!("   -> {to:<24} {subject}");
        }
        self.now += Duration::minutes(10);
        Ok(report)
    }

    fn mail(&mut self, from: &str, subject: &str, body: &str) -> anyhow::Result<()> {
        self.mails += 1;
        let n = self.mails;
        let text = format!(
            "From: {from}\r\nTo: {JUDGE}\r\nSubject: {subject}\r\nMessage-ID: <demo-{n}@players.example>\r\n\
             Date: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            self.now.to_rfc2822(),
            body.replace('\n', "\r\n")
        );
        let name = format!("{}.{n:04}.demo", self.now.timestamp());
        fs::write(self.dir.join("mail/in/new").join(name), text)?;
        Ok(())
    }

    fn sent_files(&self) -> anyhow::Result<BTreeSet<PathBuf>> {
        let out = self.dir.join("mail/out/new");
        if !out.exists() {
            return Ok(BTreeSet::new());
        }
        Ok(fs::read_dir(out)?.flatten().map(|e| e.path()).collect())
    }
}

/// The To and Subject of a mail file.
fn summary(path: &Path) -> anyhow::Result<(String, String)> {
    let raw = fs::read(path)?;
    let msg = mail_parser::MessageParser::default()
        .parse_headers(&raw)
        .ok_or_else(|| anyhow::anyhow!("{} is not a mail", path.display()))?;
    let to = msg
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string();
    Ok((to, msg.subject().unwrap_or("").to_string()))
}
