//! The engine over the store: one mail's lines, or the clock, applied in one
//! transaction together with every mail they cause.

use std::path::Path;

use chrono::{DateTime, Utc};

use super::EngineError;
use super::advance;
use super::pictures::DrawAhead;
use super::request::Line;
use super::session::Session;
use super::work::Work;
use crate::store::{GameId, InboundId, InboundStatus, Store, StoreError, Tx};

/// What the engine needs to know about the judge it runs in.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The judge code shown in subjects (`LEGT`).
    pub judge_name: String,
    /// The time zone of an address with no account yet (`[judge] timezone`):
    /// new accounts start in it, and mail to such an address shows times in it.
    pub timezone: chrono_tz::Tz,
    /// The judge's own address: no seat's mail may be sent to it.
    pub judge_address: String,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            judge_name: "LEGT".to_string(),
            timezone: chrono_tz::Tz::UTC,
            judge_address: String::new(),
        }
    }
}

pub use super::request::Vouch;

/// How intake lets a stored mail be read.
#[derive(Clone, Debug)]
pub struct Admit {
    /// The text to read.
    pub body: String,
    pub vouch: Vouch,
    /// Over its address's hourly cap of unsigned mail: applied only if it
    /// signs on with a seat's right password, else undone and left unanswered.
    pub only_if_signed: bool,
    /// The mail is answered (not for list mail: the answer would go to the list).
    pub answer: bool,
}

/// What applying one mail did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The mail had been applied before: nothing was done this time.
    pub duplicate: bool,
    /// Lines refused (each changed nothing; the other lines were applied).
    pub errors: usize,
    /// Phases processed because of this mail (early processing, PROCESS).
    pub processed: usize,
    /// The reply queued to the sender (subject and body as queued).
    pub reply_subject: String,
    pub reply_body: String,
    /// The game the mail signed on to, if any.
    pub game: Option<GameId>,
    /// The mail signed on with a seat's right password.
    pub signed: bool,
}

pub(crate) type SecretSource = Box<dyn FnMut() -> [u8; 32] + Send>;

pub struct Engine {
    store: Store,
    config: EngineConfig,
    secrets: SecretSource,
}

impl Engine {
    /// Opens (creating and migrating if needed) the database at `path`.
    pub fn open(path: impl AsRef<Path>, config: EngineConfig) -> Result<Engine, EngineError> {
        Ok(Engine::new(Store::open(path)?, config))
    }

    pub fn new(store: Store, config: EngineConfig) -> Engine {
        Engine {
            store,
            config,
            secrets: Box::new(super::work::os_secret),
        }
    }

    /// Replaces where lot secrets come from (tests make them reproducible).
    pub fn set_secret_source(&mut self, source: impl FnMut() -> [u8; 32] + Send + 'static) {
        self.secrets = Box::new(source);
    }

