//! What a line that did not read looks like: a mistyped order, a mistyped
//! command, or prose (a greeting before the first command, a closing or a
//! name after the last one). Prose is passed over; the others are errors
//! with their suggestion (docs/rulings.md, "Prose around the orders").

use crate::map::Map;

use super::command::{self, COMMAND_WORDS};
use super::lexer::{Kind, Line, Token};
use super::lexicon;

/// What an unread line looks like.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// It could be an order written wrong.
    Order,
    /// It could be a command written wrong.
    Command,
    /// Nothing in it could be an order or a command.
    Prose,
}

/// The words that begin an order (unit types and the verbs of retreats and
/// adjustments), for suggestions too.
pub(crate) const ORDER_WORDS: &[&str] = &["build", "remove", "disband", "waive", "army", "fleet"];

/// The words that follow a unit's province in an order.
const ORDER_VERBS: &[&str] = &[
    "s", "support", "supports", "c", "convoy", "convoys", "h", "hold", "holds", "d", "disband",
    "r", "retreat", "m", "move", "moves",
];

/// The shape of `line`, which did not read. `reads` tells whether a text
/// reads as a command or an order: a first word one letter off a command or
/// order word is a mistype only if the line reads with it corrected
/// (`SIGON Fgame pw` is a mistyped `SIGNON`; "Sent from my phone" is not a
/// mistyped `SET`).
pub(crate) fn shape(map: &Map, line: &Line, reads: impl Fn(&str) -> bool) -> Shape {
    let Some(first) = line.toks.first().filter(|t| t.kind == Kind::Word) else {
        return order_marks(map, line);
    };
    let w = line.norm_of(first);
    if begins_order(map, w) {
        return Shape::Order;
    }
    if command::is_command_word(w) {
        // These begin sentences as often as commands: a line that does not
        // read as the command is prose ("Hello judge!", "Clear skies!",
        // "I am away next week", "Who is in?").
        return match w {
            "hello" | "login" | "clear" | "i" | "who" | "info" | "watch" => order_marks(map, line),
            _ => Shape::Command,
        };
    }
    let corrected = |keywords: &[&str]| {
        lexicon::suggest_keyword(w, keywords).is_some_and(|k| reads(&with_first(line, first, &k)))
    };
    if corrected(ORDER_WORDS) {
        return Shape::Order;
    }
    if corrected(COMMAND_WORDS) {
        return Shape::Command;
    }
    order_marks(map, line)
}

/// Does an order begin with this word: a unit type, an order verb, a power
/// (`France: A Par - Bur`), a province or the start of one's name?
fn begins_order(map: &Map, w: &str) -> bool {
    matches!(
        w,
        "a" | "army" | "f" | "fleet" | "build" | "remove" | "disband" | "waive"
    ) || map.power(w).is_some()
        || province_like(map, w)
}

/// A province's spelling, or the start of one (`lond`).
fn province_like(map: &Map, w: &str) -> bool {
    map.lookup(w).is_some()
        || (w.len() >= lexicon::MIN_PREFIX && map.spellings().iter().any(|(s, _)| s.starts_with(w)))
}

/// Order syntax anywhere in the line: a move's dash, or an order's verb
/// (`S`, `C`, `H`, `support`...), next to a province (`Lodon - Eng`,
/// `Parris S Bur`, `Bre H`).
fn order_marks(map: &Map, line: &Line) -> Shape {
    let word = |t: Option<&Token>| t.filter(|t| t.kind == Kind::Word).map(|t| line.norm_of(t));
    let toks = &line.toks;
    for (i, t) in toks.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|j| word(toks.get(j)));
        let after = word(toks.get(i + 1));
        let mark = match t.kind {
            Kind::Dash => true,
            Kind::Word => ORDER_VERBS.contains(&line.norm_of(t)),
            _ => false,
        };
        let marked = mark
            && [before, after]
                .into_iter()
                .flatten()
                .any(|w| province_like(map, w));
        if marked {
            return Shape::Order;
        }
    }
    Shape::Prose
}

/// Does the line hold an order's marks (a dash or an order's verb next to a
/// province)?
pub(crate) fn order_marked(map: &Map, line: &Line) -> bool {
    order_marks(map, line) == Shape::Order
}

/// The line's text with its first word replaced.
fn with_first(line: &Line, first: &Token, word: &str) -> String {
    let (start, end) = (first.raw.0 as usize, first.raw.1 as usize);
    let src = line.src;
    format!(
        "{}{word}{}",
        src.get(..start).unwrap_or(""),
        src.get(end..).unwrap_or("")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(text: &str) -> Shape {
        // Nothing reads: only the line's own shape counts.
        shape(Map::standard(), &Line::new(text), |_| false)
    }

    #[test]
    fn closings_and_names_are_prose() {
        for text in [
            "Best,",
            "Best",
            "Bob",
            "Sent from my iPhone",
            "Sent from my phone",
            "\"Cheers\"",
            "Thanks again - see you",
            "On Fri, 27 Nov 2026, Bob <bob@example.test> wrote:",
            "Kind regards, Bob S.",
            "Cheers - Bob",
        ] {
            assert_eq!(shape_of(text), Shape::Prose, "{text}");
        }
    }

    #[test]
    fn what_could_be_an_order_is_an_order() {
        for text in [
            "Lodon - Eng",
            "F Bre - Mid Atlantc",
            "Parris S Bur",
            "Marx S Par - Bur",
            "Frnce: A Par H",
            "Paris",
            "lond",
            "France",
        ] {
            assert_eq!(shape_of(text), Shape::Order, "{text}");
        }
    }

    #[test]
    fn a_near_miss_is_a_mistype_only_if_the_line_reads_corrected() {
        let reads = |t: &str| t.starts_with("SET WAIT") || t.starts_with("BUILD A");
        let of = |text: &str| shape(Map::standard(), &Line::new(text), reads);
        assert_eq!(of("SETT WAIT"), Shape::Command);
        assert_eq!(of("Bild A Bud"), Shape::Order);
        assert_eq!(of("Sent from my phone"), Shape::Prose);
        assert_eq!(of("signoff please"), Shape::Command);
        let help = |t: &str| t.starts_with("HELP");
        let of = |text: &str| shape(Map::standard(), &Line::new(text), help);
        assert_eq!(of("Hello judge!"), Shape::Prose);
    }
}
