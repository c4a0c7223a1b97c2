//! The judge as a running program: mail in, the engine, deadlines, mail out.
//!
//! - `intake`: fetched mail → stored → guarded → applied → committed on the server.
//! - `delivery`: outbox → composed once → sent → marked sent, with backoff.
//! - `clock`: the time (system or fixed) and when to wake.
//!
//! [`run_once`] does one pass of everything and returns; [`run`] keeps going, with
//! one task reading mail and watching deadlines and one task delivering the outbox.
//! This file is the only place that spawns tasks (the deadline pass also draws
//! board pictures on a scoped thread of its own while it runs, see
//! `game::pictures::DrawAhead`).

pub mod clock;
pub mod delivery;
pub mod intake;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::{Notify, watch};

use crate::config::{Config, InboundConfig};
use crate::game::{Engine, EngineConfig, EngineError};
use crate::mail::IngestOptions;
use crate::mail::inbound::{Inbound, InboundError};
use crate::mail::outbound::{Outbound, SendError};
use crate::store::{Store, StoreError};
use delivery::{DeliveryReport, DeliverySettings, deliver_due, deliver_due_until};
use intake::{IntakeReport, IntakeSettings, intake_batch};

/// Why the daemon could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("reading mail: {0}")]
    Inbound(#[from] InboundError),
    #[error("sending mail: {0}")]
    Outbound(#[from] SendError),
    #[error("a daemon task stopped: {0}")]
    Task(String),
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    pub intake: IntakeReport,
    /// Reading mail failed (the rest of the pass went on without new mail).
    pub inbound_error: Option<String>,
    /// Phases processed because their deadline had come.
    pub processed: usize,
    pub delivery: DeliveryReport,
}

/// The settings every part derives from the configuration.
#[derive(Debug, Clone)]
struct Parts {
    intake: IntakeSettings,
    delivery: DeliverySettings,
    engine: EngineConfig,
    poll: Duration,
}

impl Parts {
    fn of(config: &Config) -> Parts {
        let judge = &config.judge;
        Parts {
            intake: IntakeSettings {
                ingest: IngestOptions {
                    judge_address: judge.address.clone(),
                    max_bytes: judge.max_mail_bytes,
                },
                judge_name: judge.name.clone(),
                per_hour: judge.replies_per_hour,
                authserv_ids: judge.authserv_ids.clone(),
            },
            delivery: DeliverySettings {
                judge_address: judge.address.clone(),
                judge_name: judge.name.clone(),
            },
            engine: EngineConfig {
                judge_name: judge.name.clone(),
                timezone: judge.timezone,
                judge_address: judge.address.clone(),
            },
            poll: Duration::from_secs(match &config.inbound {
                InboundConfig::Imap(c) => c.poll_seconds.max(1),
                InboundConfig::Maildir(c) => c.poll_seconds.max(1),
            }),
        }
    }
}

/// One pass at `now`: every waiting mail, every due deadline, then the outbox.
pub async fn run_once(config: &Config, now: DateTime<Utc>) -> Result<PassReport, DaemonError> {
    let parts = Parts::of(config);
    let mut engine = Engine::open(&config.judge.database, parts.engine.clone())?;
    engine.store().group_syncs()?;
    let mut inbound = Inbound::from_config(&config.inbound, config.judge.max_mail_bytes)?;
    let outbound = Outbound::from_config(&config.outbound)?;
    let mut report = PassReport::default();
    match read_all(&mut inbound, &mut engine, &parts.intake, now, || true).await {
        Ok(r) => report.intake = r,
        Err((r, e)) => {
            report.intake = r;
            report.inbound_error = Some(e.to_string());
        }
    }
    report.processed = engine.process_due(now)?;
    report.delivery = deliver_due(engine.store(), &outbound, &parts.delivery, now).await?;
    Ok(report)
}

/// Reads batches until one brings nothing new to handle, calling `batch_done` after
/// each batch that handled mail, so that its answers need not wait for the rest
/// of a long mailbox. `batch_done` returns false to stop before the next batch
/// (the daemon is stopping): a batch in hand is always finished, each mail
/// applied and committed on the server, so none is cut off half-way.
async fn read_all(
    inbound: &mut Inbound,
    engine: &mut Engine,
    settings: &IntakeSettings,
    now: DateTime<Utc>,
    mut batch_done: impl FnMut() -> bool,
) -> Result<IntakeReport, (IntakeReport, InboundError)> {
    let mut total = IntakeReport::default();
    loop {
        match intake_batch(inbound, engine, settings, now).await {
            Ok(r) => {
                let handled = r.handled();
                add(&mut total, &r);
                if handled == 0 || !batch_done() {
                    return Ok(total);
                }
            }
            Err(e) => return Err((total, e)),
        }
    }
}

fn add(total: &mut IntakeReport, r: &IntakeReport) {
    total.fetched += r.fetched;
    total.applied += r.applied;
    total.duplicates += r.duplicates;
    total.ignored += r.ignored;
    total.oversize += r.oversize;
    total.rate_limited += r.rate_limited;
    total.unreadable += r.unreadable;
    total.failed += r.failed;
    total.deferred += r.deferred;
}

/// Runs until `shutdown` completes: one task reads mail and watches deadlines, one
/// delivers the outbox (woken by the first whenever it may have queued mail).
pub async fn run(config: &Config, shutdown: impl Future<Output = ()>) -> Result<(), DaemonError> {
    let parts = Parts::of(config);
    let mut engine = Engine::open(&config.judge.database, parts.engine.clone())?;
    // Intake syncs once per fetched batch, delivery before it sends: see
    // `intake::handle_batch` and `delivery::deliver_due`.
    engine.store().group_syncs()?;
    let store = Store::open(&config.judge.database)?;
    let inbound = Inbound::from_config(&config.inbound, config.judge.max_mail_bytes)?;
    let outbound = Outbound::from_config(&config.outbound)?;
    let outbox_changed = Arc::new(Notify::new());
    let (stop, stopping) = watch::channel(false);
    let mut reader = tokio::spawn(reader_loop(
        engine,
        inbound,
        parts.clone(),
        outbox_changed.clone(),
        Stop(stopping.clone()),
    ));
    let mut sender = tokio::spawn(sender_loop(
        store,
        outbound,
        parts.delivery,
        outbox_changed,
        Stop(stopping),
    ));
    tracing::info!(judge = %config.judge.address, "running");
    let result = tokio::select! {
        () = shutdown => Ok(()),
        r = &mut reader => Err(DaemonError::Task(format!("mail reader ended: {r:?}"))),
        r = &mut sender => Err(DaemonError::Task(format!("mail sender ended: {r:?}"))),
    };
    // Each task stops at its next safe point: between mails, or while waiting. A
    // batch of mail in hand is applied and marked done on the server, a mail being
    // sent is marked sent; cutting either off would make the next start handle or
    // send it again.
    tracing::info!("stopping: finishing the mail in hand");
    let _ = stop.send(true);
    for task in [reader, sender] {
        if !task.is_finished() {
            let _ = task.await;
        }
    }
    tracing::info!("stopped");
    result
}

/// Asked by the daemon's tasks whether to stop, at points where stopping loses
/// and repeats nothing.
#[derive(Clone)]
struct Stop(watch::Receiver<bool>);

impl Stop {
    fn requested(&self) -> bool {
        *self.0.borrow()
    }

    /// Completes once stopping is asked for (or nobody can ask any more).
    async fn asked(&mut self) {
        let _ = self.0.wait_for(|stop| *stop).await;
    }

    /// Sleeps for `pause`; false when stopping was asked for meanwhile.
    async fn sleep(&mut self, pause: Duration) -> bool {
        tokio::select! {
            () = self.asked() => false,
            () = tokio::time::sleep(pause) => true,
        }
    }
}

async fn reader_loop(
    mut engine: Engine,
    mut inbound: Inbound,
    parts: Parts,
    outbox_changed: Arc<Notify>,
    mut stop: Stop,
) {
    while !stop.requested() {
        let now = Utc::now();
        let (unavailable, deferred) =
            match read_all(&mut inbound, &mut engine, &parts.intake, now, || {
                outbox_changed.notify_one();
                !stop.requested()
            })
            .await
            {
                Ok(r) => (None, r.deferred),
                Err((r, e)) => {
                    tracing::warn!(error = %e, "reading mail failed; will retry");
                    (Some(e), r.deferred)
                }
            };
        if stop.requested() {
            break;
        }
        if let Err(e) = engine.process_due(now) {
            tracing::error!(error = %e, "processing deadlines failed; will retry");
        }
        outbox_changed.notify_one();
        let next = engine.next_wakeup().unwrap_or_else(|e| {
            tracing::error!(error = %e, "reading the next deadline failed");
            None
        });
        let pause = clock::sleep_for(Utc::now(), next, parts.poll);
        if let Some(InboundError::Unavailable { retry_in }) = unavailable {
            stop.sleep(retry_in.min(pause)).await;
            continue;
        }
        if deferred > 0 {
            // A mail left for later is still waiting: a wait for new mail would end
            // at once, so pause for the poll interval (or the next deadline) instead.
            stop.sleep(pause).await;
            continue;
        }
        let started = tokio::time::Instant::now();
        // Cancelling a wait is safe (it may only cost a reconnection).
        let waited = tokio::select! {
            () = stop.asked() => break,
            waited = inbound.wait(pause) => waited,
        };
        if let Err(e) = waited {
            tracing::warn!(error = %e, "waiting for mail failed");
            // Never spin: a wait that failed at once still pauses a little.
            let spent = started.elapsed();
            let rest = Duration::from_secs(1).min(pause).saturating_sub(spent);
            stop.sleep(rest).await;
        }
    }
    inbound.disconnect().await;
}

async fn sender_loop(
    mut store: Store,
    outbound: Outbound,
    settings: DeliverySettings,
    outbox_changed: Arc<Notify>,
    mut stop: Stop,
) {
    const LOOK_EVERY: Duration = Duration::from_secs(60);
    while !stop.requested() {
        let stopping = || stop.requested();
        let delivered =
            deliver_due_until(&mut store, &outbound, &settings, Utc::now(), &stopping).await;
        if let Err(e) = delivered {
            tracing::error!(error = %e, "delivery failed; will retry");
        }
        let next = store
            .transaction(|tx| tx.next_outbox_attempt())
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "reading the outbox failed");
                None
            });
        let pause = clock::sleep_for(Utc::now(), next, LOOK_EVERY);
        tokio::select! {
            () = outbox_changed.notified() => {}
            () = tokio::time::sleep(pause) => {}
            () = stop.asked() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::inbound::FETCH_BATCH;

    #[tokio::test]
    async fn read_all_hands_over_after_every_batch_that_handled_mail() {
        let dir = tempfile::tempdir().expect("tempdir");
        let text = "[judge]\nname = \"LEGT\"\naddress = \"judge@judge.test\"\n\
                    database = \"legate.db\"\n\
                    [inbound]\nkind = \"maildir\"\npath = \"in\"\n\
                    [outbound]\nkind = \"maildir\"\npath = \"out\"\n";
        let config = Config::parse(text, Some(dir.path()), |_| None).expect("config");
        for sub in ["in/new", "in/cur", "in/tmp"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        let n = 2 * FETCH_BATCH + 5;
        for i in 0..n {
            let raw = format!(
                "From: p{i}@example.test\r\nTo: judge@judge.test\r\nSubject: hi\r\n\
                 Message-ID: <b{i}@x>\r\n\r\nHELP\r\n"
            );
            let file = dir.path().join(format!("in/new/{i:04}.m"));
            std::fs::write(file, raw).expect("write");
        }
        let parts = Parts::of(&config);
        let mut engine =
            Engine::open(&config.judge.database, parts.engine.clone()).expect("engine");
        let mut inbound =
            Inbound::from_config(&config.inbound, config.judge.max_mail_bytes).expect("inbound");
        let mut handed_over = 0;
        let now = Utc::now();
        let report = read_all(&mut inbound, &mut engine, &parts.intake, now, || {
            handed_over += 1;
            true
        })
        .await
        .expect("read");
        assert_eq!(report.applied, n);
        // Three batches answered (50, 50, 5); the empty fourth ends the reading.
        assert_eq!(handed_over, 3);
    }
}
