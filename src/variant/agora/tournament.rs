//! Sections 0-2 and 6: the Gamemaster, entry, the cap of seven, and the acts by
//! which the Gamemaster changes who plays.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::{Notice, Person, person};
use crate::lots::{Draw, LotError, LotSecret, draw};
use crate::map::{Map, Power};

/// No more than six others may have entered before a person enters (section 1).
pub const CAP: usize = 7;

/// The fewest contestants the judge starts play with when entry closes: with
/// one, section 3's "all contestants except one have been eliminated" would
/// hold before a single turn.
pub const MIN_TO_PLAY: usize = 2;

/// Entry stays open at least this long after the regulations are published (section 1).
pub const ENTRY_DAYS: i64 = 7;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contestant {
    pub person: Person,
    /// Given by lot when play starts (section 6).
    #[serde(with = "super::power_serde::opt")]
    pub power: Option<Power>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Entry window open, or closed but play not started.
    Entry,
    Playing,
    /// Won or drawn (sections 3, 9).
    Concluded,
    /// The Gamemaster replaced the regulations because fewer than seven entered (section 2).
    Ended,
}

/// One act of the Gamemaster (section 2), as the mail command gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GmAct {
    Remove {
        person: Person,
    },
    /// `consented`: the GM states the person agreed; without it the act is refused.
    Add {
        person: Person,
        consented: bool,
    },
    /// Put `to` in every place `from` has in the game.
    Substitute {
        from: Person,
        to: Person,
    },
    /// Amend the text arbitrarily (to prevent breaches of Agoran custom or rules).
    Amend {
        text: String,
    },
    /// Replace the regulations with another game's, ending this tournament.
    End {
        text: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("the Gamemaster cannot become a contestant (section 0)")]
    GamemasterCannotPlay,
    #[error("{0} is already a contestant")]
    AlreadyContestant(Person),
    #[error("{0} is not a contestant")]
    NotContestant(Person),
    #[error("entry closed at {0}")]
    EntryClosed(DateTime<Utc>),
    #[error("seven persons have already entered: the tournament is full")]
    Full,
    #[error("only the Gamemaster may do that")]
    NotGamemaster,
    #[error("a person becomes a contestant by the Gamemaster only with eir consent")]
    NoConsent,
    #[error("the tournament can be ended only while fewer than seven persons have entered")]
    EnoughEntered,
    #[error("the tournament is over")]
    Over,
    #[error("powers were already assigned")]
    AlreadyAssigned,
    #[error("power assignment by lot failed: {0}")]
    Lot(#[from] LotError),
}

/// A logged act: when, by whom, and what was published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub at: DateTime<Utc>,
    pub by: Person,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub gamemaster: Person,
    pub contestants: Vec<Contestant>,
    /// Everyone who ever became a contestant: section 2 counts persons who "have
    /// become Contestants", not those who still are.
    pub entered: Vec<Person>,
    /// The date the regulations name ("Until July 7").
    pub entry_date: DateTime<Utc>,
    /// When the regulations were published.
    pub published: DateTime<Utc>,
    pub stage: Stage,
    pub log: Vec<Record>,
}

impl Tournament {
    pub fn new(
        gamemaster: &str,
        entry_date: DateTime<Utc>,
        published: DateTime<Utc>,
    ) -> Tournament {
        Tournament {
            gamemaster: person(gamemaster),
            contestants: Vec::new(),
            entered: Vec::new(),
            entry_date,
            published,
            stage: Stage::Entry,
            log: Vec::new(),
        }
    }

    /// The end of the entry window: the date, or seven days after publication,
    /// whichever is later (section 1).
    pub fn entry_closes(&self) -> DateTime<Utc> {
        self.entry_date
            .max(self.published + Duration::days(ENTRY_DAYS))
    }

    /// Whether play may begin by itself when entry closes (section 1): with at
    /// least [`MIN_TO_PLAY`] contestants.
    pub fn enough_to_play(&self) -> bool {
        self.contestants.len() >= MIN_TO_PLAY
    }

    pub fn is_contestant(&self, who: &str) -> bool {
        let who = person(who);
        self.contestants.iter().any(|c| c.person == who)
    }

    pub fn is_gamemaster(&self, who: &str) -> bool {
        person(who) == self.gamemaster
    }

    pub fn contestant_of(&self, power: Power) -> Option<&Contestant> {
        self.contestants.iter().find(|c| c.power == Some(power))
    }

    pub fn power_of(&self, who: &str) -> Option<Power> {
        let who = person(who);
        self.contestants
            .iter()
            .find(|c| c.person == who)
            .and_then(|c| c.power)
    }

