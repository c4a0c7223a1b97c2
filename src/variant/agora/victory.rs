//! Sections 3 and 16: who stops being a contestant as the game goes, and the
//! winners, announced with two days' notice (the judge may name several).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::{Notice, Person, person};
use crate::judge::Position;
use crate::map::Power;

/// Centres after a Fall that end every other contestant's contestancy (section 16).
pub const DOMINANT: u32 = 18;
/// Notice before winners are announced (section 3).
pub const NOTICE_DAYS: i64 = 2;

/// Has `power` no units (on the board or awaiting retreat) and no centres? Then
/// its contestant is eliminated (section 3 speaks of elimination without
/// defining it; section 25 sends us to the official rules, where such a power is
/// out of the game).
pub fn eliminated(position: &Position, power: Power) -> bool {
    position.unit_count(power) == 0
        && !position.dislodged.iter().any(|d| d.unit.power == power)
        && position.centers_of(power).is_empty()
}

/// The power with 18 or more centres, if any (section 16; asked after a Fall).
pub fn dominant(position: &Position, powers: usize) -> Option<Power> {
    (0..powers as u8)
        .map(Power)
        .find(|&p| position.centers_of(p).len() >= DOMINANT)
}

/// Who ceases to be a contestant after a turn: everyone but the dominant power's
/// contestant after a Fall with 18 centres, else the eliminated ones.
/// `contestants` pairs each contestant with eir power.
pub fn ceasing(
    position: &Position,
    fall: bool,
    powers: usize,
    contestants: &[(Person, Power)],
) -> Vec<Person> {
    let top = if fall {
        dominant(position, powers)
    } else {
        None
    };
    contestants
        .iter()
        .filter(|(_, p)| match top {
            Some(t) => *p != t,
            None => eliminated(position, *p),
        })
        .map(|(c, _)| c.clone())
        .collect()
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub winners: Vec<Person>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VictoryError {
    #[error("no announcement of winners is pending")]
    NothingPending,
    #[error("the winners are already announced")]
    Concluded,
    #[error("an announcement needs at least one winner")]
    NoWinner,
}

/// The winners: pending (announced with notice), then announced.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    pub pending: Option<Pending>,
    pub winners: Option<Vec<Person>>,
}

impl Victory {
    /// Called after each turn with the contestants still in: when one is left,
    /// the judge gives notice that e will be announced as winner (section 3).
    pub fn check(&mut self, remaining: &[Person], now: DateTime<Utc>) -> Option<Notice> {
        if self.pending.is_some() || self.winners.is_some() || remaining.len() != 1 {
            return None;
        }
        self.give_notice(remaining.to_vec(), now).ok()
    }

    /// Notice of winners: by section 3 after a victory, or section 9 for a draw.
    pub fn give_notice(
        &mut self,
        winners: Vec<Person>,
        now: DateTime<Utc>,
    ) -> Result<Notice, VictoryError> {
        if self.winners.is_some() {
            return Err(VictoryError::Concluded);
        }
        if winners.is_empty() {
            return Err(VictoryError::NoWinner);
        }
        let winners: Vec<Person> = winners.iter().map(|w| person(w)).collect();
        let at = now + Duration::days(NOTICE_DAYS);
        let text = format!(
            "With two days' notice: at {at} the judge will announce as winners: {}.",
            winners.join(", ")
        );
        self.pending = Some(Pending { winners, at });
        Ok(Notice::public(text))
    }

    /// The Gamemaster changes the list of winners to be announced (section 3:
    /// "e CAN announce them all as winners"). The notice already given stands.
    pub fn amend(&mut self, winners: Vec<Person>) -> Result<Notice, VictoryError> {
        let p = self.pending.as_mut().ok_or(VictoryError::NothingPending)?;
        if winners.is_empty() {
            return Err(VictoryError::NoWinner);
        }
        p.winners = winners.iter().map(|w| person(w)).collect();
        Ok(Notice::public(format!(
            "The winners to be announced at {} are now: {}.",
            p.at,
            p.winners.join(", ")
        )))
    }

    /// The announcement, once its notice has run: the tournament is concluded.
    pub fn due(&mut self, now: DateTime<Utc>) -> Option<Notice> {
        let p = self.pending.take_if(|p| p.at <= now)?;
        let text = format!(
            "The judge announces the winners of the tournament: {}.",
            p.winners.join(", ")
        );
        self.winners = Some(p.winners);
        Some(Notice::public(text))
    }

    /// Announces winners at once: a draw's notice has already run (section 9).
    pub fn announce(&mut self, winners: Vec<Person>) -> Option<Notice> {
        if self.winners.is_some() {
            return None;
        }
        self.pending = None;
        let winners: Vec<Person> = winners.iter().map(|w| person(w)).collect();
        let text = format!(
            "The judge announces the winners of the tournament: {}.",
            winners.join(", ")
        );
        self.winners = Some(winners);
        Some(Notice::public(text))
    }

    pub fn substitute(&mut self, from: &str, to: &str) {
        let (from, to) = (person(from), person(to));
        if let Some(p) = &mut self.pending {
            p.winners
                .iter_mut()
                .filter(|w| **w == from)
                .for_each(|w| *w = to.clone());
        }
    }
}
