//! What a Masters Rules game keeps beside the generic game state: the rules
//! state (options, minors, rebels), the orders kept until the deadline, and
//! what each phase played leaves for `ROLLBACK` and `HISTORY`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::minors;
use super::{MastersState, Options, Rule};
use crate::docs::OrderDoc;
use crate::map::Map;

/// The great powers: the standard map's seven.
pub fn great_count() -> usize {
    Map::standard().powers().len()
}

/// What a Masters game keeps besides the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MastersGame {
    /// Options, minors, rebels and owners at the previous adjustment.
    pub rules: MastersState,
    /// Variable-control orders of this phase, per writer, in the order written
    /// (copies kept: each is a vote, MR2 c), each with its unit's location code.
    #[serde(default)]
    pub control: BTreeMap<String, Vec<(String, OrderDoc)>>,
    /// Adjustment orders of this phase, per writer, in canonical text, in the
    /// order written (copies kept: MR3 c).
    #[serde(default)]
    pub adjustment: BTreeMap<String, Vec<String>>,
    /// The mail each writer's orders last came in, and the units it named: a
    /// new mail replaces what an earlier one said for the same units.
    #[serde(default)]
    pub marks: BTreeMap<String, Mark>,
    /// What the report of the phase just played adds (tallies, adjustments).
    #[serde(default)]
    pub report: Vec<String>,
    /// The rules state at the start of each phase played, for `ROLLBACK`.
    #[serde(default)]
    pub snapshots: BTreeMap<String, MastersState>,
    /// The report lines of each phase played, for `HISTORY`.
    #[serde(default)]
    pub history: BTreeMap<String, Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub mail: String,
    /// Units (location codes) this mail gave variable-control orders for.
    pub units: Vec<String>,
}

impl MastersGame {
    pub fn new(options: Options) -> MastersGame {
        let map = map_of(options);
        MastersGame {
            rules: MastersState::new(map, great_count(), options),
            control: BTreeMap::new(),
            adjustment: BTreeMap::new(),
            marks: BTreeMap::new(),
            report: Vec::new(),
            snapshots: BTreeMap::new(),
            history: BTreeMap::new(),
        }
    }
}

/// The board of a game with these options.
pub fn map_of(options: Options) -> &'static Map {
    if options.has(Rule::MinorPowers) {
        minors::standard()
    } else {
        Map::standard()
    }
}
