//! Which of the six Masters Rules a game plays with (`masters=MR1,MR2,...`).
//!
//! The rules "may be used singly or in combination", so each is a separate
//! switch; none is refused for want of another (see `docs/rulings.md#masters`).

use std::fmt;
use std::str::FromStr;

/// One of the six Masters Rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// MR1: every neutral supply center is a minor power with one army.
    MinorPowers = 1,
    /// MR2: players order units of powers in civil disorder.
    VariableControl = 2,
    /// MR3: builds may raise rebel units in other powers' centers.
    Rebellion = 3,
    /// MR4: a build may instead make an owned center a home center.
    Annexation = 4,
    /// MR5: voluntary disbands in adjustments.
    Disarmament = 5,
    /// MR6: an unused build may be given to another power or a rebel.
    ForeignAid = 6,
}

impl Rule {
    pub const ALL: [Rule; 6] = [
        Rule::MinorPowers,
        Rule::VariableControl,
        Rule::Rebellion,
        Rule::Annexation,
        Rule::Disarmament,
        Rule::ForeignAid,
    ];

    /// `MR1` ... `MR6`.
    pub fn code(self) -> String {
        format!("MR{}", self as u8)
    }

    /// `Minor Powers`, `Variable Control`, ...
    pub fn title(self) -> &'static str {
        match self {
            Rule::MinorPowers => "Minor Powers",
            Rule::VariableControl => "Variable Control",
            Rule::Rebellion => "Rebellion",
            Rule::Annexation => "Annexation",
            Rule::Disarmament => "Disarmament",
            Rule::ForeignAid => "Foreign Aid",
        }
    }
}

/// The set of Masters Rules in force. `Default` is none of them (a standard game).
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Options(u8);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("unknown Masters rule {0:?} (expected MR1 to MR6, ALL or NONE)")]
    Unknown(String),
}

impl Options {
    pub const NONE: Options = Options(0);

    /// All six rules: Masters Rules Diplomacy as its authors play it.
    pub fn all() -> Options {
        Rule::ALL.iter().fold(Options::NONE, |o, r| o.with(*r))
    }

    pub fn with(self, rule: Rule) -> Options {
        Options(self.0 | 1 << rule as u8)
    }

    pub fn has(self, rule: Rule) -> bool {
        self.0 >> rule as u8 & 1 == 1
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn rules(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |r| self.has(*r))
    }
}

/// `MR1`, `mr2`, `2`, `ALL`, `NONE`; an optional `masters=` in front.
fn one(word: &str) -> Result<Options, OptionsError> {
    let w = word.trim().to_ascii_uppercase();
    if w == "ALL" {
        return Ok(Options::all());
    }
    if w == "NONE" {
        return Ok(Options::NONE);
    }
    let digits = w.strip_prefix("MR").unwrap_or(&w);
    match digits.parse::<u8>() {
        Ok(n @ 1..=6) => Ok(Options::NONE.with(Rule::ALL[n as usize - 1])),
        _ => Err(OptionsError::Unknown(word.trim().to_string())),
    }
}

impl FromStr for Options {
    type Err = OptionsError;

    /// `masters=MR1,MR2,MR6`, `MR1 MR3`, `all`. An empty list is no rule.
    fn from_str(text: &str) -> Result<Options, OptionsError> {
        let t = text.trim();
        let list = match t.split_once('=') {
            Some((key, rest)) if key.trim().eq_ignore_ascii_case("masters") => rest,
            _ => t,
        };
        list.split([',', ' ', ';'])
            .filter(|w| !w.trim().is_empty())
            .try_fold(Options::NONE, |acc, w| Ok(Options(acc.0 | one(w)?.0)))
    }
}

impl fmt::Display for Options {
    /// `MR1,MR2,MR6`; `none` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let codes: Vec<String> = self.rules().map(Rule::code).collect();
        f.write_str(&codes.join(","))
    }
}
