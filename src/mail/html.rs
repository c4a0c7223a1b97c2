//! An HTML-only mail body as the text a reader sees: one line per line the
//! player wrote, whatever the client made of it (a `<div>` per line in Gmail
//! and Apple Mail, `<p class="MsoNormal">` in Outlook, `<br>`, nested divs,
//! tables), quotes (`<blockquote>`) marked `> ` as in plain text, scripts and
//! styles left out. The rendering is `html2text`'s.

/// Wider than any line a player writes: nothing is wrapped.
const WIDTH: usize = 100_000;

/// Deeper than any mail client nests its markup. A body nested deeper is read
/// by the simpler converter instead, which does not recurse (the renderer
/// would use stack for each level).
const MAX_DEPTH: usize = 256;

/// Elements that have no end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// The text of `html` as its plain-text rendering would be; `None` when the
/// body is nested too deep, or cannot be rendered, for the caller's fallback.
pub fn to_text(html: &str) -> Option<String> {
    if nesting(html) > MAX_DEPTH {
        return None;
    }
    html2text::config::plain_no_decorate()
        .raw_mode(true)
        .no_link_wrapping()
        .string_from_read(html.as_bytes(), WIDTH)
        .ok()
}

/// The deepest nesting of elements, counted over the tags as written (an
/// over-estimate where end tags are left out, which only errs to the safe side).
fn nesting(html: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let closing = rest.starts_with('/');
        let name: String = rest
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if name.is_empty() {
            continue;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        let self_closing = rest[..end].ends_with('/');
        if closing {
            depth = depth.saturating_sub(1);
        } else if !self_closing && !VOID.contains(&name.as_str()) {
            depth += 1;
            deepest = deepest.max(depth);
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(html: &str) -> Vec<String> {
        to_text(html)
            .expect("rendered")
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn every_common_layout_gives_a_line_per_line() {
        let want = ["A Par - Bur", "F Bre - Mao"];
        for html in [
            "<div dir=\"ltr\"><div>A Par - Bur</div><div>F Bre - Mao</div></div>",
            "<div><div><div>A Par - Bur</div></div><div><div>F Bre - Mao</div></div></div>",
            "<table><tr><td>A Par - Bur</td></tr><tr><td>F Bre - Mao</td></tr></table>",
            "<p>A Par - Bur<br>F Bre - Mao</p>",
            "<p>A Par - Bur</p><p>F Bre - Mao</p>",
            "<p class=\"MsoNormal\">A Par - Bur<o:p></o:p></p><p class=\"MsoNormal\">F Bre - Mao<o:p></o:p></p>",
        ] {
            assert_eq!(lines(html), want, "{html}");
        }
    }

    #[test]
    fn quotes_are_marked_and_scripts_left_out() {
        let got = lines(
            "<style>p{}</style><script>CREATE ?x y</script><div>A Par - Bur</div>\
             <blockquote type=\"cite\"><div>F Bre - Mao</div></blockquote>",
        );
        assert_eq!(got, ["A Par - Bur", "> F Bre - Mao"]);
    }

    #[test]
    fn a_body_nested_too_deep_is_left_to_the_fallback() {
        let deep = "<div>".repeat(MAX_DEPTH + 1) + "A Par - Bur";
        assert_eq!(to_text(&deep), None);
        assert_eq!(nesting("<div><br><img src=x/><p>a</p></div>"), 2);
    }
}
