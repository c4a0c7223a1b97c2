//! The command limits of rule 9 (C)-(F) (also the test of redistribution, rule
//! 11 D-E) and rule 13. Every refusal names the limit it breaks.

use super::model::GtdState;
use crate::judge::Position;
use crate::map::Power;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// 9 (C): a head of government commands at most one unit of their country.
    HeadOfGovernment,
    /// 9 (D): nobody commands more than half of a country's units.
    Half,
    /// 9 (E): nobody commands more than five units of one country.
    Five,
    /// 9 (F): nobody commands more than three units of a country under ten units.
    ThreeUnderTen,
    /// 13: nobody heads more than two countries.
    TwoCountries,
}

impl Limit {
    pub fn rule(self) -> &'static str {
        match self {
            Limit::HeadOfGovernment => "rule 9(C)",
            Limit::Half => "rule 9(D)",
            Limit::Five => "rule 9(E)",
            Limit::ThreeUnderTen => "rule 9(F)",
            Limit::TwoCountries => "rule 13",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("rule 9(C): {player} heads {country} and may command only one of its units")]
    HeadOfGovernment { player: String, country: String },
    #[error(
        "rule 9(D): {player} would command {count} of {country}'s {total} units, more than half"
    )]
    Half {
        player: String,
        country: String,
        count: u32,
        total: u32,
    },
    #[error("rule 9(E): {player} would command {count} units of {country}, more than five")]
    Five {
        player: String,
        country: String,
        count: u32,
    },
    #[error(
        "rule 9(F): {player} would command {count} units of {country}, more than three of a country under ten units"
    )]
    ThreeUnderTen {
        player: String,
        country: String,
        count: u32,
    },
    #[error("rule 13: {player} already heads two countries")]
    TwoCountries { player: String },
}

impl LimitError {
    pub fn limit(&self) -> Limit {
        match self {
            LimitError::HeadOfGovernment { .. } => Limit::HeadOfGovernment,
            LimitError::Half { .. } => Limit::Half,
            LimitError::Five { .. } => Limit::Five,
            LimitError::ThreeUnderTen { .. } => Limit::ThreeUnderTen,
            LimitError::TwoCountries { .. } => Limit::TwoCountries,
        }
    }
}

/// What is being checked: a player's number of units of one country.
#[derive(Clone, Debug)]
pub struct Holding<'a> {
    pub player: &'a str,
    pub country: &'a str,
    pub is_head: bool,
    /// Units of the country the player would command.
    pub count: u32,
    /// Units the country would have.
    pub total: u32,
    /// Units the country had at the start of the Winter (rule 9 F); for a check
    /// outside Winter, its units now.
    pub at_winter_start: u32,
}

/// The most units of a country one player may command. The half limit never
/// goes below one unit: a country of one unit must still have a commander
/// (ruling GTD-9D in docs/rulings.md#gtd).
pub fn allowed(is_head: bool, total: u32, at_winter_start: u32) -> (u32, Limit) {
    let mut best = ((total / 2).max(1), Limit::Half);
    if 5 < best.0 {
        best = (5, Limit::Five);
    }
    if at_winter_start < 10 && 3 < best.0 {
        best = (3, Limit::ThreeUnderTen);
    }
    // When the head's limit ties another, it is the one the head breaks.
    if is_head && 1 <= best.0 {
        best = (1, Limit::HeadOfGovernment);
    }
    best
}

/// Rule 9 (C)-(F) for one holding: the first limit broken, head of government
/// first, then (F), (E), (D) (the tightest limit named).
pub fn check(h: &Holding<'_>) -> Result<(), LimitError> {
    let (max, limit) = allowed(h.is_head, h.total, h.at_winter_start);
    if h.count <= max {
        return Ok(());
    }
    let (player, country, count, total) = (
        h.player.to_string(),
        h.country.to_string(),
        h.count,
        h.total,
    );
    Err(match limit {
        Limit::HeadOfGovernment => LimitError::HeadOfGovernment { player, country },
        Limit::ThreeUnderTen => LimitError::ThreeUnderTen {
            player,
            country,
            count,
        },
        Limit::Five => LimitError::Five {
            player,
            country,
            count,
        },
        _ => LimitError::Half {
            player,
            country,
            count,
            total,
        },
    })
}

/// Rule 13: may `player` take the head of one more country?
pub fn may_head_another(state: &GtdState, player: &str) -> Result<(), LimitError> {
    if state.headed_by(player).len() >= 2 {
        return Err(LimitError::TwoCountries {
            player: player.to_string(),
        });
    }
    Ok(())
}

/// Units of `country` each player commands beyond what rules 9 and 11 allow, by
/// player (sorted): what the head of government must redistribute (rule 11 D-E).
/// The limits are those of a country of its current size (11 E: "with less than
/// ten units").
pub fn excess(state: &GtdState, position: &Position, country: Power) -> Vec<(String, u32)> {
    let total = position.unit_count(country) as u32;
    let head = state.country(country).and_then(|c| c.hog.clone());
    state
        .commanders_of(position, country)
        .into_iter()
        .filter_map(|p| {
            let count = state.commanded(position, country, &p).len() as u32;
            let is_head = head.as_deref() == Some(p.as_str());
            let (max, _) = allowed(is_head, total, total);
            (count > max).then(|| (p, count - max))
        })
        .collect()
}
