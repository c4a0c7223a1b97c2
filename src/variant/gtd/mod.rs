//! Grand Tournament Diplomacy (McGee, 1979): countries are teams of players.
//! A unit has a country (what the adjudicator sees) and a commander (the player
//! who orders it); countries have heads of government, elections, insurrections,
//! defections and secessions. The rule numbers in comments are the rule text's.
//!
//! - `model`: the state kept beside the judge's position.
//! - `allegiance`: rules 4-5 for the adjudicator (owner = commanding player).
//! - `start`: rules 6-8, countries and units by lot, first heads of government.
//! - `limits`: rule 9 (C)-(F) and rule 13, each refusal naming its limit.
//! - `winter`: builds with commanders, removals, redistribution, purges (9-12).
//! - `politics`: insurrection, elections, independence, defection, death,
//!   abdication, renaming, countries left without players (14-27).
//! - `season`: the order in which all this takes effect around adjudication.
//! - `final_place`: the Final Place List (rule 2 C).
//!
//! Nothing is random outside the auditable lot: every draw goes through a `Lot`
//! closure (in a game, `lots::draw` with the game's secret) and is recorded.

pub mod allegiance;
pub mod final_place;
pub mod game;
pub mod limits;
pub mod model;
pub mod politics;
pub mod season;
pub mod start;
pub mod winter;

pub use allegiance::Commanders;
pub use limits::{Limit, LimitError};
pub use model::{Command, Country, GtdState, Player, PlayerState};

use crate::lots::{Draw, LotError};

/// Draws one of the candidates for a purpose (see `lots::draw`).
pub type Lot<'a> = dyn FnMut(&str, &[String]) -> Result<Draw, LotError> + 'a;

/// Draws by lot and records the draw in the state; the winner's text.
pub fn draw_recorded(
    state: &mut GtdState,
    lot: &mut Lot<'_>,
    purpose: &str,
    candidates: &[String],
) -> Result<String, LotError> {
    let d = lot(purpose, candidates)?;
    let winner = d.winner().to_string();
    state.draws.push(d);
    Ok(winner)
}
