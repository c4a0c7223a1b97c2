//! Season reports: the results listing each participant receives after a phase,
//! with a plain-words account of failed orders and a picture of the board.
//!
//! - [`model`]: [`PhaseReport`], one structure per processed phase.
//! - [`view`]: who reads it ([`Recipient`]) and what they may see ([`View`]).
//! - [`text`]: the classic results listing, line for line.
//! - [`why`]: plain words for each failed order.
//! - `layout`, `svg`, `png`: the board as SVG and PNG.

pub mod layout;
pub mod model;
pub mod names;
pub mod png;
pub mod svg;
pub mod text;
pub mod view;
pub mod why;

pub use layout::Layout;
pub use model::{
    DislodgedUnit, GameInfo, NextPhase, PhaseInput, PhaseReport, PowerSummary, ResolvedOrder,
};
pub use view::{OwnOnly, Public, Recipient, Role, View};

#[cfg(test)]
mod tests;
