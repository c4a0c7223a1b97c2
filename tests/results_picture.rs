//! Results mails carry the board after the phase: a PNG and the SVG, drawn from
//! the project's own map, through engine, outbox and delivery (Maildir, no servers).

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use legate::config::Config;
use legate::daemon::run_once;
use mail_parser::MimeHeaders;

const JUDGE: &str = "judge@judge.test";
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

const PLAYERS: [(&str, &str, &str); 7] = [
    ("A", "anna@players.test", "A Vie-Gal\nA Bud-Ser\nF Tri-Alb"),
    ("E", "ed@players.test", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"),
    ("F", "flo@players.test", "A Par-Bur\nA Mar-Spa\nF Bre-Mid"),
    ("G", "gus@players.test", "A Ber-Kie\nA Mun-Ruh\nF Kie-Den"),
    ("I", "ida@players.test", "A Rom-Apu\nA Ven H\nF Nap-Ion"),
    (
        "R",
        "rob@players.test",
        "A Mos-Ukr\nA War-Gal\nF Sev-Bla\nF Stp/sc-Bot",
    ),
    ("T", "tom@players.test", "F Ank-Bla\nA Con-Bul\nA Smy-Arm"),
];

struct Judge {
    dir: tempfile::TempDir,
    config: Config,
    now: DateTime<Utc>,
    n: usize,
}

impl Judge {
    fn new() -> Judge {
        let dir = tempfile::tempdir().expect("tempdir");
        let text = format!(
            "[judge]\nname = \"LEGT\"\naddress = \"{JUDGE}\"\ndatabase = \"legate.db\"\n\
             [inbound]\nkind = \"maildir\"\npath = \"in\"\npoll_seconds = 1\n\
             [outbound]\nkind = \"maildir\"\npath = \"out\"\n"
        );
        let config = Config::parse(&text, Some(dir.path()), |_| None).expect("config");
        for sub in ["in/new", "in/cur", "in/tmp"] {
            fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        let now = DateTime::parse_from_rfc3339("2027-03-01T09:00:00Z")
            .expect("time")
            .with_timezone(&Utc);
        Judge {
            dir,
            config,
            now,
            n: 0,
        }
    }

    fn mail(&mut self, from: &str, body: &str) {
        self.n += 1;
        let text = format!(
            "From: {from}\nTo: {JUDGE}\nSubject: orders\nMessage-ID: <m{}@players.test>\n\
             Date: {}\n\n{body}\n",
            self.n,
            self.now.to_rfc2822()
        );
        let name = format!("{:06}.test", self.n);
        let path = self.dir.path().join("in/new").join(name);
        fs::write(path, text.replace('\n', "\r\n")).expect("write");
    }

    fn pass(&mut self) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime
            .block_on(run_once(&self.config, self.now))
            .expect("pass");
        self.now += Duration::minutes(10);
    }

    fn sent(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = fs::read_dir(self.dir.path().join("out/new"))
            .expect("outbound maildir")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        files
    }
}

/// One received file: its name, content type and bytes.
struct File {
    name: String,
    content_type: String,
    bytes: Vec<u8>,
}

/// Subject and attachments of a mail in the outbound Maildir.
fn read_mail(path: &Path) -> (String, Vec<File>) {
    let raw = fs::read(path).expect("read");
    let msg = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("a mail");
    let files = msg
        .attachments()
        .map(|part| File {
            name: part.attachment_name().unwrap_or("").to_string(),
            content_type: part
                .content_type()
                .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
                .unwrap_or_default(),
            bytes: part.contents().to_vec(),
        })
        .collect();
    (msg.subject().unwrap_or("").to_string(), files)
}

fn artifact(name: &str, bytes: &[u8]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts");
    fs::create_dir_all(&dir).expect("artifact dir");
    fs::write(dir.join(name), bytes).expect("artifact");
}

#[test]
fn every_results_mail_carries_the_board_as_png_and_svg() {
    let mut judge = Judge::new();
    judge.mail(
        "gm@players.test",
        "CREATE ?pict gm-secret standard\nSET NMR\n",
    );
    judge.pass();
    for (power, address, _) in PLAYERS {
        judge.mail(
            address,
            &format!("SIGNON ?pict pw-{power}\nSET PREFERENCE {power}\n"),
        );
    }
    judge.pass();
    for (power, address, orders) in PLAYERS {
        judge.mail(
            address,
            &format!("SIGNON {power}pict pw-{power}\n{orders}\n"),
        );
    }
    judge.pass();

    let mails: Vec<(String, Vec<File>)> = judge.sent().iter().map(|p| read_mail(p)).collect();
    let results: Vec<&(String, Vec<File>)> = mails
        .iter()
        .filter(|(subject, _)| subject.ends_with("S1901M results"))
        .collect();
    assert_eq!(results.len(), 8, "seven players and the master");
    let mut first_png: Option<&[u8]> = None;
    for (subject, files) in &results {
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["pict-S1901M.png", "pict-S1901M.svg"], "{subject}");
        let (png, svg) = (&files[0], &files[1]);
        assert_eq!(png.content_type, "image/png");
        assert!(png.bytes.starts_with(PNG_SIGNATURE), "not a PNG");
        assert!(png.bytes.len() < 300 * 1024, "{} bytes", png.bytes.len());
        assert!(
            png.bytes.len() > 10 * 1024,
            "{} bytes: an empty picture?",
            png.bytes.len()
        );
        assert_eq!(svg.content_type, "image/svg+xml");
        let svg_text = String::from_utf8_lossy(&svg.bytes);
        assert!(svg_text.contains("<svg"), "{svg_text:.200}");
        // The standard game hides nothing: every reader sees the same board.
        match first_png {
            None => first_png = Some(&png.bytes),
            Some(first) => assert!(first == png.bytes.as_slice(), "{subject}"),
        }
    }
    if let Some(png) = first_png {
        artifact("results-mail-board.png", png);
    }
    // Mails other than results (sign-on answers and the like) stay plain.
    let others: Vec<&str> = mails
        .iter()
        .filter(|(subject, files)| !subject.ends_with(" results") && !files.is_empty())
        .map(|(subject, _)| subject.as_str())
        .collect();
    assert!(others.is_empty(), "{others:?}");
    assert!(mails.len() > results.len(), "no other mail to compare with");
}
