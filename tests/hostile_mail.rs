//! Hostile and broken mail through the judge's real intake path: a Maildir inbox,
//! a SQLite file, `run_once`, a Maildir outbox. Every mail the judge sends is parsed
//! back and its header list checked, so text from players can never add a field.

use crate::hardening_common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use chrono::Duration;
use hardening_common::*;

/// Every field the judge's mail may carry; each at most once.
const ALLOWED: &[&str] = &[
    "from",
    "to",
    "subject",
    "date",
    "message-id",
    "auto-submitted",
    "x-auto-response-suppress",
    "in-reply-to",
    "references",
    "content-type",
    "content-transfer-encoding",
    "mime-version",
];

/// No mail the judge sent has a field it does not write itself, a field twice, or
/// an address that came from an attacker's text.
fn assert_clean_headers(sent: &[Sent], known: &BTreeSet<&str>) {
    for mail in sent {
        let mut seen = BTreeSet::new();
        for name in &mail.header_names {
            let lower = name.to_ascii_lowercase();
            assert!(
                ALLOWED.contains(&lower.as_str()),
                "field {name:?} in\n{}",
                String::from_utf8_lossy(&mail.raw)
            );
            assert!(seen.insert(lower), "{name} twice");
        }
        // The raw header block too: every line is a known field or a continuation.
        let raw = String::from_utf8_lossy(&mail.raw);
        let head = raw.split("\r\n\r\n").next().unwrap_or("");
        for line in head.split("\r\n") {
            if line.starts_with([' ', '\t']) {
                continue;
            }
            let name = line.split(':').next().unwrap_or("").to_ascii_lowercase();
            assert!(ALLOWED.contains(&name.as_str()), "line {line:?} in\n{raw}");
        }
        assert!(!head.contains('\n') || !head.replace("\r\n", "").contains('\n'));
        assert!(
            !head.replace("\r\n", "").contains('\r'),
            "bare CR in\n{raw}"
        );
        for to in &mail.to {
            assert!(known.contains(to.as_str()), "mail to {to:?}:\n{raw}");
        }
    }
}

fn everyone() -> BTreeSet<&'static str> {
    POWERS.iter().map(|p| p.1).chain([GM]).collect()
}

fn game_count(judge: &Judge, name: &str) -> i64 {
    judge
        .sql()
        .query_row("SELECT count(*) FROM games WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .expect("count")
}

#[test]
fn a_25_mb_mail_is_refused_politely_and_stored_as_its_header() {
    let mut judge = Judge::new("");
    let mut raw = format!(
        "From: big@example.test\r\nTo: {JUDGE}\r\nSubject: everything\r\nMessage-ID: <big@x>\r\n\r\n\
         CREATE ?huge pw\r\n"
    )
    .into_bytes();
    let line = b"A Par - Bur and a long line of padding to make the mail very large indeed\r\n";
    // Just over the default limit (25 MiB).
    while raw.len() <= 25 * 1024 * 1024 {
        raw.extend_from_slice(line);
    }
    judge.drop_bytes(&raw);
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.oversize, 1, "{report:?}");
    let sent = judge.sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].to, vec!["big@example.test"]);
    assert!(
        sent[0].text.contains("larger than this judge accepts"),
        "{}",
        sent[0].text
    );
    assert!(sent[0].raw.len() < 4000, "a short refusal");
    assert_eq!(game_count(&judge, "huge"), 0, "nothing in it applied");
    let (len, status): (i64, String) = judge
        .sql()
        .query_row("SELECT length(raw), status FROM inbound_mails", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("stored");
    assert!(len < 1024, "only the header is stored: {len} bytes");
    assert_eq!(status, "processed");
    assert_eq!(judge.files_in("in/new"), 0);
    assert_clean_headers(&sent, &["big@example.test"].into());
}

