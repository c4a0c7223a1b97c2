//! The board after a phase, sent with each results mail as PNG and SVG.
//! Drawing a PNG takes tens of milliseconds, so each distinct view of the
//! board is drawn once per phase (SVG and PNG) and its files handed to every
//! reader who sees it. The store keeps each distinct file once, however many
//! mails carry it (see `store::outbox`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::model::{GameState, Status};
use crate::map::Map;
use crate::report::{self, Layout, PhaseReport, Public, Recipient};
use crate::store::{GameId, OutboxAttachment, Store};

/// The pictures of one processed phase, drawn as readers ask for them. Kept
/// only while the phase's mails are being queued.
pub struct Pictures<'a> {
    map: &'a Map,
    report: &'a PhaseReport,
    /// File name without extension, e.g. `game-S1901M`.
    stem: String,
    /// Each distinct view drawn so far, with its files.
    drawn: Vec<(PhaseReport, Vec<OutboxAttachment>)>,
}

impl<'a> Pictures<'a> {
    pub(crate) fn new(map: &'a Map, report: &'a PhaseReport, game: &str, phase: &str) -> Self {
        Pictures {
            map,
            report,
            stem: format!("{game}-{phase}"),
            drawn: Vec::new(),
        }
    }

    /// The files for `who`: the PNG (unless it cannot be drawn) and the SVG.
    pub(crate) fn for_reader(&mut self, who: &Recipient) -> Vec<OutboxAttachment> {
        let seen = self.report.seen_by(&Public, who);
        if let Some((_, files)) = self.drawn.iter().find(|(view, _)| *view == seen) {
            return files.clone();
        }
        let files = self.draw(&seen);
        self.drawn.push((seen, files.clone()));
        files
    }

    fn draw(&self, seen: &PhaseReport) -> Vec<OutboxAttachment> {
        let svg = report::svg::render(self.map, Layout::standard(), seen);
        let png = match ahead::take(&svg) {
            Some(drawn) => drawn,
            None => draw_png(&svg),
        };
        let mut files = Vec::new();
        if let Some(bytes) = png {
            files.push(OutboxAttachment {
                filename: format!("{}.png", self.stem),
                content_type: "image/png".into(),
                bytes,
            });
        }
        files.push(OutboxAttachment {
            filename: format!("{}.svg", self.stem),
            content_type: "image/svg+xml".into(),
            bytes: svg.into_bytes(),
        });
        files
    }
}

/// Board width in pixels of the PNG sent with results.
const WIDTH: u32 = 1000;

/// The board as PNG, `None` (logged) if it cannot be drawn.
fn draw_png(svg: &str) -> Option<Vec<u8>> {
    report::png::render(svg, Some(WIDTH))
        .inspect_err(|e| tracing::error!(error = %e, "board PNG not drawn"))
        .ok()
}

/// Pictures drawn ahead on the second core while the deadline pass works
/// through its games one transaction at a time (see [`DrawAhead`]). Keyed by
/// the whole SVG text: a PNG depends on nothing else, so a picture drawn ahead
/// is the very file the engine would draw, and one drawn for a board that
/// turns out different is simply never asked for.
mod ahead {
    use super::*;

    enum Slot {
        Drawing,
        Done(Option<Vec<u8>>),
    }

    struct Shelf {
        slots: Mutex<HashMap<String, Slot>>,
        changed: Condvar,
    }

    /// Pictures the engine found drawn ahead, for the whole process.
    pub static TAKEN: AtomicUsize = AtomicUsize::new(0);

    fn shelf() -> &'static Shelf {
        static SHELF: OnceLock<Shelf> = OnceLock::new();
        SHELF.get_or_init(|| Shelf {
            slots: Mutex::new(HashMap::new()),
            changed: Condvar::new(),
        })
    }

    /// The PNG of `svg` if it was drawn (or is being drawn) ahead: waits for
    /// one being drawn. `None`: draw it here.
    pub(crate) fn take(svg: &str) -> Option<Option<Vec<u8>>> {
        let shelf = shelf();
        let mut slots = shelf.slots.lock().ok()?;
        loop {
            match slots.get(svg)? {
                Slot::Done(_) => match slots.remove(svg) {
                    Some(Slot::Done(png)) => {
                        TAKEN.fetch_add(1, Ordering::Relaxed);
                        return Some(png);
                    }
                    _ => return None,
                },
                Slot::Drawing => slots = shelf.changed.wait(slots).ok()?,
            }
        }
    }

    /// Claims `svg` for drawing here; false if it is on the shelf already.
    pub(crate) fn claim(svg: &str) -> bool {
        let Ok(mut slots) = shelf().slots.lock() else {
            return false;
        };
        if slots.contains_key(svg) {
            return false;
        }
        slots.insert(svg.to_string(), Slot::Drawing);
        true
    }

    /// Puts the picture drawn for a claimed `svg` on the shelf.
    pub(crate) fn put(svg: &str, png: Option<Vec<u8>>) {
        let shelf = shelf();
        if let Ok(mut slots) = shelf.slots.lock() {
            slots.insert(svg.to_string(), Slot::Done(png));
        }
        shelf.changed.notify_all();
    }

    /// Takes off the shelf whatever of `svgs` nobody asked for.
    pub(crate) fn forget(svgs: &[String]) {
        let shelf = shelf();
        if let Ok(mut slots) = shelf.slots.lock() {
            for svg in svgs {
                if let Some(Slot::Done(_)) = slots.get(svg) {
                    slots.remove(svg);
                }
            }
        }
        shelf.changed.notify_all();
    }
}

