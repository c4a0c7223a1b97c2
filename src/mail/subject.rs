//! The judge's subject lines: `Re: [Error Flag] LEGT:game - S1901M <original subject>`,
//! without piling up `Re:` prefixes and tags over a long exchange.

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
}
