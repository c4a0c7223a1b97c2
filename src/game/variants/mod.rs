//! Where the engine meets the variants: each hook the engine calls is one
//! function here that dispatches on the game's variant to that variant's
//! module, so generic engine code never names a variant.
//!
//! The rules themselves are pure and live in `crate::variant::*`; the modules
//! here only adapt them to the game state, the store and the mail replies.

pub mod agora;
pub mod gtd;
pub mod masters;
pub mod twilight;
