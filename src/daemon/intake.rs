//! Mail in: each fetched batch is stored raw first, then each mail is read,
//! guarded (robots, size, rate) and applied by the engine in one transaction;
//! only after that transaction has committed is the mail marked done on the server. A crash anywhere in between
//! leaves the mail on the server and its row pending, so it is handled again,
//! and the stored status keeps it from being applied twice.

use chrono::{DateTime, Utc};

use crate::game::engine::{Admit, Vouch};
use crate::game::{Applied, Engine, EngineError};
use crate::mail::IngestOptions;
use crate::mail::NoReply;
use crate::mail::inbound::{Inbound, InboundError, InboundMail};
use crate::mail::ingest::Envelope;
use crate::mail::ratelimit::WINDOW;
use crate::mail::vouch::{Verdict, verdict};
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
    /// Mails per sender and hour that are applied and answered (mails that
    /// sign on with a seat's right password are not counted).
    pub per_hour: u32,
    /// The `authserv-id`s of the mail servers whose `Authentication-Results`
    /// the judge believes (`[judge] authserv_ids`); empty: none.
    pub authserv_ids: Vec<String>,
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
    let outcomes = match handle_batch(engine, settings, &mails, now) {
        Ok(outcomes) => outcomes,
        Err(e) => {
            tracing::error!(error = %e, mails = mails.len(), "batch left for a later attempt");
            report.deferred = mails.len();
            return Ok(report);
        }
    };
    for (mail, outcome) in mails.iter().zip(outcomes) {
        match outcome {
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

/// Stores, guards and applies one mail (see [`handle_batch`]).
pub fn handle(
    engine: &mut Engine,
    settings: &IntakeSettings,
    mail: &InboundMail,
    now: DateTime<Utc>,
) -> Result<Outcome, EngineError> {
    handle_batch(engine, settings, std::slice::from_ref(mail), now)?
        .pop()
        .expect("one outcome per mail")
}

/// Stores every mail of a batch, then guards and applies each. An `Err` (for the
/// batch, or for one mail) means nothing was decided about it (the database was
/// busy or unwritable): it stays pending and on the server.
///
/// Commits, and why each is there:
/// 1. One for the whole batch: the raw mails. Nothing is done with a mail before
///    its bytes are safe, so a mail the engine cannot handle is still there for the
///    operator, and a crash loses nothing the server has already let go of.
/// 2. One per mail: the guard (duplicate, robot, size, rate), the engine's changes,
///    the reply and the mail's status, together. Each mail gets its own so that a
///    mail the engine fails on is rolled back alone and the others stand, and so
///    that a mail is marked done on the server only once its own answer is on disk.
///
/// When the engine's store groups its syncs ([`crate::store::Store::group_syncs`],
/// as the daemon does), these commits are written but not synced one by one: one
/// sync at the end puts the whole batch on disk before any outcome is returned,
/// so nothing is marked done on the server, nor sent, before it is durable.
pub fn handle_batch(
    engine: &mut Engine,
    settings: &IntakeSettings,
    mails: &[InboundMail],
    now: DateTime<Utc>,
) -> Result<Vec<Result<Outcome, EngineError>>, EngineError> {
    let envelopes: Vec<Option<Envelope>> = mails
        .iter()
        .map(|m| m.envelope(&settings.ingest).ok())
        .collect();
    let ids = engine.store().transaction(|tx| {
        mails
            .iter()
            .zip(&envelopes)
            .map(|(mail, env)| {
                let message_id = env.as_ref().and_then(|e| e.message_id.as_deref());
                let sender = env.as_ref().and_then(|e| e.sender.as_deref()).unwrap_or("");
                Ok(tx.insert_inbound(&mail.raw, message_id, sender, now)?.id())
            })
            .collect::<Result<Vec<InboundId>, StoreError>>()
    })?;
    let outcomes = mails
        .iter()
        .zip(&envelopes)
        .zip(ids)
        .map(|((mail, env), id)| {
            let vouch = match verdict(&mail.raw, &settings.authserv_ids) {
                Verdict::NotChecked => Vouch::NotChecked,
                Verdict::Vouched => Vouch::Vouched,
                Verdict::Unvouched => Vouch::Unvouched,
            };
            match apply_stored(engine, settings, id, env.as_ref(), vouch, now) {
                Err(EngineError::Store(e)) => Err(EngineError::Store(e)),
                // Anything else would fail the same way on every attempt: record it
                // and answer once, rather than retrying the mail for ever.
                Err(e) => give_up(engine, settings, mail, &e.to_string(), now),
                ok => ok,
            }
        })
        .collect();
    if engine.store().syncs_grouped() {
        engine.store().sync()?;
    }
    Ok(outcomes)
}

/// Guards and applies one stored mail in one transaction.
fn apply_stored(
    engine: &mut Engine,
    settings: &IntakeSettings,
    id: InboundId,
    envelope: Option<&Envelope>,
    vouch: Vouch,
    now: DateTime<Utc>,
) -> Result<Outcome, EngineError> {
    let sender = envelope.and_then(|e| e.sender.clone()).unwrap_or_default();
    let text = envelope.map(Envelope::text).unwrap_or_default();
    // Why a mail read only if signed was read so (for when it was not).
    let condition = std::cell::Cell::new(None);
    let result = engine.apply_guarded(
        &sender,
        id,
        now,
        |tx| {
            Ok(match guard(tx, settings, id, envelope, &text, now)? {
                Guarded::Settled(settled) => Err(settled),
                Guarded::Read { unless } => {
                    let answer = !matches!(unless, Some(Unless::Robot(NoReply::MailingList(_))));
                    let only_if_signed = unless.is_some();
                    condition.set(unless);
                    Ok(Admit {
                        body: text.clone(),
                        vouch,
                        only_if_signed,
                        answer,
                    })
                }
            })
        },
        |tx| match condition.take() {
            Some(Unless::Robot(reason)) => not_answered(tx, id, &sender, &text, &reason, now),
            _ => rate_limited(tx, settings, id, &sender, now),
        },
        |tx, applied| tell_from_address(tx, settings, envelope, applied, now),
    )?;
    let applied = match result {
        Ok(applied) => applied,
        Err(settled) => return Ok(settled),
    };
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

/// A mail whose From is a player's address but whose replies go elsewhere
/// (Reply-To): the player hears, at the From address, what was done in their
/// name. Only for a player of the game the mail signed on to (or, when no sign-on
/// held, of any game here), and at most `per_hour` mails an hour to that address,
/// so that forged mail cannot flood them.
fn tell_from_address(
    tx: &Tx<'_>,
    settings: &IntakeSettings,
    envelope: Option<&Envelope>,
    applied: &Applied,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let Some(env) = envelope else {
        return Ok(());
    };
    let (Some(from), Some(sender)) = (&env.from_other, &env.sender) else {
        return Ok(());
    };
    if applied.duplicate {
        return Ok(());
    }
    let Some(account) = tx.account_by_address(from)? else {
        return Ok(());
    };
    let seats = tx.memberships_of(account.id)?;
    let concerned = match applied.game {
        Some(game) => seats.iter().any(|m| m.game == game),
        None => !seats.is_empty(),
    };
    if !concerned {
        return Ok(());
    }
    if tx.outbox_times_to(from, now - WINDOW)?.len() >= settings.per_hour as usize {
        tracing::warn!(%from, %sender, "mail in a player's name; notice not sent (hourly cap)");
        return Ok(());
    }
    let game_name = match applied.game {
        Some(g) => tx.game(g)?.map(|g| g.name),
        None => None,
    };
    let subject = match &game_name {
        Some(g) => format!("{}:{g} - Mail in your name", settings.judge_name),
        None => format!("{} - Mail in your name", settings.judge_name),
    };
    let message_id = env
        .message_id
        .as_deref()
        .map(|m| format!(" (Message-ID <{m}>)"))
        .unwrap_or_default();
    let body = format!(
        ":: Judge: {judge}\n\n\
         A mail with your address ({from}) in its From: line, asking for replies to go \
         to {sender} (Reply-To:), was handled by this judge{message_id}. Its subject: \
         {subject:?}.\n\n\
         If you did not send it, someone else is writing in your name: change your \
         password with SET PASSWORD and tell the game's master.\n\n\
         This is the answer that went to {sender}, with what was done:\n\n{reply}",
        judge = settings.judge_name,
        subject = env.subject,
        reply = applied.reply_body,
    );
    let recipients = [from.clone()];
    tx.queue_outbox(
        &NewOutbox {
            recipients: &recipients,
            subject: &subject,
            headers: &[],
            body: &body,
            message: None,
            // Not threaded as a reply: the mail's one reply went to its sender.
            in_reply_to: None,
            game: applied.game,
        },
        now,
    )?;
    tracing::warn!(%from, %sender, "mail in a player's name with another Reply-To; player told");
    Ok(())
}

/// What the guard decided about a mail.
enum Guarded {
    /// Settled without reading it.
    Settled(Outcome),
    /// To be read; applied only if it signs on with a seat's right password
    /// when `unless` says why not otherwise.
    Read { unless: Option<Unless> },
}

/// Why a mail is applied only if it signs on with a seat's right password.
enum Unless {
    /// Its address is over the hourly cap of mail that did not.
    OverCap,
    /// It is marked as bulk or list mail (`Precedence`, `List-Id`): a person's
    /// signed orders sent through a list or by a client that marks its mail
    /// so are still orders; anything else in such mail is not read, so that
    /// no robot is ever answered (RFC 3834, section 2).
    Robot(NoReply),
}

/// Decides, in one transaction, everything short of the engine: a mail handled
/// before, one that must not be answered, one too large, one over the rate.
fn guard(
    tx: &Tx<'_>,
    settings: &IntakeSettings,
    id: InboundId,
    envelope: Option<&Envelope>,
    text: &str,
    now: DateTime<Utc>,
) -> Result<Guarded, StoreError> {
    if tx.inbound_status(id)? != InboundStatus::Pending {
        return Ok(Guarded::Settled(Outcome::Duplicate));
    }
    let Some(env) = envelope else {
        tx.set_inbound_outcome(id, InboundStatus::Failed, "not a mail message", now)?;
        return Ok(Guarded::Settled(Outcome::Unreadable));
    };
    if let Some(reason) = &env.no_reply {
        if matches!(reason, NoReply::Precedence(_) | NoReply::MailingList(_))
            && env.sender.is_some()
        {
            return Ok(Guarded::Read {
                unless: Some(Unless::Robot(reason.clone())),
            });
        }
        let sender = env.sender.as_deref().unwrap_or("");
        return Ok(Guarded::Settled(not_answered(
            tx, id, sender, text, reason, now,
        )?));
    }
    let Some(sender) = env.sender.as_deref() else {
        tx.set_inbound_outcome(id, InboundStatus::Ignored, "no sender address", now)?;
        return Ok(Guarded::Settled(Outcome::Ignored(
            "no sender address".into(),
        )));
    };
    // The mails of the last hour that did not sign on with a right password,
    // this one included: anyone can send those in the address's name, so they
    // never hold up one that does sign on.
    let recent = tx.inbound_unsigned_count_from(sender, now - WINDOW, id)?;
    let over_cap = recent > settings.per_hour as usize;
    if env.oversize {
        if over_cap {
            return Ok(Guarded::Settled(rate_limited(
                tx, settings, id, sender, now,
            )?));
        }
        let body = format!(
            "Your mail ({} bytes) is larger than this judge accepts ({} bytes), so it \
             was not read. Please send your commands as plain text, without attachments.\n",
            env.size, settings.ingest.max_bytes
        );
        queue_short_reply(tx, settings, id, sender, &body, now)?;
        tx.set_inbound_outcome(id, InboundStatus::Processed, "refused: too large", now)?;
        return Ok(Guarded::Settled(Outcome::Oversize));
    }
    let written = text.lines().filter(|l| !l.trim().is_empty()).count();
    if written > MAX_LINES {
        if over_cap {
            return Ok(Guarded::Settled(rate_limited(
                tx, settings, id, sender, now,
            )?));
        }
        tracing::warn!(%sender, lines = written, "too many lines; not read");
        let body = format!(
            "Your mail has {written} lines of text; this judge reads at most {MAX_LINES} \
             lines in one mail, so it was not read. Please send your commands in a \
             shorter mail.\n"
        );
        queue_short_reply(tx, settings, id, sender, &body, now)?;
        tx.set_inbound_outcome(id, InboundStatus::Processed, "refused: too many lines", now)?;
        return Ok(Guarded::Settled(Outcome::Oversize));
    }
    Ok(Guarded::Read {
        unless: over_cap.then_some(Unless::OverCap),
    })
}

/// A mail that must not be answered, stored with why; the log says so too
/// when it had text, so that no command is lost without a trace.
fn not_answered(
    tx: &Tx<'_>,
    id: InboundId,
    sender: &str,
    text: &str,
    reason: &NoReply,
    now: DateTime<Utc>,
) -> Result<Outcome, StoreError> {
    let why = format!("not answered: {reason}");
    if text.lines().any(|l| !l.trim().is_empty()) {
        tracing::warn!(%sender, %reason, "mail not read or answered (automatic or list mail without a signed sign-on)");
    }
    tx.set_inbound_outcome(id, InboundStatus::Ignored, &why, now)?;
    Ok(Outcome::Ignored(why))
}

/// A mail over its address's hourly cap that did not sign on with a right
/// password (everything it did is undone): the first gets one notice, the rest
/// only their stored copy.
fn rate_limited(
    tx: &Tx<'_>,
    settings: &IntakeSettings,
    id: InboundId,
    sender: &str,
    now: DateTime<Utc>,
) -> Result<Outcome, StoreError> {
    let recent = tx.inbound_unsigned_count_from(sender, now - WINDOW, id)?;
    let cap = settings.per_hour as usize;
    let notice = recent == cap + 1;
    tracing::warn!(%sender, recent, cap, "over the hourly cap; not read");
    if notice {
        let body = format!(
            "This judge had more than {cap} mails within an hour from your address that \
             did not sign on with a right password. Until an hour has passed, such mails \
             are not read; mails that sign on with a seat's password \
             (SIGNON <power><game> <password>) are read as always.\n"
        );
        queue_short_reply(tx, settings, id, sender, &body, now)?;
    }
    tx.set_inbound_outcome(id, InboundStatus::Ignored, "rate limited", now)?;
    Ok(Outcome::RateLimited { notice })
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