#[test]
fn a_body_of_a_million_lines_is_read_once_and_answered() {
    let mut judge = Judge::new("max_mail_bytes = 100000000\n");
    let mut body = String::from("CREATE ?million gm-pw\n");
    for i in 0..1_000_000 {
        body.push_str(if i % 2 == 0 { "> A Par - Bur\n" } else { "\n" });
    }
    body.push_str("HELP\n");
    judge.drop_mail(GM, "million@x", "long", &body);
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert_eq!(game_count(&judge, "million"), 1);
    let sent = judge.sent();
    assert_eq!(sent.len(), 1);
    assert_clean_headers(&sent, &[GM].into());
}

#[test]
fn a_million_order_lines_get_one_short_refusal() {
    let mut judge = Judge::new("max_mail_bytes = 100000000\n");
    started_game(&mut judge, "many", t("2027-03-01T09:00:00Z"));
    let orders_before = judge.count("SELECT count(*) FROM orders");
    let mut body = String::from("SIGNON Fmany pw-F\n");
    for _ in 0..1_000_000 {
        body.push_str("A Par - Bur\n");
    }
    judge.drop_mail(POWERS[2].1, "many-lines@x", "orders", &body);
    let report = judge.once(t("2027-03-01T09:01:00Z"));
    assert_eq!(report.intake.oversize, 1, "{report:?}");
    assert_eq!(judge.count("SELECT count(*) FROM orders"), orders_before);
    let reply: Vec<Sent> = judge
        .sent()
        .into_iter()
        .filter(|s| s.to == vec![POWERS[2].1.to_string()] && s.subject.contains("orders"))
        .collect();
    assert_eq!(reply.len(), 1, "one answer");
    assert!(reply[0].text.contains("1000001 lines"), "{}", reply[0].text);
    assert!(reply[0].raw.len() < 4000, "a short answer");
    // Within the limit, every line is read and answered.
    let mut body = String::from("SIGNON Fmany pw-F\n");
    for _ in 0..legate::daemon::intake::MAX_LINES - 1 {
        body.push_str("A Par - Bur\n");
    }
    judge.drop_mail(POWERS[2].1, "at-limit@x", "orders again", &body);
    let report = judge.once(t("2027-03-01T09:02:00Z"));
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert!(judge.count("SELECT count(*) FROM orders") > orders_before);
}

#[test]
fn mime_nested_two_hundred_deep_does_not_break_the_judge() {
    let mut judge = Judge::new("");
    let depth = 200;
    let mut raw = format!(
        "From: deep@example.test\r\nTo: {JUDGE}\r\nSubject: deep\r\nMessage-ID: <deep@x>\r\nMIME-Version: 1.0\r\n"
    );
    for i in 0..depth {
        raw.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        ));
    }
    raw.push_str("Content-Type: text/plain\r\n\r\nCREATE ?deep gm-pw\r\n");
    for i in (0..depth).rev() {
        raw.push_str(&format!("--b{i}--\r\n"));
    }
    judge.drop_bytes(raw.as_bytes());
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.fetched, 1, "{report:?}");
    assert_eq!(report.intake.deferred, 0, "{report:?}");
    assert_eq!(judge.files_in("in/new"), 0, "handled, not left to loop");
    let sent = judge.sent();
    assert_eq!(sent.len(), 1, "answered once: {report:?}");
    assert_clean_headers(&sent, &["deep@example.test"].into());
}

#[test]
fn unknown_charsets_and_invalid_bytes_are_read_as_far_as_they_go() {
    let mut judge = Judge::new("");
    judge.drop_raw(
        "From: cs1@example.test\nTo: judge@judge.test\nSubject: x\nMessage-ID: <cs1@x>\n\
         MIME-Version: 1.0\nContent-Type: text/plain; charset=\"x-no-such-charset\"\n\n\
         CREATE ?charsetone gm-pw\n",
    );
    let mut bad = b"From: cs2@example.test\r\nTo: judge@judge.test\r\nSubject: \xff\xfe\xc3(\r\n\
        Message-ID: <cs2@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        .to_vec();
    bad.extend_from_slice(b"CREATE ?charsettwo gm-pw\r\n\xff\xfe\xc3(\x00\x1b[31m\r\n");
    judge.drop_bytes(&bad);
    judge.drop_raw(
        "From: cs3@example.test\nTo: judge@judge.test\nSubject: =?x-bogus?B?!!!?=\n\
         Message-ID: <cs3@x>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-16\n\
         Content-Transfer-Encoding: base64\n\n%%%% not base64 %%%%\n",
    );
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.fetched, 3, "{report:?}");
    assert_eq!(report.intake.applied, 3, "{report:?}");
    assert_eq!(game_count(&judge, "charsetone"), 1);
    assert_eq!(game_count(&judge, "charsettwo"), 1);
    let sent = judge.sent();
    assert_eq!(sent.len(), 3);
    assert_clean_headers(
        &sent,
        &["cs1@example.test", "cs2@example.test", "cs3@example.test"].into(),
    );
}

