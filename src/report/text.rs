//! The results listing in the classic judge layout, line for line, so that the
//! mappers and importers players already use keep working:
//!
//! ```text
//! Movement results for Spring of 1901.  (game001.001)
//!
//! France: Army Paris -> Burgundy.  (*bounce*)
//! ```
//!
//! Lines are wrapped at 78 columns; a wrapped order continues under its text.

use std::fmt::Write;

use super::model::{NextPhase, PhaseReport, ResolvedOrder};
use super::names::{power_adjective, unit_name};
use super::view::Recipient;
use crate::map::Map;
use crate::phase::{Phase, PhaseKind, Season};

/// The width lines are wrapped at.
pub const WIDTH: usize = 78;

/// The whole report for one recipient: the classic block, then the reasons
/// for failed orders. `report` is already seen through the recipient's view.
pub fn render(map: &Map, report: &PhaseReport, who: &Recipient) -> String {
    let mut out = classic(map, report, who);
    let why = why_section(report);
    if !why.is_empty() {
        out.push('\n');
        out.push_str(&why);
    }
    out
}

/// The classic results block alone: what mappers and importers read.
pub fn classic(map: &Map, report: &PhaseReport, who: &Recipient) -> String {
    let mut out = String::new();
    header(&mut out, report, who);
    for line in &report.notices {
        out.push_str(&wrap(&[Token::new("", line)], 0));
    }
    if !report.notices.is_empty() {
        out.push('\n');
    }
    late_powers(&mut out, report);
    let _ = writeln!(
        out,
        "{} results for {} of {}.  ({}.{:03})\n",
        kind_name(report.phase.kind),
        season_name(report.phase.season),
        report.era.year(report.phase.year),
        report.info.game,
        report.info.seq
    );
    orders(&mut out, report);
    for line in &report.sections {
        // Wrapped like the orders; an indented line keeps its indent.
        let text = line.trim_start();
        let lead = line.len() - text.len();
        out.push_str(&" ".repeat(lead));
        out.push_str(&wrap_words(text, lead + 4));
    }
    if !report.sections.is_empty() {
        out.push('\n');
    }
    dislodged(&mut out, map, report);
    if report.show_centers {
        centers(&mut out, map, report);
        standings(&mut out, report);
    }
    next_phase(&mut out, report, who);
    out
}

/// The `:: Judge:` and `:: Deadline:` lines.
fn header(out: &mut String, report: &PhaseReport, who: &Recipient) {
    let info = &report.info;
    let _ = writeln!(
        out,
        ":: Judge: {}  Game: {}  Variant: {}",
        info.judge, info.game, info.variant
    );
    if let Some(NextPhase {
        phase,
        deadline: Some(deadline),
    }) = &report.next
    {
        let local = deadline.with_timezone(&who.zone);
        let _ = writeln!(
            out,
            ":: Deadline: {phase} {}",
            local.format("%a %b %d %Y %H:%M %Z")
        );
    }
    out.push('\n');
}

fn orders(out: &mut String, report: &PhaseReport) {
    if report.orders.is_empty() {
        return;
    }
    let mut last = None;
    for o in &report.orders {
        if last.is_some_and(|p| p != o.power()) {
            out.push('\n');
        }
        last = Some(o.power());
        out.push_str(&order_line(o));
    }
    out.push('\n');
}

/// The powers late with all their orders, named above the results block (a
/// line inside it would be read as an order by the importers that parse it).
fn late_powers(out: &mut String, report: &PhaseReport) {
    let late = report.powers_without_orders();
    if !late.is_empty() {
        let line = format!("No orders were received from {}.", late.join(", "));
        out.push_str(&wrap_words(&line, 4));
        out.push('\n');
    }
}

/// `France: Army Paris -> Burgundy.  (*bounce*)`, wrapped.
pub fn order_line(o: &ResolvedOrder) -> String {
    let prefix = format!("{}:", o.power_name);
    let mut tokens = vec![Token::new("", &prefix)];
    let mut words = o.text.split(' ').peekable();
    while let Some(word) = words.next() {
        let word = if words.peek().is_none() {
            format!("{word}.")
        } else {
            word.to_string()
        };
        tokens.push(Token::new(" ", &word));
    }
    if let Some(marker) = &o.marker {
        tokens.push(Token::new("  ", &format!("(*{marker}*)")));
    }
    wrap(&tokens, prefix.len() + 1)
}

