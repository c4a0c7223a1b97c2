//! The Agora Birthday Tournament: a standard-map game run by a Gamemaster who is
//! also the Judge, for at most seven contestants, under regulations the
//! contestants change by proposal and private vote.
//!
//! The pure rules core, one job per module (section numbers are the regulations'):
//! - `tournament` (0-2, 6): who is a contestant, the entry window, the GM's acts.
//! - `regulations` (5): the living text, versioned; which sections are protected.
//! - `proposals` (5, 8): submission, withdrawal, private votes, enactment.
//! - `assistants` (7): announced helpers, who submitted which order.
//! - `schedule` (15): the two-day turn as pure functions of `now`.
//! - `turn` (15, 22, 23): one set of orders for movement, retreats and adjustments.
//! - `convoy_paths` (17): a convoyed move's named path, checked and enforced.
//! - `civil_disorder` (24): the rules choice and the orders of a collapsed power.
//! - `draw_clock` (9): years without a change of ownership, and a declared draw.
//! - `victory` (3, 16): eliminations, the 18-centre rule, announced winners.
//! - `state`: all of the above together, and the GM acts applied to all of it.
//!
//! Every act that changes the tournament returns the text to publish (or to send
//! privately), so the engine only routes mail. Rulings: `docs/rulings.md#agora`.

pub mod assistants;
pub mod civil_disorder;
pub mod command;
pub mod convoy_paths;
pub mod draw_clock;
pub mod proposals;
pub mod regulations;
pub mod schedule;
pub mod state;
pub mod tournament;
pub mod turn;
pub mod victory;

/// A person, known by mail address (compared case-insensitively).
pub type Person = String;

/// The canonical form of an address: trimmed, lower case, so the same person
/// written twice is one person.
pub fn person(address: &str) -> Person {
    address.trim().to_ascii_lowercase()
}

/// Who hears of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Published to everyone in the game.
    Public,
    /// Sent to one person only.
    Private(Person),
}

/// A text to deliver, as the rules core decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub to: Audience,
    pub text: String,
}

impl Notice {
    pub fn public(text: impl Into<String>) -> Notice {
        Notice {
            to: Audience::Public,
            text: text.into(),
        }
    }

    pub fn private(to: &str, text: impl Into<String>) -> Notice {
        Notice {
            to: Audience::Private(person(to)),
            text: text.into(),
        }
    }
}

/// Powers are stored by their number on the map (the map types carry no serde).
pub(crate) mod power_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::map::Power;

    pub fn serialize<S: Serializer>(p: &Power, s: S) -> Result<S::Ok, S::Error> {
        p.0.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Power, D::Error> {
        u8::deserialize(d).map(Power)
    }

    pub mod opt {
        use super::*;

        pub fn serialize<S: Serializer>(p: &Option<Power>, s: S) -> Result<S::Ok, S::Error> {
            p.map(|p| p.0).serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Power>, D::Error> {
            Option::<u8>::deserialize(d).map(|p| p.map(Power))
        }
    }

    pub mod owners {
        use super::*;

        pub fn serialize<S: Serializer>(v: &[Option<Power>], s: S) -> Result<S::Ok, S::Error> {
            let raw: Vec<Option<u8>> = v.iter().map(|p| p.map(|p| p.0)).collect();
            raw.serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Vec<Option<Power>>, D::Error> {
            let raw = Vec::<Option<u8>>::deserialize(d)?;
            Ok(raw.into_iter().map(|p| p.map(Power)).collect())
        }
    }
}
