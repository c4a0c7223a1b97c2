//! Mail in: each fetched mail is stored raw first, then read, guarded (robots,
//! size, rate) and applied by the engine; only after that transaction has
//! committed is the mail marked done on the server. A crash anywhere in between
//! leaves the mail on the server and its row pending, so it is handled again,
//! and the stored status keeps it from being applied twice.

use chrono::{DateTime, Utc};

use crate::game::{Engine, EngineError};
use crate::mail::IngestOptions;
use crate::mail::inbound::{Inbound, InboundError, InboundMail};
use crate::mail::ingest::Envelope;
use crate::mail::ratelimit::WINDOW;
use crate::store::{InboundId, InboundStatus, NewOutbox, StoreError, Tx};

/// Most written (non-blank) lines one mail may carry. A full set of orders with
/// press is a few hundred lines; the judge answers every line, so a mail of a
/// million lines would get an answer of tens of megabytes that no server carries.
pub const MAX_LINES: usize = 5_000;

/// What intake needs to know about the judge.
#[derive(Debug, Clone)]
pub struct IntakeSettings {
    pub ingest: IngestOptions,
    /// Judge code for subjects of the guard's own replies.
    pub judge_name: String,
    /// Mails per sender and hour that are applied and answered.
    pub per_hour: u32,
}

/// What became of one mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Applied by the engine (with `errors` refused lines, answered either way).
    Applied { errors: usize },
    /// Handled before (same Message-ID): nothing done again.
    Duplicate,
    /// Must not be answered (automatic mail, the judge's own...): stored only.
    Ignored(String),
    /// Too large, or too many lines: one short refusal.
    Oversize,
    /// Over the sender's hourly cap: `notice` tells whether this mail got the one notice.
    RateLimited { notice: bool },
    /// Not a mail at all: stored for the operator.
    Unreadable,
    /// The engine failed on it (not the sender's mistake): stored for the operator,
    /// and the sender told so once.
    Failed(String),
}

/// Counts of one intake pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntakeReport {
    pub fetched: usize,
    pub applied: usize,
    pub duplicates: usize,
    pub ignored: usize,
    pub oversize: usize,
    pub rate_limited: usize,
    pub unreadable: usize,
    /// The engine failed on them; kept for the operator.
    pub failed: usize,
    /// Left on the server because handling failed; tried again next time.
    pub deferred: usize,
}

impl IntakeReport {
    fn count(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Applied { .. } => self.applied += 1,
            Outcome::Duplicate => self.duplicates += 1,
            Outcome::Ignored(_) => self.ignored += 1,
            Outcome::Oversize => self.oversize += 1,
            Outcome::RateLimited { .. } => self.rate_limited += 1,
            Outcome::Unreadable => self.unreadable += 1,
            Outcome::Failed(_) => self.failed += 1,
        }
    }

    /// Mails finished (and committed on the server) in this pass.
    pub fn handled(&self) -> usize {
        self.fetched - self.deferred
    }
}

/// Fetches one batch and handles every mail in it.
pub async fn intake_batch(
    inbound: &mut Inbound,
    engine: &mut Engine,
    settings: &IntakeSettings,
    now: DateTime<Utc>,
) -> Result<IntakeReport, InboundError> {
    let mails = inbound.fetch().await?;
    let mut report = IntakeReport {
        fetched: mails.len(),
        ..IntakeReport::default()
    };
    for mail in mails {
        match handle(engine, settings, &mail, now) {
            Ok(outcome) => {
                tracing::info!(key = ?mail.key, ?outcome, "mail handled");
                report.count(&outcome);
                match inbound.commit(&mail.key).await {
                    Ok(()) => {}
                    // Someone else removed it: it is handled here, nothing is lost.
                    Err(InboundError::Gone(key)) => {
                        tracing::warn!(?key, "mail gone before it could be marked done");
                    }
                    Err(e) => return Err(e),
                }
            }
            Err(e) => {
                tracing::error!(key = ?mail.key, error = %e, "mail left for a later attempt");
                report.deferred += 1;
            }
        }
    }
    Ok(report)
}

/// Stores, guards and applies one mail. An `Err` means nothing was decided about
/// it (the database was busy or unwritable): it stays pending and on the server.
pub fn handle(
    engine: &mut Engine,
    settings: &IntakeSettings,
    mail: &InboundMail,
    now: DateTime<Utc>,
) -> Result<Outcome, EngineError> {
    match try_handle(engine, settings, mail, now) {
        Err(EngineError::Store(e)) => Err(EngineError::Store(e)),
        // Anything else would fail the same way on every attempt: record it and
        // answer once, rather than retrying the mail for ever.
        Err(e) => give_up(engine, settings, mail, &e.to_string(), now),
        ok => ok,
    }
}

fn try_handle(
    engine: &mut Engine,
    settings: &IntakeSettings,
    mail: &InboundMail,
    now: DateTime<Utc>,
) -> Result<Outcome, EngineError> {
    let envelope = mail.envelope(&settings.ingest).ok();
    let message_id = envelope.as_ref().and_then(|e| e.message_id.clone());
    let sender = envelope
        .as_ref()
        .and_then(|e| e.sender.clone())
        .unwrap_or_default();
    let id = engine
        .store()
        .transaction(|tx| tx.insert_inbound(&mail.raw, message_id.as_deref(), &sender, now))?
        .id();
    let guarded = engine
        .store()
        .transaction(|tx| guard(tx, settings, id, envelope.as_ref(), now))?;
    if let Some(outcome) = guarded {
        return Ok(outcome);
    }
    let Some(envelope) = envelope else {
        return Ok(Outcome::Unreadable);
    };
    let body = envelope.body_lines.join("\n");
    let applied = engine.apply_text(&sender, &body, Some(id), now)?;
    if applied.errors > 0 {
        // Refused lines include wrong passwords: the operator should see who
        // keeps sending them (the rate limit caps how many are answered).
        tracing::warn!(%sender, errors = applied.errors, "mail with refused lines");
    }
    Ok(if applied.duplicate {
        Outcome::Duplicate
    } else {
        Outcome::Applied {
            errors: applied.errors,
        }
    })
}

