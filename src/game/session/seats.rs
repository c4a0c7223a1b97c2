//! Creating, joining, signing on, observing, preferences, time zone, resigning.

use serde_json::json;

use super::{Context, Session, Who, member, power_by_initial};
use crate::docs::power_name;
use crate::game::EngineError;
use crate::game::advance;
use crate::game::house::AssignBy;
use crate::game::model::{GameState, Role, Settings, Status};
use crate::store::{NewGame, verify_seat_password};

impl Session<'_, '_, '_> {
    pub(super) fn create(
        &mut self,
        line: usize,
        text: &str,
        game: &str,
        password: &str,
        variant: Option<&str>,
    ) -> Result<(), EngineError> {
        if self.work.load(game)?.is_some() {
            self.fail(line, text, format!("a game named {game} already exists"));
            return Ok(());
        }
        if game.is_empty()
            || game.len() > 32
            || !game
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            self.fail(
                line,
                text,
                "a game name is 1 to 32 letters, digits, '-' or '_'",
            );
            return Ok(());
        }
        let variant = variant.unwrap_or("standard").to_ascii_lowercase();
        let Some(kind) = crate::game::variants::named(&variant) else {
            self.fail(line, text, format!("unknown variant {variant}"));
            return Ok(());
        };
        let mut settings = Settings {
            variant: variant.clone(),
            ..Settings::default()
        };
        kind.settings(&mut settings);
        // The game's wall clock is its creator's zone.
        settings.schedule.timezone = self.work.zone_of(&self.sender).name().to_string();
        let mut state = GameState::new(game, settings);
        kind.created(&mut state, &self.sender, self.now());
        let secret = self.next_secret();
        state.lot_commitment = Some(secret.commitment());
        state
            .members
            .push(member(&self.sender, Role::Master, password)?);
        let state_json = advance::to_json(&state);
        let settings_json = advance::to_json(&state.settings);
        let commitment = secret.commitment();
        let secret_hex = secret.to_hex();
        let id = self.work.tx.insert_game(
            &NewGame {
                name: game,
                variant: &variant,
                rules_preset: &state.settings.rules,
                settings: &settings_json,
                state: &state_json,
                lot_commitment: Some(&commitment),
                lot_secret: Some(&secret_hex),
            },
            self.now(),
        )?;
        let row = self
            .work
            .tx
            .game(id)?
            .ok_or(EngineError::State("game vanished".into()))?;
        let key = self.work.adopt(row, state, secret);
        self.work.event(
            Some(id),
            "game.created",
            json!({ "master": self.sender, "variant": variant }),
        )?;
        self.context = Some(Context {
            key,
            who: Who::Master,
        });
        self.ok(
            text,
            format!(
                "Game {game} ({variant}) created; you are its master. Players join with SIGNON ?{game} <password>.\n\
                 Lot commitment (SHA-256 of the game's secret): {commitment}"
            ),
        );
        Ok(())
    }

    pub(super) fn join(
        &mut self,
        line: usize,
        text: &str,
        game: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let Some(key) = self.require_game(line, text, game)? else {
            return Ok(());
        };
        let sender = self.sender.clone();
        // A GTD player signing on again gave the seat's password (the variant
        // checks it); a new entrant proved nothing.
        let g = self.work.game(&key);
        let returning =
            g.variant.checks_own_passwords(&g.state) && g.state.member(&sender).is_some();
        if let Some(reply) = self
            .work
            .variant(&key)
            .join(self.work, &key, &sender, password)?
        {
            advance::follow(self.work, &key, reply.next)?;
            match reply.answer {
                Ok(m) => {
                    if returning {
                        self.signed(true);
                    }
                    self.context = Some(Context {
                        key,
                        who: Who::Joined,
                    });
                    self.ok(text, m);
                }
                Err(m) => self.fail(line, text, m),
            }
            return Ok(());
        }
        let g = self.work.game(&key);
        if matches!(g.state.status, Status::Active | Status::Paused) {
            return self.join_standby(line, text, &key, password);
        }
        if g.state.status != Status::Forming {
            let name = g.state.name.clone();
            self.fail(
                line,
                text,
                format!("game {name} is over; it takes no new players"),
            );
            return Ok(());
        }
        if self.master_joins(line, text, &key, password).is_some() {
            return Ok(());
        }
        let g = self.work.game(&key);
        let joined = g
            .state
            .players()
            .find(|m| m.address.eq_ignore_ascii_case(&self.sender))
            .map(|m| verify_seat_password(&m.address, &g.state.name, password, &m.password_hash));
        if let Some(known) = joined {
            // A joined player signs on again (to send what the forming game
            // still needs, such as a Twilight Zone map) with the same password.
            let name = g.state.name.clone();
            if known {
                self.signed(true);
                self.context = Some(Context {
                    key,
                    who: Who::Joined,
                });
                self.ok(
                    text,
                    format!(
                        "You have already joined {name}; signed on (powers are not assigned yet)."
                    ),
                );
            } else {
                self.fail(line, text, format!("you have already joined {name}"));
            }
            return Ok(());
        }
        let m = member(&self.sender, Role::Player, password)?;
        let g = self.work.game_mut(&key);
        g.state.members.push(m);
        let (count, needed, name) = (
            g.state.players().count(),
            g.state.settings.players_needed,
            g.state.name.clone(),
        );
        let commitment = g.state.lot_commitment.clone().unwrap_or_default();
        self.context = Some(Context {
            key: key.clone(),
            who: Who::Joined,
        });
        self.ok(
            text,
            format!(
                "You have joined {name} ({count} of {needed} players). Lot commitment: {commitment}"
            ),
        );
        self.notify_game(
            &key,
            "sign-on",
            &format!("{sender} has signed on to {name} ({count} of {needed} players).\n"),
        )?;
        if count >= needed && !self.work.game(&key).state.settings.house.manual_start {
            self.pending_start = Some(key);
        }
        Ok(())
    }

    /// `SIGNON ?game` for a game under way: the stand-by list, and at once a
    /// power that needs a player, if one does.
    fn join_standby(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let sender = self.sender.clone();
        let g = self.work.game(key);
        let name = g.state.name.clone();
        if g.state.members.iter().any(|m| {
            matches!(m.role, Role::Player | Role::Standby)
                && m.address.eq_ignore_ascii_case(&sender)
        }) {
            self.fail(
                line,
                text,
                format!("you already play or stand by in {name}"),
            );
            return Ok(());
        }
        let map = g.map();
        let vacant = advance::vacant_powers(g.variant, map, &g.state)?;
        let m = member(&sender, Role::Standby, password)?;
        let g = self.work.game_mut(key);
        g.state.members.push(m);
        let place = g
            .state
            .members
            .iter()
            .filter(|m| m.role == Role::Standby)
            .count();
        let id = g.row.id;
        self.work
            .event(Some(id), "member.standby", json!({ "address": sender }))?;
        for power in vacant {
            if let Some(a) = advance::replace_with_standby(self.work, key, &power)?
                && a.eq_ignore_ascii_case(&sender)
            {
                self.ok(
                    text,
                    format!("{name} has started; you take over {power}, which needed a player."),
                );
                return Ok(());
            }
        }
        self.ok(
            text,
            format!(
                "{name} has started; you are number {place} on its stand-by list and will \
                 take over the first power that is abandoned."
            ),
        );
        Ok(())
    }

    pub(super) fn sign_on(
        &mut self,
        line: usize,
        text: &str,
        power: &str,
        game: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let Some(key) = self.require_game(line, text, game)? else {
            return Ok(());
        };
        let g = self.work.game(&key);
        let name = g.state.name.clone();
        if power.eq_ignore_ascii_case("m") || power.eq_ignore_ascii_case("master") {
            let signed: Vec<bool> = g
                .state
                .masters()
                .filter(|m| {
                    verify_seat_password(&m.address, &g.state.name, password, &m.password_hash)
                })
                .map(|m| m.address.eq_ignore_ascii_case(&self.sender))
                .collect();
            if !signed.is_empty() {
                self.signed(signed.contains(&true));
                let status = self.order_status(&key);
                self.context = Some(Context {
                    key,
                    who: Who::Master,
                });
                self.ok(text, format!("Signed on as master of {name}.{status}"));
            } else {
                self.fail(
                    line,
                    text,
                    format!("wrong password for the master of {name}"),
                );
            }
            return Ok(());
        }
        if g.variant.takes_own_orders(&g.state) {
            self.fail(
                line,
                text,
                format!("players of {name} are not powers: sign on with SIGNON ?{name} <password>"),
            );
            return Ok(());
        }
        let map = g.map();
        let seat = power_by_initial(map, power)
            .or_else(|| g.variant.played_power_by_initial(&g.state, map, power));
        let Some(p) = seat else {
            self.fail(line, text, format!("there is no power {power:?} in {name}"));
            return Ok(());
        };
        let pname = power_name(map, p);
        // njudge: signing on to a power nobody plays takes it over.
        let vacant = match g.state.player_of(&pname) {
            None => true,
            Some(m) => m.abandoned && !m.address.eq_ignore_ascii_case(&self.sender),
        };
        if vacant && self.take_over(line, text, &key, &pname, password)? {
            return Ok(());
        }
        let g = self.work.game(&key);
        match g.state.player_of(&pname) {
            None if g.state.status == Status::Forming => self.fail(
                line,
                text,
                format!("{name} has not started yet: powers are not assigned"),
            ),
            None => self.fail(line, text, format!("nobody plays {pname} in {name}")),
            Some(m)
                if !verify_seat_password(&m.address, &g.state.name, password, &m.password_hash) =>
            {
                self.fail(line, text, format!("wrong password for {pname} in {name}"))
            }
            Some(_)
                if let Some(why) = g.variant.sign_on_refusal(&g.state, &pname, &self.sender) =>
            {
                self.fail(line, text, why)
            }
            Some(m) => {
                let own = m.address.eq_ignore_ascii_case(&self.sender);
                self.signed(own);
                self.context = Some(Context {
                    key,
                    who: Who::Power(pname.clone()),
                });
                self.target = None;
                self.ok(text, format!("Signed on as {pname} in {name}."));
            }
        }
        Ok(())
    }

    /// `MAP ... ENDMAP`: a joined player's own map, for the game's variant.
    pub(super) fn submit_map(
        &mut self,
        line: usize,
        text: &str,
        design: &str,
    ) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let sender = self.sender.clone();
        let reply = self
            .work
            .variant(&ctx.key)
            .submit_map(self.work, &ctx.key, &sender, design)?;
        advance::follow(self.work, &ctx.key, reply.next)?;
        match reply.answer {
            Ok(m) => self.ok(text, m),
            Err(m) => self.fail(line, text, m),
        }
        Ok(())
    }

    pub(super) fn observe(
        &mut self,
        line: usize,
        text: &str,
        game: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let Some(key) = self.require_game(line, text, game)? else {
            return Ok(());
        };
        let sender = self.sender.clone();
        let g = self.work.game(&key);
        let name = g.state.name.clone();
        let existing = g
            .state
            .members
            .iter()
            .find(|m| m.role == Role::Observer && m.address.eq_ignore_ascii_case(&sender));
        match existing {
            Some(m)
                if !verify_seat_password(&m.address, &g.state.name, password, &m.password_hash) =>
            {
                self.fail(
                    line,
                    text,
                    format!("wrong password for your observer place in {name}"),
                );
                return Ok(());
            }
            Some(_) => self.signed(true),
            None => {
                let m = member(&sender, Role::Observer, password)?;
                self.work.game_mut(&key).state.members.push(m);
                self.notify_game(
                    &key,
                    "observer",
                    &format!("{sender} now observes {name}.\n"),
                )?;
            }
        }
        self.context = Some(Context {
            key,
            who: Who::Observer,
        });
        self.ok(text, format!("You are observing {name}."));
        Ok(())
    }

    pub(super) fn set_preference(
        &mut self,
        line: usize,
        text: &str,
        groups: &[Vec<String>],
    ) -> Result<(), EngineError> {
        let Some(key) = self.preference_game(line, text) else {
            return Ok(());
        };
        let g = self.work.game(&key);
        // njudge's PRFRAND: "this is the only possible preference list".
        if g.state.settings.house.assign == AssignBy::Random && !groups.is_empty() {
            let name = g.state.name.clone();
            self.fail(
                line,
                text,
                format!(
                    "{name} assigns every power by lot (PRFRAND): a preference list is not \
                     read there; SET PREFERENCE * says you take any power"
                ),
            );
            return Ok(());
        }
        let map = g.map();
        let mut clean = Vec::new();
        for group in groups {
            let mut names = Vec::new();
            for p in group {
                match power_by_initial(map, p) {
                    Some(pw) if !g.variant.has_seat(&g.state, pw) => {
                        let name = power_name(map, pw);
                        self.fail(line, text, format!("nobody plays {name} in this game"));
                        return Ok(());
                    }
                    Some(pw) => names.push(power_name(map, pw)),
                    None => {
                        self.fail(line, text, format!("there is no power {p:?} in this game"));
                        return Ok(());
                    }
                }
            }
            clean.push(names);
        }
        let shown = clean
            .iter()
            .map(|g| g.join("="))
            .collect::<Vec<_>>()
            .join(", ");
        self.record_preference(&key, clean, false)?;
        if shown.is_empty() {
            self.ok(
                text,
                "Preference list cleared: you take what is left once the lists are read.",
            );
        } else {
            self.ok(text, format!("Preferences recorded: {shown}"));
        }
        Ok(())
    }

    /// `SET PREFERENCE *` (njudge): any power, drawn by lot before the
    /// preference lists are read; in `PRFBOTH` and `PRFRAND` games.
    pub(super) fn set_preference_any(
        &mut self,
        line: usize,
        text: &str,
    ) -> Result<(), EngineError> {
        let Some(key) = self.preference_game(line, text) else {
            return Ok(());
        };
        let g = self.work.game(&key);
        let name = g.state.name.clone();
        let answer = match g.state.settings.house.assign {
            AssignBy::List => {
                self.fail(
                    line,
                    text,
                    format!(
                        "{name} assigns powers by the players' lists (PRFLIST): give a list, \
                         or leave it empty to take what is left; SET PREFERENCE * is for \
                         PRFBOTH games"
                    ),
                );
                return Ok(());
            }
            AssignBy::Random => format!(
                "{name} assigns every power by lot (PRFRAND): you will get one drawn by lot."
            ),
            AssignBy::Both => format!(
                "You will get a power of {name} drawn by lot, before the other players' lists \
                 are read."
            ),
        };
        self.record_preference(&key, Vec::new(), true)?;
        self.ok(text, answer);
        Ok(())
    }

    /// The game whose preferences the sender may set: a forming game they
    /// have joined as a player; otherwise the line is refused and `None`.
    fn preference_game(&mut self, line: usize, text: &str) -> Option<String> {
        let ctx = self.require_context(line, text, false)?;
        let g = self.work.game(&ctx.key);
        let joined = g
            .state
            .players()
            .any(|m| m.address.eq_ignore_ascii_case(&self.sender));
        if g.state.status != Status::Forming || !joined {
            self.fail(
                line,
                text,
                "SET PREFERENCE is only possible in a forming game you have joined",
            );
            return None;
        }
        Some(ctx.key)
    }

    /// njudge tells the Master of each change of a preference list, with
    /// every player's list as it now stands (the Master settles disputes
    /// about who got which power).
    fn tell_masters_preferences(&mut self, key: &str) -> Result<(), EngineError> {
        let mut body = format!(
            "{} changed their preference list. The lists are now:\n",
            self.sender
        );
        for m in self.work.game(key).state.players() {
            let list = if m.any_power {
                "any power, drawn by lot".to_string()
            } else if m.preferences.is_empty() {
                "none (takes what is left)".to_string()
            } else {
                m.preferences
                    .iter()
                    .map(|g| g.join("="))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            body.push_str(&format!("  {:<30} {list}\n", m.address));
        }
        self.notify_masters(key, "preference list", &body)
    }

    /// Records the sender's lists (or "any power") and tells the masters.
    fn record_preference(
        &mut self,
        key: &str,
        lists: Vec<Vec<String>>,
        any_power: bool,
    ) -> Result<(), EngineError> {
        let sender = self.sender.clone();
        let g = self.work.game_mut(key);
        if let Some(m) = g
            .state
            .members
            .iter_mut()
            .find(|m| m.role == Role::Player && m.address.eq_ignore_ascii_case(&sender))
        {
            m.preferences = lists;
            m.any_power = any_power;
        }
        self.tell_masters_preferences(key)
    }

    pub(super) fn set_timezone(
        &mut self,
        line: usize,
        text: &str,
        zone: &str,
    ) -> Result<(), EngineError> {
        if zone.parse::<chrono_tz::Tz>().is_err() {
            self.fail(
                line,
                text,
                format!("unknown time zone {zone:?} (use an IANA name such as Europe/London)"),
            );
            return Ok(());
        }
        if let Some(why) = self.account_change_refusal(None)? {
            self.fail(line, text, why);
            return Ok(());
        }
        match self.work.tx.account_by_address(&self.sender)? {
            Some(mut a) => {
                a.time_zone = zone.to_string();
                self.work.tx.update_account(&a)?;
            }
            None => {
                self.work
                    .tx
                    .insert_account(&self.sender, None, zone, self.now())?;
            }
        }
        self.ok(text, format!("Times will be shown in {zone}."));
        Ok(())
    }

    pub(super) fn resign(&mut self, line: usize, text: &str) -> Result<(), EngineError> {
        if self.variant_takes_orders()
            && let Some(ctx) = self.context.clone()
        {
            let sender = self.sender.clone();
            match self
                .work
                .variant(&ctx.key)
                .resign(self.work, &ctx.key, &sender)?
            {
                Ok(m) => self.ok(text, m),
                Err(m) => self.fail(line, text, m),
            }
            return Ok(());
        }
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        let g = self.work.game_mut(&key);
        let (name, id) = (g.state.name.clone(), g.row.id);
        g.state
            .members
            .retain(|m| !(m.role == Role::Player && m.power.as_deref() == Some(power.as_str())));
        self.context = None;
        // Kept so that the same player signing on again is told as a return.
        let sender = self.sender.clone();
        self.work.event(
            Some(id),
            "member.resigned",
            json!({ "power": power, "address": sender }),
        )?;
        let who = match advance::replace_with_standby(self.work, &key, &power)? {
            Some(a) => format!("{a} takes it over from the stand-by list"),
            None => {
                self.notify_game(
                    &key,
                    &format!("{power} resigned"),
                    &format!(
                        "The player of {power} has resigned from {name}. Anyone may take it over \
                     with SIGNON {}{name} <password>.\n",
                        power.chars().next().unwrap_or('?')
                    ),
                )?;
                "the power is now without a player".to_string()
            }
        };
        self.ok(text, format!("You have resigned {power} in {name}; {who}."));
        Ok(())
    }

    pub(super) fn set_password(
        &mut self,
        line: usize,
        text: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        if password.len() < 4 {
            self.fail(line, text, "a password needs at least 4 characters");
            return Ok(());
        }
        let hash = crate::store::hash_password(password)?;
        let sender = self.sender.clone();
        let g = self.work.game_mut(&ctx.key);
        let name = g.state.name.clone();
        let seat = match &ctx.who {
            Who::Power(p) => g.state.player_of_mut(p),
            Who::Master => g
                .state
                .members
                .iter_mut()
                .find(|m| m.role == Role::Master && m.address.eq_ignore_ascii_case(&sender)),
            Who::Observer => g
                .state
                .members
                .iter_mut()
                .find(|m| m.role == Role::Observer && m.address.eq_ignore_ascii_case(&sender)),
            Who::Joined => g
                .state
                .members
                .iter_mut()
                .find(|m| m.role == Role::Player && m.address.eq_ignore_ascii_case(&sender)),
        };
        match seat {
            Some(m) => {
                m.password_hash = hash;
                self.ok(text, format!("Your password for {name} is changed."));
            }
            None => self.fail(
                line,
                text,
                format!("you have no seat in {name} whose password you may change"),
            ),
        }
        Ok(())
    }
}
