//! The game engine: game state and the commands that change it, on the clock.
//!
//! `Engine` (in `engine`) is the entry point: `apply` for one mail's lines,
//! `process_due` for the clock. The rest is pure game logic over `GameState`,
//! except `work` (the store transaction's working set).

pub mod advance;
pub mod answers;
pub mod assign;
pub mod audit;
pub mod clock;
pub mod conditions;
pub mod describe;
pub mod engine;
pub mod from_grammar;
pub mod help;
pub mod house;
pub mod model;
pub mod notice;
pub mod orders_check;
pub mod pause;
pub mod pictures;
pub mod process;
pub mod request;
pub mod results;
pub mod session;
pub mod variants;
pub mod work;

pub use engine::{Applied, Engine, EngineConfig};
pub use request::{Line, Request};
pub use work::Outgoing;

use crate::store::StoreError;

/// Failures of the engine itself (not a player's mistake: those are replies).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("stored game state is unreadable: {0}")]
    State(String),
    #[error(transparent)]
    Doc(#[from] crate::docs::DocError),
    #[error(transparent)]
    Process(#[from] process::ProcessError),
    #[error(transparent)]
    Lot(#[from] crate::lots::LotError),
    /// Every game gets a secret from the operating system's random source when
    /// it is created; a game without one cannot draw lots, and no stand-in
    /// (a zero or a clock-derived secret, which anyone could predict) is used.
    #[error("game {0} has no lot secret, so no lot can be drawn for it")]
    NoLotSecret(String),
}