/// Decides, in one transaction, everything short of the engine: a mail handled
/// before, one that must not be answered, one too large, one over the rate. Returns
/// `None` when the engine should apply the mail.
fn guard(
    tx: &Tx<'_>,
    settings: &IntakeSettings,
    id: InboundId,
    envelope: Option<&Envelope>,
    now: DateTime<Utc>,
) -> Result<Option<Outcome>, StoreError> {
    if tx.inbound_status(id)? != InboundStatus::Pending {
        return Ok(Some(Outcome::Duplicate));
    }
    let Some(env) = envelope else {
        tx.set_inbound_outcome(id, InboundStatus::Failed, "not a mail message", now)?;
        return Ok(Some(Outcome::Unreadable));
    };
    if let Some(reason) = &env.no_reply {
        let why = format!("not answered: {reason}");
        tx.set_inbound_outcome(id, InboundStatus::Ignored, &why, now)?;
        return Ok(Some(Outcome::Ignored(why)));
    }
    let Some(sender) = env.sender.as_deref() else {
        tx.set_inbound_outcome(id, InboundStatus::Ignored, "no sender address", now)?;
        return Ok(Some(Outcome::Ignored("no sender address".into())));
    };
    // The mails of the last hour, this one included: the first `per_hour` are
    // answered, the next gets one notice, the rest only their stored copy.
    let recent = tx.inbound_times_from(sender, now - WINDOW)?.len();
    let cap = settings.per_hour as usize;
    if recent > cap {
        let notice = recent == cap + 1;
        tracing::warn!(%sender, recent, cap, "over the hourly cap; not read");
        if notice {
            let body = format!(
                "You have sent more than {cap} mails to this judge within an hour. \
                 Further mails from you are not read until an hour has passed; \
                 please send your commands again then.\n"
            );
            queue_short_reply(tx, settings, id, sender, &body, now)?;
        }
        tx.set_inbound_outcome(id, InboundStatus::Ignored, "rate limited", now)?;
        return Ok(Some(Outcome::RateLimited { notice }));
    }
    if env.oversize {
        let body = format!(
            "Your mail ({} bytes) is larger than this judge accepts ({} bytes), so it \
             was not read. Please send your commands as plain text, without attachments.\n",
            env.size, settings.ingest.max_bytes
        );
        queue_short_reply(tx, settings, id, sender, &body, now)?;
        tx.set_inbound_outcome(id, InboundStatus::Processed, "refused: too large", now)?;
        return Ok(Some(Outcome::Oversize));
    }
    let written = env
        .body_lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .count();
    if written > MAX_LINES {
        tracing::warn!(%sender, lines = written, "too many lines; not read");
        let body = format!(
            "Your mail has {written} lines of text; this judge reads at most {MAX_LINES} \
             lines in one mail, so it was not read. Please send your commands in a \
             shorter mail.\n"
        );
        queue_short_reply(tx, settings, id, sender, &body, now)?;
        tx.set_inbound_outcome(id, InboundStatus::Processed, "refused: too many lines", now)?;
        return Ok(Some(Outcome::Oversize));
    }
    Ok(None)
}

/// Marks a mail the engine failed on as failed, with one short answer.
fn give_up(
    engine: &mut Engine,
    settings: &IntakeSettings,
    mail: &InboundMail,
    error: &str,
    now: DateTime<Utc>,
) -> Result<Outcome, EngineError> {
    tracing::error!(key = ?mail.key, %error, "the engine failed on a mail");
    let envelope = mail.envelope(&settings.ingest).ok();
    let message_id = envelope.as_ref().and_then(|e| e.message_id.clone());
    let sender = envelope.as_ref().and_then(|e| e.sender.clone());
    engine.store().transaction(|tx| {
        let raw_sender = sender.clone().unwrap_or_default();
        let id = tx
            .insert_inbound(&mail.raw, message_id.as_deref(), &raw_sender, now)?
            .id();
        if tx.inbound_status(id)? != InboundStatus::Pending {
            return Ok(Outcome::Duplicate);
        }
        if let Some(to) = &sender {
            let body = "Your mail could not be handled because of a problem in the judge \
                        itself, not in your mail. It has been kept for the judge's operator; \
                        please try again later.\n";
            queue_short_reply(tx, settings, id, to, body, now)?;
        }
        tx.set_inbound_outcome(id, InboundStatus::Failed, &format!("engine: {error}"), now)?;
        Ok(Outcome::Failed(error.to_string()))
    })
}

fn queue_short_reply(
    tx: &Tx<'_>,
    settings: &IntakeSettings,
    id: InboundId,
    to: &str,
    body: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let recipients = [to.to_string()];
    let subject = format!("[Error Flag] {}", settings.judge_name);
    tx.queue_outbox(
        &NewOutbox {
            recipients: &recipients,
            subject: &subject,
            headers: &[],
            body: &format!(":: Judge: {}\n\n{body}", settings.judge_name),
            message: None,
            in_reply_to: Some(id),
            game: None,
        },
        now,
    )?;
    Ok(())
}