#[test]
fn an_html_only_mail_is_read_as_its_text() {
    let mut judge = Judge::new("");
    judge.drop_raw(
        "From: html@example.test\nTo: judge@judge.test\nSubject: x\nMessage-ID: <html@x>\n\
         MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n\
         <html><head><style>p{}</style><script>CREATE ?scripted pw</script></head>\
         <body><p>CREATE&nbsp;?htmlgame gm-pw</p><div>-- <br>Me</div></body></html>\n",
    );
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert_eq!(game_count(&judge, "htmlgame"), 1);
    assert_clean_headers(&judge.sent(), &["html@example.test"].into());
}

#[test]
fn header_text_smuggled_through_names_subjects_and_press_stays_in_its_place() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "inj", now);
    let evil = "Bcc: victim@evil.test";
    // Encoded line breaks in the subject and in the sender's name.
    judge.drop_raw(&format!(
        "From: =?utf-8?q?Eve=0D=0ABcc:_victim@evil.test?= <{}>\nTo: {JUDGE}\n\
         Subject: =?utf-8?q?orders=0D=0ABcc:_victim@evil.test=0D=0A=0D=0Abody?=\n\
         Message-ID: <inj1@x>\n\nSIGNON Finj pw-F\nA Par - Bur\n",
        POWERS[2].1
    ));
    // Line breaks, NEL, line and paragraph separators and encoded words in press text.
    judge.drop_raw(&format!(
        "From: {}\nTo: {JUDGE}\nSubject: press\nMessage-ID: <inj2@x>\n\
         Content-Type: text/plain; charset=utf-8\n\n\
         SIGNON Einj pw-E\nPRESS TO ALL\nhello\r{evil}\u{85}{evil}\u{2028}{evil}\u{2029}\
         =?utf-8?q?x=0D=0A{}?=\n{evil}\nENDPRESS\nBROADCAST\n\n{evil}\nENDPRESS\n",
        POWERS[1].1,
        evil.replace(' ', "_")
    ));
    // Game names built to look like header fields.
    judge.drop_raw(&format!(
        "From: {GM}\nTo: {JUDGE}\nSubject: more\nMessage-ID: <inj3@x>\n\
         Content-Type: text/plain; charset=utf-8\n\n\
         CREATE ?a\u{2028}Bcc:victim@evil.test pw\n\
         CREATE ?=?utf-8?q?b=0D=0ABcc:victim@evil.test?= pw\n\
         CREATE ?c\u{0b}\u{0c}Bcc:victim@evil.test pw\n\
         CREATE ?d\u{85}Bcc:victim@evil.test pw\n"
    ));
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, 3, "{report:?}");
    let sent = judge.sent();
    assert!(sent.len() > 10, "the press went out: {}", sent.len());
    assert_clean_headers(&sent, &everyone());
    for mail in &sent {
        assert!(
            !mail.to.iter().any(|a| a.contains("evil")),
            "{}",
            String::from_utf8_lossy(&mail.raw)
        );
    }
}

