//! njudge's habits of players that are not Legate's own words: a `SIGNON`
//! naming the variant, `SIGNON ? pw` (the next forming game), taking over an
//! abandoned power by signing on to it, `WHOIS`, `INFO PLAYER`, `I AM ALSO`,
//! and the notices njudge sends when someone joins or leaves a game.

use serde_json::json;

use super::{Context, Session, Who, member};
use crate::game::EngineError;
use crate::game::advance;
use crate::game::model::{Role, Status};
use crate::game::request::Request;
use crate::game::variants::{self, Variant};
use crate::store::{GameId, GameStatus, Tx};

/// Why a game does not fit an option named after the variant on `SIGNON`
/// (`SIGNON ?game pw standard gunboat`), in the words `CREATE` takes; `None`:
/// it fits. njudge asks for the variant and options so a player knows what
/// they join: an option the game does not have refuses the sign-on.
fn option_misfit(state: &crate::game::model::GameState, option: &str) -> Option<String> {
    use crate::game::house::AssignBy;
    use crate::game::model::PressKind;
    let s = &state.settings;
    let (fits, said) = match option {
        "white" => (s.press == PressKind::White, "white press"),
        "grey" | "gray" => (s.press == PressKind::Grey, "grey press"),
        "nopress" | "none" => (s.press == PressKind::None, "no press"),
        "nmr" => (s.nmr, "NMR"),
        "nonmr" => (!s.nmr, "no NMR"),
        "partial" => (!s.broadcast_only, "partial press"),
        "nopartial" => (s.broadcast_only, "no partial press"),
        "dias" => (!s.partial, "DIAS draws"),
        "nodias" => (s.partial, "draws without every survivor"),
        "1971" | "2000" | "2023" => (s.rules == option, "those rules"),
        "nolist" | "private" => (!s.house.listed, "NOLIST"),
        "manualstart" => (s.house.manual_start, "manual start"),
        "prflist" => (s.house.assign == AssignBy::List, "PRFLIST"),
        "prfrand" => (s.house.assign == AssignBy::Random, "PRFRAND"),
        "prfboth" => (s.house.assign == AssignBy::Both, "PRFBOTH"),
        "gunboat" => {
            return Some(
                "this judge plays no gunboat games (players' identities are not kept secret \
                 here), so no game is gunboat"
                    .into(),
            );
        }
        other => {
            return Some(format!(
                "\"{other}\" is not an option this judge knows (those it reads on SIGNON: \
                 WHITE, GREY, NOPRESS, NMR, NONMR, PARTIAL, NOPARTIAL, DIAS, NODIAS, 1971, \
                 2000, 2023, NOLIST, MANUALSTART, PRFLIST, PRFRAND, PRFBOTH)"
            ));
        }
    };
    (!fits).then(|| {
        format!(
            "{} does not have {said} (\"{option}\"): LIST {} shows its settings",
            state.name, state.name
        )
    })
}

/// At most this many registrations answer one `WHOIS` word.
const WHOIS_LIMIT: usize = 20;

/// The registration fields `WHOIS` shows; the rest (postal address, phone,
/// birth date...) stay with the judge.
const SHOWN_FIELDS: &[&str] = &["name", "country", "site", "level"];