    pub fn store(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Applies one mail from `sender`: its lines in order, in one transaction
    /// with the reply and every mail it causes. A refused line changes nothing
    /// and is reported in the reply (subject `[Error Flag] ...`); every other
    /// line still applies. With `inbound`, the mail's stored row is marked
    /// processed in the same transaction, and a mail already processed is not
    /// applied again (`Applied::duplicate`).
    pub fn apply(
        &mut self,
        sender: &str,
        lines: &[Line],
        inbound: Option<InboundId>,
        now: DateTime<Utc>,
    ) -> Result<Applied, EngineError> {
        let config = self.config.clone();
        let secrets = &mut self.secrets;
        self.store.transaction(|tx| {
            let admit = Admission {
                vouch: Vouch::NotChecked,
                only_if_signed: false,
                answer: true,
            };
            let applied = apply_in(tx, &config, secrets, sender, lines, inbound, admit, now)?;
            Ok(applied.unwrap_or_else(duplicate))
        })
    }

    /// Reads a stored mail and applies it in one transaction with what the
    /// caller decides around it: `guard` runs first and either admits the mail
    /// (`Ok`, with the body to read) or settles it itself (`Err`, returned as
    /// is, nothing read); `unsigned` settles a mail admitted only if signed
    /// that was not (everything it did is undone first); `after` may queue
    /// more mail once the mail is applied. One commit for the whole mail.
    pub fn apply_guarded<T>(
        &mut self,
        sender: &str,
        inbound: InboundId,
        now: DateTime<Utc>,
        guard: impl FnOnce(&Tx<'_>) -> Result<Result<Admit, T>, StoreError>,
        unsigned: impl FnOnce(&Tx<'_>) -> Result<T, StoreError>,
        after: impl FnOnce(&Tx<'_>, &Applied) -> Result<(), StoreError>,
    ) -> Result<Result<Applied, T>, EngineError> {
        let config = self.config.clone();
        let secrets = &mut self.secrets;
        self.store.transaction(|tx| {
            let admit = match guard(tx)? {
                Ok(admit) => admit,
                Err(settled) => return Ok(Err(settled)),
            };
            let lines = read_lines(tx, &config, sender, &admit.body, now)?;
            let admission = Admission {
                vouch: admit.vouch,
                only_if_signed: admit.only_if_signed,
                answer: admit.answer,
            };
            let applied = apply_in(
                tx,
                &config,
                secrets,
                sender,
                &lines,
                Some(inbound),
                admission,
                now,
            )?;
            let Some(applied) = applied else {
                return Ok(Err(unsigned(tx)?));
            };
            if applied.signed && !applied.duplicate {
                tx.mark_inbound_signed(inbound)?;
            }
            after(tx, &applied)?;
            Ok(Ok(applied))
        })
    }

    /// Reads a mail body with the grammar (the map of the game it signs on to;
    /// zone) and applies it like [`Engine::apply`].
    pub fn apply_text(
        &mut self,
        sender: &str,
        body: &str,
        inbound: Option<InboundId>,
        now: DateTime<Utc>,
    ) -> Result<Applied, EngineError> {
        let config = self.config.clone();
        let lines = self
            .store
            .transaction(|tx| read_lines(tx, &config, sender, body, now))?;
        self.apply(sender, &lines, inbound, now)
    }

    /// Does what the clock asks of every game whose deadline or grace has
    /// passed at `now`: processing, late notices, civil disorder, abandonment.
    /// Each game in its own transaction. Returns the phases processed.
    ///
    /// With more than one game due, the board pictures are drawn ahead on a
    /// second thread ([`DrawAhead`]) while this one works through the games.
    pub fn process_due(&mut self, now: DateTime<Utc>) -> Result<usize, EngineError> {
        let ids = self.store.transaction(|tx| tx.due_games(now))?;
        let judge = self.config.judge_name.clone();
        let reader = match self.store.path() {
            Some(path) if ids.len() > 1 => Store::open_reader(path)
                .inspect_err(|e| tracing::warn!(error = %e, "pictures not drawn ahead"))
                .ok(),
            _ => None,
        };
        let ahead = DrawAhead::new(&ids, &judge, now);
        let total = std::thread::scope(|scope| {
            let worker = reader.map(|r| scope.spawn(|| ahead.run(r)));
            let total = self.process_games(&ids, now, &ahead);
            ahead.finish();
            if let Some(w) = worker {
                w.thread().unpark();
            }
            total
        })?;
        if self.store.syncs_grouped() {
            self.store.sync()?;
        }
        Ok(total)
    }

    fn process_games(
        &mut self,
        ids: &[GameId],
        now: DateTime<Utc>,
        ahead: &DrawAhead<'_>,
    ) -> Result<usize, EngineError> {
        let judge = self.config.judge_name.clone();
        let zone = self.config.timezone;
        let mut total = 0;
        for (i, &id) in ids.iter().enumerate() {
            ahead.starting(i);
            total += self.store.transaction(|tx| -> Result<usize, EngineError> {
                let mut work = Work::new(tx, now, &judge, None);
                work.default_zone = zone;
                let Some(key) = work.load_id(id)? else {
                    return Ok(0);
                };
                let n = advance::due(&mut work, &key)?;
                work.flush()?;
                Ok(n)
            })?;
        }
        Ok(total)
    }

    /// When `process_due` next has something to do (the daemon's alarm).
    pub fn next_wakeup(&mut self) -> Result<Option<DateTime<Utc>>, EngineError> {
        Ok(self.store.transaction(|tx| tx.next_deadline())?)
    }
}

/// A mail body read with the grammar: the map of the game it signs on to,
/// dates in the sender's zone.
fn read_lines(
    tx: &Tx<'_>,
    config: &EngineConfig,
    sender: &str,
    body: &str,
    now: DateTime<Utc>,
) -> Result<Vec<Line>, EngineError> {
    let map = crate::map::Map::standard();
    let zone = tx
        .account_by_address(sender)?
        .map(|a| crate::schedule::zone(&a.time_zone))
        .unwrap_or(config.timezone);
    let parsed = crate::grammar::parse_body(map, body);
    // A game with a map of its own (Masters minor powers) reads its mail with it.
    let game_map = super::variants::mail_map(tx, &parsed)?;
    let (map, parsed) = if std::ptr::eq(game_map, map) {
        (map, parsed)
    } else {
        (game_map, crate::grammar::parse_body(game_map, body))
    };
    Ok(super::from_grammar::lines_from_body(
        map, &parsed, now, zone,
    ))
}

/// How one mail is let in (see [`Admit`]).
#[derive(Clone, Copy, Debug)]
struct Admission {
    vouch: Vouch,
    only_if_signed: bool,
    answer: bool,
}

/// One mail's lines applied inside `tx`, with the reply and every mail they
/// cause. `None`: admitted only if signed, it was not, and nothing of it is
/// kept. A mail that met a seat's wrong-password lock is undone whole and
/// answered with the lock alone: nothing in a guessing mail may show whether
/// the guess was right.
#[allow(clippy::too_many_arguments)]
fn apply_in(
    tx: &Tx<'_>,
    config: &EngineConfig,
    secrets: &mut SecretSource,
    sender: &str,
    lines: &[Line],
    inbound: Option<InboundId>,
    admission: Admission,
    now: DateTime<Utc>,
) -> Result<Option<Applied>, EngineError> {
    if let Some(id) = inbound
        && tx.inbound_status(id)? != InboundStatus::Pending
    {
        return Ok(Some(duplicate()));
    }
    let judge = &config.judge_name;
    let (outcome, kept) = tx.attempt(|tx| -> Result<_, EngineError> {
        let mut work = Work::new(tx, now, judge, inbound);
        work.default_zone = config.timezone;
        work.judge_address = config.judge_address.clone();
        let mut session = Session::new(&mut work, sender, &mut **secrets, admission.vouch);
        session.run(lines)?;
        let held = session.held();
        let keep = held.locked.is_none() && (held.signed || !admission.only_if_signed);
        if !keep {
            return Ok((Err(held), false));
        }
        let (subject, body, game) = compose_reply(&session, judge, lines.is_empty());
        let (errors, processed) = (session.errors, session.processed);
        drop(session);
        if admission.answer {
            work.send(sender, subject.clone(), body.clone(), game, true);
        }
        work.flush()?;
        if let Some(id) = inbound {
            let outcome = match errors {
                0 => "applied".to_string(),
                n => format!("applied; {n} line(s) refused"),
            };
            tx.set_inbound_outcome(id, InboundStatus::Processed, &outcome, now)?;
        }
        Ok((
            Ok(Applied {
                duplicate: false,
                errors,
                processed,
                reply_subject: subject,
                reply_body: body,
                game,
                signed: held.signed,
            }),
            true,
        ))
    })?;
    let held = match outcome {
        Ok(applied) => {
            debug_assert!(kept);
            return Ok(Some(applied));
        }
        Err(held) => held,
    };
    // Undone: what guards passwords is kept all the same.
    for e in &held.kept_events {
        tx.append_event(&crate::store::NewEvent {
            at: now,
            game: e.game,
            account: None,
            inbound,
            kind: e.kind,
            detail: &e.detail.to_string(),
        })?;
    }
    if let Some(notice) = &held.masters_notice {
        let mut work = Work::new(tx, now, judge, inbound);
        work.default_zone = config.timezone;
        if let Some(key) = work.load_id(notice.game)? {
            super::session::tell_masters_of_guessing(&mut work, &key, notice, sender)?;
        }
        work.flush()?;
    }
    match held.locked {
        Some(lock) if !admission.only_if_signed => Ok(Some(answer_locked(
            tx, config, sender, inbound, &lock, now,
        )?)),
        _ => Ok(None),
    }
}

/// The one answer to a mail that met a seat's lock: what the lock is, and
/// that nothing in the mail was applied.
fn answer_locked(
    tx: &Tx<'_>,
    config: &EngineConfig,
    sender: &str,
    inbound: Option<InboundId>,
    lock: &super::session::Locked,
    now: DateTime<Utc>,
) -> Result<Applied, EngineError> {
    let judge = &config.judge_name;
    let subject = format!("[Error Flag] {judge}:{}", lock.game_name);
    let body = format!(
        ":: Judge: {judge}  Game: {}\n\n> {}\nError (line {}): {}\n\n\
         Nothing in this mail was applied: while a seat is locked, no line of a mail \
         that signs on to it is read.\n",
        lock.game_name, lock.text, lock.line, lock.message
    );
    let mut work = Work::new(tx, now, judge, inbound);
    work.default_zone = config.timezone;
    work.send(sender, subject.clone(), body.clone(), Some(lock.game), true);
    work.flush()?;
    if let Some(id) = inbound {
        tx.set_inbound_outcome(id, InboundStatus::Processed, "refused: seat locked", now)?;
    }
    Ok(Applied {
        duplicate: false,
        errors: 1,
        processed: 0,
        reply_subject: subject,
        reply_body: body,
        game: Some(lock.game),
        signed: false,
    })
}

fn duplicate() -> Applied {
    Applied {
        duplicate: true,
        errors: 0,
        processed: 0,
        reply_subject: String::new(),
        reply_body: String::new(),
        game: None,
        signed: false,
    }
}

/// The reply to a mail: subject `[Error Flag] LEGT:game - S1901M` (the mail
/// layer adds `Re: ` and the original subject), header lines, every line with
/// what became of it, and the sender's current orders.
fn compose_reply(
    session: &Session<'_, '_, '_>,
    judge: &str,
    empty: bool,
) -> (String, String, Option<crate::store::GameId>) {
    let context = session.context_game();
    let completed = session.completed();
    let mut subject = String::new();
    if session.errors > 0 {
        subject.push_str("[Error Flag] ");
    }
    subject.push_str(judge);
    let mut body = format!(":: Judge: {judge}");
    if let Some((game, phase)) = &context {
        subject.push(':');
        subject.push_str(game);
        body.push_str(&format!("  Game: {game}"));
        // The phase the mail's orders were for, even once it is processed.
        if let Some(p) = completed.map(|c| &c.phase).or(phase.as_ref()) {
            subject.push_str(" - ");
            subject.push_str(p);
        }
    }
    body.push('\n');
    let summary = session.order_summary();
    if let Some((_, text)) = &summary
        && let Some(first) = text.lines().next()
    {
        body.push_str(first);
        body.push('\n');
    }
    body.push('\n');
    if empty {
        body.push_str("No commands were found in your mail.\n\n");
        body.push_str(&super::answers::help());
        body.push('\n');
    }
    for r in session.reply() {
        body.push_str(r);
        body.push_str("\n\n");
    }
    if session.errors > 0 {
        body.push_str(&format!(
            "{} line(s) marked Error above were not applied; every other line was.\n",
            session.errors
        ));
    }
    // Orders that completed their phase are shown for it: the summary now
    // would speak of the next phase.
    let orders = match completed {
        Some(c) => Some(format!(
            "{}\nEvery order for {} is in: the phase is being processed now, and its \
             results follow in a separate mail.",
            c.orders, c.phase
        )),
        None => summary.map(|(_, text)| text),
    };
    if let Some(text) = orders {
        let rest: Vec<&str> = text.lines().skip(1).collect();
        if !rest.is_empty() {
            body.push_str(&rest.join("\n"));
            body.push('\n');
        }
    }
    (subject, body, session.game_id())
}