#[test]
fn sql_looking_text_in_every_field_is_only_text() {
    let mut judge = Judge::new("");
    let sql = "'; DROP TABLE games; --";
    // A password is one word: the same attack without spaces.
    let pw = "';DROP/**/TABLE/**/games;--";
    judge.drop_raw(&format!(
        "From: \"{sql}\" <sql@example.test>\nTo: {JUDGE}\nSubject: {sql}\n\
         Message-ID: <{sql}@x>\nReferences: <{sql}@y>\n\n\
         CREATE ?{sql} pw\nCREATE ?sqlgame {pw}\nSIGNON Msqlgame {pw}\n\
         PRESS TO ALL\n{sql}\nENDPRESS\n{sql}\n"
    ));
    judge.drop_raw(&format!(
        "From: sql2@example.test\nTo: {JUDGE}\nSubject: x\nMessage-ID: <sql2@x>\n\n\
         CREATE ?'--drop_table_games;-- pw\nSIGNON ?sqlgame '\"\\;DELETE/**/FROM/**/accounts;\n"
    ));
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.applied, 2, "{report:?}");
    let answers: Vec<String> = judge.sent().into_iter().map(|s| s.text).collect();
    assert_eq!(game_count(&judge, "sqlgame"), 1, "{answers:#?}");
    assert_eq!(judge.count("SELECT count(*) FROM games"), 1, "{answers:#?}");
    assert_eq!(
        judge.count("SELECT count(*) FROM accounts"),
        2,
        "{answers:#?}"
    );
    assert!(
        answers.iter().any(|a| a.contains("a game name is")),
        "the name rule refuses it: {answers:#?}"
    );
    let check: String = judge
        .sql()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("check");
    assert_eq!(check, "ok");
    // The text was kept as written.
    let stored: i64 = judge
        .sql()
        .query_row(
            "SELECT count(*) FROM inbound_mails WHERE instr(CAST(raw AS TEXT), ?1) > 0",
            [sql],
            |r| r.get(0),
        )
        .expect("stored");
    assert_eq!(stored, 1);
    // The password is the SQL text itself, and it works as a password.
    judge.drop_mail(
        "other@example.test",
        "sql3@x",
        "x",
        &format!("SIGNON Msqlgame {pw}"),
    );
    judge.once(t("2027-03-01T09:01:00Z"));
    let last: Vec<Sent> = judge
        .sent()
        .into_iter()
        .filter(|s| s.to == vec!["other@example.test".to_string()])
        .collect();
    assert_eq!(last.len(), 1);
    assert!(
        last[0].text.contains("Signed on as master of sqlgame"),
        "{}",
        last[0].text
    );
    assert_clean_headers(
        &judge.sent(),
        &[
            "sql@example.test",
            "sql2@example.test",
            "other@example.test",
        ]
        .into(),
    );
}

fn tree(root: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.insert(p.strip_prefix(root).expect("inside").display().to_string());
        }
    }
    out
}

#[test]
fn attachment_names_with_paths_are_never_written() {
    let mut judge = Judge::new("");
    let target = judge.path("pwned.txt");
    let raw = format!(
        "From: att@example.test\nTo: {JUDGE}\nSubject: files\nMessage-ID: <att@x>\n\
         MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"X\"\n\n\
         --X\nContent-Type: text/plain\n\nHELP\n\
         --X\nContent-Type: application/octet-stream\n\
         Content-Disposition: attachment; filename=\"../../etc/passwd\"\n\nroot::0:0::/:/bin/sh\n\
         --X\nContent-Type: text/plain; name=\"{abs}\"\n\
         Content-Disposition: attachment; filename=\"{abs}\"\n\nowned\n\
         --X\nContent-Type: text/plain\n\
         Content-Disposition: attachment; filename*=utf-8''..%2F..%2F..%2Ftmp%2Flegate-pwned\n\nx\n\
         --X--\n",
        abs = target.display()
    );
    judge.drop_raw(&raw);
    let before = tree(judge.dir.path());
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.applied, 1, "{report:?}");
    assert!(!target.exists());
    assert!(!Path::new("/tmp/legate-pwned").exists());
    let passwd = fs::read("/etc/passwd").unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&passwd).contains("root::0:0::/:/bin/sh"),
        "/etc/passwd untouched"
    );
    let after = tree(judge.dir.path());
    let new: Vec<&String> = after.difference(&before).collect();
    for path in &new {
        assert!(
            path.starts_with("in/cur/")
                || path.as_str() == "out"
                || path.starts_with("out/")
                || path.starts_with("legate.db"),
            "unexpected file {path}: {new:?}"
        );
    }
    assert!(!after.iter().any(|p| p.contains("passwd")), "{after:?}");
}

