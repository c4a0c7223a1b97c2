//! What a GTD game keeps beside the judge's `Position`: countries (name, head of
//! government, homes, insurrection, wasted acceptances), who commands each unit,
//! the players and the stand-by list, and every lot drawn.
//!
//! Countries are judge powers: the seven of the map keep their indexes, new
//! countries (rule 18) take the next free index, so the adjudicator sees one
//! power per country and never needs to know about players.

use serde::{Deserialize, Serialize};

use crate::judge::Position;
use crate::lots::Draw;
use crate::map::{Power, Province};

/// The judge sizes its per-power tables for 32 powers.
pub const MAX_COUNTRIES: usize = 32;

/// A player, by the name the grammar reads (`alice`, `"Alice Smith"`).
pub type Player = String;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Country {
    /// The judge power index.
    pub power: u8,
    pub name: String,
    /// Head of government; `None` after a death until an election or succession.
    pub hog: Option<Player>,
    /// Home centers (province indexes): the map's, or the three named on independence.
    pub homes: Vec<u8>,
    /// Homes a new country may build on: held at the end of a Fall (rule 18 B).
    pub buildable: Vec<u8>,
    pub insurrection: bool,
    /// Acceptances of units that did not defect (rule 21).
    pub wasted_acceptances: u32,
    /// A name taking effect at the start of next season (rule 26 A).
    pub rename_to: Option<String>,
    /// A head of government taking office at the start of next season (17, 24, 25).
    pub successor: Option<Player>,
    /// An election is held this season because the head of government died (rule 24).
    pub election_after_death: bool,
    /// The head of government died this season: the election is next season (24 A).
    pub election_next_season: bool,
    /// No units and no centers: out of the game.
    pub gone: bool,
}

/// Who commands the unit standing (or dislodged) in a province.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    pub at: u8,
    /// A dislodged unit shares its province with the attacker until it retreats.
    pub dislodged: bool,
    /// `None`: nobody commands it (it holds).
    pub commander: Option<Player>,
    /// This season's declaration: insurrection (`true`) or no insurrection (rule 14).
    #[serde(default)]
    pub declared: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub name: Player,
    /// Resigned or removed for play death (rule 22): no orders count.
    pub out: bool,
    /// Seasons in a row without orders (rule 22: two allow the GM to remove).
    pub silent_seasons: u32,
}

/// The GTD state of a game, stored as JSON next to the position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GtdState {
    pub countries: Vec<Country>,
    pub commands: Vec<Command>,
    pub players: Vec<PlayerState>,
    pub standby: Vec<Player>,
    /// Every lot drawn, in order, for the audit.
    pub draws: Vec<Draw>,
    /// Public record lines (votes, elections, rulings applied), in order.
    pub record: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("stored GTD state is not valid: {0}")]
pub struct StateError(String);

impl GtdState {
    pub fn to_json(&self) -> String {
        // Strings, numbers and vectors always serialize.
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<GtdState, StateError> {
        serde_json::from_str(text).map_err(|e| StateError(e.to_string()))
    }

    pub fn country(&self, power: Power) -> Option<&Country> {
        self.countries.iter().find(|c| c.power == power.0)
    }

    pub fn country_mut(&mut self, power: Power) -> Option<&mut Country> {
        self.countries.iter_mut().find(|c| c.power == power.0)
    }

    /// A country by its current name, case-insensitive.
    pub fn country_named(&self, name: &str) -> Option<Power> {
        self.countries
            .iter()
            .find(|c| !c.gone && c.name.eq_ignore_ascii_case(name.trim()))
            .map(|c| Power(c.power))
    }

    /// The commander of the unit on the board in `p`.
    pub fn commander_at(&self, p: Province) -> Option<&str> {
        self.commands
            .iter()
            .find(|c| c.at == p.0 && !c.dislodged)
            .and_then(|c| c.commander.as_deref())
    }

    pub fn set_commander(&mut self, p: Province, who: Option<Player>) {
        match self
            .commands
            .iter_mut()
            .find(|c| c.at == p.0 && !c.dislodged)
        {
            Some(c) => c.commander = who,
            None => self.commands.push(Command {
                at: p.0,
                dislodged: false,
                commander: who,
                declared: None,
            }),
        }
    }

    /// Is this player in the game (not resigned, not dead)?
    pub fn is_active(&self, who: &str) -> bool {
        self.players.iter().any(|p| p.name == who && !p.out)
    }

    /// Countries this player heads.
    pub fn headed_by(&self, who: &str) -> Vec<Power> {
        self.countries
            .iter()
            .filter(|c| !c.gone && c.hog.as_deref() == Some(who))
            .map(|c| Power(c.power))
            .collect()
    }

    /// The units of `country` on the board that `who` commands.
    pub fn commanded(&self, position: &Position, country: Power, who: &str) -> Vec<Province> {
        position
            .units
            .iter()
            .filter(|u| u.power == country && self.commander_at(u.province()) == Some(who))
            .map(|u| u.province())
            .collect()
    }

    /// Every player commanding a unit of `country`, sorted, once each.
    pub fn commanders_of(&self, position: &Position, country: Power) -> Vec<Player> {
        let mut v: Vec<Player> = position
            .units
            .iter()
            .filter(|u| u.power == country)
            .filter_map(|u| self.commander_at(u.province()).map(str::to_string))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// A lowest power index no country uses, if any is left.
    pub fn free_power(&self) -> Option<Power> {
        (0..MAX_COUNTRIES as u8)
            .find(|i| self.countries.iter().all(|c| c.power != *i))
            .map(Power)
    }

    pub fn note(&mut self, line: impl Into<String>) {
        self.record.push(line.into());
    }
}
