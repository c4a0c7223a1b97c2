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

pub(crate) fn help() -> String {
    "Commands: SIGNON <power><game> <password>, SIGNON ?<game> <password>, CREATE ?<game> <password>, \
     OBSERVE <game> <password>, LIST [game], SUMMARY [game], HISTORY [game], WHOGAME [game], \
     SET PREFERENCE <powers>, SET WAIT | NOWAIT, SET DRAW [powers] | NO DRAW, SET CONCEDE <power> | NO CONCEDE, \
     SET ABSENCE <date> TO <date>, SET TIMEZONE <zone>, PHASE <phase>, RESIGN, SIGNOFF.\n\
     Master: PROCESS, ROLLBACK [phase], PAUSE, RESUME, TERMINATE, FORCE BEGIN, SET DEADLINE <date>, \
     SET NMR | NO NMR, SET PRESS, SET PARTIAL | NO PARTIAL (press), SET DIAS | NODIAS (draws), SET RULES <2023|2000|1971>, PREDICT.\n\
     More: GET <topic> (GET INDEX lists the topics), REGISTER ... END, DIARY, SET ADDRESS."
        .to_string()
}

pub(crate) fn list_all(tx: &Tx<'_>) -> Result<String, EngineError> {
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

pub(crate) fn list(g: &Loaded, tz: chrono_tz::Tz, now: DateTime<Utc>) -> String {
    let state = &g.state;
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
    out.push_str(&state.settings.house.describe());
    if let Some(c) = &state.lot_commitment {
        let _ = writeln!(out, "Lot commitment: {c}");
    }
    if let Some(o) = &state.outcome {
        let _ = writeln!(out, "Outcome: {o:?}");
    }
    out.push_str(&whogame(state));
    if let Some(p) = &state.position {
        let p = &p.relabelled(&g.variant.display_names(state));
        out.push_str("\nUnits:\n");
        out.push_str(&results::units(p));
        out.push('\n');
        out.push_str(&results::centers(p));
    }
    out
}

pub(crate) fn whogame(state: &GameState) -> String {
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

pub(crate) fn summary(tx: &Tx<'_>, g: &Loaded) -> Result<String, EngineError> {
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
pub(crate) fn cut_to_lines(text: String, lines: Option<u32>) -> String {
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
pub(crate) fn history(
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
    for (i, rec) in tx.phases(game)?.iter().enumerate() {
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
        let seq = u32::try_from(i + 1).unwrap_or(u32::MAX);
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
