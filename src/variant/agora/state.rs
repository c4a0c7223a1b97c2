//! The whole tournament's state, and the Gamemaster's acts applied to all of it
//! (section 2: a substitution reaches "all instances" of the contestant).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::assistants::Assistants;
use super::convoy_paths::Paths;
use super::draw_clock::{DrawClock, DrawError};
use super::proposals::Proposals;
use super::regulations::{Cause, Regulations};
use super::tournament::{GmAct, Stage, Tournament, TournamentError};
use super::victory::Victory;
use super::{Notice, Person};
use crate::judge::Position;
use crate::map::{Map, Power};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agora {
    pub tournament: Tournament,
    pub regulations: Regulations,
    pub proposals: Proposals,
    pub assistants: Assistants,
    pub draw_clock: DrawClock,
    pub victory: Victory,
    /// Convoy paths named with moves (section 17).
    #[serde(default)]
    pub paths: Paths,
    /// Entry closed with too few to play and the Gamemaster was told: the
    /// clock has nothing more to do until e acts.
    #[serde(default)]
    pub too_few_told: bool,
}

impl Agora {
    /// A new tournament under the regulations text the Gamemaster gives.
    pub fn new(tournament: Tournament, regulations: &str, start: &Position) -> Agora {
        Agora {
            tournament,
            regulations: Regulations::new(regulations),
            proposals: Proposals::default(),
            assistants: Assistants::default(),
            draw_clock: DrawClock::new(start.phase.year, &start.owners),
            victory: Victory::default(),
            paths: Paths::default(),
            too_few_told: false,
        }
    }

    /// A Gamemaster act, carried into every part of the state it touches.
    pub fn gm_act(
        &mut self,
        by: &str,
        act: &GmAct,
        now: DateTime<Utc>,
    ) -> Result<Notice, TournamentError> {
        let notice = self.tournament.act(by, act, now)?;
        match act {
            GmAct::Remove { person } => self.leave(person),
            GmAct::Substitute { from, to } => {
                self.proposals.substitute(from, to);
                self.assistants.substitute(from, to);
                self.victory.substitute(from, to);
            }
            GmAct::Amend { text } => {
                self.regulations.replace(text.clone(), Cause::Gamemaster);
            }
            GmAct::End { text } => {
                self.regulations.replace(text.clone(), Cause::Gamemaster);
            }
            GmAct::Add { .. } => {}
        }
        Ok(notice)
    }

    /// A person stops being a contestant: eir pending votes and assistants go.
    fn leave(&mut self, who: &str) {
        self.proposals.drop_voter(who);
        self.assistants.drop_contestant(who);
    }

    /// Contestants paired with their powers.
    pub fn players(&self) -> Vec<(Person, Power)> {
        self.tournament
            .contestants
            .iter()
            .filter_map(|c| c.power.map(|p| (c.person.clone(), p)))
            .collect()
    }

    /// After a turn: contestants who cease (eliminated, or all but an 18-centre
    /// power's after a Fall), the draw clock, and notice of a sole survivor.
    pub fn after_turn(
        &mut self,
        map: &Map,
        after: &Position,
        fall_year: Option<u16>,
        now: DateTime<Utc>,
    ) -> Vec<Notice> {
        let mut out = Vec::new();
        let gone = super::victory::ceasing(
            after,
            fall_year.is_some(),
            map.powers().len(),
            &self.players(),
        );
        for who in &gone {
            self.tournament.contestants.retain(|c| &c.person != who);
            self.leave(who);
            out.push(Notice::public(format!("{who} is no longer a contestant.")));
        }
        if let Some(year) = fall_year
            && self.draw_clock.after_fall(year, &after.owners)
        {
            let gm = self.tournament.gamemaster.clone();
            out.push(Notice::private(&gm, "No centre has changed hands in three game-years: you may declare a draw (section 9)."));
        }
        let remaining: Vec<Person> = self
            .tournament
            .contestants
            .iter()
            .map(|c| c.person.clone())
            .collect();
        out.extend(self.victory.check(&remaining, now));
        out
    }

    /// The Gamemaster declares a draw (section 9).
    pub fn declare_draw(&mut self, by: &str, now: DateTime<Utc>) -> Result<Notice, AgoraError> {
        if !self.tournament.is_gamemaster(by) {
            return Err(TournamentError::NotGamemaster.into());
        }
        let at = self.draw_clock.declare(now)?;
        Ok(Notice::public(format!(
            "With two days' notice, the Gamemaster declares the game a draw, to take effect at {at}."
        )))
    }

    /// Whatever is due at `now`: a declared draw (all remaining contestants win)
    /// or an announcement of winners. Called by the engine's clock.
    pub fn tick(&mut self, now: DateTime<Utc>) -> Vec<Notice> {
        let mut out = Vec::new();
        if self.draw_clock.declared.is_some_and(|at| at <= now) {
            match self.draw_clock.execute(now) {
                Ok(()) => {
                    let all = self
                        .tournament
                        .contestants
                        .iter()
                        .map(|c| c.person.clone())
                        .collect();
                    self.tournament.stage = Stage::Concluded;
                    out.push(Notice::public("The game is drawn (section 9)."));
                    out.extend(self.victory.announce(all));
                }
                Err(e) => out.push(Notice::public(format!("The declared draw lapses: {e}."))),
            }
        }
        if let Some(n) = self.victory.due(now) {
            self.tournament.stage = Stage::Concluded;
            out.push(n);
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgoraError {
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    #[error(transparent)]
    Draw(#[from] DrawError),
}
