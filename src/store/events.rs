//! The append-only event log: what happened, when, to which game, because of
//! which mail. Triggers refuse any UPDATE or DELETE.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{AccountId, EventId, GameId, InboundId, StoreError, Tx, from_secs, to_secs};

/// An event to append.
#[derive(Clone, Debug)]
pub struct NewEvent<'a> {
    pub at: DateTime<Utc>,
    pub game: Option<GameId>,
    pub account: Option<AccountId>,
    pub inbound: Option<InboundId>,
    /// A short dotted name, e.g. `game.created`, `phase.processed`.
    pub kind: &'a str,
    /// JSON text with the particulars.
    pub detail: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub id: EventId,
    pub at: DateTime<Utc>,
    pub game: Option<GameId>,
    pub account: Option<AccountId>,
    pub inbound: Option<InboundId>,
    pub kind: String,
    pub detail: String,
}

const COLUMNS: &str = "id, at, game_id, account_id, inbound_id, kind, detail";

fn from_row(r: &Row<'_>) -> Result<Event, StoreError> {
    Ok(Event {
        id: EventId(r.get(0)?),
        at: from_secs("events.at", r.get(1)?)?,
        game: r.get::<_, Option<i64>>(2)?.map(GameId),
        account: r.get::<_, Option<i64>>(3)?.map(AccountId),
        inbound: r.get::<_, Option<i64>>(4)?.map(InboundId),
        kind: r.get(5)?,
        detail: r.get(6)?,
    })
}

impl Tx<'_> {
    pub fn append_event(&self, e: &NewEvent<'_>) -> Result<EventId, StoreError> {
        self.insert(
            "INSERT INTO events (at, game_id, account_id, inbound_id, kind, detail)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                to_secs(e.at),
                e.game.map(|g| g.0),
                e.account.map(|a| a.0),
                e.inbound.map(|i| i.0),
                e.kind,
                e.detail
            ],
        )
        .map(EventId)
    }

    /// The events of one game, oldest first.
    pub fn game_events(&self, game: GameId) -> Result<Vec<Event>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM events WHERE game_id = ?1 ORDER BY id");
        self.query_all(&sql, [game.0], from_row)
    }

    /// The particulars (JSON text) of an account's newest event of `kind`.
    pub fn latest_account_event(
        &self,
        account: AccountId,
        kind: &str,
    ) -> Result<Option<String>, StoreError> {
        self.query_opt(
            "SELECT detail FROM events WHERE account_id = ?1 AND kind = ?2
             ORDER BY id DESC LIMIT 1",
            params![account.0, kind],
            |r| Ok(r.get(0)?),
        )
    }

    /// Up to `limit` events (of any game) after `after`, oldest first.
    pub fn events_after(
        &self,
        after: Option<EventId>,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM events WHERE id > ?1 ORDER BY id LIMIT ?2");
        let after = after.map_or(0, |e| e.0);
        self.query_all(
            &sql,
            params![after, super::inbound::limit_param(limit)],
            from_row,
        )
    }
}

impl Tx<'_> {
    /// When a game had events of `kind` at or after `since`, oldest first.
    pub fn game_event_times(
        &self,
        game: GameId,
        kind: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, StoreError> {
        self.query_all(
            "SELECT at FROM events WHERE game_id = ?1 AND kind = ?2 AND at >= ?3 ORDER BY at, id",
            params![game.0, kind, to_secs(since)],
            |r| from_secs("events.at", r.get(0)?),
        )
    }

    /// The particulars (JSON text) and times of a game's events of `kind` at or
    /// after `since`, oldest first.
    pub fn game_event_details(
        &self,
        game: GameId,
        kind: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<(DateTime<Utc>, String)>, StoreError> {
        self.query_all(
            "SELECT at, detail FROM events WHERE game_id = ?1 AND kind = ?2 AND at >= ?3
             ORDER BY at, id",
            params![game.0, kind, to_secs(since)],
            |r| Ok((from_secs("events.at", r.get(0)?)?, r.get(1)?)),
        )
    }
}
