//! Outgoing mail: threading headers, Auto-Submitted, and RFC 5322 bytes.

use std::time::SystemTime;

use chrono::{DateTime, Utc};
use lettre::Message;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment as MimeAttachment, Mailbox, MultiPart, SinglePart};

use super::ingest::{Attachment, Envelope};

/// RFC 3834 `Auto-Submitted` value: every mail the judge sends carries one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoSubmitted {
    /// A direct answer to a mail (`auto-replied`).
    Replied,
    /// Anything else the judge sends on its own: results, notices, press (`auto-generated`).
    Generated,
}

impl AutoSubmitted {
    pub fn as_str(self) -> &'static str {
        match self {
            AutoSubmitted::Replied => "auto-replied",
            AutoSubmitted::Generated => "auto-generated",
        }
    }
}

/// A mail the judge wants to send, before it becomes bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    /// The judge's address.
    pub from: String,
    /// Display name shown with `from`.
    pub from_name: Option<String>,
    pub to: Vec<String>,
    pub subject: String,
    /// Plain text; line breaks as `\n`.
    pub body: String,
    /// Message-ID (without angle brackets) of the mail this answers.
    pub in_reply_to: Option<String>,
    /// The thread so far, oldest first, without angle brackets.
    pub references: Vec<String>,
    pub auto_submitted: AutoSubmitted,
    /// Without angle brackets; generated from the sender's domain when `None`.
    pub message_id: Option<String>,
    /// The Date header; the current time when `None`.
    pub date: Option<DateTime<Utc>>,
    /// Files sent along (maps as PNG or SVG).
    pub attachments: Vec<Attachment>,
    /// Further header fields, `(name, value)`, e.g. `("X-Legate-Game", "alpha")`.
    pub extra_headers: Vec<(String, String)>,
}

impl OutgoingMail {
    /// A mail the judge sends on its own (results, notices, broadcasts).
    pub fn new(from: &str, to: Vec<String>, subject: String, body: String) -> Self {
        OutgoingMail {
            from: from.to_string(),
            from_name: None,
            to,
            subject,
            body,
            in_reply_to: None,
            references: Vec::new(),
            auto_submitted: AutoSubmitted::Generated,
            message_id: None,
            date: None,
            attachments: Vec::new(),
            extra_headers: Vec::new(),
        }
    }

    /// The header fields that are not plain parts (threading, Auto-Submitted,
    /// Message-ID when fixed, extras), as `(name, value)` pairs for storing with a
    /// queued mail; [`OutgoingMail::from_header_fields`] reads them back.
    pub fn header_fields(&self) -> Vec<(String, String)> {
        let mut fields = vec![(
            "Auto-Submitted".to_string(),
            self.auto_submitted.as_str().to_string(),
        )];
        if let Some(id) = &self.message_id {
            fields.push(("Message-ID".into(), format!("<{id}>")));
        }
        if let Some(parent) = &self.in_reply_to {
            fields.push(("In-Reply-To".into(), format!("<{parent}>")));
        }
        if !self.references.is_empty() {
            fields.push(("References".into(), angle_list(&self.references)));
        }
        fields.extend(self.extra_headers.iter().cloned());
        fields
    }

    /// Rebuilds a mail from its parts and the fields of [`OutgoingMail::header_fields`].
    pub fn from_header_fields(
        from: &str,
        to: Vec<String>,
        subject: String,
        body: String,
        fields: &[(String, String)],
    ) -> Self {
        let mut mail = OutgoingMail::new(from, to, subject, body);
        for (name, value) in fields {
            let ids = || {
                value
                    .split_whitespace()
                    .map(strip_angles)
                    .filter(|s| !s.is_empty())
            };
            match name.to_ascii_lowercase().as_str() {
                "auto-submitted" if value.trim().eq_ignore_ascii_case("auto-replied") => {
                    mail.auto_submitted = AutoSubmitted::Replied;
                }
                "auto-submitted" => mail.auto_submitted = AutoSubmitted::Generated,
                "message-id" => mail.message_id = ids().next(),
                "in-reply-to" => mail.in_reply_to = ids().next(),
                "references" => mail.references = ids().collect(),
                _ => mail.extra_headers.push((name.clone(), value.clone())),
            }
        }
        mail
    }

