//! Order lines as submitted, kept for the record (which mail, who, when).
//! The engine's current order set lives in its game state.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{GameId, InboundId, OrderId, StoreError, Tx, from_secs, to_secs};

/// One submitted order line.
#[derive(Clone, Debug)]
pub struct NewOrder<'a> {
    pub game: GameId,
    /// The phase it is for, e.g. `F1901R` (may be later than the current one).
    pub phase: &'a str,
    pub power: &'a str,
    /// The line as the player wrote it.
    pub text: &'a str,
    /// The order as understood; `None` if it was not understood.
    pub canonical: Option<&'a str>,
    /// Address of the sender.
    pub submitter: &'a str,
    pub submitted_at: DateTime<Utc>,
    /// The mail it came in.
    pub inbound: Option<InboundId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderRecord {
    pub id: OrderId,
    pub game: GameId,
    pub phase: String,
    pub power: String,
    pub text: String,
    pub canonical: Option<String>,
    pub submitter: String,
    pub submitted_at: DateTime<Utc>,
    pub inbound: Option<InboundId>,
}

const COLUMNS: &str =
    "id, game_id, phase, power, text, canonical, submitter, submitted_at, inbound_id";

fn from_row(r: &Row<'_>) -> Result<OrderRecord, StoreError> {
    Ok(OrderRecord {
        id: OrderId(r.get(0)?),
        game: GameId(r.get(1)?),
        phase: r.get(2)?,
        power: r.get(3)?,
        text: r.get(4)?,
        canonical: r.get(5)?,
        submitter: r.get(6)?,
        submitted_at: from_secs("orders.submitted_at", r.get(7)?)?,
        inbound: r.get::<_, Option<i64>>(8)?.map(InboundId),
    })
}

impl Tx<'_> {
    pub fn insert_order(&self, o: &NewOrder<'_>) -> Result<OrderId, StoreError> {
        self.insert(
            "INSERT INTO orders (game_id, phase, power, text, canonical, submitter,
                                 submitted_at, inbound_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                o.game.0,
                o.phase,
                o.power,
                o.text,
                o.canonical,
                o.submitter,
                to_secs(o.submitted_at),
                o.inbound.map(|i| i.0)
            ],
        )
        .map(OrderId)
    }

    /// The order lines submitted for one phase of a game, optionally for one
    /// power only, in submission order.
    pub fn orders(
        &self,
        game: GameId,
        phase: &str,
        power: Option<&str>,
    ) -> Result<Vec<OrderRecord>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM orders
             WHERE game_id = ?1 AND phase = ?2 AND (?3 IS NULL OR power = ?3) ORDER BY id"
        );
        self.query_all(&sql, params![game.0, phase, power], from_row)
    }
}
