//! Press: messages between powers, kept with the game.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{
    AccountId, GameId, InboundId, PressId, StoreError, Tx, from_json_list, from_secs, to_json_list,
    to_secs,
};

/// A press message to record.
#[derive(Clone, Debug)]
pub struct NewPress<'a> {
    pub game: GameId,
    pub phase: Option<&'a str>,
    pub from_account: Option<AccountId>,
    /// `None` for the Gamemaster or an observer.
    pub from_power: Option<&'a str>,
    /// Powers addressed; ignored when `broadcast`.
    pub recipients: &'a [String],
    pub broadcast: bool,
    /// Sent without showing the sender.
    pub grey: bool,
    pub body: &'a str,
    pub sent_at: DateTime<Utc>,
    pub inbound: Option<InboundId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Press {
    pub id: PressId,
    pub game: GameId,
    pub phase: Option<String>,
    pub from_account: Option<AccountId>,
    pub from_power: Option<String>,
    pub recipients: Vec<String>,
    pub broadcast: bool,
    pub grey: bool,
    pub body: String,
    pub sent_at: DateTime<Utc>,
    pub inbound: Option<InboundId>,
}

const COLUMNS: &str = "id, game_id, phase, from_account, from_power, recipients, broadcast, \
     grey, body, sent_at, inbound_id";

fn from_row(r: &Row<'_>) -> Result<Press, StoreError> {
    Ok(Press {
        id: PressId(r.get(0)?),
        game: GameId(r.get(1)?),
        phase: r.get(2)?,
        from_account: r.get::<_, Option<i64>>(3)?.map(AccountId),
        from_power: r.get(4)?,
        recipients: from_json_list("press.recipients", &r.get::<_, String>(5)?)?,
        broadcast: r.get(6)?,
        grey: r.get(7)?,
        body: r.get(8)?,
        sent_at: from_secs("press.sent_at", r.get(9)?)?,
        inbound: r.get::<_, Option<i64>>(10)?.map(InboundId),
    })
}

impl Tx<'_> {
    pub fn insert_press(&self, p: &NewPress<'_>) -> Result<PressId, StoreError> {
        self.insert(
            "INSERT INTO press (game_id, phase, from_account, from_power, recipients, broadcast,
                                grey, body, sent_at, inbound_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                p.game.0,
                p.phase,
                p.from_account.map(|a| a.0),
                p.from_power,
                to_json_list(p.recipients),
                p.broadcast,
                p.grey,
                p.body,
                to_secs(p.sent_at),
                p.inbound.map(|i| i.0)
            ],
        )
        .map(PressId)
    }

    /// All press of a game, oldest first.
    pub fn press(&self, game: GameId) -> Result<Vec<Press>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM press WHERE game_id = ?1 ORDER BY id");
        self.query_all(&sql, [game.0], from_row)
    }
}
