//! What a GTD game keeps beside the generic game state: the GTD state, the
//! players' seats, the order lines written until the deadline, and what a
//! season carries from its movement to its end.

use serde::{Deserialize, Serialize};

use super::GtdState;
use crate::docs::OrderDoc;

/// A player by the name orders use, and the address they play from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub name: String,
    pub address: String,
}

/// One order line as written, kept until the deadline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenDoc {
    pub player: String,
    #[serde(default)]
    pub order: Option<OrderDoc>,
    /// A political order in canonical form (read again at the deadline).
    #[serde(default)]
    pub variant: Option<String>,
}

/// A movement's votes, kept over its retreat phase until the season ends:
/// (country, voter, candidate, votes) and (country, commander, units).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    pub votes: Vec<(u8, String, String, u32)>,
    pub weights: Vec<(u8, String, u32)>,
}

/// Everything a GTD game keeps beside the generic game state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GtdGame {
    pub state: GtdState,
    pub seats: Vec<Seat>,
    #[serde(default)]
    pub written: Vec<WrittenDoc>,
    /// Players who resigned this season (rule 25 B).
    #[serde(default)]
    pub resigned: Vec<String>,
    #[serde(default)]
    pub carried: Option<Carried>,
    /// Players who sent orders this season (rule 22).
    #[serde(default)]
    pub wrote: Vec<String>,
    /// Countries whose new name the Gamemaster vetoed this season (26 B).
    #[serde(default)]
    pub vetoed: Vec<u8>,
    /// Players who asked to enter after the start, waiting for the
    /// Gamemaster's `APPROVE` or `REFUSE` (rule 1).
    #[serde(default)]
    pub pending: Vec<String>,
}

impl GtdGame {
    pub fn player_of(&self, address: &str) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.address.eq_ignore_ascii_case(address))
            .map(|s| s.name.as_str())
    }

    pub fn address_of(&self, player: &str) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.name == player)
            .map(|s| s.address.as_str())
    }

    /// A new seat for `address`: its local part, or the whole address when
    /// that name is taken.
    pub fn seat(&mut self, address: &str) -> String {
        if let Some(n) = self.player_of(address) {
            return n.to_string();
        }
        let local = address
            .split('@')
            .next()
            .unwrap_or(address)
            .to_ascii_lowercase();
        let taken = |n: &str| self.seats.iter().any(|s| s.name == n);
        let name = if local.is_empty() || taken(&local) {
            address.to_ascii_lowercase()
        } else {
            local
        };
        self.seats.push(Seat {
            name: name.clone(),
            address: address.to_string(),
        });
        name
    }
}
