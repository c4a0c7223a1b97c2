//! Per-power settings and votes, absences, and the read-only answers.

use chrono::{DateTime, Utc};

use super::{Session, power_by_initial};
use crate::docs::power_name;
use crate::game::EngineError;
use crate::game::advance::{self, deadline_line};
use crate::game::answers;
use crate::game::model::Status;
use crate::game::process::{position_of, survivors};
use crate::game::request::Request;

impl Session<'_, '_, '_> {
    pub(super) fn set_wait(
        &mut self,
        line: usize,
        text: &str,
        on: bool,
    ) -> Result<(), EngineError> {
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        let g = self.work.game_mut(&key);
        if on && !g.state.settings.wait_allowed {
            self.fail(line, text, "this game does not allow SET WAIT");
            return Ok(());
        }
        if let Some(m) = g.state.player_of_mut(&power) {
            m.wait = on;
        }
        self.ok(
            text,
            if on {
                "The game will not process early."
            } else {
                "Early processing allowed."
            },
        );
        Ok(())
    }

    pub(super) fn running(&mut self, line: usize, text: &str, key: &str, what: &str) -> bool {
        let g = self.work.game(key);
        if let Some(why) = g.variant.vote_refusal(&g.state, what) {
            self.fail(line, text, why);
            return false;
        }
        if matches!(g.state.status, Status::Active | Status::Paused) {
            return true;
        }
        let msg = format!(
            "{what} is not allowed while {} is {:?}",
            g.state.name, g.state.status
        )
        .to_lowercase();
        self.fail(line, text, msg);
        false
    }

    pub(super) fn set_draw(
        &mut self,
        line: usize,
        text: &str,
        vote: Option<Vec<String>>,
    ) -> Result<(), EngineError> {
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        if !self.running(line, text, &key, "SET DRAW") {
            return Ok(());
        }
        let g = self.work.game(&key);
        let map = g.map();
        let position = position_of(map, &g.state)?;
        let alive: Vec<String> = survivors(map, &position)
            .into_iter()
            .filter(|p| g.variant.has_seat(&g.state, *p))
            .map(|p| power_name(map, p))
            .collect();
        let vote = match vote {
            None => None,
            Some(list) => {
                let mut names = Vec::new();
                for p in &list {
                    match power_by_initial(map, p).map(|x| power_name(map, x)) {
                        Some(n) if alive.contains(&n) => names.push(n),
                        _ => {
                            self.fail(line, text, format!("{p} is not a surviving power"));
                            return Ok(());
                        }
                    }
                }
                names.sort();
                names.dedup();
                if !names.is_empty() && names.len() != alive.len() && !g.state.settings.partial {
                    self.fail(
                        line,
                        text,
                        "this game allows only draws including all survivors \
                         (partial draws need the master's SET NODIAS)",
                    );
                    return Ok(());
                }
                Some(names)
            }
        };
        let g = self.work.game_mut(&key);
        let shown = match &vote {
            None => "Draw vote withdrawn.".to_string(),
            Some(l) if l.is_empty() => "You vote for a draw including all survivors.".to_string(),
            Some(l) => format!("You vote for a draw between {}.", l.join(", ")),
        };
        if let Some(m) = g.state.player_of_mut(&power) {
            m.draw = vote;
        }
        self.votes_changed.push(key);
        self.ok(text, shown);
        Ok(())
    }

    pub(super) fn set_concede(
        &mut self,
        line: usize,
        text: &str,
        to: Option<String>,
    ) -> Result<(), EngineError> {
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        if !self.running(line, text, &key, "SET CONCEDE") {
            return Ok(());
        }
        let g = self.work.game(&key);
        // njudge's `SET NO CONCESSIONS`: a concession may still be withdrawn.
        if to.is_some() && !g.state.settings.house.concessions {
            let name = g.state.name.clone();
            self.fail(
                line,
                text,
                format!("{name} allows no concessions (its master set NO CONCESSIONS)"),
            );
            return Ok(());
        }
        let map = g.map();
        let to = match to {
            None => None,
            Some(p) => match power_by_initial(map, &p) {
                Some(x) if power_name(map, x) != power => Some(power_name(map, x)),
                _ => {
                    self.fail(line, text, format!("you cannot concede to {p}"));
                    return Ok(());
                }
            },
        };
        let shown = match &to {
            Some(p) => format!("You concede the game to {p}."),
            None => "Concession withdrawn.".to_string(),
        };
        if let Some(m) = self.work.game_mut(&key).state.player_of_mut(&power) {
            m.concede = to;
        }
        self.votes_changed.push(key);
        self.ok(text, shown);
        Ok(())
    }

    pub(super) fn set_absence(
        &mut self,
        line: usize,
        text: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<(), EngineError> {
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        if to <= from || to <= self.now() {
            self.fail(
                line,
                text,
                "an absence must end after it starts, and in the future",
            );
            return Ok(());
        }
        // njudge's `SET MAX ABSENCE n`: "the maximum absence duration that a
        // player can set, in days".
        let most = self.work.game(&key).state.settings.house.max_absence;
        let too_long = match most {
            Some(n) => to - from > chrono::Duration::days(i64::from(n)),
            None => (to - from).num_days() > 31,
        };
        if too_long {
            let why = match most {
                Some(0) => "this game allows no absences (its master set MAX ABSENCE 0)".into(),
                Some(n) => {
                    format!("an absence in this game may last at most {n} days (SET MAX ABSENCE)")
                }
                None => "an absence may last at most 31 days".to_string(),
            };
            self.fail(line, text, why);
            return Ok(());
        }
        let g = self.work.game_mut(&key);
        let map = g.map();
        if let Some(m) = g.state.player_of_mut(&power) {
            m.absences.push(crate::schedule::Absence { from, to });
        }
        let before = g.state.clock.deadline;
        if g.state.status == Status::Active && g.state.position.is_some() {
            advance::reschedule_for_absences(map, &mut g.state)?;
        }
        if self.work.game(&key).state.clock.deadline != before {
            self.announce_deadline(
                &key,
                &format!("The deadline moved for an absence of {power}."),
            )?;
        }
        let tz = self.work.zone_of(&self.sender);
        let g = self.work.game(&key);
        let line2 = deadline_line(&g.state, tz, self.now());
        self.ok(
            text,
            format!(
                "Absence recorded from {} to {}.\n{line2}",
                crate::schedule::format_in(from, tz),
                crate::schedule::format_in(to, tz)
            ),
        );
        Ok(())
    }

    pub(super) fn answer(
        &mut self,
        line: usize,
        text: &str,
        request: &Request,
        game: Option<String>,
    ) -> Result<(), EngineError> {
        let name = match game {
            Some(g) => Some(g),
            None => self
                .context
                .as_ref()
                .map(|c| self.work.game(&c.key).state.name.clone()),
        };
        let Some(name) = name else {
            if matches!(request, Request::List(_)) {
                let body = answers::list_all(self.work.tx)?;
                self.ok(text, body);
            } else {
                self.fail(line, text, "name a game (or SIGNON first)");
            }
            return Ok(());
        };
        let Some(key) = self.require_game(line, text, &name)? else {
            return Ok(());
        };
        let tz = self.work.zone_of(&self.sender);
        let g = self.work.game(&key);
        let body = match request {
            Request::List(_)
                if g.state
                    .masters()
                    .any(|m| m.address.eq_ignore_ascii_case(&self.sender))
                    && self
                        .context
                        .as_ref()
                        .is_some_and(|c| c.key == key && c.who == super::Who::Master) =>
            {
                let mut body = answers::list(g, tz, self.now());
                body.push_str(&self.order_status(&key));
                body
            }
            Request::List(_) => answers::list(g, tz, self.now()),
            Request::WhoGame(_) => answers::whogame(&g.state),
            Request::Summary(_) => answers::summary(self.work.tx, g)?,
            _ => {
                let (span, limits) = match request {
                    Request::History {
                        from, to, limits, ..
                    } => ((*from, *to), limits.clone()),
                    _ => ((None, None), Default::default()),
                };
                let map = g.map();
                let who = crate::game::results::recipient(map, &g.state, &self.sender, tz);
                let judge = self.work.judge.clone();
                let text = answers::history(self.work.tx, g, &judge, &who, span, &limits.exclude)?;
                answers::cut_to_lines(text, limits.lines)
            }
        };
        self.ok(text, body);
        Ok(())
    }
}
