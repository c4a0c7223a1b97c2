//! The plain-text results listing sent after each phase and the summaries
//! built from stored phases. Kept in one module so a fuller report writer
//! can replace it.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::docs::PositionDoc;
use crate::phase::{Phase, PhaseKind, Season};

/// One order's outcome, as stored in the phase history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultLine {
    pub power: String,
    /// Canonical order text (`A PAR - BUR`).
    pub order: String,
    /// `ok`, `bounce`, `dislodged` ...
    pub result: String,
    /// Not given by the player: the default for a unit without a valid order.
    pub defaulted: bool,
}

fn season_name(p: &Phase) -> &'static str {
    match p.season {
        Season::Spring => "Spring",
        Season::Fall => "Fall",
        Season::Winter => "Winter",
    }
}

fn kind_name(p: &Phase) -> &'static str {
    match p.kind {
        PhaseKind::Movement => "Movement",
        PhaseKind::Retreat => "Retreat",
        PhaseKind::Adjustment => "Adjustment",
    }
}

/// `Movement results for Spring of 1901.  (mygame.S1901M)`
pub fn heading(game: &str, phase: &Phase) -> String {
    format!(
        "{} results for {} of {}.  ({game}.{phase})",
        kind_name(phase),
        season_name(phase),
        phase.year
    )
}

/// The results of one phase, the board after it, and what comes next.
pub fn results(
    game: &str,
    phase: &Phase,
    lines: &[ResultLine],
    after: &PositionDoc,
    next: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}\n", heading(game, phase));
    let mut last_power = "";
    for l in lines {
        if l.power != last_power && !last_power.is_empty() {
            out.push('\n');
        }
        last_power = &l.power;
        let marker = if l.result == "ok" {
            String::new()
        } else {
            format!("  (*{}*)", l.result)
        };
        let default = if l.defaulted { "  [no order]" } else { "" };
        let _ = writeln!(out, "{}: {}.{marker}{default}", l.power, l.order);
    }
    if !after.dislodged.is_empty() && after.phase.ends_with('R') {
        out.push_str("\nThe following units were dislodged:\n\n");
        for d in &after.dislodged {
            let _ = writeln!(out, "{}: {} {}.", d.unit.power, d.unit.kind, d.unit.at);
        }
    }
    out.push('\n');
    out.push_str(&centers(after));
    let _ = writeln!(out, "\n{next}");
    out
}

/// `Supply centers:` and one line per power that owns any.
pub fn centers(p: &PositionDoc) -> String {
    let mut by_power: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (sc, owner) in &p.owners {
        by_power
            .entry(owner.as_str())
            .or_default()
            .push(sc.as_str());
    }
    let mut out = String::from("Supply centers:\n");
    for (power, list) in &by_power {
        let units = p.units.iter().filter(|u| u.power == *power).count();
        let _ = writeln!(
            out,
            "  {power:<10} {:>2} centers, {units:>2} units: {}",
            list.len(),
            list.join(" ")
        );
    }
    out
}

/// The units on the board, one power per line.
pub fn units(p: &PositionDoc) -> String {
    let mut by_power: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    for u in &p.units {
        by_power
            .entry(u.power.as_str())
            .or_default()
            .push(format!("{} {}", u.kind, u.at));
    }
    let mut out = String::new();
    for (power, list) in &by_power {
        let _ = writeln!(out, "  {power:<10} {}", list.join(", "));
    }
    out
}
