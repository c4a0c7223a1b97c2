//! Raw mail bytes → [`Envelope`]: who sent it, what it is about, the text the player
//! wrote, and whether the judge may answer it.

use chrono::{DateTime, Utc};
use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

use super::robots::{NoReply, no_reply_reason};
use super::text::authored_lines;

/// What the judge needs to know about one inbound mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// The Message-ID without angle brackets, when the mail has one.
    pub message_id: Option<String>,
    /// Identifies the mail for de-duplication: `<message-id>` when present, else
    /// `sha256:<hex>` of the raw bytes.
    pub dedup_key: String,
    /// Where replies go: Reply-To, else From; lower-cased.
    pub sender: Option<String>,
    /// The display name that came with the sender address.
    pub sender_name: Option<String>,
    /// The From address, lower-cased, when it differs from `sender` (the mail
    /// asks for replies elsewhere with Reply-To).
    pub from_other: Option<String>,
    /// Decoded subject, empty when there is none.
    pub subject: String,
    /// The Date header, when it parses.
    pub date: Option<DateTime<Utc>>,
    /// The lines the sender wrote (quotes, attribution and signature left out).
    pub body_lines: Vec<String>,
    /// Message-IDs in In-Reply-To, without angle brackets.
    pub in_reply_to: Vec<String>,
    /// Message-IDs in References, without angle brackets, oldest first.
    pub references: Vec<String>,
    /// Set when the judge must not answer this mail.
    pub no_reply: Option<NoReply>,
    /// The mail is larger than the limit; its body was not read.
    pub oversize: bool,
    /// Size of the whole mail in bytes.
    pub size: usize,
    /// Attached files (kept for variants that accept a map file; ignored otherwise).
    pub attachments: Vec<Attachment>,
}

impl Envelope {
    /// True when the judge must not answer.
    pub fn is_robot(&self) -> bool {
        self.no_reply.is_some()
    }

    /// The text the judge reads, lines joined by `\n`: the body, then each attached
    /// map file (a plain-text attachment holding a `MAP` line: a Twilight Zone map
    /// is awkward to type in some mail clients). Other attachments are not read.
    pub fn text(&self) -> String {
        let mut text = self.body_lines.join("\n");
        for file in self.attachments.iter().filter_map(Attachment::map_text) {
            text.push('\n');
            for line in file.lines() {
                text.push('\n');
                text.push_str(line);
            }
        }
        text
    }
}

impl Attachment {
    /// The text of a map file: a plain-text attachment holding a `MAP` line.
    fn map_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        if self.content_type != "text/plain" {
            return None;
        }
        let text = String::from_utf8_lossy(&self.data);
        let is_map = text.lines().any(|l| l.trim().eq_ignore_ascii_case("map"));
        is_map.then_some(text)
    }
}

/// One attached file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub filename: Option<String>,
    /// `type/subtype`, lower-cased.
    pub content_type: String,
    pub data: Vec<u8>,
}

/// Settings for [`ingest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IngestOptions {
    /// The judge's own address: mail from it is never answered.
    pub judge_address: String,
    /// Mails larger than this are flagged `oversize` and their body is not read.
    pub max_bytes: usize,
}

/// Why bytes could not be read as a mail at all.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IngestError {
    #[error("the data is not a mail message")]
    NotAMessage,
}

/// Reads one mail. `raw` is the whole message as received.
pub fn ingest(raw: &[u8], opts: &IngestOptions) -> Result<Envelope, IngestError> {
    ingest_sized(raw, raw.len(), opts)
}

/// Like [`ingest`], for a mail of `full_size` bytes of which `raw` may hold only the
/// header (transports fetch just the header of a mail over the size limit).
pub fn ingest_sized(
    raw: &[u8],
    full_size: usize,
    opts: &IngestOptions,
) -> Result<Envelope, IngestError> {
    let oversize = full_size > opts.max_bytes;
    let parsed_bytes = if oversize { header_part(raw) } else { raw };
    let msg = MessageParser::default()
        .parse(parsed_bytes)
        .ok_or(IngestError::NotAMessage)?;
    if msg.headers().is_empty() {
        return Err(IngestError::NotAMessage);
    }
    let (sender, sender_name) = reply_address(&msg);
    let from_other = from_address(&msg).filter(|f| sender.as_ref() != Some(f));
    let no_reply = no_reply_reason(&msg, sender.as_deref(), &opts.judge_address);
    let message_id = msg.message_id().map(clean_id).filter(|id| !id.is_empty());
    Ok(Envelope {
        dedup_key: dedup_key(message_id.as_deref(), raw),
        message_id,
        sender,
        sender_name,
        from_other,
        subject: msg.subject().map(one_line).unwrap_or_default(),
        date: msg
            .date()
            .and_then(|d| DateTime::<Utc>::from_timestamp(d.to_timestamp(), 0)),
        body_lines: if oversize {
            Vec::new()
        } else {
            body_lines(&msg)
        },
        in_reply_to: id_list(msg.in_reply_to()),
        references: id_list(msg.references()),
        no_reply,
        oversize,
        size: full_size,
        attachments: if oversize {
            Vec::new()
        } else {
            attachments(&msg)
        },
    })
}