    /// A person enters by announcement (section 1).
    pub fn enter(&mut self, who: &str, now: DateTime<Utc>) -> Result<Notice, TournamentError> {
        if now >= self.entry_closes() {
            return Err(TournamentError::EntryClosed(self.entry_closes()));
        }
        self.admit(who)?;
        Ok(self.record(now, who, format!("{} enters the tournament.", person(who))))
    }

    fn admit(&mut self, who: &str) -> Result<(), TournamentError> {
        let who = person(who);
        if self.stage == Stage::Concluded || self.stage == Stage::Ended {
            return Err(TournamentError::Over);
        }
        if who == self.gamemaster {
            return Err(TournamentError::GamemasterCannotPlay);
        }
        if self.is_contestant(&who) {
            return Err(TournamentError::AlreadyContestant(who));
        }
        // Seven great powers: never more than seven play at once.
        if self.contestants.len() >= CAP {
            return Err(TournamentError::Full);
        }
        if !self.entered.contains(&who) {
            self.entered.push(who.clone());
        }
        self.contestants.push(Contestant {
            person: who,
            power: None,
        });
        Ok(())
    }

    /// One Gamemaster act, logged, with its announcement. Substitutions in other
    /// parts of the game are the caller's (`Agora`-wide) business: this changes
    /// only the roster.
    pub fn act(
        &mut self,
        by: &str,
        act: &GmAct,
        now: DateTime<Utc>,
    ) -> Result<Notice, TournamentError> {
        if !self.is_gamemaster(by) {
            return Err(TournamentError::NotGamemaster);
        }
        let text = match act {
            GmAct::Remove { person: p } => self.remove(p)?,
            GmAct::Add {
                person: p,
                consented,
            } => {
                if !consented {
                    return Err(TournamentError::NoConsent);
                }
                self.admit(p)?;
                format!("The Gamemaster makes {} a contestant.", person(p))
            }
            GmAct::Substitute { from, to } => self.substitute(from, to)?,
            GmAct::Amend { .. } => "The Gamemaster amends the regulations.".to_string(),
            GmAct::End { .. } => self.end()?,
        };
        Ok(self.record(now, by, text))
    }

    fn remove(&mut self, who: &str) -> Result<String, TournamentError> {
        let who = person(who);
        let before = self.contestants.len();
        self.contestants.retain(|c| c.person != who);
        if self.contestants.len() == before {
            return Err(TournamentError::NotContestant(who));
        }
        Ok(format!(
            "The Gamemaster removes {who}: e is no longer a contestant."
        ))
    }

    fn substitute(&mut self, from: &str, to: &str) -> Result<String, TournamentError> {
        let (from, to) = (person(from), person(to));
        if to == self.gamemaster {
            return Err(TournamentError::GamemasterCannotPlay);
        }
        if self.is_contestant(&to) {
            return Err(TournamentError::AlreadyContestant(to));
        }
        let Some(slot) = self.contestants.iter_mut().find(|c| c.person == from) else {
            return Err(TournamentError::NotContestant(from));
        };
        slot.person = to.clone();
        if !self.entered.contains(&to) {
            self.entered.push(to.clone());
        }
        Ok(format!(
            "The Gamemaster substitutes {to} for {from} in all of the game."
        ))
    }

    fn end(&mut self) -> Result<String, TournamentError> {
        if self.entered.len() >= CAP {
            return Err(TournamentError::EnoughEntered);
        }
        self.stage = Stage::Ended;
        Ok(
            "Fewer than seven persons entered: the Gamemaster replaces the regulations, \
            and the tournament ends."
                .to_string(),
        )
    }

    fn record(&mut self, at: DateTime<Utc>, by: &str, text: String) -> Notice {
        self.log.push(Record {
            at,
            by: person(by),
            text: text.clone(),
        });
        Notice::public(text)
    }

    /// Section 6: each contestant, in order of address, draws a power by lot from
    /// those left. The draws go in the game's history so anyone can check them.
    pub fn assign_powers(
        &mut self,
        map: &Map,
        secret: &LotSecret,
    ) -> Result<Vec<Draw>, TournamentError> {
        if self.contestants.iter().any(|c| c.power.is_some()) {
            return Err(TournamentError::AlreadyAssigned);
        }
        self.contestants.sort_by(|a, b| a.person.cmp(&b.person));
        let mut left: Vec<String> = map.powers().iter().map(|p| p.name.clone()).collect();
        let mut draws = Vec::new();
        for c in &mut self.contestants {
            let d = draw(
                secret,
                &format!("Agora: great power for {}", c.person),
                &left,
            )?;
            c.power = map.power(d.winner());
            left.retain(|p| p != d.winner());
            draws.push(d);
        }
        self.stage = Stage::Playing;
        Ok(draws)
    }
}
