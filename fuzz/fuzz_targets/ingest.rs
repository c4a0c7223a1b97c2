//! Any bytes, read as a whole mail the way the judge reads one: the envelope
//! (headers, MIME, charsets, robot checks), the lines the sender wrote, and the
//! grammar over them. Nothing may panic, and the lines handed on are clean.
#![no_main]

use legate::grammar::parse_body;
use legate::mail::text::authored_lines;
use legate::mail::{IngestOptions, ingest, ingest_sized};
use legate::map::Map;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = IngestOptions {
        judge_address: "judge@judge.test".into(),
        max_bytes: 1 << 20,
    };
    // The same bytes as the header of a mail too large to read whole.
    let _ = ingest_sized(data, usize::MAX, &opts);
    let Ok(envelope) = ingest(data, &opts) else {
        return;
    };
    for line in &envelope.body_lines {
        assert!(!line.contains(['\r', '\n']), "a line with a line break: {line:?}");
    }
    assert!(!envelope.subject.contains(['\r', '\n']), "subject {:?}", envelope.subject);
    if let Some(sender) = &envelope.sender {
        assert!(
            !sender.chars().any(|c| c.is_whitespace() || c.is_control()),
            "sender {sender:?}"
        );
    }
    let body = envelope.body_lines.join("\n");
    // Already authored text read again keeps what it has.
    let again = authored_lines(&body);
    assert!(again.len() <= envelope.body_lines.len());
    let _ = parse_body(Map::standard(), &body);
});
