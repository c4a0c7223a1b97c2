//! njudge's Master habits (`master`, `index`): `BECOME MASTER` and the
//! creator who plays, `CLEAR`, `UNSTART`, `ROLLBACK n` by turn number, the
//! game settings in njudge's words, several clock settings on one line, the
//! settings refused with their reason, and the notices njudge mails (a copy
//! of what was done after `BECOME`, an ejection, a pause, who has ordered).

use std::fmt::Write as _;

use serde_json::json;

use super::{Context, Session, Who};
use crate::game::EngineError;
use crate::game::advance;
use crate::game::house::AssignBy;
use crate::game::model::{Role, Status};
use crate::game::process::{orders_of, position_of};
use crate::game::request::{ClockField, Request};
use crate::grammar::{GameFlag, PreferenceRule, PressRule};
use crate::phase::PhaseKind;
use crate::store::verify_seat_password;

/// Which processed phase a `ROLLBACK` goes back to.
#[derive(Copy, Clone, Debug)]
pub(super) enum RollbackTo {
    /// The last phase processed.
    Last,
    /// The last time this phase was processed.
    Phase(crate::phase::Phase),
    /// njudge's turn number: the `n`th phase processed and not rolled back.
    Turn(u32),
}

impl Session<'_, '_, '_> {
    /// The requests of this module.
    pub(super) fn njudge_master(
        &mut self,
        line: usize,
        text: &str,
        request: &Request,
    ) -> Result<(), EngineError> {
        match request {
            Request::BecomeMaster => self.become_master(line, text),
            Request::ClearLater => self.clear_later(line, text),
            Request::Refused { setting, why } => {
                self.fail(line, text, format!("{setting} is not offered here: {why}"));
                Ok(())
            }
            Request::Already { setting, why } => {
                self.ok(
                    text,
                    format!("{setting}: always so here, nothing changed ({why})."),
                );
                Ok(())
            }
            // Settings, `UNSTART` and `ROLLBACK n` need the game's master (or,
            // for settings, any player of an unmoderated game).
            _ => self.master_command(line, text, request),
        }
    }

    /// A setting any player may change when the game is unmoderated (njudge:
    /// "allow the players to control the game").
    pub(super) fn players_may_set(&self, request: &Request) -> bool {
        use Request::*;
        let setting = matches!(
            request,
            SetDeadline(_)
                | SetDeadlineDay(_)
                | SetGrace(_)
                | SetClock { .. }
                | SetClocks { .. }
                | SetNmr(_)
                | SetPress(_)
                | SetPartial(_)
                | SetDias(_)
                | SetRules(_)
                | SetVariant(_)
                | Flag(_)
        );
        setting
            && self.context.as_ref().is_some_and(|c| {
                matches!(c.who, Who::Power(_) | Who::Joined)
                    && !self.work.game(&c.key).state.settings.house.moderated
            })
    }

    /// `BECOME MASTER`: njudge's "Allows the sole player signed onto a
    /// particular game to become the master/moderator of that game". The
    /// master who created the game (this judge's way) is told they are one.
    fn become_master(&mut self, line: usize, text: &str) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let g = self.work.game(&ctx.key);
        let name = g.state.name.clone();
        if ctx.who == Who::Master {
            self.ok(text, format!("You are the master of {name}."));
            return Ok(());
        }
        let sole = g.state.members.len() == 1
            && g.state.members[0]
                .address
                .eq_ignore_ascii_case(&self.sender)
            && g.state.members[0].role == Role::Player;
        if ctx.who != Who::Joined || g.state.status != Status::Forming || !sole {
            self.fail(
                line,
                text,
                format!(
                    "only the one player of a forming game without a master may BECOME \
                     MASTER; ask a master of {name} to PROMOTE you"
                ),
            );
            return Ok(());
        }
        let g = self.work.game_mut(&ctx.key);
        g.state.members[0].role = Role::Master;
        g.state.settings.house.moderated = true;
        let id = g.row.id;
        self.work.event(
            Some(id),
            "member.became_master",
            json!({ "address": self.sender }),
        )?;
        self.context = Some(Context {
            key: ctx.key,
            who: Who::Master,
        });
        self.ok(
            text,
            format!(
                "You are now the master of {name}; it is moderated. Sign on with \
                 SIGNON M{name} <password>."
            ),
        );
        Ok(())
    }

    /// `SIGNON ?game pw` from the master who created the game and is its only
    /// member: as njudge's creator, they play in it, and the game has no
    /// master (unmoderated) until one of them sends `BECOME MASTER`. The
    /// master's password must be given: a forged `From:` changes nothing.
    /// `None`: the sender is not a master of the game.
    pub(super) fn master_joins(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        password: &str,
    ) -> Option<()> {
        let g = self.work.game(key);
        let name = g.state.name.clone();
        let mine = g
            .state
            .masters()
            .find(|m| m.address.eq_ignore_ascii_case(&self.sender))?;
        let right = verify_seat_password(&mine.address, &name, password, &mine.password_hash);
        if !right || g.state.members.len() != 1 {
            self.fail(
                line,
                text,
                format!(
                    "you are a master of {name}, and a master does not also play; the master \
                     who created a game may play in it, with the master's password, while \
                     nobody else has joined"
                ),
            );
            return Some(());
        }
        self.signed(true);
        let g = self.work.game_mut(key);
        let (needed, commitment) = (
            g.state.settings.players_needed,
            g.state.lot_commitment.clone().unwrap_or_default(),
        );
        g.state.members[0].role = Role::Player;
        g.state.settings.house.moderated = false;
        self.context = Some(Context {
            key: key.to_string(),
            who: Who::Joined,
        });
        self.ok(
            text,
            format!(
                "You created {name} and now play in it (1 of {needed} players); it has no \
                 master, so its players may change its settings (unmoderated). While you \
                 are its only player, BECOME MASTER makes you its master again. \
                 Lot commitment: {commitment}"
            ),
        );
        Some(())
    }

    /// `CLEAR`: njudge's "clear any pending orders entered with the PHASE
    /// command" (conditional orders for later phases too).
    fn clear_later(&mut self, line: usize, text: &str) -> Result<(), EngineError> {
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        let g = self.work.game_mut(&key);
        let before = g.state.future_orders.len() + g.state.conditional.len();
        let now = g.state.phase_name().map(str::to_string);
        g.state.future_orders.retain(|f| f.power != power);
        g.state
            .conditional
            .retain(|c| c.power != power || Some(&c.phase) == now.as_ref());
        let cleared = before - g.state.future_orders.len() - g.state.conditional.len();
        self.ok(
            text,
            if cleared == 0 {
                format!("{power} has no orders kept for later phases.")
            } else {
                format!(
                    "Cleared {cleared} set(s) of orders kept for later phases; the orders for \
                     this phase stand."
                )
            },
        );
        Ok(())
    }

    /// `UNSTART` (njudge): "return the game to the position immediately prior
    /// to the start of the game. Powers will be unassigned and the game will
    /// be flagged manualstart. Games can only be unstarted if no turns have
    /// yet processed."
    pub(super) fn unstart(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (name, id) = (g.state.name.clone(), g.row.id);
        let status = g.state.status;
        if g.variant.has_own_state(&g.state) {
            self.fail(
                line,
                text,
                format!("{name} plays a variant whose start cannot be undone; UNSTART is for standard games"),
            );
            return Ok(());
        }
        let played = self.work.tx.phases(id)?.iter().any(|p| !p.rolled_back);
        if !matches!(status, Status::Active | Status::Paused) || played {
            self.fail(
                line,
                text,
                format!("only a game under way whose first phase is not yet processed can be unstarted ({name} is not)"),
            );
            return Ok(());
        }
        let g = self.work.game_mut(key);
        for m in &mut g.state.members {
            if matches!(m.role, Role::Player | Role::Standby) {
                m.role = Role::Player;
                m.power = None;
                m.abandoned = false;
                m.draw = None;
                m.concede = None;
                m.wait = false;
            }
        }
        g.state.status = Status::Forming;
        g.state.paused_from = None;
        g.state.position = None;
        g.state.orders.clear();
        g.state.future_orders.clear();
        g.state.conditional.clear();
        g.state.clock = Default::default();
        g.state.settings.house.manual_start = true;
        let state = g.state.clone();
        self.work.event(Some(id), "game.unstarted", json!({}))?;
        let subject = advance::subject(&self.work.judge, &state, "Unstarted");
        let body = format!(
            "The master has unstarted {name}: the powers are unassigned and the game is \
             forming again. Players may change their preferences (SET PREFERENCE); the game \
             starts when the master says so (FORCE BEGIN or SET AUTO START).\n"
        );
        advance::broadcast(self.work, &state, &subject, &body, Some(id))?;
        self.ok(
            text,
            format!("{name} is forming again, powers unassigned (manual start)."),
        );
        Ok(())
    }

    /// A game setting in njudge's words, for the game `key`.
    pub(super) fn set_flag(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        flag: &GameFlag,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let name = g.state.name.clone();
        let status = g.state.status;
        let map = g.map();
        let powers = g.variant.playable_powers(&g.state, map).len();
        let forming = status == Status::Forming;
        let players = g.state.players().count();
        let before_start =
            |what: &str| format!("{name} has started; {what} can only be set while it forms");
        let answer: Result<String, String> = match flag {
            GameFlag::List(on) => {
                self.work.game_mut(key).state.settings.house.listed = *on;
                Ok(if *on {
                    format!("{name} is listed: LIST shows it to everyone.")
                } else {
                    format!("{name} is not listed: LIST shows it only to those who name it.")
                })
            }
            GameFlag::Comment(c) if c.chars().count() > 60 => {
                Err("a comment is at most 60 characters (njudge's brief comment)".into())
            }
            GameFlag::Comment(c) => {
                self.work.game_mut(key).state.settings.house.comment = c.clone();
                Ok(if c.is_empty() {
                    "Comment cleared.".into()
                } else {
                    format!("Comment set: {c}")
                })
            }
            GameFlag::Players(_) if !forming => Err(before_start("the number of players")),
            GameFlag::Players(n) if *n < 2 || *n as usize > powers => Err(format!(
                "{name} takes 2 to {powers} players (one power each; the powers left over \
                 wait, without a player, for one to sign on)"
            )),
            GameFlag::Players(n) => {
                self.work.game_mut(key).state.settings.players_needed = *n as usize;
                self.start_if_full(key);
                Ok(format!("{name} starts with {n} players."))
            }
            GameFlag::Centers(n) => {
                let total = map.supply_centers().len();
                if *n == 0 || *n as usize > total as usize {
                    Err(format!("a number of supply centres from 1 to {total}"))
                } else {
                    self.work.game_mut(key).state.settings.house.centers = Some(*n);
                    Ok(format!("{n} supply centres win {name}."))
                }
            }
            GameFlag::ManualStart(_) if !forming => Err(before_start("manual or automatic start")),
            GameFlag::ManualStart(on) => {
                self.work.game_mut(key).state.settings.house.manual_start = *on;
                if *on {
                    Ok(format!(
                        "{name} starts only when its master says so (FORCE BEGIN or SET AUTO START)."
                    ))
                } else {
                    let full = players >= self.work.game(key).state.settings.players_needed;
                    self.start_if_full(key);
                    Ok(if full {
                        format!("{name} has its players and starts now.")
                    } else {
                        format!("{name} starts as soon as it has its players.")
                    })
                }
            }
            GameFlag::Moderated(on) => {
                let masters = self.work.game(key).state.masters().count();
                if *on && masters == 0 {
                    Err(format!(
                        "{name} has no master to moderate it; its only player may BECOME MASTER"
                    ))
                } else {
                    self.work.game_mut(key).state.settings.house.moderated = *on;
                    Ok(if *on {
                        format!("{name} is moderated: only its masters change its settings.")
                    } else {
                        format!("{name} is unmoderated: its players may change its settings too.")
                    })
                }
            }
            GameFlag::Preference(_) if !forming => Err(before_start("how powers are assigned")),
            GameFlag::Preference(rule) => {
                let (assign, said) = match rule {
                    PreferenceRule::List => (AssignBy::List, "by the players' preference lists"),
                    PreferenceRule::Random => (AssignBy::Random, "by lot, preferences not read"),
                    PreferenceRule::Both => (
                        AssignBy::Both,
                        "by lot for players who ask for any power, by list for the others",
                    ),
                };
                self.work.game_mut(key).state.settings.house.assign = assign;
                Ok(format!("Powers in {name} are assigned {said}."))
            }
            GameFlag::Press(rule) => {
                use crate::game::model::PressKind;
                let (kind, grey_only, said) = match rule {
                    PressRule::WhiteOnly => (PressKind::White, false, "white (signed) only"),
                    PressRule::GreyOnly => (
                        PressKind::Grey,
                        true,
                        "grey: every player's press goes out anonymous",
                    ),
                    PressRule::WhiteGrey => (
                        PressKind::Grey,
                        false,
                        "white, grey when a message asks for it",
                    ),
                };
                let s = &mut self.work.game_mut(key).state.settings;
                s.press = kind;
                s.house.grey_only = grey_only;
                Ok(format!("Press in {name}: {said}."))
            }
            GameFlag::Fake(on) => {
                self.work.game_mut(key).state.settings.house.fake_press = *on;
                Ok(if *on {
                    "Partial press may be faked.".into()
                } else {
                    "No fake press.".into()
                })
            }
            GameFlag::Quiet(on) => {
                self.work.game_mut(key).state.settings.house.quiet = *on;
                Ok(if *on {
                    format!(
                        "{name} is quiet: sign-ons, observers, resignations and take-overs are \
                         told to its masters only."
                    )
                } else {
                    format!(
                        "{name} is not quiet: sign-ons, observers, resignations and take-overs \
                         are told to everyone in it."
                    )
                })
            }
            GameFlag::Concessions(on) => {
                self.work.game_mut(key).state.settings.house.concessions = *on;
                Ok(if *on {
                    format!("Players of {name} may concede (SET CONCEDE).")
                } else {
                    format!("Players of {name} may not concede.")
                })
            }
            GameFlag::MaxAbsence(n) if *n > 31 => {
                Err("an absence may be limited to 0 to 31 days (njudge's bounds)".into())
            }
            GameFlag::MaxAbsence(n) => {
                self.work.game_mut(key).state.settings.house.max_absence = Some(*n);
                Ok(format!(
                    "Players of {name} may set absences of up to {n} days."
                ))
            }
        };
        match answer {
            Ok(m) => self.ok(text, m),
            Err(m) => self.fail(line, text, m),
        }
        Ok(())
    }

    /// A forming game that has its players starts once the mail is read,
    /// unless its master starts it by hand.
    fn start_if_full(&mut self, key: &str) {
        let s = &self.work.game(key).state;
        if s.status == Status::Forming
            && !s.settings.house.manual_start
            && s.players().count() >= s.settings.players_needed
        {
            self.pending_start = Some(key.to_string());
        }
    }

    /// Clock settings for one kind of phase, in order.
    pub(super) fn set_clocks(
        &mut self,
        text: &str,
        key: &str,
        kind: Option<PhaseKind>,
        fields: &[ClockField],
    ) {
        let g = self.work.game_mut(key);
        let kinds = match kind {
            Some(k) => vec![k],
            None => vec![
                PhaseKind::Movement,
                PhaseKind::Retreat,
                PhaseKind::Adjustment,
            ],
        };
        for k in kinds {
            let s = g.state.settings.schedule.for_kind_mut(k);
            for field in fields {
                match field {
                    ClockField::Time(t) => s.deadline_time = *t,
                    ClockField::NextHours(h) => s.next_hours = *h,
                    ClockField::GraceHours(h) => s.grace_hours = *h,
                    ClockField::Days(d) => s.weekdays = *d,
                    ClockField::MinMinutes(m) => s.min_minutes = *m,
                    ClockField::DelayMinutes(m) => s.delay_minutes = *m,
                }
            }
        }
        self.ok(text, "Schedule changed; it applies from the next phase.");
    }

    /// `PROCESS <phase>` (njudge, `master`): "the process command will be
    /// ignored unless that is indeed the current phase". Why it is not.
    pub(super) fn not_the_phase(&self, key: &str, want: crate::phase::Phase) -> Option<String> {
        let state = &self.work.game(key).state;
        let now = state.phase_name().unwrap_or("none");
        (now != want.to_string()).then(|| {
            format!(
                "{} is at {now}, not {want}: nothing was processed (PROCESS <phase> \
                 processes only the phase it names)",
                state.name
            )
        })
    }

    /// `EJECT`: njudge tells the ejected player, and the game.
    pub(super) fn tell_ejected(
        &mut self,
        key: &str,
        address: &str,
        what: &str,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (state, id) = (g.state.clone(), g.row.id);
        let name = state.name.clone();
        let judge = self.work.judge.clone();
        self.work.send(
            address,
            advance::subject(&judge, &state, "Ejected"),
            format!(
                ":: Judge: {judge}  Game: {name}\n\nThe master of {name} has removed you \
                 ({what}) from the game. You no longer receive its mail.\n"
            ),
            Some(id),
            false,
        );
        let body = format!("The master has ejected the {what} of {name}.\n");
        advance::broadcast(
            self.work,
            &state,
            &advance::subject(&judge, &state, "Ejection"),
            &body,
            Some(id),
        )
    }

    /// `PAUSE` and `RESUME`: everyone in the game is told.
    pub(super) fn tell_pause(&mut self, key: &str, paused: bool) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (state, id) = (g.state.clone(), g.row.id);
        let name = state.name.clone();
        let (what, body) = if paused {
            (
                "Paused",
                format!(
                    "The master has paused {name}: no phase is processed and no deadline \
                     passes until it is resumed. Press may still be sent.\n"
                ),
            )
        } else {
            (
                "Resumed",
                format!("The master has resumed {name}; the deadline is above.\n"),
            )
        };
        let subject = advance::subject(&self.work.judge, &state, what);
        advance::broadcast(self.work, &state, &subject, &body, Some(id))
    }

    /// Who has ordered this phase and who has not, for a master (njudge: the
    /// master's sign-on reply "will include the [partial] orders that the
    /// players have submitted").
    pub(super) fn order_status(&self, key: &str) -> String {
        let g = self.work.game(key);
        let (state, variant) = (&g.state, g.variant);
        if variant.keeps_own_accounts(state)
            || !matches!(state.status, Status::Active | Status::Paused)
        {
            return String::new();
        }
        let (map, Some(phase)) = (g.map(), state.phase_name()) else {
            return String::new();
        };
        let Ok(position) = position_of(map, state) else {
            return String::new();
        };
        let mut out = format!("\nOrders for {phase}:\n");
        for (i, info) in map.powers().iter().enumerate() {
            let p = crate::map::Power(i as u8);
            if !crate::game::orders_check::owes_orders(map, &position, p) {
                continue;
            }
            let who = state
                .player_of(&info.name)
                .map(|m| m.address.as_str())
                .unwrap_or("no player");
            let orders = orders_of(map, state, &info.name).unwrap_or_default();
            let missing = crate::game::orders_check::missing_orders(map, &position, p, &orders);
            let done = variant.orders_given_otherwise(state, &info.name);
            let said = match (orders.is_empty(), missing) {
                _ if done => "ordered".to_string(),
                (true, _) => "no orders".to_string(),
                (false, 0) => "ordered".to_string(),
                (false, n) => format!("partial ({n} missing)"),
            };
            let _ = writeln!(out, "  {:<10} {said:<22} {who}", info.name);
            for o in &orders {
                let _ = writeln!(out, "      {}", crate::docs::order_text(map, o));
            }
        }
        out
    }

    /// After `BECOME <power>`: njudge mails that power's player "a message
    /// ... advising him that the Master used the "BECOME" command and
    /// confirming all commands entered by the Master" (the whole reply).
    pub(super) fn copy_to_become_player(&mut self) {
        let Some((key, power, from)) = self.became.take() else {
            return;
        };
        let g = self.work.game(&key);
        let Some(to) = g.state.player_of(&power).map(|m| m.address.clone()) else {
            return;
        };
        if to.eq_ignore_ascii_case(&self.sender) {
            return;
        }
        let (state, id) = (g.state.clone(), g.row.id);
        let judge = self.work.judge.clone();
        let mut body = format!(
            ":: Judge: {judge}  Game: {}\n\nThe master of {} used BECOME {power}: these \
             lines were applied as {power}'s (with any master commands before them).\n\n",
            state.name, state.name
        );
        // Before the BECOME, the commands alone: the master's answers (who
        // has ordered, other powers' orders) are not the player's to read.
        for (i, (_, r)) in self.reply.iter().enumerate() {
            let shown = if i < from {
                r.lines().next().unwrap_or_default()
            } else {
                r.as_str()
            };
            body.push_str(shown);
            body.push_str("\n\n");
        }
        self.work.send(
            &to,
            advance::subject(&judge, &state, &format!("Master as {power}")),
            body,
            Some(id),
            false,
        );
    }
}