#[test]
fn a_forged_sender_without_the_password_changes_nothing_and_the_owner_hears_of_it() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "forge", now);
    let before = judge.sent().len();
    let orders_before = judge.count("SELECT count(*) FROM orders");
    // From the French player's address, but the forger does not know the password.
    judge.drop_mail(
        POWERS[2].1,
        "forged1@x",
        "orders",
        "SIGNON Fforge guess\nA Par - Pic",
    );
    judge.drop_mail(POWERS[2].1, "forged2@x", "orders", "A Par - Pic");
    // From the master's address, trying to end the game.
    judge.drop_mail(GM, "forged3@x", "stop", "SIGNON Mforge guess\nTERMINATE");
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, 3, "{report:?}");
    assert_eq!(
        judge.count("SELECT count(*) FROM orders"),
        orders_before,
        "no order taken"
    );
    let status: String = judge
        .sql()
        .query_row("SELECT status FROM games WHERE name = 'forge'", [], |r| {
            r.get(0)
        })
        .expect("status");
    assert_ne!(status, "finished");
    let sent = judge.sent();
    let told: Vec<&Sent> = sent[..]
        .iter()
        .filter(|s| s.subject.contains("Error Flag"))
        .collect();
    assert_eq!(sent.len(), before + 3, "three answers, nothing else");
    assert_eq!(told.len(), 3);
    let france_told = told
        .iter()
        .filter(|s| s.to == vec![POWERS[2].1.to_string()])
        .count();
    assert_eq!(france_told, 2, "France's own address gets the refusals");
    assert!(
        told.iter()
            .any(|s| s.to == vec![GM.to_string()] && s.text.contains("wrong password"))
    );
    assert_clean_headers(&sent, &everyone());
}

#[test]
fn password_guessing_is_answered_then_cut_off_by_the_rate_limit_and_logged() {
    let mut judge = Judge::new("replies_per_hour = 10\n");
    let now = t("2027-03-01T09:00:00Z");
    judge.drop_mail(GM, "create@x", "new", "CREATE ?vault gm-pw");
    judge.once(now);
    for i in 0..25 {
        judge.drop_mail(
            "guesser@example.test",
            &format!("guess{i}@x"),
            "hi",
            &format!("SIGNON Mvault guess{i}\nTERMINATE"),
        );
    }
    let config = judge.path("legate.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_legate"))
        .args(["run", "--once", "--config"])
        .arg(&config)
        .args(["--now", "2027-03-01T09:10:00Z"])
        .env("RUST_LOG", "info")
        .output()
        .expect("legate run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{log}");
    assert!(
        stdout.contains("applied 10") && stdout.contains("rate-limited 15"),
        "{stdout}"
    );
    let to_guesser: Vec<Sent> = judge
        .sent()
        .into_iter()
        .filter(|s| s.to == vec!["guesser@example.test".to_string()])
        .collect();
    assert_eq!(to_guesser.len(), 11, "ten answers and one notice");
    let refusals = to_guesser
        .iter()
        .filter(|s| s.text.contains("wrong password"))
        .count();
    assert_eq!(refusals, 10);
    // The operator can see it: each refused sign-on and each mail over the cap is
    // logged with the sender.
    let refused_lines = log
        .lines()
        .filter(|l| l.contains("guesser@example.test") && l.contains("refused"))
        .count();
    assert_eq!(refused_lines, 10, "{log}");
    let capped = log
        .lines()
        .filter(|l| l.contains("guesser@example.test") && l.contains("over the hourly cap"))
        .count();
    assert_eq!(capped, 15, "{log}");
    let status: String = judge
        .sql()
        .query_row("SELECT status FROM games WHERE name = 'vault'", [], |r| {
            r.get(0)
        })
        .expect("status");
    assert_ne!(status, "finished");
}