    /// The answer to `original`, threaded under it and addressed to its sender.
    /// Returns `None` when the original has no sender address.
    pub fn reply_to(
        original: &Envelope,
        from: &str,
        subject: String,
        body: String,
    ) -> Option<Self> {
        let to = original.sender.clone()?;
        let mut references = original.references.clone();
        if references.is_empty() {
            // RFC 5322 3.6.4: without References, the parent's In-Reply-To (one id) stands in.
            if let [single] = original.in_reply_to.as_slice() {
                references.push(single.clone());
            }
        }
        if let Some(id) = &original.message_id {
            references.push(id.clone());
        }
        Some(OutgoingMail {
            in_reply_to: original.message_id.clone(),
            references,
            auto_submitted: AutoSubmitted::Replied,
            ..OutgoingMail::new(from, vec![to], subject, body)
        })
    }
}

/// The mail as it goes on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedMail {
    /// Without angle brackets.
    pub message_id: String,
    /// Envelope sender (MAIL FROM).
    pub from: String,
    /// Envelope recipients (RCPT TO).
    pub to: Vec<String>,
    /// The RFC 5322 message, CRLF line endings.
    pub bytes: Vec<u8>,
}

impl RenderedMail {
    /// A mail composed earlier (e.g. kept in the outbox), for sending again: the
    /// Message-ID is read from the bytes, or derived from them when there is none.
    pub fn from_bytes(from: &str, to: Vec<String>, bytes: Vec<u8>) -> Self {
        let message_id = mail_parser::MessageParser::default()
            .parse_headers(&bytes)
            .and_then(|m| m.message_id().map(str::to_string))
            .unwrap_or_else(|| crate::mail::ingest::content_key(&bytes));
        RenderedMail {
            message_id,
            from: from.to_string(),
            to,
            bytes,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ComposeError {
    #[error("invalid {field} address {value:?}: {reason}")]
    Address {
        field: &'static str,
        value: String,
        reason: String,
    },
    #[error("no recipients")]
    NoRecipients,
    #[error("cannot build the message: {0}")]
    Build(String),
}

/// Turns `mail` into bytes with every header the judge promises: Message-ID, Date,
/// Auto-Submitted, threading, text/plain UTF-8.
pub fn render(mail: &OutgoingMail) -> Result<RenderedMail, ComposeError> {
    if mail.to.is_empty() {
        return Err(ComposeError::NoRecipients);
    }
    let from = mailbox("from", &mail.from, mail.from_name.as_deref())?;
    let message_id = mail
        .message_id
        .clone()
        .unwrap_or_else(|| new_message_id(&mail.from));
    let date: SystemTime = mail.date.unwrap_or_else(Utc::now).into();
    let mut builder = Message::builder()
        .from(from)
        .subject(mail.subject.clone())
        .date(date)
        .message_id(Some(format!("<{message_id}>")))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            mail.auto_submitted.as_str().to_string(),
        ))
        // Asks Exchange-style responders not to answer; Auto-Submitted covers the rest.
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("X-Auto-Response-Suppress"),
            "All".to_string(),
        ));
    for to in &mail.to {
        builder = builder.to(mailbox("to", to, None)?);
    }
    if let Some(parent) = &mail.in_reply_to {
        builder = builder.in_reply_to(format!("<{parent}>"));
    }
    if !mail.references.is_empty() {
        builder = builder.references(angle_list(&mail.references));
    }
    for (name, value) in &mail.extra_headers {
        builder = builder.raw_header(extra_header(name, value)?);
    }
    let body = crlf_body(&mail.body);
    let message = if mail.attachments.is_empty() {
        builder.header(ContentType::TEXT_PLAIN).body(body)
    } else {
        builder.multipart(with_attachments(body, &mail.attachments)?)
    }
    .map_err(|e| ComposeError::Build(e.to_string()))?;
    Ok(RenderedMail {
        message_id,
        from: mail.from.clone(),
        to: mail.to.clone(),
        bytes: message.formatted(),
    })
}

