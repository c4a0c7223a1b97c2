//! Seasons, phase kinds and the phase name judges print (`S1901M`, `F1901R`, `W1901A`).

use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PhaseKind {
    Movement,
    Retreat,
    Adjustment,
}

/// One phase of a game. Ordered chronologically.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phase {
    pub year: u16,
    pub season: Season,
    pub kind: PhaseKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a phase name: {0:?} (expected e.g. S1901M, F1901R, W1901A)")]
pub struct PhaseParseError(pub String);

impl Phase {
    pub const fn new(season: Season, year: u16, kind: PhaseKind) -> Phase {
        Phase { year, season, kind }
    }

    /// Spring 1901 movement, where the standard game starts.
    pub const fn first() -> Phase {
        Phase::new(Season::Spring, 1901, PhaseKind::Movement)
    }

    /// Is this a combination the game can reach? Winter is only for adjustments,
    /// adjustments only in winter.
    pub fn is_valid(&self) -> bool {
        (self.season == Season::Winter) == (self.kind == PhaseKind::Adjustment)
    }

    /// The phase that follows when every phase is played (nothing skipped).
    pub fn successor(&self) -> Phase {
        use PhaseKind::*;
        use Season::*;
        match (self.season, self.kind) {
            (Spring, Movement) => Phase::new(Spring, self.year, Retreat),
            (Spring, _) => Phase::new(Fall, self.year, Movement),
            (Fall, Movement) => Phase::new(Fall, self.year, Retreat),
            (Fall, _) => Phase::new(Winter, self.year, Adjustment),
            (Winter, _) => Phase::new(Spring, self.year + 1, Movement),
        }
    }
}

/// How a game counts its years in reports. The phase itself always counts up
/// (`S1902M` follows `W1901A`); only the words printed change.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Era {
    /// 1901, 1902, ...
    #[default]
    Common,
    /// Twilight Zone (rule 5): the game starts in 1901 BC and the years count
    /// down: the phase year 1901 is 1901 BC, 1902 is 1900 BC, 1900 is 1902 BC.
    BeforeChrist,
}

impl Era {
    /// The year as reports print it (`1901`, `1900 BC`).
    pub fn year(self, year: u16) -> String {
        match self {
            Era::Common => year.to_string(),
            Era::BeforeChrist => format!("{} BC", 3802 - i32::from(year)),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.season {
            Season::Spring => 'S',
            Season::Fall => 'F',
            Season::Winter => 'W',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        write!(f, "{s}{}{k}", self.year)
    }
}

impl FromStr for Phase {
    type Err = PhaseParseError;

    fn from_str(text: &str) -> Result<Phase, PhaseParseError> {
        let err = || PhaseParseError(text.to_string());
        let t = text.trim().to_ascii_uppercase();
        let bytes = t.as_bytes();
        if bytes.len() < 3 || !t.is_ascii() {
            return Err(err());
        }
        let season = match bytes[0] {
            b'S' => Season::Spring,
            b'F' => Season::Fall,
            b'W' => Season::Winter,
            _ => return Err(err()),
        };
        let kind = match bytes[bytes.len() - 1] {
            b'M' => PhaseKind::Movement,
            b'R' => PhaseKind::Retreat,
            b'A' | b'B' => PhaseKind::Adjustment,
            _ => return Err(err()),
        };
        let year: u16 = t[1..t.len() - 1].parse().map_err(|_| err())?;
        let phase = Phase::new(season, year, kind);
        if phase.is_valid() {
            Ok(phase)
        } else {
            Err(err())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"] {
            assert_eq!(name.parse::<Phase>().unwrap().to_string(), name);
        }
        assert!("W1901M".parse::<Phase>().is_err());
        assert!("X1901M".parse::<Phase>().is_err());
        assert!("S19x1M".parse::<Phase>().is_err());
    }

    #[test]
    fn successor_walks_a_year() {
        let mut p = Phase::first();
        let mut seen = vec![];
        for _ in 0..6 {
            seen.push(p.to_string());
            p = p.successor();
        }
        assert_eq!(
            seen,
            ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
        );
        assert!(Phase::first() < Phase::first().successor());
    }
}