/// The header block of a mail, up to and including the blank line that ends it.
pub fn header_part(raw: &[u8]) -> &[u8] {
    let end = find(raw, b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| find(raw, b"\n\n").map(|i| i + 2))
        .unwrap_or(raw.len());
    &raw[..end]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn reply_address(msg: &Message<'_>) -> (Option<String>, Option<String>) {
    let addr = msg
        .reply_to()
        .and_then(|a| a.first())
        .filter(|a| a.address().is_some_and(plausible_address))
        .or_else(|| msg.from().and_then(|a| a.first()));
    let Some(addr) = addr else {
        return (None, None);
    };
    let address = addr
        .address()
        .map(str::trim)
        .filter(|a| plausible_address(a))
        .map(str::to_lowercase);
    let name = addr
        .name()
        .map(one_line)
        .filter(|n| !n.is_empty() && address.is_some());
    (address, name)
}

/// The first From address, lower-cased, when it is plausible.
fn from_address(msg: &Message<'_>) -> Option<String> {
    msg.from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(str::trim)
        .filter(|a| plausible_address(a))
        .map(str::to_lowercase)
}

fn plausible_address(address: &str) -> bool {
    let address = address.trim();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !address.chars().any(|c| c.is_whitespace() || c.is_control())
        }
        None => false,
    }
}

fn body_lines(msg: &Message<'_>) -> Vec<String> {
    // The text/plain body when there is one; an HTML-only body as its plain-text
    // rendering (line by line), else as mail-parser's simpler conversion.
    let html = msg.text_part(0).and_then(|part| match &part.body {
        PartType::Html(html) => super::html::to_text(html),
        _ => None,
    });
    html.map(std::borrow::Cow::Owned)
        .or_else(|| msg.body_text(0))
        .map(|text| authored_lines(&text))
        .unwrap_or_default()
}

fn attachments(msg: &Message<'_>) -> Vec<Attachment> {
    msg.attachments()
        .filter(|part| !part.is_message())
        .map(|part| Attachment {
            filename: part.attachment_name().map(str::to_string),
            content_type: part
                .content_type()
                .map(|ct| match ct.subtype() {
                    Some(sub) => format!("{}/{}", ct.ctype(), sub),
                    None => ct.ctype().to_string(),
                })
                .unwrap_or_else(|| "application/octet-stream".into())
                .to_ascii_lowercase(),
            data: part.contents().to_vec(),
        })
        .collect()
}

fn id_list(value: &HeaderValue<'_>) -> Vec<String> {
    let ids: Vec<String> = match value {
        HeaderValue::Text(t) => vec![clean_id(t)],
        HeaderValue::TextList(list) => list.iter().map(|t| clean_id(t)).collect(),
        _ => Vec::new(),
    };
    ids.into_iter().filter(|id| !id.is_empty()).collect()
}

fn clean_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_string()
}

/// Folded or garbled headers may carry line breaks; a subject is one line.
fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn dedup_key(message_id: Option<&str>, raw: &[u8]) -> String {
    match message_id {
        Some(id) => format!("<{id}>"),
        None => content_key(raw),
    }
}

/// `sha256:<hex>` of the bytes: the identity of a mail without a Message-ID.
pub fn content_key(raw: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(raw)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> IngestOptions {
        IngestOptions {
            judge_address: "judge@judge.test".into(),
            max_bytes: 10_000,
        }
    }

    #[test]
    fn header_part_stops_at_the_blank_line() {
        assert_eq!(header_part(b"A: b\r\n\r\nbody"), b"A: b\r\n\r\n");
        assert_eq!(header_part(b"A: b\n\nbody"), b"A: b\n\n");
        assert_eq!(header_part(b"A: b"), b"A: b");
    }

    #[test]
    fn an_attached_map_file_is_read_after_the_body_and_other_files_are_not() {
        let raw = "From: p@example.test\r\nSubject: s\r\nMIME-Version: 1.0\r\n\
             Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
             --b\r\nContent-Type: text/plain\r\n\r\nSIGNON ?tz pw\r\n\
             --b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"notes.txt\"\r\n\r\nA Par - Bur\r\n\
             --b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"my.map\"\r\n\r\nMAP\r\nlon nth\r\nENDMAP\r\n\
             --b--\r\n";
        let env = ingest(raw.as_bytes(), &opts()).expect("parses");
        assert_eq!(env.body_lines, vec!["SIGNON ?tz pw"]);
        assert_eq!(env.text(), "SIGNON ?tz pw\n\nMAP\nlon nth\nENDMAP");
    }

    #[test]
    fn reply_to_wins_over_from() {
        let raw = b"From: Alice <Alice@Example.test>\r\nReply-To: orders@example.test\r\nSubject: s\r\n\r\nA Par H\r\n";
        let env = ingest(raw, &opts()).expect("parses");
        assert_eq!(env.sender.as_deref(), Some("orders@example.test"));
        assert_eq!(env.body_lines, vec!["A Par H"]);
    }

    #[test]
    fn missing_message_id_gets_a_content_key() {
        let raw = b"From: a@example.test\r\n\r\nx\r\n";
        let env = ingest(raw, &opts()).expect("parses");
        assert!(env.dedup_key.starts_with("sha256:"), "{}", env.dedup_key);
        assert_eq!(env.message_id, None);
    }

    #[test]
    fn oversize_mail_keeps_headers_drops_body() {
        let raw = b"From: a@example.test\r\nMessage-ID: <x@y>\r\nSubject: big\r\n\r\nA Par H\r\n";
        let env = ingest_sized(raw, 20_000, &opts()).expect("parses");
        assert!(env.oversize);
        assert_eq!(env.size, 20_000);
        assert!(env.body_lines.is_empty());
        assert_eq!(env.subject, "big");
        assert_eq!(env.dedup_key, "<x@y>");
    }

    #[test]
    fn empty_input_is_not_a_message() {
        assert_eq!(ingest(b"", &opts()), Err(IngestError::NotAMessage));
    }
}
