//! Mail to send. Rows are written in the same transaction as the change that
//! causes them; a sender task delivers them and marks them sent. A sent row
//! can no longer change (a trigger enforces it).

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};
use sha2::{Digest, Sha256};

use super::inbound::limit_param;
use super::{
    GameId, InboundId, OutboxId, StoreError, Tx, from_json_list, from_opt_secs, from_secs,
    to_json_list, to_secs,
};

super::text_enum!(
    /// Delivery state of an outgoing mail.
    OutboxStatus, "outbox.status" {
        /// Waiting for its next attempt.
        Queued = "queued",
        /// Accepted by the server; final.
        Sent = "sent",
        /// Given up on; kept for the operator.
        Failed = "failed",
    }
);

/// A mail to queue. The sender composes the final bytes (Message-ID, Date,
/// threading) from these parts, unless `message` already holds them.
#[derive(Clone, Debug, Default)]
pub struct NewOutbox<'a> {
    /// Addresses, at least one.
    pub recipients: &'a [String],
    pub subject: &'a str,
    /// Extra header fields, `(name, value)`, e.g. `("In-Reply-To", "<...>")`.
    pub headers: &'a [(String, String)],
    pub body: &'a str,
    /// The complete RFC 5322 message, if composed already.
    pub message: Option<&'a [u8]>,
    /// The received mail this answers.
    pub in_reply_to: Option<InboundId>,
    /// The game it concerns.
    pub game: Option<GameId>,
}

/// A file to send along with a queued mail.
#[derive(Clone, Copy, Debug)]
pub struct NewAttachment<'a> {
    pub filename: &'a str,
    /// `type/subtype`, e.g. `image/png`.
    pub content_type: &'a str,
    pub bytes: &'a [u8],
}

/// A file sent along with an outbox mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxAttachment {
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxMail {
    pub id: OutboxId,
    pub recipients: Vec<String>,
    pub subject: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// The composed bytes, fixed before the first attempt so that every retry
    /// sends the very same mail.
    pub message: Option<Vec<u8>>,
    pub status: OutboxStatus,
    /// Failed delivery attempts so far.
    pub attempts: i64,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub in_reply_to: Option<InboundId>,
    pub game: Option<GameId>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    /// Files sent along, in the order they were attached.
    pub attachments: Vec<OutboxAttachment>,
}

const COLUMNS: &str = "id, recipients, subject, headers, body, message, status, attempts, \
     next_attempt_at, last_error, in_reply_to, game_id, created_at, sent_at";

fn headers_from_json(text: &str) -> Result<Vec<(String, String)>, StoreError> {
    serde_json::from_str(text).map_err(|_| StoreError::BadValue {
        column: "outbox.headers",
        value: text.to_string(),
    })
}

fn from_row(r: &Row<'_>) -> Result<OutboxMail, StoreError> {
    Ok(OutboxMail {
        id: OutboxId(r.get(0)?),
        recipients: from_json_list("outbox.recipients", &r.get::<_, String>(1)?)?,
        subject: r.get(2)?,
        headers: headers_from_json(&r.get::<_, String>(3)?)?,
        body: r.get(4)?,
        message: r.get(5)?,
        status: OutboxStatus::parse(&r.get::<_, String>(6)?)?,
        attempts: r.get(7)?,
        next_attempt_at: from_secs("outbox.next_attempt_at", r.get(8)?)?,
        last_error: r.get(9)?,
        in_reply_to: r.get::<_, Option<i64>>(10)?.map(InboundId),
        game: r.get::<_, Option<i64>>(11)?.map(GameId),
        created_at: from_secs("outbox.created_at", r.get(12)?)?,
        sent_at: from_opt_secs("outbox.sent_at", r.get(13)?)?,
        attachments: Vec::new(),
    })
}

