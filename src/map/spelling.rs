//! How players spell places: normalisation and coast suffixes.
//!
//! A spelling is compared after normalising: lower case, dots dropped, hyphens and
//! underscores read as spaces, runs of whitespace collapsed, no space around `/`,
//! none inside parentheses and exactly one before an opening parenthesis. So
//! `St. Petersburg ( North Coast )` and `st petersburg (north coast)` are one spelling.

use super::Coast;

/// The normalised form of a spelling (see the module doc).
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for ch in text.chars() {
        let ch = match ch {
            '.' => continue,
            '-' | '_' => ' ',
            c if c.is_whitespace() => ' ',
            c => c,
        };
        if ch == ' ' {
            pending_space = true;
            continue;
        }
        let glue_left = matches!(ch, '/' | ')') || out.ends_with('(') || out.ends_with('/');
        let space_before = if ch == '(' {
            !out.is_empty()
        } else {
            pending_space && !out.is_empty() && !glue_left
        };
        if space_before {
            out.push(' ');
        }
        pending_space = false;
        out.extend(ch.to_lowercase());
    }
    out
}

/// The bytes of `text` as a set of 64, each byte by its low six bits: two
/// spellings whose sets differ by `n` members are at least `n` edits apart
/// (bytes sharing their low six bits count as alike, which only lowers it).
#[inline]
pub fn byte_set(text: &str) -> u64 {
    text.bytes().fold(0, |set, b| set | 1 << (b & 63))
}

/// Splits a normalised spelling into a place and a coast spelled after it:
/// `stp/nc`, `stp (nc)`, `stp nc`, `stp/north coast`, `st petersburg (north coast)`.
/// Returns `None` when the text does not end in a coast.
pub fn split_coast(norm: &str) -> Option<(&str, Coast)> {
    if let Some(inner) = norm.strip_suffix(')') {
        let (base, word) = inner.rsplit_once('(')?;
        return Some((base.trim_end(), coast_word(word)?));
    }
    if let Some((base, word)) = norm.rsplit_once('/') {
        return Some((base, coast_word(word)?));
    }
    // A coast written as trailing words: try the longest forms first.
    let mut cut = norm.len();
    while let Some(space) = norm[..cut].rfind(' ') {
        if let Some(coast) = coast_word(&norm[space + 1..]) {
            return Some((&norm[..space], coast));
        }
        cut = space;
    }
    None
}

/// `nc`, `n`, `north`, `north coast`, `northern coast` (and the same for s, e, w).
pub fn coast_word(word: &str) -> Option<Coast> {
    let word = word.trim();
    let (first, rest) = match word.split_once(' ') {
        Some((first, rest)) => (first, Some(rest)),
        None => (word, None),
    };
    if !matches!(rest, None | Some("coast") | Some("cst")) {
        return None;
    }
    let coast = match first {
        "nc" | "n" | "north" | "northern" => Coast::North,
        "sc" | "s" | "south" | "southern" => Coast::South,
        "ec" | "e" | "east" | "eastern" => Coast::East,
        "wc" | "w" | "west" | "western" => Coast::West,
        _ => return None,
    };
    // A bare `nc` or `north coast` is a coast; `north` alone too, `nc coast` is not.
    if rest.is_some() && first.len() == 2 && first.ends_with('c') {
        return None;
    }
    Some(coast)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_case_dots_spaces_and_parentheses() {
        assert_eq!(
            normalise("St. Petersburg ( North  Coast )"),
            "st petersburg (north coast)"
        );
        assert_eq!(normalise("stp(nc)"), "stp (nc)");
        assert_eq!(normalise("STP / NC"), "stp/nc");
        assert_eq!(normalise("  Mid-Atlantic   Ocean "), "mid atlantic ocean");
    }

    #[test]
    fn splits_every_coast_form() {
        for text in [
            "stp/nc",
            "stp (nc)",
            "stp nc",
            "stp/north coast",
            "stp (north coast)",
            "stp north coast",
        ] {
            assert_eq!(
                split_coast(&normalise(text)),
                Some(("stp", Coast::North)),
                "{text}"
            );
        }
        assert_eq!(
            split_coast("st petersburg (south coast)"),
            Some(("st petersburg", Coast::South))
        );
        assert_eq!(split_coast("london"), None);
        assert_eq!(split_coast("gulf of lyon"), None);
    }
}
