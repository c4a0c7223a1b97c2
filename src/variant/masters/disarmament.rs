//! MR5 Disarmament: in adjustments a player may disband any of his own units.
//! Builds are counted before any unit goes, so a disband never makes room for a
//! build in the same adjustment (MR5 b); units in civil disorder lose no more than
//! their required losses (MR5 c, applied in `adjustment`).

use super::options::{Options, Rule};
use super::outcome::Reason;

/// A removal of one's own unit, with `required` removals still owed: a required
/// removal, a voluntary disband (MR5), or none.
pub fn own_removal(options: Options, required: &mut u32) -> Result<Reason, Reason> {
    if *required > 0 {
        *required -= 1;
        return Ok(Reason::Required);
    }
    if options.has(Rule::Disarmament) {
        Ok(Reason::Voluntary)
    } else {
        Err(Reason::NoRemovalsLeft)
    }
}