impl Tx<'_> {
    /// Queues a mail, due at once (`now`).
    pub fn queue_outbox(
        &self,
        m: &NewOutbox<'_>,
        now: DateTime<Utc>,
    ) -> Result<OutboxId, StoreError> {
        if m.recipients.is_empty() {
            return Err(StoreError::Constraint(
                "an outbox mail needs a recipient".into(),
            ));
        }
        let headers = serde_json::to_string(m.headers).map_err(|e| StoreError::BadValue {
            column: "outbox.headers",
            value: e.to_string(),
        })?;
        self.insert(
            "INSERT INTO outbox (recipients, subject, headers, body, message, next_attempt_at,
                                 in_reply_to, game_id, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?6)",
            params![
                to_json_list(m.recipients),
                m.subject,
                headers,
                m.body,
                m.message,
                to_secs(now),
                m.in_reply_to.map(|i| i.0),
                m.game.map(|g| g.0)
            ],
        )
        .map(OutboxId)
    }

    pub fn outbox(&self, id: OutboxId) -> Result<Option<OutboxMail>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM outbox WHERE id = ?1");
        let mail = self.query_opt(&sql, [id.0], from_row)?;
        mail.map(|m| self.with_attachments(m)).transpose()
    }

    /// Attaches a file to a queued mail whose bytes are not fixed yet; it goes
    /// after those attached before. The bytes are stored once however many
    /// mails carry them (the same board picture goes to every member).
    pub fn add_outbox_attachment(
        &self,
        id: OutboxId,
        file: &NewAttachment<'_>,
    ) -> Result<(), StoreError> {
        let digest = hex::encode(Sha256::digest(file.bytes));
        self.conn
            .prepare_cached(
                "INSERT INTO attachment_files (digest, bytes) VALUES (?1, ?2)
                 ON CONFLICT (digest) DO NOTHING",
            )?
            .execute(params![digest, file.bytes])?;
        self.insert(
            "INSERT INTO outbox_attachments (outbox_id, position, filename, content_type, file_id)
             VALUES (?1, (SELECT COUNT(*) FROM outbox_attachments WHERE outbox_id = ?1),
                     ?2, ?3, (SELECT id FROM attachment_files WHERE digest = ?4))",
            params![id.0, file.filename, file.content_type, digest],
        )
        .map(|_| ())
    }

    /// The files of an outbox mail, in the order they were attached.
    pub fn outbox_attachments(&self, id: OutboxId) -> Result<Vec<OutboxAttachment>, StoreError> {
        self.query_all(
            "SELECT a.filename, a.content_type, f.bytes
             FROM outbox_attachments a JOIN attachment_files f ON f.id = a.file_id
             WHERE a.outbox_id = ?1 ORDER BY a.position",
            [id.0],
            |r| {
                Ok(OutboxAttachment {
                    filename: r.get(0)?,
                    content_type: r.get(1)?,
                    bytes: r.get(2)?,
                })
            },
        )
    }

    fn with_attachments(&self, mut mail: OutboxMail) -> Result<OutboxMail, StoreError> {
        mail.attachments = self.outbox_attachments(mail.id)?;
        Ok(mail)
    }

    fn all_with_attachments(&self, mails: Vec<OutboxMail>) -> Result<Vec<OutboxMail>, StoreError> {
        mails
            .into_iter()
            .map(|m| self.with_attachments(m))
            .collect()
    }

    /// Up to `limit` queued mails due at `now`, earliest due first, then in
    /// queueing order.
    pub fn queued_outbox(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<OutboxMail>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM outbox WHERE status = 'queued' AND next_attempt_at <= ?1
             ORDER BY next_attempt_at, id LIMIT ?2"
        );
        let mails = self.query_all(&sql, params![to_secs(now), limit_param(limit)], from_row)?;
        self.all_with_attachments(mails)
    }

    /// When the next queued mail is due, for the sender's alarm.
    pub fn next_outbox_attempt(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let secs: Option<Option<i64>> = self.query_opt(
            "SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'queued'",
            [],
            |r| Ok(r.get(0)?),
        )?;
        from_opt_secs("outbox.next_attempt_at", secs.flatten())
    }

    /// Every mail queued in answer to one received mail, in queueing order.
    pub fn outbox_replies_to(&self, inbound: InboundId) -> Result<Vec<OutboxMail>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM outbox WHERE in_reply_to = ?1 ORDER BY id");
        let mails = self.query_all(&sql, [inbound.0], from_row)?;
        self.all_with_attachments(mails)
    }

    /// When mail to `address` (ignoring case, any status) was queued at or
    /// after `since`, oldest first: the input of a per-recipient rate limit
    /// that survives restarts.
    pub fn outbox_times_to(
        &self,
        address: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<DateTime<Utc>>, StoreError> {
        self.query_all(
            "SELECT created_at FROM outbox
             WHERE created_at >= ?2 AND EXISTS (
                 SELECT 1 FROM json_each(outbox.recipients) WHERE value = ?1 COLLATE NOCASE)
             ORDER BY created_at, id",
            params![address, to_secs(since)],
            |r| from_secs("outbox.created_at", r.get(0)?),
        )
    }

    /// Fixes the composed bytes of a queued mail. Once set they cannot be
    /// replaced by different bytes.
    pub fn set_outbox_message(&self, id: OutboxId, message: &[u8]) -> Result<(), StoreError> {
        self.execute_one(
            "queued outbox mail",
            id.0,
            "UPDATE outbox SET message = ?2 WHERE id = ?1 AND status = 'queued'",
            params![id.0, message],
        )
    }

    /// Records that the server accepted the mail. Final: the row can no longer change.
    pub fn mark_sent(&self, id: OutboxId, when: DateTime<Utc>) -> Result<(), StoreError> {
        self.execute_one(
            "queued outbox mail",
            id.0,
            "UPDATE outbox SET status = 'sent', sent_at = ?2 WHERE id = ?1 AND status = 'queued'",
            params![id.0, to_secs(when)],
        )
    }

    /// Records a failed attempt; the mail stays queued until `next_try`.
    pub fn mark_attempt_failed(
        &self,
        id: OutboxId,
        next_try: DateTime<Utc>,
        error: &str,
    ) -> Result<(), StoreError> {
        self.execute_one(
            "queued outbox mail",
            id.0,
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?2, last_error = ?3
             WHERE id = ?1 AND status = 'queued'",
            params![id.0, to_secs(next_try), error],
        )
    }

    /// Gives up on a mail (e.g. the server refused the recipient for good).
    pub fn mark_failed(&self, id: OutboxId, error: &str) -> Result<(), StoreError> {
        self.execute_one(
            "queued outbox mail",
            id.0,
            "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?2
             WHERE id = ?1 AND status = 'queued'",
            params![id.0, error],
        )
    }
}

impl Tx<'_> {
    /// How many mails the outbox holds, in any state.
    pub fn outbox_count(&self) -> Result<usize, StoreError> {
        let n: Option<i64> =
            self.query_opt("SELECT count(*) FROM outbox", [], |r| Ok(r.get(0)?))?;
        Ok(n.unwrap_or(0) as usize)
    }

    /// How many distinct attached files are stored, and their bytes together.
    pub fn attachment_files_size(&self) -> Result<(usize, usize), StoreError> {
        let row: Option<(i64, i64)> = self.query_opt(
            "SELECT count(*), coalesce(sum(length(bytes)), 0) FROM attachment_files",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let (n, bytes) = row.unwrap_or((0, 0));
        Ok((n as usize, bytes as usize))
    }
}
