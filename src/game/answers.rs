//! Answers to LIST, SUMMARY, HISTORY, WHOGAME and HELP, from the stored game
//! and its stored phases.

use std::fmt::Write;

use chrono::{DateTime, Utc};

use super::EngineError;
use super::advance::deadline_line;
use super::model::{GameState, Role};
use super::results;
use super::work::Loaded;
use crate::docs::PositionDoc;
use crate::store::Tx;

pub fn help() -> String {
    "Commands: SIGNON <power><game> <password>, SIGNON ?<game> <password>, CREATE ?<game> <password>, \
     OBSERVE <game> <password>, LIST [game], SUMMARY [game], HISTORY [game], WHOGAME [game], \
     SET PREFERENCE <powers>, SET WAIT | NOWAIT, SET DRAW [powers] | NO DRAW, SET CONCEDE <power> | NO CONCEDE, \
     SET ABSENCE <date> TO <date>, SET TIMEZONE <zone>, PHASE <phase>, RESIGN, SIGNOFF.\n\
     Master: PROCESS, ROLLBACK [phase], PAUSE, RESUME, TERMINATE, FORCE BEGIN, SET DEADLINE <date>, \
     SET NMR | NO NMR, SET PRESS, SET PARTIAL | NO PARTIAL (press), SET DIAS | NODIAS (draws), SET RULES <2023|2000|1971>, PREDICT.\n\
     More: GET <topic> (GET INDEX lists the topics), REGISTER ... END, DIARY, SET ADDRESS."
        .to_string()
}

pub fn list_all(tx: &Tx<'_>) -> Result<String, EngineError> {
    let mut out = String::from("Games on this judge:\n");
    for g in tx.games(None)? {
        // `SET NOLIST`: shown only to those who name the game.
        let house = serde_json::from_str::<GameState>(&g.state)
            .map(|s| s.settings.house)
            .unwrap_or_default();
        if !house.listed {
            continue;
        }
        let _ = writeln!(
            out,
            "  {:<16} {:<10} {:<9} {}",
            g.name,
            g.variant,
            g.status.as_str(),
            g.current_phase.unwrap_or_default()
        );
        if !house.comment.is_empty() {
            let _ = writeln!(out, "  {:<16} {}", "", house.comment);
        }
    }
    Ok(out)
}

pub fn list(g: &Loaded, tz: chrono_tz::Tz, now: DateTime<Utc>) -> String {
    let state = &g.state;
    let mut out = list_entry(state, tz, now);
    if let Some(p) = &state.position {
        let p = &p.relabelled(&g.variant.display_names(state));
        out.push_str("\nUnits:\n");
        out.push_str(&results::units(p));
        out.push('\n');
        out.push_str(&results::centers(p));
    }
    out
}

/// A game's settings, schedule, flags and members, as `LIST FULL` shows each
/// game (`LIST name` adds the board).
pub fn list_entry(state: &GameState, tz: chrono_tz::Tz, now: DateTime<Utc>) -> String {
    let mut out = format!(
        "Game {}: {} ({} rules), {:?}, press {:?}, {}.\n",
        state.name,
        state.settings.variant,
        state.settings.rules,
        state.status,
        state.settings.press,
        if state.settings.nmr { "NMR" } else { "NO NMR" }
    );
    out.push_str(&deadline_line(state, tz, now));
    out.push('\n');
    out.push_str(&schedule_lines(&state.settings.schedule));
    out.push_str(&state.settings.house.describe());
    if let Some(c) = &state.lot_commitment {
        let _ = writeln!(out, "Lot commitment: {c}");
    }
    if let Some(o) = &state.outcome {
        let _ = writeln!(out, "Outcome: {o:?}");
    }
    out.push_str(&whogame(state));
    out
}

pub fn whogame(state: &GameState) -> String {
    let mut out = String::from("Members:\n");
    for m in &state.members {
        let role = match m.role {
            Role::Player => m.power.clone().unwrap_or_else(|| "player".into()),
            Role::Observer => "observer".into(),
            Role::Master => "master".into(),
            Role::Standby => "stand-by".into(),
        };
        let flag = if m.abandoned { "  (abandoned)" } else { "" };
        let _ = writeln!(out, "  {role:<10} {}{flag}", m.address);
    }
    out
}

pub fn summary(tx: &Tx<'_>, g: &Loaded) -> Result<String, EngineError> {
    let (game, state) = (g.row.id, &g.state);
    let mut out = format!("Summary of {}:\n", state.name);
    let names = g.variant.display_names(state);
    let phases = tx.phases(game)?;
    // njudge's SUMMARY before the first processing prints empty tables; say why.
    if phases.is_empty() {
        let when = match state.phase_name() {
            Some(p) => format!("the first phase, {p}, is under way"),
            None => "the game has not started".to_string(),
        };
        let _ = writeln!(out, "  No phase has been processed yet: {when}.");
    }
    for rec in phases {
        let after: PositionDoc = match serde_json::from_str::<PositionDoc>(&rec.position_after) {
            Ok(p) => p.relabelled(&names),
            Err(_) => continue,
        };
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for owner in after.owners.values() {
            *counts.entry(owner.as_str()).or_default() += 1;
        }
        let list: Vec<String> = counts.iter().map(|(p, n)| format!("{p} {n}")).collect();
        let rb = if rec.rolled_back {
            "  (rolled back)"
        } else {
            ""
        };
        let _ = writeln!(out, "  {:<7} {}{rb}", rec.phase, list.join(", "));
    }
    Ok(out)
}

