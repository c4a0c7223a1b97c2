//! The part of a mail body a player wrote: line endings normalised, quoted text of
//! earlier mails, attribution lines ("On … wrote:") and the signature left out.
//!
//! Players answer the judge's replies with their mail client's "Reply", which quotes
//! the judge's whole report. Those quoted lines name orders and units too, so they
//! must never reach the order grammar.

/// Verbs of the attribution line clients put above a quote ("On … Alice wrote:",
/// "Am … schrieb Alice <a@x>:", "Le … a écrit :", …).
const ATTRIBUTION_VERBS: &[&str] = &[
    "wrote",
    "writes",
    "schrieb",
    "écrit",
    "escribió",
    "scrisse",
    "skrev",
    "schreef",
    "napisał",
];

/// First words of an attribution that a client wrapped over two lines.
const ATTRIBUTION_STARTS: &[&str] = &["On ", "Am ", "Le ", "El ", "Il ", "Op ", "Den ", "W dniu "];

/// Markers after which a client (Outlook and friends) appends the whole earlier mail
/// without `>` quoting.
const FORWARD_MARKERS: &[&str] = &[
    "-----original message-----",
    "-------- original message --------",
    "-------- forwarded message --------",
    "---------- forwarded message ---------",
];

/// Replaces CRLF and lone CR with LF.
pub fn normalise_newlines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Mail clients (and HTML converted to text) put no-break spaces where a player typed
/// spaces, and invisible zero-width characters or a byte-order mark around words: the
/// grammar should see plain spaces and nothing invisible.
fn normalise_spaces(text: &str) -> String {
    text.chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
            )
        })
        .map(|c| match c {
            '\u{a0}' | '\u{2007}' | '\u{202f}' => ' ',
            c => c,
        })
        .collect()
}

/// The lines of `text` the sender wrote, trailing whitespace trimmed, without leading
/// or trailing blank lines.
pub fn authored_lines(text: &str) -> Vec<String> {
    let text = normalise_spaces(&normalise_newlines(text));
    let lines: Vec<&str> = text.split('\n').collect();
    let end = own_text_end(&lines);
    let mut kept: Vec<String> = Vec::new();
    for (i, line) in lines[..end].iter().enumerate() {
        if is_quoted(line) || is_attribution(&lines[..end], i) {
            continue;
        }
        kept.push(line.trim_end().to_string());
    }
    trim_blank_edges(kept)
}

/// Index of the first line that belongs to a signature or a forwarded/appended mail.
fn own_text_end(lines: &[&str]) -> usize {
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_end();
        // RFC 3676 4.3 names "-- " the signature separator; many clients drop the space.
        if trimmed == "--" {
            return i;
        }
        let lower = trimmed.trim_start().to_lowercase();
        if FORWARD_MARKERS.iter().any(|m| lower == *m) {
            return i;
        }
        if is_outlook_separator(lines, i) || is_outlook_header_block(lines, i) {
            return i;
        }
    }
    lines.len()
}

/// Outlook's HTML replies (rendered as text) start the earlier mail with its
/// header block, without a separator line: "From: ..." then "Sent: ..." (or
/// "Date:"), then "To:".
fn is_outlook_header_block(lines: &[&str], i: usize) -> bool {
    let starts = |l: &str, words: &[&str]| {
        let l = l.trim_start().to_ascii_lowercase();
        words.iter().any(|w| l.starts_with(w))
    };
    starts(lines[i], &["from:", "de :", "von:"])
        && lines
            .get(i + 1)
            .is_some_and(|l| starts(l, &["sent:", "date:", "envoyé :", "gesendet:"]))
        && lines
            .get(i + 2)
            .is_some_and(|l| starts(l, &["to:", "à :", "an:"]))
}

