//! Outgoing mail: the judge's subject form, threading headers, and RFC 5322 bytes.

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
        }
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

/// What the judge puts in front of a subject: `[Error Flag] LEGT:game - S1901M`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubjectTag<'a> {
    /// The judge's code, e.g. `LEGT`.
    pub judge: &'a str,
    pub game: Option<&'a str>,
    /// The phase name, e.g. `S1901M`.
    pub phase: Option<&'a str>,
    /// The answered mail had errors.
    pub error: bool,
}

impl SubjectTag<'_> {
    /// `[Error Flag] LEGT:game - S1901M`.
    pub fn render(&self) -> String {
        let mut s = String::new();
        if self.error {
            s.push_str("[Error Flag] ");
        }
        s.push_str(self.judge);
        if let Some(game) = self.game {
            s.push(':');
            s.push_str(game);
        }
        if let Some(phase) = self.phase {
            s.push_str(" - ");
            s.push_str(phase);
        }
        s
    }
}

/// The subject of a reply: `Re: [Error Flag] LEGT:game - S1901M <original subject>`,
/// where the original subject is stripped of earlier `Re:` prefixes and earlier tags
/// of this judge, so a long exchange never reads `Re: Re: [Error Flag] LEGT…`.
pub fn reply_subject(tag: &SubjectTag<'_>, original: &str) -> String {
    let rest = original_subject(original, tag.judge);
    if rest.is_empty() {
        format!("Re: {}", tag.render())
    } else {
        format!("Re: {} {rest}", tag.render())
    }
}

/// `original` without reply prefixes and without this judge's tag.
pub fn original_subject<'a>(original: &'a str, judge: &str) -> &'a str {
    let mut s = original.trim();
    loop {
        let before = s;
        s = strip_reply_prefix(s);
        s = strip_prefix_ci(s, "[Error Flag]").map_or(s, str::trim_start);
        s = strip_judge_tag(s, judge);
        if s == before {
            return s;
        }
    }
}

/// `Re:`, `RE:`, `Aw:`, `Sv:`, `Antw:`, also `Re[2]:`.
fn strip_reply_prefix(s: &str) -> &str {
    for prefix in ["re", "aw", "sv", "antw", "vs"] {
        if let Some(rest) = strip_prefix_ci(s, prefix) {
            let rest = match rest.strip_prefix('[') {
                Some(r) => r
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .strip_prefix(']')
                    .unwrap_or(rest),
                None => rest,
            };
            if let Some(rest) = rest.trim_start().strip_prefix(':') {
                return rest.trim_start();
            }
        }
    }
    s
}

/// `LEGT:game - S1901M rest` or `LEGT - rest` → `rest`.
fn strip_judge_tag<'a>(s: &'a str, judge: &str) -> &'a str {
    let Some(after) = strip_prefix_ci(s, judge) else {
        return s;
    };
    let after = match after.strip_prefix(':') {
        Some(game) => game.trim_start_matches(|c: char| !c.is_whitespace()),
        None if after.is_empty() || after.starts_with(' ') => after,
        None => return s, // "LEGTX…" is a different word
    };
    let after = after.trim_start();
    let Some(phase_and_rest) = after.strip_prefix("- ") else {
        return after;
    };
    let phase_and_rest = phase_and_rest.trim_start();
    let (phase, rest) = phase_and_rest
        .split_once(char::is_whitespace)
        .unwrap_or((phase_and_rest, ""));
    if looks_like_phase(phase) {
        rest.trim_start()
    } else {
        after
    }
}

/// `S1901M`, `F1901R`, `W1901A`: a letter, a year, a letter.
fn looks_like_phase(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 6
        && b[0].is_ascii_alphabetic()
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5].is_ascii_alphabetic()
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
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
        let refs: Vec<String> = mail.references.iter().map(|r| format!("<{r}>")).collect();
        builder = builder.references(refs.join(" "));
    }
    let body = mail.body.replace("\r\n", "\n");
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

    const TAG: SubjectTag<'static> = SubjectTag {
        judge: "LEGT",
        game: Some("alpha"),
        phase: Some("S1901M"),
        error: true,
    };

    #[test]
    fn reply_subject_has_the_judge_form() {
        assert_eq!(
            reply_subject(&TAG, "my orders"),
            "Re: [Error Flag] LEGT:alpha - S1901M my orders"
        );
        let clean = SubjectTag {
            error: false,
            ..TAG
        };
        assert_eq!(reply_subject(&clean, ""), "Re: LEGT:alpha - S1901M");
    }

    #[test]
    fn reply_subject_never_stacks() {
        let first = reply_subject(&TAG, "Re: orders");
        let second = reply_subject(&TAG, &format!("RE: {first}"));
        assert_eq!(second, "Re: [Error Flag] LEGT:alpha - S1901M orders");
        let next_phase = SubjectTag {
            phase: Some("F1901M"),
            error: false,
            ..TAG
        };
        assert_eq!(
            reply_subject(&next_phase, &format!("Aw: {second}")),
            "Re: LEGT:alpha - F1901M orders"
        );
    }

    #[test]
    fn other_words_are_not_taken_for_the_tag() {
        assert_eq!(original_subject("LEGTX plans", "LEGT"), "LEGTX plans");
        assert_eq!(original_subject("Relay: hi", "LEGT"), "Relay: hi");
        assert_eq!(original_subject("Re[3]: LEGT - S1902M hi", "LEGT"), "hi");
        assert_eq!(original_subject("LEGT - hi", "LEGT"), "- hi");
    }

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
