//! Rules 4 and 5 for the adjudicator. A unit may dislodge, or support the
//! dislodgement of, a unit of its own country commanded by another player
//! (4 A, 4 B); no unit may attack or support an attack on a unit commanded by
//! the same player, whatever the countries (5). So the judge's "same owner" is
//! the commanding player, not the country. Orders are given per country (the
//! engine turns a commander's order into its unit's country's order), so who may
//! order a unit stays the country.

use std::collections::HashMap;

use super::model::GtdState;
use crate::judge::{Allegiance, Unit};
use crate::map::Province;

/// Commanders by the province a unit stands in at the start of the phase.
#[derive(Clone, Debug, Default)]
pub struct Commanders {
    by_province: HashMap<Province, String>,
}

impl Commanders {
    pub fn of(state: &GtdState) -> Commanders {
        let by_province = state
            .commands
            .iter()
            .filter(|c| !c.dislodged)
            .filter_map(|c| Some((Province(c.at), c.commander.clone()?)))
            .collect();
        Commanders { by_province }
    }
}

impl Allegiance for Commanders {
    /// Two units without a commander are never one owner's: nobody can have
    /// meant to spare one with the other, and such units only hold anyway.
    fn same_owner(&self, a: &Unit, b: &Unit) -> bool {
        match (
            self.by_province.get(&a.province()),
            self.by_province.get(&b.province()),
        ) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }
}