fn dislodged(out: &mut String, map: &Map, report: &PhaseReport) {
    if report.dislodged.is_empty() {
        return;
    }
    out.push_str("The following units were dislodged:\n\n");
    for d in &report.dislodged {
        let unit = format!(
            "The {} {}",
            power_adjective(map, d.unit.power),
            unit_name(map, d.unit.kind, d.unit.location).replacen(' ', " in ", 1)
        );
        let line = if d.options.is_empty() {
            format!("{unit} with no valid retreats was destroyed.")
        } else {
            let names: Vec<String> = d.options.iter().map(|l| map.location_name(*l)).collect();
            format!("{unit} can retreat to {}.", or_list(&names))
        };
        out.push_str(&wrap_words(&line, 0));
    }
    out.push('\n');
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Column where the lists of the supply-center table start.
const CENTER_COLUMN: usize = 11;

fn centers(out: &mut String, map: &Map, report: &PhaseReport) {
    out.push_str("Ownership of supply centers:\n\n");
    let mut row = |label: &str, list: &[crate::map::Province]| {
        if list.is_empty() {
            return;
        }
        let names: Vec<&str> = list.iter().map(|p| map.name(*p)).collect();
        let text = format!("{}.", names.join(", "));
        let mut tokens = vec![Token::new(
            "",
            &format!("{label:<width$}", width = CENTER_COLUMN - 1),
        )];
        tokens.extend(text.split(' ').map(|w| Token::new(" ", w)));
        out.push_str(&wrap(&tokens, CENTER_COLUMN));
    };
    for p in &report.powers {
        row(&format!("{}:", p.name), &p.centers);
    }
    row("Unowned:", &report.unowned);
    out.push('\n');
}

/// `Austria:   3 Supply centers,  3 Units:  Builds   0 units.`
fn standings(out: &mut String, report: &PhaseReport) {
    if report.powers.is_empty() {
        return;
    }
    for p in &report.powers {
        let (verb, n) = if p.adjustment < 0 {
            ("Removes", -p.adjustment)
        } else {
            ("Builds ", p.adjustment)
        };
        let _ = writeln!(
            out,
            "{:<10}{:>2} Supply center{}, {:>2} Unit{}:  {verb} {:>2} unit{}.",
            format!("{}:", p.name),
            p.centers.len(),
            plural(p.centers.len() as i64),
            p.units,
            plural(p.units as i64),
            n,
            plural(n as i64)
        );
    }
    out.push('\n');
}

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn next_phase(out: &mut String, report: &PhaseReport, who: &Recipient) {
    let Some(next) = &report.next else {
        out.push_str("The game is over.\n");
        return;
    };
    let _ = writeln!(
        out,
        "The next phase of '{}' will be {}.",
        report.info.game,
        phase_words_in(&next.phase, report.era)
    );
    if let Some(deadline) = next.deadline {
        let local = deadline.with_timezone(&who.zone);
        let _ = writeln!(
            out,
            "The deadline for orders will be {}.",
            local.format("%a %b %d %Y %H:%M:%S %Z")
        );
    }
}

/// `Movement for Fall of 1901`.
pub fn phase_words(phase: &Phase) -> String {
    phase_words_in(phase, crate::phase::Era::Common)
}

/// [`phase_words`] with the years counted as `era` counts them.
pub fn phase_words_in(phase: &Phase, era: crate::phase::Era) -> String {
    let kind = match phase.kind {
        PhaseKind::Movement => "Movement",
        PhaseKind::Retreat => "Retreats",
        PhaseKind::Adjustment => "Adjustments",
    };
    format!(
        "{kind} for {} of {}",
        season_name(phase.season),
        era.year(phase.year)
    )
}

/// The reasons for failed orders, one paragraph each.
pub fn why_section(report: &PhaseReport) -> String {
    let mut out = String::new();
    for o in report.failures() {
        if let Some(why) = &o.why {
            out.push_str(&wrap_words(&format!("{}: {why}.", o.power_name), 4));
        }
    }
    if out.is_empty() {
        return out;
    }
    format!("What happened to the orders that failed:\n\n{out}")
}

fn kind_name(kind: PhaseKind) -> &'static str {
    match kind {
        PhaseKind::Movement => "Movement",
        PhaseKind::Retreat => "Retreat",
        PhaseKind::Adjustment => "Adjustment",
    }
}

fn season_name(season: Season) -> &'static str {
    match season {
        Season::Spring => "Spring",
        Season::Fall => "Fall",
        Season::Winter => "Winter",
    }
}

/// A word and the space that goes before it when it does not start a line.
struct Token {
    sep: String,
    word: String,
}

impl Token {
    fn new(sep: &str, word: &str) -> Token {
        Token {
            sep: sep.to_string(),
            word: word.to_string(),
        }
    }
}

/// Plain text wrapped at single spaces.
fn wrap_words(text: &str, indent: usize) -> String {
    let tokens: Vec<Token> = text.split(' ').map(|w| Token::new(" ", w)).collect();
    wrap(&tokens, indent)
}

/// Lays tokens out in lines of at most [`WIDTH`] columns (a word longer than a
/// line gets a line of its own); continuation lines start at column `indent`.
/// Ends with a newline.
fn wrap(tokens: &[Token], indent: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for (i, t) in tokens.iter().enumerate() {
        let start = i == 0;
        let fits = line.chars().count() + t.sep.len() + t.word.chars().count() <= WIDTH;
        if start {
            line.push_str(&t.word);
        } else if fits || line.trim().is_empty() {
            line.push_str(&t.sep);
            line.push_str(&t.word);
        } else {
            out.push_str(line.trim_end());
            out.push('\n');
            line = format!("{:indent$}{}", "", t.word);
        }
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_within_width_and_indents() {
        let text = "word ".repeat(40);
        let out = wrap_words(text.trim(), 4);
        assert!(out.lines().count() > 2);
        for (i, line) in out.lines().enumerate() {
            assert!(line.len() <= WIDTH, "{line:?}");
            if i > 0 {
                assert!(line.starts_with("    word"), "{line:?}");
            }
        }
        assert_eq!(out.split_whitespace().count(), 40);
    }

    #[test]
    fn marker_stays_whole_on_wrap() {
        let mut tokens = vec![Token::new("", "Russia:")];
        for _ in 0..14 {
            tokens.push(Token::new(" ", "Petersburg"));
        }
        tokens.push(Token::new("  ", "(*bounce, dislodged*)"));
        let out = wrap(&tokens, 8);
        assert!(out.contains("(*bounce, dislodged*)"), "{out}");
        assert!(out.lines().all(|l| l.len() <= WIDTH));
    }

    #[test]
    fn or_list_reads_naturally() {
        let items = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(or_list(&items(&["Albania"])), "Albania");
        assert_eq!(or_list(&items(&["A", "B", "C"])), "A, B or C");
    }
}
