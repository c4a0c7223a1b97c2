//! Section 24: a contestant who leaves or misses a turn and is not replaced.
//! Eir units hold and do not support each other, dislodged units are disbanded,
//! no units are built, and removals take the units farthest from the country
//! first, fleets before armies at equal distance, then by province name.
//!
//! All of that is what the judge does for a power with no orders, under the
//! older rulebooks' civil-disorder rule (`CivilDisorder::HomeCenter`, removals in
//! `judge::removal_order`); this module picks those rules and strips a collapsed
//! power's orders.

use crate::judge::{CivilDisorder, Edition, Rules};
use crate::map::Power;
use crate::orders::PowerOrder;

/// The rules Agora plays: the rulebook the regulations cite (the 2000 edition),
/// whose civil-disorder rule counts distance from the home supply centres.
pub fn rules() -> Rules {
    let r = Rules::preset(Edition::E2000);
    debug_assert_eq!(r.civil_disorder, CivilDisorder::HomeCenter);
    r
}

/// The orders that count: none from a power in civil disorder, so its units hold
/// without supporting each other and it neither retreats nor builds.
pub fn strip(orders: &[PowerOrder], collapsed: &[Power]) -> Vec<PowerOrder> {
    orders
        .iter()
        .filter(|o| !collapsed.contains(&o.power))
        .copied()
        .collect()
}
