//! The `SUMMARY` and `HISTORY` answers: the game's players with their
//! lateness, supply-center counts year by year, and past reports replayed.

use std::fmt::Write;

use super::model::PhaseReport;
use super::names::power_name;
use super::text;
use super::view::{Recipient, View};
use crate::judge::Position;
use crate::map::{Map, Power};

/// One power's line in the players' table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLine {
    pub power: Power,
    /// How the player is shown (a name or address; "(vacant)").
    pub player: String,
    /// Deadlines the player missed.
    pub late: u32,
}

/// Years per block of the center table, so it fits in 78 columns.
const YEARS_PER_BLOCK: usize = 12;

/// `SUMMARY`: the players and the supply-center count of every power at the end
/// of each year (`years`: the year and the position after its last phase).
pub fn summary(map: &Map, game: &str, players: &[PlayerLine], years: &[(u16, Position)]) -> String {
    let mut out = format!("Summary of game '{game}' ({}).\n\n", map.title());
    if !players.is_empty() {
        let _ = writeln!(out, "{:<10} {:<50} {:>5}", "Power", "Player", "Late");
        for p in players {
            let name: String = p.player.chars().take(50).collect();
            let _ = writeln!(
                out,
                "{:<10} {name:<50} {:>5}",
                power_name(map, p.power),
                p.late
            );
        }
        out.push('\n');
    }
    if years.is_empty() {
        return out;
    }
    out.push_str("Supply centers at the end of each year:\n");
    for block in years.chunks(YEARS_PER_BLOCK) {
        out.push('\n');
        let mut head = format!("{:<10}", "");
        for (year, _) in block {
            let _ = write!(head, " {year:>4}");
        }
        let _ = writeln!(out, "{head}");
        for i in 0..map.powers().len() {
            let power = Power(i as u8);
            let mut row = format!("{:<10}", power_name(map, power));
            for (_, position) in block {
                let _ = write!(row, " {:>4}", position.centers_of(power).len());
            }
            let _ = writeln!(out, "{row}");
        }
    }
    out
}

/// `HISTORY`: the reports of a range of phases, oldest first, each as the
/// recipient may see it, separated by a rule.
pub fn history(map: &Map, reports: &[PhaseReport], view: &dyn View, who: &Recipient) -> String {
    let rule = format!("{}\n\n", "-".repeat(text::WIDTH));
    reports
        .iter()
        .map(|r| text::render(map, &r.seen_by(view, who), who))
        .collect::<Vec<_>>()
        .join(&rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lists_players_and_counts_per_year() {
        let map = Map::standard();
        let start = Position::initial(map);
        let mut later = start.clone();
        let france = map.power("France").unwrap();
        for name in ["spa", "por", "bel"] {
            let p = map.lookup(name).unwrap().province;
            later.owners[p.0 as usize] = Some(france);
        }
        let players = [PlayerLine {
            power: france,
            player: "marianne@example.org".into(),
            late: 2,
        }];
        let text = summary(map, "game001", &players, &[(1901, start), (1902, later)]);
        assert!(text.contains("France     marianne@example.org"), "{text}");
        let row = text.lines().rfind(|l| l.starts_with("France ")).unwrap();
        assert_eq!(
            row.split_whitespace().collect::<Vec<_>>(),
            ["France", "3", "6"]
        );
        let russia = text.lines().rfind(|l| l.starts_with("Russia ")).unwrap();
        assert!(russia.ends_with("   4    4"), "{russia:?}");
        assert!(text.lines().all(|l| l.len() <= text::WIDTH));
    }

    #[test]
    fn many_years_are_split_into_blocks() {
        let map = Map::standard();
        let years: Vec<(u16, Position)> =
            (1901..1926).map(|y| (y, Position::initial(map))).collect();
        let text = summary(map, "long", &[], &years);
        assert!(text.lines().all(|l| l.len() <= text::WIDTH), "{text}");
        assert_eq!(text.matches("Austria ").count(), 3);
    }
}
