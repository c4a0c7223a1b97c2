//! What a GTD game leaves in its event log (`gtd.phase`, append-only): at the
//! start, and after each phase played, the whole GTD state as the next phase
//! opens with it (countries, commanders, heads, elections under way) and its
//! board; with each phase played, its public report as mailed. `ROLLBACK`
//! restores a phase's opening from the entry before it; `HISTORY` shows each
//! phase as its report named the countries then.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::GtdGame;
use crate::docs::PositionDoc;
use crate::game::EngineError;
use crate::game::model::{GameState, Role};
use crate::game::process::ResultLine;
use crate::game::work::Work;
use crate::store::{GameId, PhaseRecord, Tx};

/// The event kind.
pub const KIND: &str = "gtd.phase";

/// One entry: `record` is the phase record it follows (`None`: the opening).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    #[serde(default)]
    pub record: Option<i64>,
    /// The phase that opens with this state.
    pub opens: String,
    pub game: GtdGame,
    pub position: PositionDoc,
    /// The public report of the phase `record` (empty for the opening).
    #[serde(default)]
    pub public: String,
}

/// Appends an entry to the game's event log.
pub(crate) fn keep(
    work: &mut Work<'_, '_>,
    game: GameId,
    entry: &Entry,
) -> Result<(), EngineError> {
    let detail = serde_json::to_value(entry).map_err(|e| EngineError::State(e.to_string()))?;
    work.event(Some(game), KIND, detail)
}

fn entries(tx: &Tx<'_>, game: GameId) -> Result<Vec<Entry>, EngineError> {
    Ok(tx
        .game_events(game)?
        .into_iter()
        .filter(|e| e.kind == KIND)
        .filter_map(|e| serde_json::from_str(&e.detail).ok())
        .collect())
}

/// The text `HISTORY` shows for each phase record of a GTD game, by record id:
/// the public report as mailed, or for a phase played before reports were
/// kept, its stored orders and results.
pub(crate) fn history_texts(
    tx: &Tx<'_>,
    game: GameId,
    state: &GameState,
) -> Result<BTreeMap<i64, String>, EngineError> {
    let mut kept: BTreeMap<i64, String> = BTreeMap::new();
    for e in entries(tx, game)? {
        if let Some(r) = e.record {
            kept.insert(r, e.public);
        }
    }
    let mut out = BTreeMap::new();
    for rec in tx.phases(game)? {
        let body = kept.remove(&rec.id.0).unwrap_or_else(|| from_results(&rec));
        out.insert(
            rec.id.0,
            format!(
                "Game {}: {} results (Grand Tournament Diplomacy)\n{body}",
                state.name, rec.phase
            ),
        );
    }
    Ok(out)
}

/// A phase recorded without its report: the orders and results stored.
fn from_results(rec: &PhaseRecord) -> String {
    let lines: Vec<ResultLine> = serde_json::from_str(&rec.results).unwrap_or_default();
    let mut s = String::from("\nOrders (country, order, result):\n");
    if lines.is_empty() {
        s.push_str("  (none)\n");
    }
    for l in lines {
        let _ = writeln!(s, "  {:<14} {:<22} {}", l.power, l.order, l.result);
    }
    s
}

/// `ROLLBACK` to the start of `record`'s phase: the GTD state and board the
/// phase opened with (the entry after the live phase before it, or the
/// opening). Seats, requests to enter and stand-by players approved since stay:
/// they are people, not part of the board. `Err`: why it cannot be done.
pub(crate) fn restore(
    work: &mut Work<'_, '_>,
    key: &str,
    record: &PhaseRecord,
) -> Result<Result<PositionDoc, String>, EngineError> {
    let id = work.game(key).row.id;
    let before = work
        .tx
        .phases(id)?
        .into_iter()
        .rfind(|p| !p.rolled_back && p.seq < record.seq)
        .map(|p| p.id.0);
    let Some(entry) = entries(work.tx, id)?
        .into_iter()
        .rfind(|e| e.record == before && e.opens == record.phase)
    else {
        return Ok(Err(format!(
            "the GTD state at the start of {} was not recorded (the game began before \
             phases were kept for ROLLBACK)",
            record.phase
        )));
    };
    let g = work.game_mut(key);
    let Some(current) = g.state.gtd.take() else {
        return Ok(Err("this is not a GTD game".into()));
    };
    let game = reopen(entry.game, current);
    sync_members(&mut g.state, &game);
    g.state.gtd = Some(game);
    Ok(Ok(entry.position))
}

/// The recorded opening of a phase with today's people kept.
fn reopen(mut game: GtdGame, current: GtdGame) -> GtdGame {
    for seat in &current.seats {
        if !game.seats.iter().any(|s| s.name == seat.name) {
            game.seats.push(seat.clone());
        }
    }
    game.pending = current.pending;
    let known: Vec<String> = game
        .state
        .players
        .iter()
        .map(|p| p.name.clone())
        .chain(game.state.standby.iter().cloned())
        .chain(game.pending.iter().cloned())
        .collect();
    for seat in &current.seats {
        if !known.contains(&seat.name) {
            game.state.standby.push(seat.name.clone());
        }
    }
    game.written.clear();
    game.wrote.clear();
    game
}

/// Members follow the restored game: those in it play and get the reports,
/// those on the stand-by list (or asking to enter) wait.
fn sync_members(state: &mut GameState, game: &GtdGame) {
    for m in &mut state.members {
        if !matches!(m.role, Role::Player | Role::Standby) {
            continue;
        }
        let Some(name) = game.player_of(&m.address) else {
            continue;
        };
        let playing = game.state.players.iter().any(|p| p.name == name);
        m.role = if playing { Role::Player } else { Role::Standby };
    }
}