impl Session<'_, '_, '_> {
    /// `SIGNON ... <variant>`: the sign-on, refused whole when the game is of
    /// another variant (njudge asks for the name to be sure the player knows
    /// what they join).
    pub(super) fn sign_on_named(
        &mut self,
        line: usize,
        text: &str,
        variant: &str,
        options: &[String],
        signon: &Request,
    ) -> Result<(), EngineError> {
        let Some(named) = variants::named(variant) else {
            let known = variants::names().join(", ");
            self.fail(
                line,
                text,
                format!(
                    "there is no variant {variant:?} on this judge (its variants: {known}); \
                     the sign-on was not applied"
                ),
            );
            return Ok(());
        };
        let game = match signon {
            Request::SignOn { game, .. } | Request::Observe { game, .. } => game.clone(),
            _ => return self.dispatch(line, text, signon),
        };
        if game.is_empty() {
            let Request::SignOn { password, .. } = signon else {
                return Ok(());
            };
            if let Some(o) = options.first() {
                self.fail(
                    line,
                    text,
                    format!(
                        "SIGNON ? takes no options after the variant (\"{o}\"): sign on to a game \
                         by its name, whose settings LIST shows; the sign-on was not applied"
                    ),
                );
                return Ok(());
            }
            return self.join_next(line, text, password, named);
        }
        let Some(key) = self.require_game(line, text, &game)? else {
            return Ok(());
        };
        let state = &self.work.game(&key).state;
        if let Some(why) = options.iter().find_map(|o| option_misfit(state, o)) {
            self.fail(line, text, format!("{why}; the sign-on was not applied"));
            return Ok(());
        }
        if !variants::named(&state.settings.variant).is_some_and(|v| variants::same(v, named)) {
            let (name, actual) = (state.name.clone(), state.settings.variant.clone());
            self.fail(
                line,
                text,
                format!(
                    "{name} is a game of the {actual} variant, not {variant}; the sign-on \
                     was not applied (name the game's own variant, or none)"
                ),
            );
            return Ok(());
        }
        self.dispatch(line, text, signon)
    }

    /// `SIGNON ? pw [variant]`: joins the oldest-named forming game of the
    /// variant (standard when none is named) that the sender is not in.
    pub(super) fn join_next(
        &mut self,
        line: usize,
        text: &str,
        password: &str,
        variant: &'static dyn Variant,
    ) -> Result<(), EngineError> {
        let sender = self.sender.clone();
        for row in self.work.tx.games(Some(GameStatus::Forming))? {
            if !variants::named(&row.variant).is_some_and(|v| variants::same(v, variant)) {
                continue;
            }
            let Some(key) = self.work.load(&row.name)? else {
                continue;
            };
            let state = &self.work.game(&key).state;
            let open = state.players().count() < state.settings.players_needed
                && !state
                    .members
                    .iter()
                    .any(|m| m.address.eq_ignore_ascii_case(&sender));
            if open {
                return self.join(line, text, &row.name, password);
            }
        }
        self.fail(
            line,
            text,
            format!(
                "no {} game is forming that you can join; LIST shows the games, and \
                 CREATE ?<name> <password> starts one",
                variant.name()
            ),
        );
        Ok(())
    }

    /// `SIGNON <power><game> pw` for a power nobody plays (resigned, ejected or
    /// abandoned): the sender takes it over with that password, as on njudge.
    /// Returns false when the power cannot be taken over this way.
    pub(super) fn take_over(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        power: &str,
        password: &str,
    ) -> Result<bool, EngineError> {
        let sender = self.sender.clone();
        let g = self.work.game(key);
        if !matches!(g.state.status, Status::Active | Status::Paused)
            || !g.variant.open_to_take_over(&g.state)
        {
            return Ok(false);
        }
        let map = g.map();
        if !advance::vacant_powers(g.variant, map, &g.state)?
            .iter()
            .any(|p| p == power)
        {
            return Ok(false);
        }
        let name = g.state.name.clone();
        if g.state
            .players()
            .any(|m| m.address.eq_ignore_ascii_case(&sender) && m.power.is_some())
        {
            self.fail(
                line,
                text,
                format!("you already play a power in {name}; one player, one power"),
            );
            return Ok(true);
        }
        if password.len() < 4 {
            self.fail(
                line,
                text,
                format!("{power} in {name} needs a player: sign on with a password of at least 4 characters to take it over"),
            );
            return Ok(true);
        }
        let mut newcomer = member(&sender, Role::Player, password)?;
        newcomer.power = Some(power.to_string());
        let now = self.now();
        let g = self.work.game_mut(key);
        // The abandoned player, if any, leaves; so does the sender's place on
        // the stand-by list.
        let old: Vec<String> = g
            .state
            .members
            .iter()
            .filter(|m| m.role == Role::Player && m.power.as_deref() == Some(power))
            .map(|m| m.address.clone())
            .collect();
        let leaves = |m: &crate::game::model::Member| {
            (m.role == Role::Player && m.power.as_deref() == Some(power))
                || (m.role == Role::Standby && m.address.eq_ignore_ascii_case(&sender))
        };
        g.state.members.retain(|m| !leaves(m));
        g.state.members.push(newcomer);
        g.state.clock.abandon_announced.retain(|p| p != power);
        if g.state.status == Status::Active {
            advance::schedule(map, &mut g.state, now)?;
        }
        let (id, state) = (g.row.id, g.state.clone());
        let returning = old.is_empty() && resigned_last(self.work.tx, id, power, &sender)?;
        self.work.event(
            Some(id),
            "member.took_over",
            json!({ "power": power, "from": old, "to": sender }),
        )?;
        let judge = self.work.judge.clone();
        for o in &old {
            self.work.send(
                o,
                advance::subject(&judge, &state, "Replaced"),
                format!(
                    "{power} in {name} was abandoned and {sender} has taken it over; \
                     you are no longer in the game.\n"
                ),
                Some(id),
                false,
            );
        }
        if returning {
            self.notify_game(
                key,
                &format!("{power} player returned"),
                &format!("{sender}, who resigned {power}, has signed on again and plays it.\n"),
            )?;
        } else {
            self.notify_game(
                key,
                &format!("{power} taken over"),
                &format!(
                    "{power} was without a player; {sender} has signed on and now plays it.\n"
                ),
            )?;
        }
        // No password was checked: the mail proves nothing of the sender's
        // address, so it changes no account (see `account_change_refusal`).
        self.context = Some(Context {
            key: key.to_string(),
            who: Who::Power(power.to_string()),
        });
        self.target = None;
        let how = if returning {
            format!("You have returned as {power} in {name}")
        } else {
            format!("{power} in {name} had no player: you have taken it over")
        };
        self.ok(
            text,
            format!(
                "{how}, with the password you gave. The deadline is new; LIST shows the board."
            ),
        );
        Ok(true)
    }

    /// A Diplomacy Notice to everyone in the game but the sender (njudge tells
    /// the players, observers and the master of sign-ons, observers,
    /// resignations and take-overs); to the masters only in a game its master
    /// set `QUIET` ("prevents announcements about power abandonment, power
    /// takeovers and such from being broadcast to the other players or
    /// observers").
    pub(super) fn notify_game(
        &mut self,
        key: &str,
        what: &str,
        body: &str,
    ) -> Result<(), EngineError> {
        if self.work.game(key).state.settings.house.quiet {
            return self.notify_masters(key, what, body);
        }
        let sender = self.sender.clone();
        let g = self.work.game(key);
        let (id, mut state) = (g.row.id, g.state.clone());
        state
            .members
            .retain(|m| !m.address.eq_ignore_ascii_case(&sender));
        let judge = self.work.judge.clone();
        let subject = advance::subject(&judge, &state, &format!("Notice: {what}"));
        advance::broadcast(self.work, &state, &subject, body, Some(id))
    }

    /// A Diplomacy Notice to the game's masters only (a quiet game's notices).
    pub(super) fn notify_masters(
        &mut self,
        key: &str,
        what: &str,
        body: &str,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (id, state) = (g.row.id, g.state.clone());
        let judge = self.work.judge.clone();
        let subject = advance::subject(&judge, &state, &format!("Notice: {what}"));
        for m in state.masters() {
            if !m.address.eq_ignore_ascii_case(&self.sender) {
                self.work.send(
                    &m.address,
                    subject.clone(),
                    body.to_string(),
                    Some(id),
                    false,
                );
            }
        }
        Ok(())
    }

    /// `WHOIS user ...`: for each word, the registrations whose address
    /// starts with it: name, address, time zone and the games played.
    pub(super) fn whois(&mut self, text: &str, users: &[String]) -> Result<(), EngineError> {
        let mut out = String::new();
        for u in users {
            let found = self.work.tx.accounts_with_prefix(u, WHOIS_LIMIT + 1)?;
            if found.is_empty() {
                out.push_str(&format!(
                    "Nobody registered here has an address starting {u:?}.\n"
                ));
            }
            for a in found.iter().take(WHOIS_LIMIT) {
                out.push_str(&self.registration(a)?);
            }
            if found.len() > WHOIS_LIMIT {
                out.push_str(&format!(
                    "(more addresses start {u:?}: write more of the address)\n"
                ));
            }
        }
        self.ok(text, out.trim_end());
        Ok(())
    }

    /// `INFO PLAYER address`: one registration, as `WHOIS` shows it.
    pub(super) fn info_player(&mut self, text: &str, address: &str) -> Result<(), EngineError> {
        let body = match self.work.tx.account_by_address(address)? {
            Some(a) => self.registration(&a)?,
            None => format!("{address} is not registered on this judge.\n"),
        };
        self.ok(text, body.trim_end());
        Ok(())
    }

    /// One account as `WHOIS` shows it.
    fn registration(&mut self, a: &crate::store::Account) -> Result<String, EngineError> {
        let mut out = format!("Email: {}\n", a.address);
        if let Some(detail) = self
            .work
            .tx
            .latest_account_event(a.id, "account.registered")?
            && let Ok(serde_json::Value::Object(fields)) = serde_json::from_str(&detail)
        {
            for key in SHOWN_FIELDS {
                if let Some(v) = fields.get(*key).and_then(|v| v.as_str()) {
                    let mut k = key.to_string();
                    k[..1].make_ascii_uppercase();
                    out.push_str(&format!("{k}: {v}\n"));
                }
            }
        }
        out.push_str(&format!("Time zone: {}\n", a.time_zone));
        let mut games = Vec::new();
        for m in self.work.tx.memberships_of(a.id)? {
            if let Some(g) = self.work.tx.game(m.game)? {
                games.push(match m.power {
                    Some(p) => format!("{} ({p})", g.name),
                    None => format!("{} ({})", g.name, m.role.as_str()),
                });
            }
        }
        if !games.is_empty() {
            out.push_str(&format!("Games: {}\n", games.join(", ")));
        }
        out.push('\n');
        Ok(out)
    }

    /// `LIST FULL` (njudge: "a detailed report including the player list of
    /// each game"): every listed game with its settings, schedule, flags and
    /// members; the game the sender signed on to as its master, listed or
    /// not, also with who has ordered and who has not.
    pub(super) fn list_full(&mut self, text: &str) -> Result<(), EngineError> {
        let tz = self.work.zone_of(&self.sender);
        let now = self.now();
        let mastered = self
            .context
            .as_ref()
            .filter(|c| c.who == Who::Master)
            .map(|c| c.key.clone());
        let mut out = String::from("Games on this judge, in full:\n");
        for row in self.work.tx.games(None)? {
            let key = row.name.to_lowercase();
            let own = mastered.as_deref() == Some(key.as_str());
            let state = if own {
                self.work.game(&key).state.clone()
            } else {
                match serde_json::from_str::<crate::game::model::GameState>(&row.state) {
                    Ok(s) => s,
                    Err(_) => continue,
                }
            };
            if !state.settings.house.listed && !own {
                continue;
            }
            out.push('\n');
            out.push_str(&crate::game::answers::list_entry(&state, tz, now));
            if own {
                out.push_str(&self.order_status(&key));
            }
        }
        self.ok(text, out.trim_end());
        Ok(())
    }

    /// `I AM ALSO oldaddress`: refused. Anyone can write any address in
    /// From:, so a mail from a new address cannot prove it belongs to the
    /// player of the old one; a sign-on with the seat's password can.
    pub(super) fn i_am_also(&mut self, line: usize, text: &str, old: &str) {
        self.fail(
            line,
            text,
            format!(
                "this judge does not link addresses on the word of a mail (anyone can write \
                 any From:). To play from this address, send from it: SIGNON <power><game> \
                 <password> then SET ADDRESS, for each game you play as {old}; the password \
                 proves the seat is yours"
            ),
        );
    }

    /// `POSTAL PRESS`: refused with the press that works.
    pub(super) fn postal_press(&mut self, line: usize, text: &str) {
        self.fail(
            line,
            text,
            "postal press (held until the phase is processed) is not offered by this \
             judge; BROADCAST sends the message to everyone now",
        );
    }
}

/// True when the newest change of `power`'s seat in the game was `address`
/// resigning it: that player signing on now returns (njudge: "has returned
/// as France"), where anyone else takes the power over.
fn resigned_last(
    tx: &Tx<'_>,
    game: GameId,
    power: &str,
    address: &str,
) -> Result<bool, EngineError> {
    let newest = tx.game_events(game)?.into_iter().rev().find_map(|e| {
        if e.kind != "member.resigned" && e.kind != "member.took_over" {
            return None;
        }
        let detail: serde_json::Value = serde_json::from_str(&e.detail).ok()?;
        (detail["power"] == power).then_some((e.kind, detail))
    });
    Ok(newest.is_some_and(|(kind, detail)| {
        kind == "member.resigned"
            && detail["address"]
                .as_str()
                .is_some_and(|a| a.eq_ignore_ascii_case(address))
    }))
}