/// The body with CRLF line ends (a lone CR or LF becomes CRLF), built in one pass.
/// lettre would otherwise insert each missing CR into the string one at a time,
/// which takes quadratic time on a long reply (a million answered lines).
fn crlf_body(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 16);
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\r\n");
            }
            '\n' => out.push_str("\r\n"),
            c => out.push(c),
        }
    }
    out
}

fn angle_list(ids: &[String]) -> String {
    ids.iter()
        .map(|id| format!("<{id}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn strip_angles(id: &str) -> String {
    id.trim_start_matches('<').trim_end_matches('>').to_string()
}

/// A header field from outside this module: the name must be a valid field name and
/// the value one line, so no text can smuggle in further fields.
fn extra_header(name: &str, value: &str) -> Result<HeaderValue, ComposeError> {
    let bad = |why: &str| ComposeError::Build(format!("header {name:?}: {why}"));
    if value.contains(['\r', '\n']) {
        return Err(bad("line break in the value"));
    }
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
        return Err(bad("not a header field name"));
    }
    let header_name =
        HeaderName::new_from_ascii(name.to_string()).map_err(|e| bad(&e.to_string()))?;
    Ok(HeaderValue::new(header_name, value.to_string()))
}

fn with_attachments(body: String, files: &[Attachment]) -> Result<MultiPart, ComposeError> {
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(body));
    for file in files {
        let content_type = ContentType::parse(&file.content_type).map_err(|e| {
            ComposeError::Build(format!("content type {:?}: {e}", file.content_type))
        })?;
        let name = file.filename.clone().unwrap_or_else(|| "attachment".into());
        parts = parts.singlepart(MimeAttachment::new(name).body(file.data.clone(), content_type));
    }
    Ok(parts)
}

fn mailbox(
    field: &'static str,
    address: &str,
    name: Option<&str>,
) -> Result<Mailbox, ComposeError> {
    let parsed = address
        .trim()
        .parse()
        .map_err(|e: lettre::address::AddressError| ComposeError::Address {
            field,
            value: address.to_string(),
            reason: e.to_string(),
        })?;
    Ok(Mailbox::new(name.map(str::to_string), parsed))
}

