//! The texts a GTD game mails: the opening, each season's report (the whole
//! board and every order with its commander, then the reader's own part), and
//! the Final Place List (rule 2 C).

use std::fmt::Write;

use chrono::{DateTime, Utc};

use super::GtdGame;
use super::play::Played;
use crate::game::model::GameState;
use crate::game::notice::deadline_line;
use crate::judge::Position;
use crate::map::{Map, Power};
use crate::phase::PhaseKind;
use crate::variant::gtd::GtdState;
use crate::variant::gtd::final_place::final_place_list;
use crate::variant::gtd::limits;
use crate::variant::gtd::politics::name_of;

fn unit_text(map: &Map, position: &Position, p: crate::map::Province) -> String {
    match position.unit_at(p) {
        Some(u) => format!("{} {}", u.kind.letter(), map.location_code(u.location)),
        None => map.abbr(p).to_uppercase(),
    }
}

/// Every unit on the board with its country and commander.
fn board(map: &Map, state: &GtdState, position: &Position) -> String {
    let mut s = String::new();
    let mut units: Vec<_> = position.units.iter().collect();
    units.sort_by_key(|u| (u.power.0, map.abbr(u.province()).to_string()));
    for u in units {
        let who = state.commander_at(u.province()).unwrap_or("(none: holds)");
        let _ = writeln!(
            s,
            "  {:<14} {:<10} {who}",
            name_of(state, u.power),
            unit_text(map, position, u.province())
        );
    }
    // Outside a retreat phase the list is only the judge's record.
    let retreating = position.phase.kind == PhaseKind::Retreat;
    for d in position.dislodged.iter().filter(|_| retreating) {
        let p = d.unit.province();
        let who = state
            .commands
            .iter()
            .find(|c| c.at == p.0 && c.dislodged)
            .and_then(|c| c.commander.as_deref())
            .unwrap_or("(none)");
        let _ = writeln!(
            s,
            "  {:<14} {:<10} {who}  (dislodged: retreats or disbands)",
            name_of(state, d.unit.power),
            format!(
                "{} {}",
                d.unit.kind.letter(),
                map.location_code(d.unit.location)
            )
        );
    }
    s
}

fn countries(state: &GtdState, position: &Position) -> String {
    let mut s = String::new();
    for c in state.countries.iter().filter(|c| !c.gone) {
        let power = Power(c.power);
        let _ = write!(
            s,
            "  {:<14} head of government: {:<10} units {:>2}  centers {:>2}  insurrection: {}",
            c.name,
            c.hog.as_deref().unwrap_or("(none)"),
            position.unit_count(power),
            position.centers_of(power).len(),
            if c.insurrection { "yes" } else { "no" }
        );
        if let Some(n) = &c.rename_to {
            let _ = write!(s, "  (named {n:?} from next season)");
        }
        if let Some(n) = &c.successor {
            let _ = write!(s, "  (head from next season: {n})");
        }
        if c.wasted_acceptances > 0 {
            let _ = write!(s, "  acceptances wasted: {}", c.wasted_acceptances);
        }
        s.push('\n');
    }
    s
}

pub(crate) fn opening(
    map: &Map,
    game: &GtdGame,
    position: &Position,
    commitment: Option<&str>,
) -> String {
    let state = &game.state;
    let mut s = String::from(
        "Grand Tournament Diplomacy has started (rules 6-8): countries and units by lot, \
         the first heads of government by rule 8.\n\nUnits and their commanders:\n",
    );
    s.push_str(&board(map, state, position));
    s.push_str("\nCountries:\n");
    s.push_str(&countries(state, position));
    s.push_str("\nPlayers:\n");
    for seat in &game.seats {
        let _ = writeln!(s, "  {:<12} {}", seat.name, seat.address);
    }
    if !state.standby.is_empty() {
        let _ = writeln!(s, "\nStand-by list: {}", state.standby.join(", "));
    }
    let _ = writeln!(
        s,
        "\nLot commitment (SHA-256 of the game's secret): {}",
        commitment.unwrap_or("")
    );
    for d in &state.draws {
        let _ = writeln!(s, "Drawn by lot: {}: {}", d.purpose, d.winner());
    }
    s.push_str(HOW_TO);
    s
}

