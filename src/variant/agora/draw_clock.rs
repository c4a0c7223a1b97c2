//! Section 9: "If in the past three game-years, no province has changed
//! ownership, the Gamemaster CAN declare the game a draw, with 2 days notice,
//! concluding the Tournament and announcing all remaining Contestants as winners."
//!
//! Ownership changes only at the end of a Fall turn, so the clock looks at the
//! supply-centre owners after each Fall.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::map::Power;

/// Game-years without a change before a draw may be declared.
pub const QUIET_YEARS: u16 = 3;
/// Notice a declaration needs (section 9).
pub const NOTICE_DAYS: i64 = 2;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawClock {
    /// The last game-year in which a centre changed hands (the year before the
    /// first for a game where none has yet).
    pub last_change: u16,
    /// The latest game-year whose Fall has been played.
    pub last_year: u16,
    /// Owners after the last Fall (or at the start).
    #[serde(with = "super::power_serde::owners")]
    owners: Vec<Option<Power>>,
    /// A declared draw and when it takes effect.
    pub declared: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error(
        "a draw may be declared after the Fall of {1}, when three game-years have passed \
         with no centre changing hands after {0}"
    )]
    TooSoon(u16, u16),
    #[error("a draw is already declared")]
    AlreadyDeclared,
    #[error("no draw is declared")]
    NotDeclared,
    #[error("the declared draw takes effect at {0}")]
    NotYet(DateTime<Utc>),
}

impl DrawClock {
    /// The clock at the start of a game whose first year is `first_year`.
    pub fn new(first_year: u16, owners: &[Option<Power>]) -> DrawClock {
        let before = first_year.saturating_sub(1);
        DrawClock {
            last_change: before,
            last_year: before,
            owners: owners.to_vec(),
            declared: None,
        }
    }

    /// Records the owners after the Fall of `year`. Returns true when this Fall
    /// is the one that first lets the Gamemaster declare a draw (to tell em).
    pub fn after_fall(&mut self, year: u16, owners: &[Option<Power>]) -> bool {
        let could = self.may_declare();
        if owners != self.owners.as_slice() {
            self.last_change = year;
            self.owners = owners.to_vec();
        }
        self.last_year = year;
        !could && self.may_declare()
    }

    /// Have three whole game-years passed with no change of ownership?
    pub fn may_declare(&self) -> bool {
        self.last_year >= self.last_change + QUIET_YEARS
    }

    /// The Gamemaster declares a draw at `now`; it takes effect two days later.
    pub fn declare(&mut self, now: DateTime<Utc>) -> Result<DateTime<Utc>, DrawError> {
        if self.declared.is_some() {
            return Err(DrawError::AlreadyDeclared);
        }
        if !self.may_declare() {
            return Err(DrawError::TooSoon(
                self.last_change,
                self.last_change + QUIET_YEARS,
            ));
        }
        let at = now + Duration::days(NOTICE_DAYS);
        self.declared = Some(at);
        Ok(at)
    }

    /// Carries out a declared draw whose notice has run. An action with notice
    /// must still be allowed when it is taken: if a centre changed hands in the
    /// meantime, the declaration lapses (and the error says why).
    pub fn execute(&mut self, now: DateTime<Utc>) -> Result<(), DrawError> {
        let at = self.declared.ok_or(DrawError::NotDeclared)?;
        if now < at {
            return Err(DrawError::NotYet(at));
        }
        self.declared = None;
        if !self.may_declare() {
            return Err(DrawError::TooSoon(
                self.last_change,
                self.last_change + QUIET_YEARS,
            ));
        }
        Ok(())
    }
}
