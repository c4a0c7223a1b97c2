//! Mail out: every due outbox entry is composed once (its bytes are fixed in the
//! store before the first attempt, so a retry sends the very same mail with the
//! same Message-ID), handed to the server, and marked sent. Transient failures
//! back off exponentially; a permanent refusal ends the entry.

use chrono::{DateTime, Utc};

use crate::mail::compose::{OutgoingMail, RenderedMail, render};
use crate::mail::outbound::{Outbound, SendError, retry_delay};
use crate::mail::subject::original_subject;
use crate::mail::{Attachment, IngestOptions, ingest};
use crate::store::{OutboxMail, Store, StoreError, Tx};

/// Entries read from the store at a time.
const BATCH: usize = 20;

/// What delivery needs to know about the judge.
#[derive(Debug, Clone)]
pub struct DeliverySettings {
    /// The judge's address: From of every mail.
    pub judge_address: String,
    /// Judge code, shown as the From name and stripped from quoted subjects.
    pub judge_name: String,
}

/// Counts of one delivery pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: usize,
    /// Failed for now; queued again with a later attempt time.
    pub postponed: usize,
    /// Given up on for good.
    pub failed: usize,
}

/// Delivers every entry due at `now`. After a transient failure the rest of the
/// pass is postponed too: the server is most likely down, and trying every mail
/// against it would only delay the next pass.
pub async fn deliver_due(
    store: &mut Store,
    outbound: &Outbound,
    settings: &DeliverySettings,
    now: DateTime<Utc>,
) -> Result<DeliveryReport, StoreError> {
    deliver_due_until(store, outbound, settings, now, &|| false).await
}

/// [`deliver_due`], ending early once `stopping()` is true. It is asked only
/// between entries: a mail being handed over is finished and marked sent, never
/// cut off between the server's acceptance and the mark (which would send it
/// again after a restart).
pub async fn deliver_due_until(
    store: &mut Store,
    outbound: &Outbound,
    settings: &DeliverySettings,
    now: DateTime<Utc>,
    stopping: &(dyn Fn() -> bool + Sync),
) -> Result<DeliveryReport, StoreError> {
    let mut report = DeliveryReport::default();
    let mut server_down: Option<String> = None;
    loop {
        let batch = store.transaction(|tx| tx.queued_outbox(now, BATCH))?;
        if batch.is_empty() {
            return Ok(report);
        }
        // The entries may have been committed by a connection that groups its
        // syncs (the engine's): put them on disk before any of them leaves.
        store.sync()?;
        for entry in batch {
            if stopping() {
                return Ok(report);
            }
            if let Some(error) = &server_down {
                postpone(store, &entry, now, &format!("not tried: {error}"))?;
                report.postponed += 1;
                continue;
            }
            let rendered = match fix_bytes(store, settings, &entry, now)? {
                Ok(r) => r,
                Err(error) => {
                    tracing::error!(outbox = %entry.id, %error, "cannot compose; given up");
                    store.transaction(|tx| tx.mark_failed(entry.id, &error))?;
                    report.failed += 1;
                    continue;
                }
            };
            match outbound.send(&rendered).await {
                Ok(_) => {
                    // The server has the mail: from here on only the store can fail,
                    // and a failure is logged loudly, since the entry would go out again.
                    store
                        .transaction(|tx| tx.mark_sent(entry.id, now))
                        .inspect_err(|e| {
                            tracing::error!(outbox = %entry.id, error = %e, "sent but not marked sent")
                        })?;
                    tracing::info!(outbox = %entry.id, to = ?entry.recipients, "sent");
                    report.sent += 1;
                }
                Err(SendError::Permanent(error)) => {
                    tracing::warn!(outbox = %entry.id, %error, "refused for good");
                    store.transaction(|tx| tx.mark_failed(entry.id, &error))?;
                    report.failed += 1;
                }
                Err(SendError::Transient(error)) => {
                    tracing::warn!(outbox = %entry.id, %error, "will retry");
                    postpone(store, &entry, now, &error)?;
                    report.postponed += 1;
                    server_down = Some(error);
                }
            }
        }
    }
}

fn postpone(
    store: &mut Store,
    entry: &OutboxMail,
    now: DateTime<Utc>,
    error: &str,
) -> Result<(), StoreError> {
    let failed = u32::try_from(entry.attempts)
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    let delay = chrono::Duration::from_std(retry_delay(failed))
        .unwrap_or_else(|_| chrono::Duration::minutes(30));
    store.transaction(|tx| tx.mark_attempt_failed(entry.id, now + delay, error))
}

/// The entry's bytes: those fixed before, or newly composed and fixed now.
/// The inner `Err` is a mail that can never be composed.
fn fix_bytes(
    store: &mut Store,
    settings: &DeliverySettings,
    entry: &OutboxMail,
    now: DateTime<Utc>,
) -> Result<Result<RenderedMail, String>, StoreError> {
    let from = settings.judge_address.as_str();
    if let Some(bytes) = &entry.message {
        return Ok(Ok(RenderedMail::from_bytes(
            from,
            entry.recipients.clone(),
            bytes.clone(),
        )));
    }
    store.transaction(|tx| {
        let mail = compose(tx, settings, entry, now)?;
        let rendered = match render(&mail) {
            Ok(r) => r,
            Err(e) => return Ok(Err(e.to_string())),
        };
        tx.set_outbox_message(entry.id, &rendered.bytes)?;
        Ok(Ok(rendered))
    })
}

/// The mail for an entry: from the judge, with the entry's files attached,
/// threaded under the mail it answers, with the subject
/// `Re: <tag> <original subject>` for answers.
pub fn compose(
    tx: &Tx<'_>,
    settings: &DeliverySettings,
    entry: &OutboxMail,
    now: DateTime<Utc>,
) -> Result<OutgoingMail, StoreError> {
    let from = settings.judge_address.as_str();
    let mut mail = OutgoingMail::from_header_fields(
        from,
        entry.recipients.clone(),
        entry.subject.clone(),
        entry.body.clone(),
        &entry.headers,
    );
    mail.from_name = Some(settings.judge_name.clone());
    mail.date = Some(now);
    mail.attachments = entry
        .attachments
        .iter()
        .map(|a| Attachment {
            filename: Some(a.filename.clone()),
            content_type: a.content_type.clone(),
            data: a.bytes.clone(),
        })
        .collect();
    let original = match entry.in_reply_to {
        Some(id) => tx.inbound(id)?,
        None => None,
    };
    // The stored copy may be only the header (an oversize mail): enough to thread.
    let opts = IngestOptions {
        judge_address: from.to_string(),
        max_bytes: usize::MAX,
    };
    if let Some(envelope) = original.and_then(|o| ingest(&o.raw, &opts).ok()) {
        let rest = original_subject(&envelope.subject, &settings.judge_name);
        let subject = if rest.is_empty() {
            format!("Re: {}", entry.subject)
        } else {
            format!("Re: {} {rest}", entry.subject)
        };
        if let Some(reply) =
            OutgoingMail::reply_to(&envelope, from, subject.clone(), entry.body.clone())
        {
            mail.in_reply_to = reply.in_reply_to;
            mail.references = reply.references;
            mail.auto_submitted = reply.auto_submitted;
        }
        mail.subject = subject;
    }
    Ok(mail)
}
