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
