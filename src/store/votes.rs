//! Votes (draw, concession...): one standing vote per power and kind; a new
//! vote replaces the old one.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{GameId, InboundId, StoreError, Tx, from_secs, to_secs};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vote {
    pub game: GameId,
    pub power: String,
    /// What is voted on, e.g. `draw`, `concede`.
    pub kind: String,
    /// The engine's own encoding of the vote, e.g. `yes`, or the powers of a draw.
    pub value: String,
    pub phase: Option<String>,
    pub cast_at: DateTime<Utc>,
    pub inbound: Option<InboundId>,
}

const COLUMNS: &str = "game_id, power, kind, value, phase, cast_at, inbound_id";

fn from_row(r: &Row<'_>) -> Result<Vote, StoreError> {
    Ok(Vote {
        game: GameId(r.get(0)?),
        power: r.get(1)?,
        kind: r.get(2)?,
        value: r.get(3)?,
        phase: r.get(4)?,
        cast_at: from_secs("votes.cast_at", r.get(5)?)?,
        inbound: r.get::<_, Option<i64>>(6)?.map(InboundId),
    })
}

impl Tx<'_> {
    /// Records `vote`, replacing any earlier vote of the same power and kind.
    pub fn set_vote(&self, vote: &Vote) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(
                "INSERT INTO votes (game_id, power, kind, value, phase, cast_at, inbound_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (game_id, kind, power) DO UPDATE SET
                     value = excluded.value, phase = excluded.phase,
                     cast_at = excluded.cast_at, inbound_id = excluded.inbound_id",
            )?
            .execute(params![
                vote.game.0,
                vote.power,
                vote.kind,
                vote.value,
                vote.phase,
                to_secs(vote.cast_at),
                vote.inbound.map(|i| i.0)
            ])?;
        Ok(())
    }

    /// Withdraws votes of one kind: of one power, or of every power if `None`.
    /// Returns how many were removed.
    pub fn clear_votes(
        &self,
        game: GameId,
        kind: &str,
        power: Option<&str>,
    ) -> Result<usize, StoreError> {
        Ok(self
            .conn
            .prepare_cached(
                "DELETE FROM votes WHERE game_id = ?1 AND kind = ?2 AND (?3 IS NULL OR power = ?3)",
            )?
            .execute(params![game.0, kind, power])?)
    }

    /// The standing votes of one kind in a game, by power.
    pub fn votes(&self, game: GameId, kind: &str) -> Result<Vec<Vote>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM votes WHERE game_id = ?1 AND kind = ?2 ORDER BY power");
        self.query_all(&sql, params![game.0, kind], from_row)
    }
}
