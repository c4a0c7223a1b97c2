//! Whether the receiving mail server vouches for a mail's From: address: an
//! `Authentication-Results` field (RFC 8601) written by a server the judge's
//! configuration trusts (its `authserv-id`), saying DMARC passed, or DKIM
//! passed for a domain aligned with the From: domain (RFC 7489, section 3.1.1,
//! relaxed alignment).
//!
//! Anyone can put an `Authentication-Results` field in a mail they send, with
//! any `authserv-id`. Only the topmost field naming a trusted server is read:
//! the trusted server adds its own above everything the sender wrote, and
//! removes fields that claim its name (RFC 8601, section 5; the operator's
//! part, see docs/hardening.md).

use mail_parser::MessageParser;

use super::ingest::header_part;

/// What the trusted server said of a mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No server is trusted: the question is not asked.
    NotChecked,
    /// A trusted server vouched for the From: address.
    Vouched,
    /// A trusted server is configured and did not vouch for it.
    Unvouched,
}

/// The verdict for the raw mail `raw` (only its header is read), trusting the
/// servers named in `authserv_ids`. A mail whose replies go elsewhere
/// (Reply-To) is never vouched: the server vouches for From:, not for where
/// the answers go.
pub fn verdict(raw: &[u8], authserv_ids: &[String]) -> Verdict {
    if authserv_ids.is_empty() {
        return Verdict::NotChecked;
    }
    let Some(msg) = MessageParser::default().parse_headers(header_part(raw)) else {
        return Verdict::Unvouched;
    };
    let from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.trim().to_ascii_lowercase());
    let reply_to = msg
        .reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.trim().to_ascii_lowercase());
    let Some(from) = from else {
        return Verdict::Unvouched;
    };
    if reply_to.is_some_and(|r| r != from) {
        return Verdict::Unvouched;
    }
    let Some(domain) = from.rsplit_once('@').map(|(_, d)| d.to_string()) else {
        return Verdict::Unvouched;
    };
    let topmost = msg
        .headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("Authentication-Results"))
        .filter_map(|h| {
            let range = h.offset_start() as usize..h.offset_end() as usize;
            msg.raw_message().get(range)
        })
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .find(|v| trusted(v, authserv_ids));
    match topmost {
        Some(field) if passes(&field, &domain) => Verdict::Vouched,
        _ => Verdict::Unvouched,
    }
}

/// The field's `authserv-id` (its first word, before any version) is trusted.
fn trusted(field: &str, authserv_ids: &[String]) -> bool {
    let id = field
        .split(';')
        .next()
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or("");
    authserv_ids.iter().any(|t| t.eq_ignore_ascii_case(id))
}

/// The field says DMARC passed for the From: domain, or DKIM passed for a
/// domain aligned with it.
fn passes(field: &str, from_domain: &str) -> bool {
    let unfolded = field.split_whitespace().collect::<Vec<_>>().join(" ");
    unfolded.split(';').skip(1).any(|result| {
        let lower = strip_comments(result).to_ascii_lowercase();
        let mut words = lower.split_whitespace();
        let Some(method) = words.next() else {
            return false;
        };
        let props: Vec<(&str, &str)> = words.filter_map(|w| w.split_once('=')).collect();
        let prop = |name: &str| props.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
        match method {
            "dmarc=pass" => prop("header.from").is_none_or(|d| aligned(d, from_domain)),
            "dkim=pass" => prop("header.d")
                .or_else(|| prop("header.i").map(|i| i.rsplit('@').next().unwrap_or(i)))
                .is_some_and(|d| aligned(d, from_domain)),
            _ => false,
        }
    })
}

/// Relaxed alignment: one domain is the other or a subdomain of it (the
/// organizational domain without the public suffix list, erring on the strict
/// side: `example.com` and `mail.example.com` align, `com` aligns with nothing).
fn aligned(signer: &str, from_domain: &str) -> bool {
    let signer = signer.trim_matches(|c: char| c == '"' || c == '.');
    if !signer.contains('.') {
        return false;
    }
    signer == from_domain
        || from_domain.ends_with(&format!(".{signer}"))
        || signer.ends_with(&format!(".{from_domain}"))
}

fn strip_comments(s: &str) -> String {
    let mut depth = 0usize;
    s.chars()
        .filter(|c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(fields: &str) -> Vec<u8> {
        format!(
            "{fields}From: Ann <ann@example.org>\r\nTo: judge@j.test\r\nSubject: x\r\n\r\nHELP\r\n"
        )
        .into_bytes()
    }

    fn ids() -> Vec<String> {
        vec!["mx.judge.test".to_string()]
    }

    #[test]
    fn dmarc_or_aligned_dkim_from_a_trusted_server_vouches() {
        let v = |f: &str| verdict(&mail(f), &ids());
        assert_eq!(
            v(
                "Authentication-Results: mx.judge.test; dmarc=pass (p=none) header.from=example.org\r\n"
            ),
            Verdict::Vouched
        );
        assert_eq!(
            v(
                "Authentication-Results: mx.judge.test;\r\n\tdkim=pass (2048-bit key) header.d=example.org header.s=s1\r\n"
            ),
            Verdict::Vouched
        );
        assert_eq!(
            v(
                "Authentication-Results: mx.judge.test 1; spf=pass smtp.mailfrom=example.org;\r\n dkim=pass header.i=@mail.example.org\r\n"
            ),
            Verdict::Vouched
        );
    }

    #[test]
    fn anything_else_does_not() {
        let v = |f: &str| verdict(&mail(f), &ids());
        assert_eq!(v(""), Verdict::Unvouched);
        // DKIM of another domain; SPF alone; a failing DMARC.
        assert_eq!(
            v("Authentication-Results: mx.judge.test; dkim=pass header.d=evil.test\r\n"),
            Verdict::Unvouched
        );
        assert_eq!(
            v("Authentication-Results: mx.judge.test; spf=pass smtp.mailfrom=example.org\r\n"),
            Verdict::Unvouched
        );
        assert_eq!(
            v("Authentication-Results: mx.judge.test; dmarc=fail header.from=example.org\r\n"),
            Verdict::Unvouched
        );
        // A server the judge does not trust.
        assert_eq!(
            v("Authentication-Results: mx.evil.test; dmarc=pass header.from=example.org\r\n"),
            Verdict::Unvouched
        );
        // Only the topmost trusted field counts: one the sender wrote lower down
        // cannot overrule the server's own.
        assert_eq!(
            v(
                "Authentication-Results: mx.judge.test; dmarc=fail header.from=example.org\r\n\
               Received: from evil\r\n\
               Authentication-Results: mx.judge.test; dmarc=pass header.from=example.org\r\n"
            ),
            Verdict::Unvouched
        );
        // A comment is not a result.
        assert_eq!(
            v(
                "Authentication-Results: mx.judge.test; dkim=fail (dkim=pass header.d=example.org)\r\n"
            ),
            Verdict::Unvouched
        );
        assert_eq!(verdict(&mail(""), &[]), Verdict::NotChecked);
    }

    #[test]
    fn replies_sent_elsewhere_are_not_vouched() {
        let raw = mail(
            "Authentication-Results: mx.judge.test; dmarc=pass header.from=example.org\r\n\
             Reply-To: thief@evil.test\r\n",
        );
        assert_eq!(verdict(&raw, &ids()), Verdict::Unvouched);
    }
}