/// Outlook puts a line of underscores and then the original "From:" header block.
fn is_outlook_separator(lines: &[&str], i: usize) -> bool {
    let line = lines[i].trim();
    line.len() >= 10
        && line.chars().all(|c| c == '_')
        && next_non_blank(lines, i + 1).is_some_and(|l| l.trim_start().starts_with("From:"))
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn is_attribution(lines: &[&str], i: usize) -> bool {
    let line = lines[i].trim();
    if line.is_empty() {
        return false;
    }
    if ends_like_attribution(line) {
        return introduces_quote(lines, i);
    }
    // First half of a wrapped attribution: "On Mon, 23 Nov 2026, Judge <" / "judge@x> wrote:".
    ATTRIBUTION_STARTS
        .iter()
        .any(|start| line.starts_with(start))
        && lines
            .get(i + 1)
            .map(|next| next.trim())
            .is_some_and(|next| !next.is_empty() && ends_like_attribution(next))
        && introduces_quote(lines, i + 1)
}

fn ends_like_attribution(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.ends_with(':') && ATTRIBUTION_VERBS.iter().any(|verb| lower.contains(verb))
}

/// An attribution line is followed by quoted text (or ends the mail when the quote was
/// cut off); a line of the player's own ending in "wrote:" is kept otherwise.
fn introduces_quote(lines: &[&str], i: usize) -> bool {
    match next_non_blank(lines, i + 1) {
        None => true,
        Some(next) => is_quoted(next),
    }
}

fn next_non_blank<'a>(lines: &[&'a str], from: usize) -> Option<&'a str> {
    lines
        .get(from..)?
        .iter()
        .copied()
        .find(|l| !l.trim().is_empty())
}

fn trim_blank_edges(mut lines: Vec<String>) -> Vec<String> {
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    lines.drain(..first);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_cr_become_lf() {
        assert_eq!(normalise_newlines("a\r\nb\rc\n"), "a\nb\nc\n");
    }

    #[test]
    fn quoted_lines_attribution_and_signature_are_left_out() {
        let body = "A Par - Bur\r\n\r\nOn Mon, 23 Nov 2026 at 10:00, Judge <judge@judge.test> wrote:\r\n> F Bre - MAO\r\n> A Mar S A Par - Bur\r\n\r\n-- \r\nAlice\r\n";
        assert_eq!(authored_lines(body), vec!["A Par - Bur"]);
    }

    #[test]
    fn wrapped_attribution_is_left_out() {
        let body = "F Lon - NTH\nOn Mon, 23 Nov 2026 at 10:00, Legate Judge <\njudge@judge.test> wrote:\n\n> orders\n";
        assert_eq!(authored_lines(body), vec!["F Lon - NTH"]);
    }

    #[test]
    fn attributions_in_other_languages_are_left_out() {
        for attribution in [
            "Am Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Legate <judge@judge.test>:",
            "Le lun. 23 nov. 2026 à 10:00, Legate <judge@judge.test> a écrit :",
            "El lun, 23 nov 2026 a las 10:00, Legate (<judge@judge.test>) escribió:",
        ] {
            let body = format!("A Par H\n\n{attribution}\n> A Par - Bur\n");
            assert_eq!(authored_lines(&body), vec!["A Par H"], "{attribution}");
        }
    }

    #[test]
    fn a_line_ending_in_wrote_without_a_quote_is_kept() {
        let body = "press to all\nEngland wrote:\nnothing quoted here\n";
        assert_eq!(
            authored_lines(body),
            vec!["press to all", "England wrote:", "nothing quoted here"]
        );
    }

    #[test]
    fn outlook_original_message_block_is_cut() {
        let body = "A Vie - Tri\n\n-----Original Message-----\nFrom: judge\nA Bud - Ser\n";
        assert_eq!(authored_lines(body), vec!["A Vie - Tri"]);
    }

    #[test]
    fn no_break_and_invisible_characters_become_plain() {
        assert_eq!(
            authored_lines("\u{feff}A\u{a0}Par\u{200b} - Bur\n"),
            vec!["A Par - Bur"]
        );
    }

    #[test]
    fn interior_blank_lines_are_kept_edges_trimmed() {
        assert_eq!(authored_lines("\n\nA\n\nB  \n\n"), vec!["A", "", "B"]);
    }
}
