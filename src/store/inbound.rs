//! Mail as received: the raw bytes are stored before anything else is done
//! with them, keyed by Message-ID so a mail fetched twice is handled once.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};
use sha2::{Digest, Sha256};

use super::{InboundId, StoreError, Tx, from_opt_secs, from_secs, to_secs};

super::text_enum!(
    /// How far a received mail has been handled.
    InboundStatus, "inbound_mails.status" {
        /// Stored, not yet handled (or the handling did not commit).
        Pending = "pending",
        /// Handled; whatever it caused, replies included, is committed.
        Processed = "processed",
        /// Deliberately not handled (automatic mail, loop, the judge's own mail...).
        Ignored = "ignored",
        /// Handling failed in a way retrying will not fix; kept for the operator.
        Failed = "failed",
    }
);

/// The result of [`Tx::insert_inbound`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InboundInsert {
    /// First time this Message-ID is seen.
    New(InboundId),
    /// Already stored under this id; check its status before handling it again.
    Duplicate(InboundId),
}

impl InboundInsert {
    pub fn id(self) -> InboundId {
        match self {
            InboundInsert::New(id) | InboundInsert::Duplicate(id) => id,
        }
    }
}

/// A stored mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundMail {
    pub id: InboundId,
    pub message_id: String,
    pub sender: String,
    pub raw: Vec<u8>,
    pub received_at: DateTime<Utc>,
    pub status: InboundStatus,
    /// A short description of what was done, for the operator.
    pub outcome: Option<String>,
    pub processed_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, message_id, sender, raw, received_at, status, outcome, processed_at";

fn from_row(r: &Row<'_>) -> Result<InboundMail, StoreError> {
    Ok(InboundMail {
        id: InboundId(r.get(0)?),
        message_id: r.get(1)?,
        sender: r.get(2)?,
        raw: r.get(3)?,
        received_at: from_secs("inbound_mails.received_at", r.get(4)?)?,
        status: InboundStatus::parse(&r.get::<_, String>(5)?)?,
        outcome: r.get(6)?,
        processed_at: from_opt_secs("inbound_mails.processed_at", r.get(7)?)?,
    })
}

/// The key a mail without a Message-ID is stored under: the same bytes
/// fetched twice get the same key.
pub fn synthetic_message_id(raw: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(raw)))
}

impl Tx<'_> {
    /// Stores a received mail, status `Pending`. `message_id` is the header
    /// value as found (`None` or blank if missing: the key is then a hash of `raw`).
    /// A Message-ID already stored gives `Duplicate` and changes nothing.
    pub fn insert_inbound(
        &self,
        raw: &[u8],
        message_id: Option<&str>,
        sender: &str,
        received: DateTime<Utc>,
    ) -> Result<InboundInsert, StoreError> {
        let key = match message_id.map(str::trim) {
            Some(id) if !id.is_empty() => id.to_string(),
            _ => synthetic_message_id(raw),
        };
        let inserted = self
            .conn
            .prepare_cached(
                "INSERT INTO inbound_mails (message_id, sender, raw, received_at)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT (message_id) DO NOTHING",
            )?
            .execute(params![key, sender, raw, to_secs(received)])?;
        if inserted == 1 {
            return Ok(InboundInsert::New(InboundId(self.conn.last_insert_rowid())));
        }
        let id = self.query_opt(
            "SELECT id FROM inbound_mails WHERE message_id = ?1",
            [&key],
            |r| Ok(InboundId(r.get(0)?)),
        )?;
        id.map(InboundInsert::Duplicate)
            .ok_or_else(|| StoreError::Constraint(format!("inbound mail {key} vanished")))
    }

    pub fn inbound(&self, id: InboundId) -> Result<Option<InboundMail>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM inbound_mails WHERE id = ?1");
        self.query_opt(&sql, [id.0], from_row)
    }

    /// The status of a stored mail, without loading its bytes.
    pub fn inbound_status(&self, id: InboundId) -> Result<InboundStatus, StoreError> {
        self.query_opt(
            "SELECT status FROM inbound_mails WHERE id = ?1",
            [id.0],
            |r| InboundStatus::parse(&r.get::<_, String>(0)?),
        )?
        .ok_or(StoreError::NotFound {
            what: "inbound mail",
            id: id.0,
        })
    }

    /// Up to `limit` mails still `Pending`, oldest first (e.g. after a crash).
    pub fn pending_inbound(&self, limit: usize) -> Result<Vec<InboundMail>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM inbound_mails WHERE status = 'pending' ORDER BY id LIMIT ?1"
        );
        self.query_all(&sql, [limit_param(limit)], from_row)
    }

    /// Records how a mail was handled. Call it in the same transaction as the
    /// changes the mail caused.
    pub fn set_inbound_outcome(
        &self,
        id: InboundId,
        status: InboundStatus,
        outcome: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let processed_at = (status != InboundStatus::Pending).then(|| to_secs(now));
        self.execute_one(
            "inbound mail",
            id.0,
            "UPDATE inbound_mails SET status = ?2, outcome = ?3, processed_at = ?4 WHERE id = ?1",
            params![id.0, status.as_str(), outcome, processed_at],
        )
    }
}

impl Tx<'_> {
    /// When mail from `sender` (ignoring case) was received at or after
    /// `since`, oldest first: the input of a per-sender rate limit.
    pub fn inbound_times_from(
        &self,
        sender: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, StoreError> {
        self.query_all(
            "SELECT received_at FROM inbound_mails
             WHERE sender = ?1 COLLATE NOCASE AND received_at >= ?2 ORDER BY received_at",
            params![sender, to_secs(since)],
            |r| from_secs("inbound_mails.received_at", r.get(0)?),
        )
    }

    /// How many mails from `sender` (ignoring case) received at or after `since`
    /// that did not sign on with a seat's right password
    /// ([`Tx::mark_inbound_signed`]) were stored no later than mail `upto` (itself
    /// included): its place in the budget anyone who writes `sender` in From: can
    /// spend, even when later mails of the same batch are stored already.
    pub fn inbound_unsigned_count_from(
        &self,
        sender: &str,
        since: DateTime<Utc>,
        upto: InboundId,
    ) -> Result<usize, StoreError> {
        let n: Option<i64> = self.query_opt(
            "SELECT count(*) FROM inbound_mails
             WHERE sender = ?1 COLLATE NOCASE AND received_at >= ?2 AND id <= ?3
               AND signed = 0",
            params![sender, to_secs(since), upto.0],
            |r| Ok(r.get(0)?),
        )?;
        Ok(n.unwrap_or(0) as usize)
    }

    /// Marks mail `id` as one that signed on with a seat's right password.
    pub fn mark_inbound_signed(&self, id: InboundId) -> Result<(), StoreError> {
        self.execute_one(
            "inbound mail",
            id.0,
            "UPDATE inbound_mails SET signed = 1 WHERE id = ?1",
            params![id.0],
        )
    }

    /// Whether mail `id` is marked signed.
    pub fn inbound_signed(&self, id: InboundId) -> Result<bool, StoreError> {
        Ok(self
            .query_opt(
                "SELECT signed FROM inbound_mails WHERE id = ?1",
                params![id.0],
                |r| Ok(r.get::<_, i64>(0)? == 1),
            )?
            .unwrap_or(false))
    }
}

/// SQLite LIMIT takes an i64; anything larger means "no limit".
pub(crate) fn limit_param(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}