/// The orders of the game, in the opening mail.
const HOW_TO: &str = "
How to play by mail: sign on with SIGNON ?<game> <password>, then write
  A LVP - YOR                        an order for a unit you command
  A PAR DEFECT TO Germany            defection (Spring, Fall; rule 20)
  ACCEPT DEFECTION A PAR             a head of government's acceptance (20-21)
  A PAR, F BRE DECLARE INDEPENDENCE \"Occitania\" HOME PAR BRE MAR   (18)
  A PAR DECLARE INSURRECTION         or DECLARE NO INSURRECTION (14)
  VOTE France FOR alice 2            votes in an election (17)
  ABDICATE TO bob / ACCEPT SUCCESSION France   (25)
  RENAME France \"New Gaul\"           (26)
  APPOINT alice TO A PAR             a head's appointment (11, 12, 23)
  BUILD A PAR COMMANDER alice        Winter builds name a commander (9)
  REMOVE A PAR                       Winter removals (10)
  RESIGN                             leave the game (22)
Players are named by their address before the @. Orders wait for the deadline;
a later order for a unit replaces an earlier one.
";

/// One reader's season report.
pub(crate) fn season(
    map: &Map,
    game_state: &GameState,
    played: &Played,
    judge: &str,
    address: &str,
    tz: chrono_tz::Tz,
    now: DateTime<Utc>,
) -> String {
    let Some(game) = &game_state.gtd else {
        return String::new();
    };
    let state = &game.state;
    let mut s = format!(
        ":: Judge: {judge}  Game: {}  Variant: Grand Tournament Diplomacy\n{} results\n{}\n",
        game_state.name,
        played.phase,
        deadline_line(game_state, tz, now)
    );
    s.push_str(&public(map, state, played));
    let me = game.player_of(address).map(str::to_string);
    if let Some(me) = me {
        s.push_str(&personal(map, state, &played.after, &me));
    }
    let gm = game_state
        .masters()
        .any(|m| m.address.eq_ignore_ascii_case(address));
    if gm && !played.silent.is_empty() {
        let _ = writeln!(
            s,
            "\nFor the Gamemaster: silent two seasons running (rule 22, may be removed): {}",
            played.silent.join(", ")
        );
    }
    if gm && !game.pending.is_empty() {
        let _ = writeln!(
            s,
            "\nFor the Gamemaster: requests to enter waiting for APPROVE or REFUSE (rule 1): {}",
            game.pending.join(", ")
        );
    }
    s
}

/// What everyone reads of a season's report (every order, with who
/// commanded each unit, is public in GTD); kept as the phase's `HISTORY`.
pub(crate) fn public(map: &Map, state: &GtdState, played: &Played) -> String {
    let mut s = String::new();
    s.push_str("\nOrders (country, order, commander, result):\n");
    if played.units.is_empty() {
        s.push_str("  (none)\n");
    }
    for u in &played.units {
        let _ = writeln!(
            s,
            "  {:<14} {:<22} {:<10} {}",
            u.country, u.order, u.commander, u.result
        );
    }
    if !played.political.is_empty() {
        s.push_str("\nPolitical and Winter orders:\n");
        for (who, text, v) in &played.political {
            let verdict = match v {
                Ok(()) => "done".to_string(),
                Err(e) => format!("refused: {e}"),
            };
            let _ = writeln!(s, "  {who:<10} {text}: {verdict}");
        }
    }
    public_events(&mut s, played);
    let _ = writeln!(s, "\nCountries after {}:", played.phase);
    s.push_str(&countries(state, &played.after));
    let _ = writeln!(s, "\nThe board ({}):", played.after.phase);
    s.push_str(&board(map, state, &played.after));
    if let Some(w) = played.winner {
        let _ = writeln!(
            s,
            "\n{} controls {} supply centers: the game is over (rule 2).",
            name_of(state, w),
            played.after.centers_of(w).len()
        );
        s.push_str(&final_places(state, &played.after));
    }
    s
}