/// How many pictures the engine has found drawn ahead, in this process.
pub(crate) fn drawn_ahead() -> usize {
    ahead::TAKEN.load(Ordering::Relaxed)
}

/// Draws the pictures of due games ahead of the deadline pass, on a thread of
/// its own with its own read-only connection. The pass goes through the games
/// in order, each in its own transaction; before game `i` it calls
/// [`DrawAhead::starting`]. This side reads a game a little further on, plays
/// its phase on a copy (the adjudication is a pure function of the stored
/// game), draws the pictures its readers would get and shelves them. The
/// engine still draws every picture it does not find, so what is drawn ahead
/// only ever saves time, and each game's mails and pictures are still
/// committed together by the pass.
pub struct DrawAhead<'a> {
    ids: &'a [GameId],
    judge: &'a str,
    now: DateTime<Utc>,
    /// The game the pass is at.
    at: AtomicUsize,
    /// The next game this side may take.
    next: Mutex<usize>,
    done: AtomicBool,
}

/// How many games this side may run ahead of the pass: enough to keep the
/// second core busy, few enough that the shelf stays small.
const LEAD: usize = 3;

impl<'a> DrawAhead<'a> {
    pub(crate) fn new(ids: &'a [GameId], judge: &'a str, now: DateTime<Utc>) -> Self {
        DrawAhead {
            ids,
            judge,
            now,
            at: AtomicUsize::new(0),
            next: Mutex::new(0),
            done: AtomicBool::new(false),
        }
    }

    /// The pass starts game `i`.
    pub(crate) fn starting(&self, i: usize) {
        self.at.store(i, Ordering::SeqCst);
    }

    /// The game to draw next. Never the one after the pass's current game:
    /// the pass draws that one itself while this side draws the one after, so
    /// both cores draw instead of the pass waiting on this side's every game.
    fn take_next(&self) -> usize {
        let at = self.at.load(Ordering::SeqCst);
        let Ok(mut next) = self.next.lock() else {
            return usize::MAX;
        };
        let i = (*next).max(at + 2);
        *next = i + 1;
        i
    }

    /// The pass is over: the drawing side stops.
    pub(crate) fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
    }

    /// The drawing side: runs until [`DrawAhead::finish`] or the last game.
    pub(crate) fn run(&self, mut reader: Store) {
        let mut shelved = Vec::new();
        while !self.done.load(Ordering::SeqCst) {
            let i = self.take_next();
            if i >= self.ids.len() {
                break;
            }
            while i > self.at.load(Ordering::SeqCst) + LEAD && !self.done.load(Ordering::SeqCst) {
                std::thread::park_timeout(Duration::from_millis(2));
            }
            if i <= self.at.load(Ordering::SeqCst) {
                // The pass got there first and draws it itself.
                continue;
            }
            let state = reader.read(|tx| {
                Ok::<_, crate::store::StoreError>(tx.game(self.ids[i])?.map(|g| g.state))
            });
            let Ok(Some(json)) = state else { continue };
            let Ok(state) = serde_json::from_str::<GameState>(&json) else {
                continue;
            };
            let judge = self.judge;
            let now = self.now;
            // A copy played on its own: a panic here must not stop the pass.
            let svgs =
                std::panic::catch_unwind(|| boards_after(&state, judge, now)).unwrap_or_default();
            for svg in svgs {
                if ahead::claim(&svg) {
                    let png = std::panic::catch_unwind(|| draw_png(&svg)).unwrap_or(None);
                    ahead::put(&svg, png);
                    shelved.push(svg);
                }
            }
        }
        ahead::forget(&shelved);
    }
}

/// The boards (SVG) the readers of `state` would get if its phase were
/// processed at `now`, one per distinct view; empty if it would not be.
fn boards_after(state: &GameState, judge: &str, now: DateTime<Utc>) -> Vec<String> {
    use super::{clock, process, results, variants};
    let Some(deadline) = state.clock.deadline else {
        return Vec::new();
    };
    if state.status != Status::Active || now < deadline {
        return Vec::new();
    }
    if variants::named(&state.settings.variant).is_none() {
        return Vec::new();
    }
    // The state was read on its own, not loaded by the engine: its variant
    // is resolved here, as `work::Work::load` does.
    let variant = variants::of(state);
    let map = variant.map(state);
    let graced = state.clock.grace.is_some_and(|g| now >= g);
    if !graced && !clock::late_powers(variant, map, state).is_ok_and(|l| l.is_empty()) {
        return Vec::new();
    }
    let mut state = state.clone();
    let Ok(played) = process::process(variant, map, &mut state) else {
        return Vec::new();
    };
    if state.status != Status::Finished && clock::schedule(map, &mut state, now).is_err() {
        return Vec::new();
    }
    let seq = u32::try_from(state.next_seq).unwrap_or(u32::MAX);
    let report = results::report_of(
        variant,
        map,
        &state,
        judge,
        &played.before,
        &played.adjudication,
        seq,
    );
    let mut views: Vec<PhaseReport> = Vec::new();
    for to in state.audience() {
        let who = results::recipient(map, &state, &to, chrono_tz::Tz::UTC);
        let seen = report.seen_by(&Public, &who);
        if !views.contains(&seen) {
            views.push(seen);
        }
    }
    views
        .iter()
        .map(|v| report::svg::render(map, Layout::standard(), v))
        .collect()
}
