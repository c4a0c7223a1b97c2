//! What a Twilight Zone game keeps beside the generic game state: the
//! players' maps as mailed, each power's map from the start, and the map each
//! order names.

use serde::{Deserialize, Serialize};

/// What the engine keeps of a Twilight Zone game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TwilightGame {
    /// Each player's accepted map, as mailed.
    #[serde(default)]
    pub designs: Vec<Submitted>,
    /// From the start: each power's map, by power name (`None`: the standard
    /// borders, for a player the Gamemaster started without a map).
    #[serde(default)]
    pub maps: Vec<(String, Option<String>)>,
    /// The Gamemaster asked to start without waiting for every map.
    #[serde(default)]
    pub forced: bool,
    /// The map each order of the current (or just played) phase names.
    #[serde(default)]
    pub choices: Vec<Choice>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted {
    pub address: String,
    pub text: String,
}

/// An order's map: the order of `power`'s unit in `unit` (province code) in
/// `phase` uses the map of the power `map`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub phase: String,
    pub power: String,
    pub unit: String,
    pub map: String,
}