fn public_events(s: &mut String, played: &Played) {
    for name in &played.new_countries {
        let _ = writeln!(s, "\nNew country (rule 18): {name}");
    }
    for name in &played.begun {
        let _ = writeln!(s, "\n{name} is in civil insurrection (rule 14).");
    }
    for name in &played.ended {
        let _ = writeln!(s, "\nThe insurrection in {name} has ended (rule 14).");
    }
    for t in &played.tallies {
        let _ = writeln!(s, "\nElection in {} (rules 16-17, 24):", t.country);
        for (v, ok) in &t.votes {
            let mark = match ok {
                Ok(()) => String::new(),
                Err(e) => format!("  (void: {e})"),
            };
            let _ = writeln!(
                s,
                "  {} votes {} for {}{mark}",
                v.voter, v.votes, v.candidate
            );
        }
        let totals: Vec<String> = t.totals.iter().map(|(p, n)| format!("{p} {n}")).collect();
        let _ = writeln!(
            s,
            "  Totals: {}; cast {}; needed more than {}; {}",
            if totals.is_empty() {
                "none".into()
            } else {
                totals.join(", ")
            },
            t.cast,
            t.above,
            match &t.elected {
                Some(p) => format!("elected: {p} (takes office next season)"),
                None => "nobody elected".into(),
            }
        );
    }
    if !played.lot_removals.is_empty() {
        s.push_str("\nRemovals by lot and builds not used:\n");
        for l in &played.lot_removals {
            let _ = writeln!(s, "  {l}");
        }
    }
    if !played.draws.is_empty() {
        s.push_str("\nDrawn by lot:\n");
        for d in &played.draws {
            let _ = writeln!(s, "  {}: {}", d.purpose, d.winner());
        }
    }
}

/// The reader's units, the heads of their countries, and their Winter duties.
fn personal(map: &Map, state: &GtdState, position: &Position, me: &str) -> String {
    let mut s = format!("\nFor {me}:\n");
    let mine: Vec<String> = position
        .units
        .iter()
        .filter(|u| state.commander_at(u.province()) == Some(me))
        .map(|u| {
            format!(
                "{} ({})",
                unit_text(map, position, u.province()),
                name_of(state, u.power)
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "  You command: {}",
        if mine.is_empty() {
            "no unit".into()
        } else {
            mine.join(", ")
        }
    );
    let mut countries: Vec<Power> = position
        .units
        .iter()
        .filter(|u| state.commander_at(u.province()) == Some(me))
        .map(|u| u.power)
        .collect();
    countries.extend(state.headed_by(me));
    countries.sort();
    countries.dedup();
    for p in &countries {
        if let Some(c) = state.country(*p) {
            let _ = writeln!(
                s,
                "  {}: head of government {}; insurrection: {}",
                c.name,
                c.hog.as_deref().unwrap_or("(none)"),
                if c.insurrection { "yes" } else { "no" }
            );
        }
    }
    if !state.is_active(me) {
        s.push_str("  You are not in the game (stand-by, resigned or removed).\n");
    }
    if position.phase.kind == PhaseKind::Adjustment {
        for p in state.headed_by(me) {
            s.push_str(&duties(map, state, position, p));
        }
    }
    s
}

/// What a head of government must do this Winter (rules 9-12).
fn duties(_map: &Map, state: &GtdState, position: &Position, country: Power) -> String {
    let name = name_of(state, country);
    let balance = position.centers_of(country).len() as i32 - position.unit_count(country) as i32;
    let mut s = format!("  Winter duties as head of government of {name}:\n");
    if state.country(country).is_some_and(|c| c.insurrection) {
        s.push_str(
            "    none: the country is in civil insurrection (rule 15); the lot acts instead\n",
        );
        return s;
    }
    match balance {
        b if b > 0 => {
            let _ = writeln!(
                s,
                "    {b} build(s): BUILD <unit> COMMANDER <player> on a home you own (rule 9)"
            );
        }
        b if b < 0 => {
            let _ = writeln!(
                s,
                "    {} removal(s): REMOVE <unit>, or the lot chooses among units off supply centers (rule 10)",
                -b
            );
        }
        _ => s.push_str("    no builds or removals\n"),
    }
    for (player, n) in limits::excess(state, position, country) {
        let _ = writeln!(
            s,
            "    redistribute {n} unit(s) commanded by {player}: APPOINT <player> TO <unit>, or the lot removes them (rule 11)"
        );
    }
    s
}

/// Rule 2 (C).
pub(crate) fn final_places(state: &GtdState, position: &Position) -> String {
    let mut s = String::from("\nFinal Place List (rule 2 C):\n");
    for p in final_place_list(state, position) {
        let _ = writeln!(
            s,
            "  {:>2}. {:<12} (group {}, {})",
            p.place, p.player, p.group, p.count
        );
    }
    s
}