/// At most `lines` lines of `text` (njudge's `HISTORY ... LINES n`), saying
/// where it was cut.
pub fn cut_to_lines(text: String, lines: Option<u32>) -> String {
    let Some(n) = lines else { return text };
    let total = text.lines().count();
    if total <= n as usize {
        return text;
    }
    let mut out: String = text
        .lines()
        .take(n as usize)
        .flat_map(|l| [l, "\n"])
        .collect();
    let _ = writeln!(
        out,
        "(cut at {n} of {total} lines: ask with LINES {total} for all)"
    );
    out
}

/// The reports of the phases processed between `from` and `to` (either
/// open), as `who` may see them.
pub fn history(
    tx: &Tx<'_>,
    g: &Loaded,
    judge: &str,
    who: &crate::report::Recipient,
    span: (Option<DateTime<Utc>>, Option<DateTime<Utc>>),
    exclude: &Option<(crate::phase::Phase, Option<crate::phase::Phase>)>,
) -> Result<String, EngineError> {
    let (from, to) = span;
    let (game, state, variant) = (g.row.id, &g.state, g.variant);
    // njudge's EXCLSTART/EXCLEND: phases in that span are left out.
    let excluded = |name: &str| {
        let (Some((start, end)), Ok(p)) = (exclude, name.parse::<crate::phase::Phase>()) else {
            return false;
        };
        p >= *start && end.is_none_or(|e| p <= e)
    };
    let map = g.map();
    let mut out = format!("History of {}:\n\n", state.name);
    let mut shown = 0;
    let own = variant.history_texts(tx, game, state)?;
    let records = tx.phases(game)?;
    let turns = turn_numbers(&records);
    for (rec, &seq) in records.iter().zip(&turns) {
        if from.is_some_and(|f| rec.processed_at < f)
            || to.is_some_and(|t| rec.processed_at > t)
            || excluded(&rec.phase)
        {
            continue;
        }
        if let Some(text) = own.as_ref().and_then(|o| o.get(&rec.id.0)) {
            if rec.rolled_back {
                out.push_str("[rolled back]\n");
            }
            out.push_str(text);
            out.push('\n');
            shown += 1;
            continue;
        }
        let Some(report) = results::replay(variant, state, judge, rec, seq) else {
            continue;
        };
        if rec.rolled_back {
            out.push_str("[rolled back]\n");
        }
        out.push_str(&results::text_for(map, &report, who));
        out.push('\n');
        shown += 1;
    }
    if shown == 0 {
        out.push_str("No phase was processed in that time.\n");
    }
    Ok(out)
}

/// njudge's turn number of each processed phase (`records` in the order
/// processed): 001 for the first phase played, one more for each phase
/// played after it and not rolled back when it was played. A phase played
/// again after a rollback takes the number of the turn it replaces, so the
/// reports' numbers and `ROLLBACK n` agree.
pub fn turn_numbers(records: &[crate::store::PhaseRecord]) -> Vec<u32> {
    // The phases live when each record was played: a record for phase X
    // follows a rollback to X, which left only the phases before X.
    let mut chain: Vec<crate::phase::Phase> = Vec::new();
    let mut out = Vec::with_capacity(records.len());
    for rec in records {
        if let Ok(p) = rec.phase.parse::<crate::phase::Phase>() {
            while chain.last().is_some_and(|last| *last >= p) {
                chain.pop();
            }
            chain.push(p);
        }
        out.push(u32::try_from(chain.len()).unwrap_or(u32::MAX));
    }
    out
}

/// The clock of each kind of phase, in the words a Master sets it with
/// (`SET MOVE CLOCK 23:30 NEXT 72 GRACE 24 ...`).
fn schedule_lines(s: &crate::schedule::Schedule) -> String {
    use crate::phase::PhaseKind;
    let hours = |m: u32| {
        if m.is_multiple_of(60) {
            format!("{}", m / 60)
        } else {
            format!("{:.2}", f64::from(m) / 60.0)
                .trim_end_matches('0')
                .to_string()
        }
    };
    let mut out = format!("Schedule ({}):\n", s.timezone);
    for (kind, word) in [
        (PhaseKind::Movement, "MOVE"),
        (PhaseKind::Retreat, "RETREAT"),
        (PhaseKind::Adjustment, "ADJUST"),
    ] {
        let p = s.for_kind(kind);
        let clock = match p.deadline_time {
            Some(t) => t.format("%H:%M").to_string(),
            None => "-1".to_string(),
        };
        let _ = write!(
            out,
            "  {word:<7} CLOCK {clock} NEXT {} GRACE {} DAYS {}",
            p.next_hours,
            p.grace_hours,
            p.weekdays.to_judge()
        );
        if p.min_minutes > 0 {
            let _ = write!(out, " MIN {}", hours(p.min_minutes));
        }
        if p.delay_minutes > 0 {
            let _ = write!(out, " DELAY {}", hours(p.delay_minutes));
        }
        out.push('\n');
    }
    out
}
