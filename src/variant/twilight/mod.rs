//! Twilight Zone: every player designs a map of the standard provinces.
//!
//! A design is plain text (`grammar/twilight-map.md`): a rectangular grid of
//! province abbreviations, the neighbours of each coast of Spain, St Petersburg
//! and Bulgaria, and the land borders fleets cannot cross. This module parses
//! it (`parse`), checks it against rules 2.1 to 2.8 (`validate`), turns it
//! into a `Map` with the standard province indices (`build`), draws it
//! (`draw`) and tells it apart from other players' maps (`distinct`).

mod adjacency;
mod build;
mod distinct;
mod draw;
mod error;
mod facts;
mod format;
pub mod game;
mod grid;
mod validate;

pub use adjacency::{Borders, derive};
pub use build::{base, build, union};
pub use distinct::{distinct, same_borders};
pub use draw::draw;
pub use error::{DesignError, Pos};
pub use facts::{COUNTRY_SPACES, home_centres, is_supply_centre};
pub use format::{CoastLine, Design, LandOnly, parse};
pub use grid::Grid;
pub use validate::validate;

use crate::map::Map;

/// A design that passed every check, with the map it gives.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub design: Design,
    pub map: Map,
}

/// Parses, validates and builds in one go: what a map submission needs.
/// Every failing rule is reported, not just the first.
pub fn check(text: &str, title: &str) -> Result<Accepted, Vec<DesignError>> {
    let design = parse(text)?;
    let errors = validate(&design);
    if !errors.is_empty() {
        return Err(errors);
    }
    let map = build(&design, title).map_err(|e| vec![e])?;
    Ok(Accepted { design, map })
}
