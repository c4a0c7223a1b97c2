//! The game engine: the clock, lots, game state and the commands that change it.

pub mod clock;
pub mod lots;
pub mod docs;
pub mod model;
pub mod assign;
