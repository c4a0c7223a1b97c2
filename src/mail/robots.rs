//! Mail the judge must never answer: answers from other programs, bounces, mailing
//! lists and its own mail. Answering them is how two robots start mailing each other
//! forever (RFC 3834, section 2).

use std::fmt;

use mail_parser::{Message, MimeHeaders};

/// Why a mail gets no reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoReply {
    /// `Auto-Submitted` with any value but `no` (RFC 3834 section 5).
    AutoSubmitted(String),
    /// `Precedence: bulk`, `junk` or `list`.
    Precedence(String),
    /// A `List-Id` header: the mail came through a mailing list (RFC 2919).
    MailingList(String),
    /// A delivery or disposition report (`multipart/report`, RFC 6522) or a mail with an
    /// empty return path (RFC 5321 4.5.5: only notifications are sent with `<>`).
    DeliveryReport,
    /// Sent by a system mailbox: mailer-daemon, postmaster, a list's owner- or -request
    /// address (RFC 3834 section 2).
    SystemAddress(String),
    /// Sent from, or replying to, the judge's own address.
    OwnAddress,
    /// No usable sender address in Reply-To or From.
    NoSender,
}

impl fmt::Display for NoReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoReply::AutoSubmitted(v) => write!(f, "Auto-Submitted: {v}"),
            NoReply::Precedence(v) => write!(f, "Precedence: {v}"),
            NoReply::MailingList(v) => write!(f, "mailing list {v}"),
            NoReply::DeliveryReport => f.write_str("delivery report"),
            NoReply::SystemAddress(a) => write!(f, "system address {a}"),
            NoReply::OwnAddress => f.write_str("the judge's own address"),
            NoReply::NoSender => f.write_str("no sender address"),
        }
    }
}

/// The reason `msg` must not be answered, if there is one. `sender` is the address a
/// reply would go to; `judge_address` the judge's own.
pub fn no_reply_reason(
    msg: &Message<'_>,
    sender: Option<&str>,
    judge_address: &str,
) -> Option<NoReply> {
    header_verdict(msg)
        .or_else(|| report_verdict(msg))
        .or_else(|| address_verdict(msg, sender, judge_address))
}

fn header_verdict(msg: &Message<'_>) -> Option<NoReply> {
    if let Some(v) = header_text(msg, "Auto-Submitted") {
        let keyword = first_token(&v);
        if !keyword.eq_ignore_ascii_case("no") {
            return Some(NoReply::AutoSubmitted(keyword));
        }
    }
    if let Some(v) = header_text(msg, "Precedence") {
        let keyword = first_token(&v).to_ascii_lowercase();
        if matches!(keyword.as_str(), "bulk" | "junk" | "list") {
            return Some(NoReply::Precedence(keyword));
        }
    }
    header_text(msg, "List-Id").map(NoReply::MailingList)
}

fn report_verdict(msg: &Message<'_>) -> Option<NoReply> {
    let root = msg.root_part();
    if root.is_content_type("multipart", "report") {
        return Some(NoReply::DeliveryReport);
    }
    let return_path = header_text(msg, "Return-Path")?;
    (return_path
        .trim_matches(|c: char| c == '<' || c == '>' || c.is_whitespace())
        .is_empty())
    .then_some(NoReply::DeliveryReport)
}

fn address_verdict(
    msg: &Message<'_>,
    sender: Option<&str>,
    judge_address: &str,
) -> Option<NoReply> {
    let Some(sender) = sender else {
        return Some(NoReply::NoSender);
    };
    let from = msg.from().and_then(|a| a.first()).and_then(|a| a.address());
    let candidates = std::iter::once(sender).chain(from);
    for address in candidates {
        if address.eq_ignore_ascii_case(judge_address.trim()) {
            return Some(NoReply::OwnAddress);
        }
        if is_system_address(address) {
            return Some(NoReply::SystemAddress(address.to_ascii_lowercase()));
        }
    }
    None
}

/// Local parts RFC 3834 section 2 names as never to be answered, plus postmaster.
pub fn is_system_address(address: &str) -> bool {
    let local = address
        .rsplit_once('@')
        .map_or(address, |(local, _)| local)
        .to_ascii_lowercase();
    matches!(
        local.as_str(),
        "mailer-daemon" | "mailer_daemon" | "mailerdaemon" | "postmaster"
    ) || local.starts_with("owner-")
        || local.ends_with("-request")
}

/// The unfolded, trimmed value of a header as written.
fn header_text(msg: &Message<'_>, name: &str) -> Option<String> {
    let raw = msg.header_raw(name)?;
    let unfolded: String = raw
        .split(['\r', '\n'])
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let trimmed = unfolded.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// `auto-replied; foo=bar (comment)` → `auto-replied`.
fn first_token(value: &str) -> String {
    value
        .split([';', '(', ' ', '\t'])
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mail_parser::MessageParser;

    fn verdict(raw: &str, sender: Option<&str>) -> Option<NoReply> {
        let msg = MessageParser::default()
            .parse(raw.as_bytes())
            .expect("parses");
        no_reply_reason(&msg, sender, "judge@judge.test")
    }

    const PLAIN: &str = "From: a@example.test\r\nSubject: x\r\n\r\nbody\r\n";

    #[test]
    fn an_ordinary_mail_may_be_answered() {
        assert_eq!(verdict(PLAIN, Some("a@example.test")), None);
    }

    #[test]
    fn auto_submitted_no_may_be_answered_anything_else_not() {
        let no = format!("Auto-Submitted: no\r\n{PLAIN}");
        assert_eq!(verdict(&no, Some("a@example.test")), None);
        let yes = format!("Auto-Submitted: Auto-Replied; owner-email=x\r\n{PLAIN}");
        assert_eq!(
            verdict(&yes, Some("a@example.test")),
            Some(NoReply::AutoSubmitted("Auto-Replied".into()))
        );
    }

    #[test]
    fn precedence_bulk_junk_list_but_not_first_class() {
        for p in ["bulk", "JUNK", "list"] {
            let raw = format!("Precedence: {p}\r\n{PLAIN}");
            assert_eq!(
                verdict(&raw, Some("a@example.test")),
                Some(NoReply::Precedence(p.to_ascii_lowercase()))
            );
        }
        let raw = format!("Precedence: first-class\r\n{PLAIN}");
        assert_eq!(verdict(&raw, Some("a@example.test")), None);
    }

    #[test]
    fn system_and_own_addresses() {
        assert!(is_system_address("MAILER-DAEMON@mx.example.test"));
        assert!(is_system_address("owner-dip@lists.example.test"));
        assert!(is_system_address("dip-request@lists.example.test"));
        assert!(!is_system_address("daemon@example.test"));
        assert_eq!(
            verdict(PLAIN, Some("Judge@Judge.test")),
            Some(NoReply::OwnAddress)
        );
        assert_eq!(verdict(PLAIN, None), Some(NoReply::NoSender));
    }

    #[test]
    fn empty_return_path_is_a_report() {
        let raw = format!("Return-Path: <>\r\n{PLAIN}");
        assert_eq!(
            verdict(&raw, Some("a@example.test")),
            Some(NoReply::DeliveryReport)
        );
    }
}
