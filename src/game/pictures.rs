//! The board after a phase, sent with each results mail as PNG and SVG.
//! Drawing a PNG takes tens of milliseconds, so each distinct picture is
//! drawn once per phase and its bytes shared by every reader who sees it.

use crate::map::Map;
use crate::report::{self, Layout, PhaseReport, Public, Recipient};
use crate::store::OutboxAttachment;

/// The pictures of one processed phase, drawn as readers ask for them.
pub struct Pictures<'a> {
    map: &'a Map,
    report: &'a PhaseReport,
    /// File name without extension, e.g. `game-S1901M`.
    stem: String,
    /// Each distinct SVG drawn so far with its PNG (`None` if it failed).
    drawn: Vec<(String, Option<Vec<u8>>)>,
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
        let svg = report::board_svg(self.map, Layout::standard(), self.report, &Public, who);
        let png = match self.drawn.iter().find(|(s, _)| *s == svg) {
            Some((_, png)) => png.clone(),
            None => {
                let png = report::png::render(&svg, Some(1000))
                    .inspect_err(|e| tracing::error!(error = %e, "board PNG not drawn"))
                    .ok();
                self.drawn.push((svg.clone(), png.clone()));
                png
            }
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
