//! MR6 Foreign Aid: each build a player is entitled to and does not use may be
//! given to another great or minor power, or to a rebel, which adjusts as if it
//! owned one more center in this adjustment only.

use crate::judge::Position;
use crate::map::Power;

use super::options::Rule;
use super::outcome::{AdjustmentOrder, Reason};
use super::roster::{Kind, MastersState};

/// The recipient of an aid order by `writer`. A recipient must be on the board
/// (a unit or a center): aid to a power that is gone would help no one.
pub fn recipient(
    state: &MastersState,
    position: &Position,
    writer: Power,
    order: AdjustmentOrder,
) -> Result<Power, Reason> {
    if !state.options.has(Rule::ForeignAid) {
        return Err(Reason::RuleOff(Rule::ForeignAid));
    }
    let to = match order {
        AdjustmentOrder::Aid(p) => p,
        AdjustmentOrder::AidRebel(spec) => {
            let at = spec.province();
            let unit = position.unit_at(at).ok_or(Reason::NoUnit { at })?;
            if state.kind(unit.power) != Some(Kind::Rebel) {
                return Err(Reason::NoRecipient);
            }
            unit.power
        }
        _ => return Err(Reason::NoRecipient),
    };
    if to == writer {
        return Err(Reason::AidToSelf);
    }
    let present = position.unit_count(to) > 0 || !position.centers_of(to).is_empty();
    if state.kind(to).is_none() || !present {
        return Err(Reason::NoRecipient);
    }
    Ok(to)
}

/// Builds a power may make with `aid` received, beyond those its centers give:
/// aid first makes up a shortfall of centers (avoiding losses), then gives builds.
pub fn extra_builds(balance: i32, aid: u32) -> u32 {
    let with = balance + aid as i32;
    (with.max(0) - balance.max(0)) as u32
}