#[test]
fn a_loop_with_an_auto_responder_that_hides_itself_stops() {
    let mut judge = Judge::new("");
    let robot = "robot@example.test";
    let start = t("2027-03-01T09:00:00Z");
    judge.drop_mail(robot, "robot-0@x", "Hello", "Is anyone there?");
    let mut answered = BTreeSet::new();
    let mut per_minute = Vec::new();
    for minute in 0..90 {
        judge.once(start + Duration::minutes(minute));
        let to_robot: Vec<Sent> = judge
            .sent()
            .into_iter()
            .filter(|s| s.to == vec![robot.to_string()])
            .collect();
        per_minute.push(to_robot.len());
        // The robot answers every new mail at once, without Auto-Submitted.
        for mail in to_robot {
            if answered.insert(mail.message_id.clone()) {
                judge.drop_raw(&format!(
                    "From: {robot}\nTo: {JUDGE}\nSubject: Re: {}\nMessage-ID: <robot-{}@x>\n\
                     In-Reply-To: <{}>\n\nThank you for your mail. I will read it later.\n",
                    mail.subject,
                    answered.len(),
                    mail.message_id
                ));
            }
        }
    }
    let in_first_hour = per_minute[59];
    assert!(in_first_hour <= 31, "{per_minute:?}");
    assert_eq!(
        per_minute[59], per_minute[30],
        "silent once over the cap: {per_minute:?}"
    );
    assert_eq!(
        per_minute[89], per_minute[59],
        "the loop is over: {per_minute:?}"
    );
    assert_clean_headers(&judge.sent(), &[robot].into());
}

#[test]
fn a_mail_in_a_players_name_with_another_reply_to_is_reported_to_the_player() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "mirror", now);
    let before = judge.sent().len();
    let france = POWERS[2].1;
    let thief = "thief@elsewhere.test";
    // With France's password (known to the forger) and without it.
    for (id, body) in [
        ("rt1@x", "SIGNON Fmirror pw-F\nA Par - Bur"),
        ("rt2@x", "SIGNON Fmirror guess\nA Par - Pic"),
    ] {
        judge.drop_raw(&format!(
            "From: France <{france}>\nReply-To: {thief}\nTo: {JUDGE}\nSubject: orders\n\
             Message-ID: <{id}>\nDate: Mon, 1 Mar 2027 09:00:00 +0000\n\n{body}\n"
        ));
    }
    // From an address that plays nowhere: nobody else to tell.
    judge.drop_raw(&format!(
        "From: stranger@elsewhere.test\nReply-To: {thief}\nTo: {JUDGE}\nSubject: hi\n\
         Message-ID: <rt3@x>\nDate: Mon, 1 Mar 2027 09:00:00 +0000\n\nLIST mirror\n"
    ));
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, 3, "{report:?}");
    let sent = judge.sent();
    assert_eq!(
        sent.len(),
        before + 5,
        "three answers, two notices: {:#?}",
        &sent[before..]
    );
    let to = |addr: &str| -> Vec<&Sent> {
        sent.iter()
            .filter(|s| s.to == vec![addr.to_string()])
            .collect()
    };
    let answers = to(thief);
    assert_eq!(answers.len(), 3, "the answers go to Reply-To");
    let told: Vec<&Sent> = to(france)
        .into_iter()
        .filter(|s| s.subject.contains("Mail in your name"))
        .collect();
    assert_eq!(told.len(), 2, "France hears of both mails");
    assert!(
        told.iter()
            .any(|s| s.text.contains("A PAR - BUR") && s.text.contains(thief))
    );
    assert!(told.iter().any(|s| s.text.contains("wrong password")));
    for s in &told {
        assert!(!s.text.contains("pw-F"), "no password in\n{}", s.text);
    }
    let mut known = everyone();
    known.insert(thief);
    assert_clean_headers(&sent, &known);
}
