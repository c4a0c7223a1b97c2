//! Every fixture in fixtures/mail parses to the envelope a reader of the raw mail expects.

use std::path::Path;

use legate::mail::{Envelope, IngestError, IngestOptions, NoReply, ingest};
use proptest::prelude::*;

fn opts() -> IngestOptions {
    IngestOptions {
        judge_address: "judge@judge.test".into(),
        max_bytes: 64 * 1024,
    }
}

fn fixture(name: &str) -> Envelope {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mail")
        .join(name);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ingest(&raw, &opts()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn lines(env: &Envelope) -> Vec<&str> {
    env.body_lines.iter().map(String::as_str).collect()
}

#[test]
fn plain_order_mail() {
    let env = fixture("plain-orders.eml");
    assert_eq!(env.sender.as_deref(), Some("alice@example.test"));
    assert_eq!(env.sender_name.as_deref(), Some("Alice Arnaud"));
    assert_eq!(env.subject, "orders");
    assert_eq!(env.message_id.as_deref(), Some("plain-1@example.test"));
    assert_eq!(env.dedup_key, "<plain-1@example.test>");
    assert_eq!(
        env.date.map(|d| d.to_rfc3339()).as_deref(),
        Some("2026-11-23T09:15:00+00:00")
    );
    assert_eq!(
        lines(&env),
        [
            "signon france alpha secret",
            "A Par - Bur",
            "F Bre - MAO",
            "A Mar S A Par - Bur",
            "signoff"
        ]
    );
    assert_eq!(env.no_reply, None);
    assert!(!env.oversize);
    assert!(env.attachments.is_empty());
}

#[test]
fn quoted_printable_soft_breaks_and_utf8() {
    let env = fixture("quoted-printable.eml");
    assert_eq!(env.sender_name.as_deref(), Some("François"));
    assert_eq!(env.subject, "ordres pour l’automne");
    assert_eq!(
        lines(&env),
        [
            "F Kie - Den",
            "A Ber - Kie",
            "Press to all: très bien, mes amis, c’est une très longue phrase coupée par le client."
        ]
    );
}

#[test]
fn base64_utf8_body_and_subject() {
    let env = fixture("base64-utf8.eml");
    assert_eq!(env.subject, "приказы");
    assert_eq!(
        lines(&env),
        [
            "A Mos - Ukr",
            "F Sev - Bla",
            "Press to all: Привет, соседи!"
        ]
    );
}

#[test]
fn iso_8859_1_is_decoded() {
    let env = fixture("latin1.eml");
    assert_eq!(env.sender_name.as_deref(), Some("Jürgen"));
    assert_eq!(env.subject, "Züge");
    assert_eq!(
        lines(&env),
        ["A Vie - Gal", "A Bud - Rum", "Grüße aus Wien"]
    );
}

#[test]
fn windows_1252_outlook_reply_is_decoded_and_cut() {
    let env = fixture("windows-1252-outlook.eml");
    assert_eq!(env.subject, "“orders”");
    assert_eq!(
        lines(&env),
        [
            "A Smy - Arm",
            "F Ank - Con",
            "Press to all: I’ll pay €10 for “peace”."
        ]
    );
    assert_eq!(
        env.date.map(|d| d.to_rfc3339()).as_deref(),
        Some("2026-11-24T13:00:00+00:00")
    );
}

#[test]
fn html_only_mail_becomes_text() {
    let env = fixture("html-only.eml");
    let text: Vec<&str> = lines(&env)
        .into_iter()
        .filter(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    assert_eq!(text, ["A Ber - Kie", "F Kie - Den", "A Mun - Ruh"]);
    assert!(
        env.body_lines
            .iter()
            .all(|l| !l.contains('<') && !l.contains("color")),
        "{:?}",
        env.body_lines
    );
}

#[test]
fn multipart_alternative_prefers_plain_text() {
    let env = fixture("multipart-alternative.eml");
    assert_eq!(lines(&env), ["A Rom - Apu", "F Nap - ION"]);
}

#[test]
fn reply_quoting_the_judge_keeps_only_new_lines_and_the_thread() {
    let env = fixture("reply-quoting.eml");
    assert_eq!(lines(&env), ["F Lon - NTH", "A Lvp - Yor"]);
    assert_eq!(env.in_reply_to, ["r1.legate@judge.test"]);
    assert_eq!(
        env.references,
        ["orders-0@example.test", "r1.legate@judge.test"]
    );
    assert_eq!(env.subject, "Re: [Error Flag] LEGT:alpha - S1901M orders");
    assert_eq!(env.no_reply, None);
}

#[test]
fn signature_is_cut() {
    let env = fixture("signature.eml");
    assert_eq!(lines(&env), ["A Ven H", "F Nap - ION"]);
}

#[test]
fn auto_reply_is_not_answered() {
    let env = fixture("auto-reply.eml");
    assert_eq!(
        env.no_reply,
        Some(NoReply::AutoSubmitted("auto-replied".into()))
    );
    assert!(env.is_robot());
    assert_eq!(env.sender.as_deref(), Some("bob@example.test"));
}

#[test]
fn bounce_is_not_answered() {
    let env = fixture("bounce.eml");
    assert!(env.is_robot());
    assert_eq!(
        env.sender.as_deref(),
        Some("mailer-daemon@mail.example.test")
    );
    // Any of the three signs suffices; the first one checked is Auto-Submitted.
    assert!(matches!(
        env.no_reply,
        Some(NoReply::AutoSubmitted(_) | NoReply::DeliveryReport | NoReply::SystemAddress(_))
    ));
}

#[test]
fn bounce_without_auto_submitted_is_still_recognised() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail/bounce.eml");
    let raw = std::fs::read(path).expect("fixture");
    let text = String::from_utf8(raw).expect("ascii");
    let stripped = text.replace("Auto-Submitted: auto-replied\r\n", "");
    assert_ne!(stripped, text);
    let env = ingest(stripped.as_bytes(), &opts()).expect("parses");
    assert_eq!(env.no_reply, Some(NoReply::DeliveryReport));
    let no_report = stripped
        .replace("Return-Path: <>\r\n", "")
        .replace("multipart/report", "multipart/mixed");
    let env = ingest(no_report.as_bytes(), &opts()).expect("parses");
    assert_eq!(
        env.no_reply,
        Some(NoReply::SystemAddress(
            "mailer-daemon@mail.example.test".into()
        ))
    );
}

#[test]
fn list_mail_is_not_answered() {
    let env = fixture("list.eml");
    assert_eq!(env.no_reply, Some(NoReply::Precedence("list".into())));
}

#[test]
fn attachment_is_kept_aside_and_reply_to_wins() {
    let env = fixture("attachment.eml");
    assert_eq!(env.sender.as_deref(), Some("orders.tomas@example.test"));
    assert_eq!(env.sender_name.as_deref(), Some("Tomas Orders"));
    assert_eq!(lines(&env), ["A Con - Bul", "F Ank - BLA"]);
    assert_eq!(env.attachments.len(), 1);
    let png = &env.attachments[0];
    assert_eq!(png.filename.as_deref(), Some("board.png"));
    assert_eq!(png.content_type, "image/png");
    assert!(
        png.data.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{:?}",
        &png.data[..8]
    );
}

#[test]
fn mail_from_the_judge_itself_is_not_answered() {
    let raw = b"From: Legate <JUDGE@judge.test>\r\nSubject: x\r\n\r\nhello\r\n";
    let env = ingest(raw, &opts()).expect("parses");
    assert_eq!(env.no_reply, Some(NoReply::OwnAddress));
}

#[test]
fn oversize_mail_is_flagged_with_its_sender() {
    let mut raw = b"From: big@example.test\r\nMessage-ID: <big-1@example.test>\r\nSubject: huge\r\nContent-Type: text/plain\r\n\r\n".to_vec();
    while raw.len() <= opts().max_bytes {
        raw.extend_from_slice(b"A Par - Bur\r\n");
    }
    let env = ingest(&raw, &opts()).expect("parses");
    assert!(env.oversize);
    assert_eq!(env.size, raw.len());
    assert_eq!(env.sender.as_deref(), Some("big@example.test"));
    assert_eq!(env.subject, "huge");
    assert!(env.body_lines.is_empty());
    assert_eq!(
        env.no_reply, None,
        "an oversize mail still gets a short refusal"
    );
}

#[test]
fn every_fixture_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("fixtures/mail") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "eml") {
            let raw = std::fs::read(&path).expect("read");
            let env = ingest(&raw, &opts()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(env.message_id.is_some(), "{}", path.display());
            count += 1;
        }
    }
    assert!(count >= 13, "only {count} fixtures");
}

