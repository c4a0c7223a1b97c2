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

use super::EngineError;
use super::model::{GameState, Settings};
use super::work::Work;
use crate::grammar::VariantOrder;
use crate::orders::Order;

/// What a reply line says: accepted (`Ok`) or refused (`Err`), with why.
pub type Answer = Result<String, String>;

/// Hook: a new game's settings for its variant (`CREATE`).
pub fn settings(settings: &mut Settings) {
    if settings.variant == "gtd" {
        gtd::settings(settings);
    }
}

/// Hook: starting a full forming game. `true` when the variant started it.
pub fn start(work: &mut Work<'_, '_>, key: &str) -> Result<bool, EngineError> {
    if work.game(key).state.settings.variant == "gtd" {
        gtd::start(work, key)?;
        return Ok(true);
    }
    Ok(false)
}

/// Hook: processing one phase. `true` when the variant processed it.
pub fn process_one(work: &mut Work<'_, '_>, key: &str) -> Result<bool, EngineError> {
    if work.game(key).state.gtd.is_some() {
        gtd::process_one(work, key)?;
        return Ok(true);
    }
    Ok(false)
}

/// Hook: `SIGNON ?game` handled by the variant (`None`: the generic way).
pub fn join(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    password: &str,
) -> Result<Option<Answer>, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::join(work, key, sender, password).map(Some);
    }
    Ok(None)
}

/// Does the game take its orders through its variant (by player, not power)?
pub fn takes_own_orders(state: &GameState) -> bool {
    state.gtd.is_some()
}

/// Hook: one order line of a game that `takes_own_orders`.
pub fn take_order(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    order: &Order,
) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::take(work, key, sender, gtd::Item::Order(*order));
    }
    Ok(Err("this game takes no orders this way".into()))
}

/// Hook: a variant's own order line.
pub fn take_variant_order(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    order: &VariantOrder,
) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::take(work, key, sender, gtd::Item::Variant(order.clone()));
    }
    let variant = work.game(key).state.settings.variant.clone();
    Ok(Err(format!(
        "this order is not part of the {variant} variant; the line was not applied"
    )))
}

/// Hook: `RESIGN` in a game that `takes_own_orders`.
pub fn resign(work: &mut Work<'_, '_>, key: &str, sender: &str) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::resign(work, key, sender);
    }
    Ok(Err("nothing to resign".into()))
}

