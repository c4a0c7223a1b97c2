//! The board after a phase, sent with each results mail as PNG and SVG.
//! Drawing a PNG takes tens of milliseconds, so each distinct view of the
//! board is drawn once per phase (SVG and PNG) and its files handed to every
//! reader who sees it. The store keeps each distinct file once, however many
//! mails carry it (see `store::outbox`).

use crate::map::Map;
use crate::report::{self, Layout, PhaseReport, Public, Recipient};
use crate::store::OutboxAttachment;

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
    pub fn new(map: &'a Map, report: &'a PhaseReport, game: &str, phase: &str) -> Self {
        Pictures {
            map,
            report,
            stem: format!("{game}-{phase}"),
            drawn: Vec::new(),
        }
    }

    /// The files for `who`: the PNG (unless it cannot be drawn) and the SVG.
    pub fn for_reader(&mut self, who: &Recipient) -> Vec<OutboxAttachment> {
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
        let png = report::png::render(&svg, Some(1000))
            .inspect_err(|e| tracing::error!(error = %e, "board PNG not drawn"))
            .ok();
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