#[test]
fn garbage_is_refused_not_mistaken() {
    assert_eq!(ingest(b"", &opts()), Err(IngestError::NotAMessage));
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = ingest(&raw, &opts());
    }

    #[test]
    fn arbitrary_headers_and_text_never_panic(
        headers in proptest::collection::vec(("[A-Za-z-]{1,20}", "[ -~\t]{0,60}"), 0..8),
        body in "(?s).{0,400}",
        limit in 0usize..600,
    ) {
        let mut raw = String::new();
        for (name, value) in &headers {
            raw.push_str(&format!("{name}: {value}\r\n"));
        }
        raw.push_str("\r\n");
        raw.push_str(&body);
        let small = IngestOptions { max_bytes: limit, ..opts() };
        if let Ok(env) = ingest(raw.as_bytes(), &small) {
            prop_assert_eq!(env.oversize, raw.len() > limit);
            prop_assert!(env.body_lines.iter().all(|l| !l.contains('\r') && !l.contains('\n')));
        }
    }
}

/// HTML-only mail as the common clients write it: each is read line by line,
/// as its plain-text rendering would be, without the quoted earlier mail or the
/// signature.
#[test]
fn html_only_mail_from_every_common_client_is_read_line_by_line() {
    let want = [
        "SIGNON Fhtml pw-F",
        "A Par - Bur",
        "F Bre - Mao",
        "A Mar - Spa",
    ];
    for name in [
        "html-gmail.eml",
        "html-apple-mail.eml",
        "html-outlook.eml",
        "html-thunderbird.eml",
        "html-nested-divs.eml",
        "html-table.eml",
    ] {
        let env = fixture(name);
        let text: Vec<&str> = lines(&env)
            .into_iter()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(text, want, "{name}: {:#?}", env.body_lines);
    }
}
