//! The master's commands.

use serde_json::json;

use super::moderation::RollbackTo;
use super::{Context, Session, Who, power_by_initial};
use crate::docs::power_name;
use crate::game::EngineError;
use crate::game::advance;
use crate::game::model::{Role, Status};
use crate::game::process::{self, position_of};
use crate::game::request::Request;

impl Session<'_, '_, '_> {
    /// `SET DEADLINE`: the phase's deadline moves to `t`, and every player of
    /// the game is told.
    fn set_deadline(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        t: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let name = g.state.name.clone();
        if !matches!(g.state.status, Status::Active | Status::Paused) {
            self.fail(line, text, format!("{name} is not running"));
            return Ok(());
        }
        if t <= self.now() {
            self.fail(line, text, "the new deadline must be in the future");
            return Ok(());
        }
        let g = self.work.game_mut(key);
        let kind = position_of(g.map(), &g.state)?.phase.kind;
        let sched = g.state.settings.schedule.for_kind(kind).clone();
        g.state.clock.deadline = Some(t);
        g.state.clock.grace = Some(crate::schedule::grace_end(&sched, t));
        g.state.clock.late_notice_sent = false;
        g.state.clock.explicit = true;
        g.state.clock.held_from = None;
        let tz = self.work.zone_of(&self.sender);
        self.ok(
            text,
            format!("Deadline set to {}.", crate::schedule::format_in(t, tz)),
        );
        self.announce_deadline(key, "The master has moved the deadline.")
    }

    /// Tells everyone in the game that the deadline moved (each reads it in
    /// their own zone).
    pub(super) fn announce_deadline(&mut self, key: &str, why: &str) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (state, id) = (g.state.clone(), g.row.id);
        let judge = self.work.judge.clone();
        let subject = advance::subject(&judge, &state, "Deadline changed");
        advance::broadcast(self.work, &state, &subject, why, Some(id))
    }

    pub(super) fn master_command(
        &mut self,
        line: usize,
        text: &str,
        request: &Request,
    ) -> Result<(), EngineError> {
        use Request::*;
        let master_only = !self.players_may_set(request);
        let Some(ctx) = self.require_context(line, text, master_only) else {
            return Ok(());
        };
        let key = ctx.key;
        let status = self.work.game(&key).state.status;
        let name = self.work.game(&key).state.name.clone();
        if let Some(why) = self
            .work
            .variant(&key)
            .master_refusal(&self.work.game(&key).state, request)
        {
            self.fail(line, text, why);
            return Ok(());
        }
        match request {
            ForceBegin => {
                if status != Status::Forming {
                    self.fail(line, text, format!("{name} has already started"));
                } else if self.work.game(&key).state.players().count() == 0 {
                    self.fail(line, text, format!("{name} has no players yet"));
                } else if let Some(why) = self
                    .work
                    .variant(&key)
                    .may_begin(&self.work.game(&key).state, self.now())
                {
                    self.fail(line, text, why);
                } else {
                    let g = self.work.game_mut(&key);
                    g.variant.force_begin(&mut g.state);
                    self.pending_start = Some(key);
                    self.ok(text, format!("{name} will start now."));
                }
            }
            Process => {
                if status != Status::Active {
                    self.fail(
                        line,
                        text,
                        format!("{name} is not active; there is nothing to process"),
                    );
                } else {
                    let n = advance::process_now(self.work, &key)?;
                    self.processed += n;
                    self.ok(text, format!("Processed {n} phase(s)."));
                }
            }
            Pause => {
                if status != Status::Active {
                    self.fail(
                        line,
                        text,
                        format!("only an active game can be paused ({name} is {status:?})"),
                    );
                } else {
                    let now = self.now();
                    let g = self.work.game_mut(&key);
                    g.state.status = Status::Paused;
                    g.state.paused_from = Some(Status::Active);
                    crate::game::pause::paused_at(&mut g.state, now);
                    self.ok(text, format!("{name} is paused."));
                    self.tell_pause(&key, true)?;
                }
            }
            Resume => {
                if status != Status::Paused {
                    self.fail(line, text, format!("{name} is not paused"));
                } else {
                    let now = self.now();
                    let g = self.work.game_mut(&key);
                    let map = g.map();
                    g.state.status = g.state.paused_from.take().unwrap_or(Status::Active);
                    advance::schedule(map, &mut g.state, now)?;
                    self.ok(text, format!("{name} is running again."));
                    self.tell_pause(&key, false)?;
                }
            }
            SetGrace(t) => {
                let deadline = self.work.game(&key).state.clock.deadline;
                if !matches!(status, Status::Active | Status::Paused) {
                    self.fail(line, text, format!("{name} is not running"));
                } else if deadline.is_some_and(|d| *t < d) || *t <= self.now() {
                    self.fail(
                        line,
                        text,
                        "the end of grace must be in the future and not before the deadline",
                    );
                } else {
                    self.work.game_mut(&key).state.clock.grace = Some(*t);
                    let tz = self.work.zone_of(&self.sender);
                    self.ok(
                        text,
                        format!("Grace ends {}.", crate::schedule::format_in(*t, tz)),
                    );
                }
            }
            Become(who)
                if self
                    .work
                    .variant(&key)
                    .takes_own_orders(&self.work.game(&key).state) =>
            {
                let g = self.work.game(&key);
                match g.variant.become_player(&g.state, who) {
                    Ok(_) if !matches!(status, Status::Active | Status::Paused) => {
                        self.fail(line, text, format!("{name} is not running"))
                    }
                    Ok((address, shown)) => {
                        self.context = Some(Context {
                            key: key.clone(),
                            who: Who::Joined,
                        });
                        self.target = None;
                        self.acting_for = Some(address);
                        self.ok(
                            text,
                            format!("You now speak for {shown} in {name}: the orders that follow are theirs."),
                        );
                    }
                    Err(m) => self.fail(line, text, m),
                }
            }
            Become(power) => {
                let g = self.work.game(&key);
                let map = g.map();
                match power_by_initial(map, power).map(|p| power_name(map, p)) {
                    Some(p) if matches!(status, Status::Active | Status::Paused) => {
                        self.context = Some(Context {
                            key: key.clone(),
                            who: Who::Power(p.clone()),
                        });
                        self.target = None;
                        self.became = Some((key.clone(), p.clone(), self.reply.len()));
                        self.ok(
                            text,
                            format!(
                                "You now speak for {p} in {name}; its player gets a copy of this reply."
                            ),
                        );
                    }
                    Some(_) => self.fail(line, text, format!("{name} is not running")),
                    None => self.fail(line, text, format!("there is no power {power:?} in {name}")),
                }
            }
            Eject(who)
                if self
                    .work
                    .variant(&key)
                    .takes_own_orders(&self.work.game(&key).state) =>
            {
                match self.work.variant(&key).eject(self.work, &key, who)? {
                    Ok(m) => self.ok(text, m),
                    Err(m) => self.fail(line, text, m),
                }
            }
            Eject(who) => {
                let g = self.work.game(&key);
                let map = g.map();
                let power = power_by_initial(map, who).map(|p| power_name(map, p));
                let found = g.state.members.iter().position(|m| match &power {
                    Some(p) => m.role == Role::Player && m.power.as_deref() == Some(p.as_str()),
                    None => m.address.eq_ignore_ascii_case(who) && m.role != Role::Master,
                });
                match found {
                    Some(i) => {
                        let m = self.work.game_mut(&key).state.members.remove(i);
                        let what = m
                            .power
                            .clone()
                            .unwrap_or_else(|| format!("{:?}", m.role).to_lowercase());
                        let mut said = format!("{} ({what}) is no longer in {name}.", m.address);
                        self.tell_ejected(&key, &m.address, &what)?;
                        if let Some(p) = &m.power
                            && let Some(a) = advance::replace_with_standby(self.work, &key, p)?
                        {
                            said.push_str(&format!(" {a} takes over {p} from the stand-by list."));
                        }
                        self.ok(text, said);
                    }
                    None => self.fail(
                        line,
                        text,
                        format!("{who} is not a player or member of {name}"),
                    ),
                }
            }
            Promote(address) => {
                let g = self.work.game_mut(&key);
                let hash = g
                    .state
                    .members
                    .iter()
                    .find(|m| m.address.eq_ignore_ascii_case(address))
                    .map(|m| m.password_hash.clone());
                match hash {
                    Some(_)
                        if g.state
                            .masters()
                            .any(|m| m.address.eq_ignore_ascii_case(address)) =>
                    {
                        self.fail(
                            line,
                            text,
                            format!("{address} is already a master of {name}"),
                        )
                    }
                    Some(hash) => {
                        g.state.members.push(crate::game::model::Member::new(
                            address,
                            Role::Master,
                            hash,
                        ));
                        self.ok(
                            text,
                            format!("{address} is now a master of {name} (same password)."),
                        );
                    }
                    None => self.fail(line, text, format!("{address} is not a member of {name}")),
                }
            }
            Terminate => {
                if status == Status::Finished {
                    self.fail(line, text, format!("{name} is already over"));
                } else {
                    advance::finish(self.work, &key, crate::game::model::Outcome::Terminated)?;
                    self.ok(text, format!("{name} is terminated."));
                }
            }
            SetDeadline(t) => self.set_deadline(line, text, &key, *t)?,
            SetDeadlineDay(day) => {
                // The day named, at the time of day of the deadline now (in
                // the master's zone), as njudge keeps it.
                let tz = self.work.zone_of(&self.sender);
                let time = self
                    .work
                    .game(&key)
                    .state
                    .clock
                    .deadline
                    .map(|d| d.with_timezone(&tz).time())
                    .unwrap_or_default();
                match day.resolve_at(self.now(), tz, time) {
                    Some(t) => self.set_deadline(line, text, &key, t)?,
                    None => self.fail(line, text, "that date does not exist in your time zone"),
                }
            }
            SetNmr(on) => {
                self.work.game_mut(&key).state.settings.nmr = *on;
                self.ok(
                    text,
                    if *on {
                        "NMR: late powers go into civil disorder."
                    } else {
                        "NO NMR: the game waits for late powers."
                    },
                );
            }
            SetPress(kind) => {
                self.work.game_mut(&key).state.settings.press = *kind;
                self.ok(text, format!("Press set to {kind:?}."));
            }
            SetPartial(on) => {
                self.work.game_mut(&key).state.settings.broadcast_only = !*on;
                self.ok(
                    text,
                    if *on {
                        "Partial press allowed: players may send press to any powers."
                    } else {
                        "No partial press: players may send only broadcasts, and press to the master."
                    },
                );
            }
            SetDias(on) => {
                self.work.game_mut(&key).state.settings.partial = !*on;
                self.ok(
                    text,
                    if *on {
                        "DIAS: only draws including all survivors."
                    } else {
                        "NODIAS: partial draws allowed."
                    },
                );
            }
            SetRules(r) => {
                if r.parse::<crate::judge::Edition>().is_err() {
                    self.fail(
                        line,
                        text,
                        format!("unknown rules {r:?} (2023, 2000 or 1971)"),
                    );
                } else {
                    self.work.game_mut(&key).state.settings.rules = r.clone();
                    self.ok(text, format!("Rules set to the {r} rulebook."));
                }
            }
            Rollback(target) => {
                let to = target.map_or(RollbackTo::Last, RollbackTo::Phase);
                self.rollback(line, text, &key, to)?
            }
            RollbackTurn(n) => self.rollback(line, text, &key, RollbackTo::Turn(*n))?,
            ProcessPhase(p) => {
                if let Some(why) = self.not_the_phase(&key, *p) {
                    self.fail(line, text, why);
                } else {
                    return self.master_command(line, text, &Process);
                }
            }
            Unstart => self.unstart(line, text, &key)?,
            Flag(flag) => self.set_flag(line, text, &key, flag)?,
            SetClocks { kind, fields } => self.set_clocks(text, &key, Some(*kind), fields),
            Predict => {
                if status != Status::Active && status != Status::Paused {
                    self.fail(
                        line,
                        text,
                        format!("{name} is not running; there is nothing to predict"),
                    );
                } else {
                    let sender = self.sender.clone();
                    let body = match self.work.variant(&key).predict(self.work, &key, &sender)? {
                        Some(body) => body,
                        None => self.predict(&key)?,
                    };
                    self.ok(text, body);
                }
            }
            SetVariant(v) => {
                if crate::game::variants::named(v).is_none() {
                    self.fail(
                        line,
                        text,
                        format!(
                            "this judge runs only these variants: {}",
                            crate::game::variants::names().join(", ")
                        ),
                    );
                } else if status != Status::Forming {
                    self.fail(
                        line,
                        text,
                        format!("{name} has started: its variant is fixed"),
                    );
                } else {
                    let v = v.to_ascii_lowercase();
                    let g = self.work.game_mut(&key);
                    g.state.settings.variant = v.clone();
                    g.resolve_variant();
                    g.variant.settings(&mut g.state.settings);
                    self.ok(text, format!("{name} will be played as {v}."));
                }
            }
            SetMasters(list) => {
                let g = self.work.game_mut(&key);
                let answer = crate::game::variants::set_masters(&mut g.state, list);
                g.resolve_variant();
                match answer {
                    Ok(m) => self.ok(text, m),
                    Err(m) => self.fail(line, text, m),
                }
            }
            SetClock { kind, field } => {
                self.set_clocks(text, &key, *kind, std::slice::from_ref(field))
            }
            _ => self.fail(line, text, "not a master command"),
        }
        Ok(())
    }

    /// The results the orders given so far would give, adjudicated on a copy
    /// of the game: nothing is stored.
    fn predict(&mut self, key: &str) -> Result<String, EngineError> {
        let g = self.work.game(key);
        let (variant, map, mut copy) = (g.variant, g.map(), g.state.clone());
        let played = process::process(variant, map, &mut copy)?;
        let seq = u32::try_from(copy.next_seq).unwrap_or(u32::MAX);
        let judge = self.work.judge.clone();
        let report = crate::game::results::report_of(
            variant,
            map,
            &copy,
            &judge,
            &played.before,
            &played.adjudication,
            seq,
        );
        let who = crate::report::Recipient::new(
            crate::report::Role::Master,
            self.work.zone_of(&self.sender),
        );
        Ok(format!(
            "Prediction for {} from the orders given so far (nothing was processed or stored):\n\n{}",
            played.processed.phase,
            crate::game::results::text_for(map, &report, &who)
        ))
    }

    pub(super) fn rollback(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        target: RollbackTo,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (id, name) = (g.row.id, g.state.name.clone());
        let phases = self.work.tx.phases(id)?;
        let live: Vec<_> = phases.iter().filter(|p| !p.rolled_back).collect();
        let record = match target {
            RollbackTo::Last => live.last().copied(),
            RollbackTo::Phase(t) => live
                .iter()
                .rev()
                .find(|p| p.phase == t.to_string())
                .copied(),
            // njudge: turn 001 is the first phase played; "ROLLBACK 1" goes
            // back to the very start.
            RollbackTo::Turn(n) => (n as usize)
                .checked_sub(1)
                .and_then(|i| live.get(i))
                .copied(),
        };
        let Some(record) = record else {
            let what = match target {
                RollbackTo::Last => "any phase".to_string(),
                RollbackTo::Phase(t) => t.to_string(),
                RollbackTo::Turn(n) => {
                    format!("turn {n:03} (turns 001 to {:03} are processed)", live.len())
                }
            };
            self.fail(
                line,
                text,
                format!("{name} has no processed {what} to roll back to"),
            );
            return Ok(());
        };
        let before: crate::docs::PositionDoc =
            match self.work.variant(key).restore(self.work, key, record)? {
                Some(Ok(doc)) => doc,
                Some(Err(why)) => {
                    self.fail(line, text, why);
                    return Ok(());
                }
                None => serde_json::from_str(&record.position_before)
                    .map_err(|e| EngineError::State(e.to_string()))?,
            };
        let now = self.now();
        let g = self.work.game_mut(key);
        let map = g.map();
        let position = before.to_position(map)?;
        process::enter_phase(g.variant, map, &mut g.state, &position);
        g.variant.rolled_back(&mut g.state, &record.phase);
        // The next report is numbered as the turn it replays (njudge's
        // `ROLLBACK n` and the `game.NNN` of the reports agree).
        g.state.next_seq = live.iter().position(|p| p.id == record.id).unwrap_or(0) as i64;
        g.state.status = Status::Active;
        g.state.paused_from = None;
        g.state.outcome = None;
        for m in &mut g.state.members {
            m.abandoned = false;
            m.draw = None;
            m.concede = None;
        }
        advance::schedule(map, &mut g.state, now)?;
        let state = g.state.clone();
        let marked = self.work.tx.mark_rolled_back(id, record.seq)?;
        let body = format!(
            "The game has been rolled back to the start of {} ({marked} processed phase(s) marked rolled back).\n",
            record.phase
        );
        let subj = advance::subject(&self.work.judge, &state, "Rollback");
        advance::broadcast(self.work, &state, &subj, &body, Some(id))?;
        self.work.event(
            Some(id),
            "game.rolled_back",
            json!({ "to": record.phase, "seq": record.seq }),
        )?;
        self.ok(text, format!("Rolled back to {}.", record.phase));
        Ok(())
    }
}