/// `<random>@<domain of the judge's address>`: unique without asking the host name.
pub fn new_message_id(from: &str) -> String {
    let domain = from
        .rsplit_once('@')
        .map(|(_, d)| d.trim())
        .filter(|d| !d.is_empty())
        .unwrap_or("legate.invalid");
    format!("{:032x}.legate@{domain}", rand::random::<u128>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_id_uses_the_judge_domain() {
        let id = new_message_id("judge@judge.test");
        assert!(id.ends_with(".legate@judge.test"), "{id}");
        assert_ne!(id, new_message_id("judge@judge.test"));
    }

    #[test]
    fn rendered_mail_carries_the_promised_headers() {
        let mut mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["alice@example.test".into()],
            "Re: LEGT:alpha - S1901M orders".into(),
            "Orders received:\nA Par - Bur\n".into(),
        );
        mail.in_reply_to = Some("p1@example.test".into());
        mail.references = vec!["p0@example.test".into(), "p1@example.test".into()];
        mail.auto_submitted = AutoSubmitted::Replied;
        mail.message_id = Some("m1@judge.test".into());
        let out = render(&mail).expect("renders");
        let text = String::from_utf8(out.bytes).expect("utf-8");
        for header in [
            "Message-ID: <m1@judge.test>\r\n",
            "In-Reply-To: <p1@example.test>\r\n",
            "References: <p0@example.test> <p1@example.test>\r\n",
            "Auto-Submitted: auto-replied\r\n",
            "Content-Type: text/plain; charset=utf-8\r\n",
            "Subject: Re: LEGT:alpha - S1901M orders\r\n",
            "\r\nDate: ",
        ] {
            assert!(text.contains(header), "missing {header:?} in\n{text}");
        }
        assert!(text.contains("A Par - Bur\r\n"));
        assert_eq!(out.to, vec!["alice@example.test"]);
    }

    #[test]
    fn attachments_travel_as_mime_parts() {
        let mut mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["alice@example.test".into()],
            "map".into(),
            "The board after S1901M.\n".into(),
        );
        let svg = b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec();
        mail.attachments.push(Attachment {
            filename: Some("S1901M.svg".into()),
            content_type: "image/svg+xml".into(),
            data: svg.clone(),
        });
        let out = render(&mail).expect("renders");
        let opts = crate::mail::IngestOptions {
            judge_address: "other@judge.test".into(),
            max_bytes: 1 << 20,
        };
        let back = crate::mail::ingest(&out.bytes, &opts).expect("parses");
        assert_eq!(back.body_lines, vec!["The board after S1901M."]);
        assert_eq!(back.attachments.len(), 1);
        assert_eq!(back.attachments[0].filename.as_deref(), Some("S1901M.svg"));
        assert_eq!(back.attachments[0].content_type, "image/svg+xml");
        assert_eq!(back.attachments[0].data, svg);
    }

    #[test]
    fn header_fields_round_trip() {
        let mut mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["a@example.test".into()],
            "s".into(),
            "b".into(),
        );
        mail.in_reply_to = Some("p1@x".into());
        mail.references = vec!["p0@x".into(), "p1@x".into()];
        mail.auto_submitted = AutoSubmitted::Replied;
        mail.message_id = Some("m@judge.test".into());
        mail.extra_headers = vec![("X-Legate-Game".into(), "alpha".into())];
        let fields = mail.header_fields();
        let back = OutgoingMail::from_header_fields(
            "judge@judge.test",
            mail.to.clone(),
            "s".into(),
            "b".into(),
            &fields,
        );
        assert_eq!(back, mail);
        let text = String::from_utf8(render(&back).expect("renders").bytes).expect("utf-8");
        assert!(text.contains("\r\nX-Legate-Game: alpha\r\n"), "{text}");
    }

    #[test]
    fn extra_headers_cannot_inject_fields() {
        let mut mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["a@example.test".into()],
            "s".into(),
            "b".into(),
        );
        mail.extra_headers = vec![("X-Note".into(), "a\r\nBcc: victim@example.test".into())];
        assert!(matches!(render(&mail), Err(ComposeError::Build(_))));
        mail.extra_headers = vec![("Bad Name".into(), "x".into())];
        assert!(matches!(render(&mail), Err(ComposeError::Build(_))));
        mail.extra_headers.clear();
        mail.subject = "orders\r\nBcc: victim@example.test".into();
        let text = String::from_utf8(render(&mail).expect("renders").bytes).expect("utf-8");
        assert!(!text.contains("\nBcc:"), "{text}");
    }

    #[test]
    fn stored_bytes_give_back_their_message_id() {
        let mut mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["a@example.test".into()],
            "s".into(),
            "b".into(),
        );
        mail.message_id = Some("kept@judge.test".into());
        let out = render(&mail).expect("renders");
        let again = RenderedMail::from_bytes("judge@judge.test", out.to.clone(), out.bytes.clone());
        assert_eq!(again, out);
        let bare =
            RenderedMail::from_bytes("judge@judge.test", vec![], b"Subject: x\r\n\r\nx".to_vec());
        assert!(
            bare.message_id.starts_with("sha256:"),
            "{}",
            bare.message_id
        );
    }

    #[test]
    fn body_line_ends_become_crlf_once() {
        assert_eq!(crlf_body("a\nb\r\nc\rd\r\n\n"), "a\r\nb\r\nc\r\nd\r\n\r\n");
        let long = "A Par - Bur\n".repeat(200_000);
        let mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["a@example.test".into()],
            "s".into(),
            long,
        );
        let bytes = render(&mail).expect("renders").bytes;
        let text = String::from_utf8(bytes).expect("utf-8");
        assert_eq!(text.matches("A Par - Bur\r\n").count(), 200_000);
        assert!(!text.replace("\r\n", "").contains(['\r', '\n']));
    }

    #[test]
    fn bad_address_is_named() {
        let mail = OutgoingMail::new(
            "judge@judge.test",
            vec!["not an address".into()],
            "s".into(),
            "b".into(),
        );
        assert!(matches!(
            render(&mail),
            Err(ComposeError::Address { field: "to", .. })
        ));
    }
}
