//! Season reports: the results listing each participant receives after a phase,
//! with a plain-words account of failed orders and a picture of the board.
//!
//! - [`model`]: [`PhaseReport`], one structure per processed phase.
//! - [`view`]: who reads it ([`Recipient`]) and what they may see ([`View`]).
//! - [`text`]: the classic results listing, line for line.
//! - [`why`]: plain words for each failed order.
//! - `layout`, `svg`, `png`: the board as SVG and PNG.
//! - [`summary`]: the `SUMMARY` table and `HISTORY` replays.

pub mod layout;
pub mod model;
pub mod names;
pub mod png;
pub mod summary;
pub mod svg;
pub mod text;
pub mod view;
pub mod why;

pub use layout::Layout;
pub use model::{
    DislodgedUnit, GameInfo, NextPhase, PhaseInput, PhaseReport, PowerSummary, Replay,
    ResolvedOrder,
};
pub use view::{OwnOnly, Public, Recipient, Role, View};

use crate::map::Map;

#[cfg(test)]
mod tests;

/// The report text `who` receives: the model seen through `view`, laid out.
pub fn report_text(map: &Map, report: &PhaseReport, view: &dyn View, who: &Recipient) -> String {
    text::render(map, &report.seen_by(view, who), who)
}

/// The board after the phase as `who` may see it, as SVG.
pub fn board_svg(
    map: &Map,
    layout: &Layout,
    report: &PhaseReport,
    view: &dyn View,
    who: &Recipient,
) -> String {
    svg::render(map, layout, &report.seen_by(view, who))
}

/// The board after the phase as `who` may see it, as PNG, 1000 pixels wide.
pub fn board_png(
    map: &Map,
    layout: &Layout,
    report: &PhaseReport,
    view: &dyn View,
    who: &Recipient,
) -> Result<Vec<u8>, png::PngError> {
    png::render(&board_svg(map, layout, report, view, who), Some(1000))
}
