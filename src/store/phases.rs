//! Every phase ever processed, with the position before and after, the orders
//! and the results. Rows never change except to be marked rolled back.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{GameId, PhaseId, StoreError, Tx, from_secs, to_secs};

/// A processed phase to record. All documents are JSON text.
#[derive(Clone, Debug)]
pub struct NewPhase<'a> {
    pub game: GameId,
    /// Phase name, e.g. `S1901M`.
    pub phase: &'a str,
    pub position_before: &'a str,
    pub orders: &'a str,
    pub results: &'a str,
    pub position_after: &'a str,
    pub processed_at: DateTime<Utc>,
}

/// A recorded phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseRecord {
    pub id: PhaseId,
    pub game: GameId,
    /// 1, 2, 3... within the game, in the order processed. A phase replayed
    /// after a rollback gets a new, higher number.
    pub seq: i64,
    pub phase: String,
    pub position_before: String,
    pub orders: String,
    pub results: String,
    pub position_after: String,
    pub rolled_back: bool,
    pub processed_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, game_id, seq, phase, position_before, orders, results, \
     position_after, rolled_back, processed_at";

fn from_row(r: &Row<'_>) -> Result<PhaseRecord, StoreError> {
    Ok(PhaseRecord {
        id: PhaseId(r.get(0)?),
        game: GameId(r.get(1)?),
        seq: r.get(2)?,
        phase: r.get(3)?,
        position_before: r.get(4)?,
        orders: r.get(5)?,
        results: r.get(6)?,
        position_after: r.get(7)?,
        rolled_back: r.get(8)?,
        processed_at: from_secs("phases.processed_at", r.get(9)?)?,
    })
}

impl Tx<'_> {
    /// Records a processed phase as the game's next `seq`.
    pub fn insert_phase(&self, p: &NewPhase<'_>) -> Result<PhaseId, StoreError> {
        self.insert(
            "INSERT INTO phases (game_id, seq, phase, position_before, orders, results,
                                 position_after, processed_at)
             VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM phases WHERE game_id = ?1),
                     ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                p.game.0,
                p.phase,
                p.position_before,
                p.orders,
                p.results,
                p.position_after,
                to_secs(p.processed_at)
            ],
        )
        .map(PhaseId)
    }

    /// Every recorded phase of a game, rolled back or not, in `seq` order.
    pub fn phases(&self, game: GameId) -> Result<Vec<PhaseRecord>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM phases WHERE game_id = ?1 ORDER BY seq");
        self.query_all(&sql, [game.0], from_row)
    }

    /// The last phase of a game that is not rolled back.
    pub fn last_phase(&self, game: GameId) -> Result<Option<PhaseRecord>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM phases WHERE game_id = ?1 AND rolled_back = 0
             ORDER BY seq DESC LIMIT 1"
        );
        self.query_opt(&sql, [game.0], from_row)
    }

    /// Marks every phase of `game` with `seq >= from_seq` as rolled back, for
    /// `ROLLBACK`. Returns how many rows were newly marked.
    pub fn mark_rolled_back(&self, game: GameId, from_seq: i64) -> Result<usize, StoreError> {
        Ok(self
            .conn
            .prepare_cached(
                "UPDATE phases SET rolled_back = 1
                 WHERE game_id = ?1 AND seq >= ?2 AND rolled_back = 0",
            )?
            .execute(params![game.0, from_seq])?)
    }
}
