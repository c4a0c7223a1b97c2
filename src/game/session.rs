//! One mail's commands and orders, applied in order against the games they
//! name. A `SIGNON` sets who the following lines speak for.

use chrono::{DateTime, Utc};
use serde_json::json;

use super::EngineError;
use super::advance::{self, deadline_line};
use super::answers;
use super::describe;
use super::docs::{OrderDoc, order_text, power_name};
use super::lots::LotSecret;
use super::model::{FutureOrders, GameState, Member, Role, Settings, Status};
use super::orders_check::{check_orders, merge, missing_orders};
use super::process::{self, map_for, orders_of, position_of, survivors};
use super::request::{ClockField, Line, Request};
use super::work::Work;
use crate::map::{Map, Power};
use crate::orders::Order;
use crate::phase::{Phase, PhaseKind};
use crate::store::{NewGame, NewOrder, hash_password, verify_password};

/// What a mail's sender may do in the game they signed on to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Who {
    Power(String),
    Master,
    Observer,
    /// Joined a forming game; no power yet.
    Joined,
}

#[derive(Clone, Debug)]
struct Context {
    key: String,
    who: Who,
}

struct PendingOrder {
    line: usize,
    text: String,
    order: Order,
}

pub struct Session<'w, 't, 'c> {
    work: &'w mut Work<'t, 'c>,
    sender: String,
    context: Option<Context>,
    target: Option<Phase>,
    pending: Vec<PendingOrder>,
    pub reply: Vec<String>,
    pub errors: usize,
    pub processed: usize,
    votes_changed: Vec<String>,
    secrets: Vec<[u8; 32]>,
    /// A forming game that filled up: it starts once the whole mail is read,
    /// so that preferences given after the SIGNON count.
    pending_start: Option<String>,
}

fn err(line: usize, text: &str, message: impl std::fmt::Display) -> String {
    format!("> {text}\nError (line {line}): {message}")
}

impl<'w, 't, 'c> Session<'w, 't, 'c> {
    pub fn new(work: &'w mut Work<'t, 'c>, sender: &str, secrets: Vec<[u8; 32]>) -> Self {
        Session {
            work,
            sender: sender.to_string(),
            context: None,
            target: None,
            pending: Vec::new(),
            reply: Vec::new(),
            errors: 0,
            processed: 0,
            votes_changed: Vec::new(),
            secrets,
            pending_start: None,
        }
    }

    fn now(&self) -> DateTime<Utc> {
        self.work.now
    }

    fn fail(&mut self, line: usize, text: &str, message: impl std::fmt::Display) {
        self.errors += 1;
        self.reply.push(err(line, text, message));
    }

    fn ok(&mut self, text: &str, message: impl std::fmt::Display) {
        self.reply.push(format!("> {text}\n{message}"));
    }

    /// Applies every line, then what follows from them (early processing, votes).
    pub fn run(&mut self, lines: &[Line]) -> Result<(), EngineError> {
        for l in lines {
            match l {
                Line::Error {
                    line,
                    text,
                    message,
                } => self.fail(*line, text, message),
                Line::Order { line, text, order } => self.pending.push(PendingOrder {
                    line: *line,
                    text: text.clone(),
                    order: *order,
                }),
                Line::Command {
                    line,
                    text,
                    request,
                } => {
                    self.flush_orders()?;
                    self.command(*line, text, request)?;
                }
            }
        }
        self.flush_orders()?;
        if self.errors > 0 {
            return Ok(());
        }
        if let Some(key) = self.pending_start.take() {
            advance::start(self.work, &key)?;
        }
        for key in std::mem::take(&mut self.votes_changed) {
            advance::check_votes(self.work, &key)?;
        }
        if let Some(ctx) = self.context.clone()
            && matches!(ctx.who, Who::Power(_))
        {
            self.processed += advance::process_if_ready(self.work, &ctx.key)?;
        }
        Ok(())
    }

    /// The summary the reply ends with: the sender's current orders.
    pub fn order_summary(&self) -> Option<(String, String)> {
        let ctx = self.context.as_ref()?;
        let g = self.work.game(&ctx.key);
        let power = match &ctx.who {
            Who::Power(p) => Some(p.as_str()),
            _ => None,
        };
        // After an error nothing is applied: show the orders as stored.
        let state: GameState = if self.errors > 0 {
            match self.work.tx.game_by_name(&g.state.name) {
                Ok(Some(row)) => serde_json::from_str(&row.state).ok()?,
                _ => return None,
            }
        } else {
            g.state.clone()
        };
        let map = map_for(&state.settings.variant).ok()?;
        let tz = self.work.zone_of(&self.sender);
        let mut text = String::new();
        text.push_str(&deadline_line(&state, tz, self.now()));
        text.push('\n');
        if let Some(power) = power
            && (state.status == Status::Active || state.status == Status::Paused)
        {
            let orders = orders_of(map, &state, power).ok()?;
            let position = position_of(map, &state).ok()?;
            let p = map.power(power)?;
            text.push_str(&format!(
                "\nCurrent orders for {power} ({}):\n",
                state.phase_name().unwrap_or("")
            ));
            if orders.is_empty() {
                text.push_str("  (none)\n");
            }
            for o in &orders {
                text.push_str(&format!("  {}\n", order_text(map, o)));
            }
            let missing = missing_orders(map, &position, p, &orders);
            if missing > 0 {
                text.push_str(&format!("Still missing: {missing} order(s).\n"));
            }
            for f in state.future_orders.iter().filter(|f| f.power == power) {
                text.push_str(&format!("Orders stored for {}:\n", f.phase));
                for o in &f.orders {
                    if let Ok(o) = o.to_order(map) {
                        text.push_str(&format!("  {}\n", order_text(map, &o)));
                    }
                }
            }
        }
        Some((state.name.clone(), text))
    }

    pub fn game_id(&self) -> Option<crate::store::GameId> {
        self.context.as_ref().map(|c| self.work.game(&c.key).row.id)
    }

    pub fn context_game(&self) -> Option<(String, Option<String>)> {
        let ctx = self.context.as_ref()?;
        let g = self.work.game(&ctx.key);
        Some((
            g.state.name.clone(),
            g.state.phase_name().map(str::to_string),
        ))
    }

    fn next_secret(&mut self) -> LotSecret {
        LotSecret(self.secrets.pop().unwrap_or_else(|| {
            use sha2::{Digest, Sha256};
            Sha256::digest(self.now().to_rfc3339().as_bytes()).into()
        }))
    }

    // ----- orders -----

    fn flush_orders(&mut self) -> Result<(), EngineError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut pending = std::mem::take(&mut self.pending);
        let Some(Context {
            key,
            who: Who::Power(power),
        }) = self.context.clone()
        else {
            for p in &pending {
                self.fail(
                    p.line,
                    &p.text,
                    "orders need a SIGNON as a power of a game first",
                );
            }
            return Ok(());
        };
        let g = self.work.game(&key);
        if !matches!(g.state.status, Status::Active | Status::Paused) {
            let why = format!(
                "game {} is not running ({:?}), so it takes no orders",
                g.state.name, g.state.status
            );
            for p in &pending {
                self.fail(p.line, &p.text, &why);
            }
            return Ok(());
        }
        let map = map_for(&g.state.settings.variant)?;
        let position = position_of(map, &g.state)?;
        let p = map
            .power(&power)
            .ok_or_else(|| EngineError::State(power.clone()))?;
        // `D` read without a phase is a retreat's disband; in adjustments it removes.
        if self.target.unwrap_or(position.phase).kind == PhaseKind::Adjustment {
            for o in &mut pending {
                if let Order::Disband { unit } = o.order {
                    o.order = Order::Remove { unit };
                }
            }
        }
        match self.target {
            Some(t) if t < position.phase => {
                for o in &pending {
                    self.fail(o.line, &o.text, format!("phase {t} is already over"));
                }
                Ok(())
            }
            Some(t) if t > position.phase => self.store_future(&key, map, &power, t, pending),
            _ => self.store_current(&key, map, p, &power, pending),
        }
    }

    fn store_current(
        &mut self,
        key: &str,
        map: &Map,
        p: Power,
        power: &str,
        pending: Vec<PendingOrder>,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let id = g.row.id;
        let position = position_of(map, &g.state)?;
        let rules = process::rules_for(&g.state);
        let existing = orders_of(map, &g.state, power)?;
        let new: Vec<Order> = pending.iter().map(|o| o.order).collect();
        let merged = merge(position.phase.kind, &existing, &new);
        let problems = check_orders(map, &rules, &position, p, &merged);
        let mut bad = false;
        for o in &pending {
            // The problem of the merged order that this line became.
            let idx = merged.iter().position(|m| *m == o.order);
            match idx.and_then(|i| problems[i].clone()) {
                Some(problem) => {
                    bad = true;
                    let at = o.order.unit().map(|u| u.location.province);
                    let msg = describe::problem(map, at, &problem);
                    self.fail(o.line, &o.text, msg);
                }
                None => {
                    let canon = order_text(map, &o.order);
                    self.ok(&o.text, format!("Accepted: {canon}"));
                }
            }
        }
        if bad {
            return Ok(());
        }
        let phase_name = position.phase.to_string();
        for o in &pending {
            let canon = order_text(map, &o.order);
            self.work.tx.insert_order(&NewOrder {
                game: id,
                phase: &phase_name,
                power,
                text: &o.text,
                canonical: Some(&canon),
                submitter: &self.sender,
                submitted_at: self.now(),
                inbound: self.work.inbound,
            })?;
        }
        let g = self.work.game_mut(key);
        process::set_orders(map, &mut g.state, p, &merged);
        // New orders from an abandoned power bring it back.
        if let Some(m) = g.state.player_of_mut(power) {
            m.abandoned = false;
        }
        Ok(())
    }

    fn store_future(
        &mut self,
        key: &str,
        map: &Map,
        power: &str,
        phase: Phase,
        pending: Vec<PendingOrder>,
    ) -> Result<(), EngineError> {
        let name = phase.to_string();
        let g = self.work.game_mut(key);
        let existing: Vec<Order> = g
            .state
            .future_orders
            .iter()
            .filter(|f| f.phase == name && f.power == power)
            .flat_map(|f| f.orders.iter().filter_map(|o| o.to_order(map).ok()))
            .collect();
        let new: Vec<Order> = pending.iter().map(|o| o.order).collect();
        let merged = merge(phase.kind, &existing, &new);
        g.state
            .future_orders
            .retain(|f| !(f.phase == name && f.power == power));
        g.state.future_orders.push(FutureOrders {
            phase: name.clone(),
            power: power.to_string(),
            orders: merged
                .iter()
                .map(|o| OrderDoc::from_order(map, o))
                .collect(),
        });
        for o in &pending {
            let canon = order_text(map, &o.order);
            self.ok(&o.text, format!("Stored for {name}: {canon}"));
        }
        Ok(())
    }

    // ----- commands -----

    fn require_game(
        &mut self,
        line: usize,
        text: &str,
        name: &str,
    ) -> Result<Option<String>, EngineError> {
        match self.work.load(name)? {
            Some(k) => Ok(Some(k)),
            None => {
                self.fail(line, text, format!("there is no game named {name}"));
                Ok(None)
            }
        }
    }

    /// The game the sender signed on to as `want` (master, power...), or an error.
    fn require_context(&mut self, line: usize, text: &str, master: bool) -> Option<Context> {
        match &self.context {
            None => {
                self.fail(line, text, "this command needs a SIGNON to a game first");
                None
            }
            Some(c) if master && c.who != Who::Master => {
                let c = c.clone();
                let name = self.work.game(&c.key).state.name.clone();
                self.fail(line, text, format!("only the master of {name} may do this"));
                None
            }
            Some(c) => Some(c.clone()),
        }
    }

    fn require_power(&mut self, line: usize, text: &str) -> Option<(String, String)> {
        match &self.context {
            Some(Context {
                key,
                who: Who::Power(p),
            }) => Some((key.clone(), p.clone())),
            _ => {
                self.fail(line, text, "this command needs a SIGNON as a power first");
                None
            }
        }
    }

    fn command(&mut self, line: usize, text: &str, request: &Request) -> Result<(), EngineError> {
        use Request::*;
        match request {
            Create {
                game,
                password,
                variant,
            } => self.create(line, text, game, password, variant.as_deref()),
            SignOn {
                power: None,
                game,
                password,
            } => self.join(line, text, game, password),
            SignOn {
                power: Some(p),
                game,
                password,
            } => self.sign_on(line, text, p, game, password),
            Observe { game, password } => self.observe(line, text, game, password),
            SetPreference(groups) => self.set_preference(line, text, groups),
            SetTimezone(zone) => self.set_timezone(line, text, zone),
            SetWait(on) => self.set_wait(line, text, *on),
            SetDraw(vote) => self.set_draw(line, text, vote.clone()),
            SetConcede(to) => self.set_concede(line, text, to.clone()),
            SetAbsence { from, to } => self.set_absence(line, text, *from, *to),
            Request::Phase(p) => {
                self.target = Some(*p);
                self.ok(text, format!("The orders that follow are for {p}."));
                Ok(())
            }
            List(g) | Summary(g) | History(g) | WhoGame(g) => {
                self.answer(line, text, request, g.clone())
            }
            Help => {
                self.ok(text, answers::help());
                Ok(())
            }
            Version => {
                self.ok(text, format!("Legate {}", env!("CARGO_PKG_VERSION")));
                Ok(())
            }
            Resign => self.resign(line, text),
            Unsupported(what) => {
                self.ok(
                    text,
                    format!("{what} is not supported by this judge yet; the line was not applied."),
                );
                Ok(())
            }
            _ => self.master_command(line, text, request),
        }
    }

    fn create(
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
        if map_for(&variant).is_err() {
            self.fail(line, text, format!("unknown variant {variant}"));
            return Ok(());
        }
        let mut settings = Settings {
            variant: variant.clone(),
            ..Settings::default()
        };
        // The game's wall clock is its creator's zone.
        settings.schedule.timezone = self.work.zone_of(&self.sender).name().to_string();
        let mut state = GameState::new(game, settings);
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

    fn join(
        &mut self,
        line: usize,
        text: &str,
        game: &str,
        password: &str,
    ) -> Result<(), EngineError> {
        let Some(key) = self.require_game(line, text, game)? else {
            return Ok(());
        };
        let g = self.work.game(&key);
        if g.state.status != Status::Forming {
            let name = g.state.name.clone();
            self.fail(
                line,
                text,
                format!("game {name} has already started; it takes no new players"),
            );
            return Ok(());
        }
        if g.state
            .players()
            .any(|m| m.address.eq_ignore_ascii_case(&self.sender))
        {
            let name = g.state.name.clone();
            self.fail(line, text, format!("you have already joined {name}"));
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
        if count >= needed {
            self.pending_start = Some(key);
        }
        Ok(())
    }
}

fn member(address: &str, role: Role, password: &str) -> Result<Member, EngineError> {
    Ok(Member {
        address: address.to_string(),
        role,
        power: None,
        password_hash: hash_password(password)?,
        preferences: Vec::new(),
        wait: false,
        draw: None,
        concede: None,
        absences: Vec::new(),
        abandoned: false,
    })
}

impl Session<'_, '_, '_> {
    fn sign_on(
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
            if g.state
                .masters()
                .any(|m| verify_password(password, &m.password_hash))
            {
                self.context = Some(Context {
                    key,
                    who: Who::Master,
                });
                self.ok(text, format!("Signed on as master of {name}."));
            } else {
                self.fail(
                    line,
                    text,
                    format!("wrong password for the master of {name}"),
                );
            }
            return Ok(());
        }
        let map = map_for(&g.state.settings.variant)?;
        let Some(p) = power_by_initial(map, power) else {
            self.fail(line, text, format!("there is no power {power:?} in {name}"));
            return Ok(());
        };
        let pname = power_name(map, p);
        match g.state.player_of(&pname) {
            None if g.state.status == Status::Forming => self.fail(
                line,
                text,
                format!("{name} has not started yet: powers are not assigned"),
            ),
            None => self.fail(line, text, format!("nobody plays {pname} in {name}")),
            Some(m) if !verify_password(password, &m.password_hash) => {
                self.fail(line, text, format!("wrong password for {pname} in {name}"))
            }
            Some(_) => {
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

    fn observe(
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
            Some(m) if !verify_password(password, &m.password_hash) => {
                self.fail(
                    line,
                    text,
                    format!("wrong password for your observer place in {name}"),
                );
                return Ok(());
            }
            Some(_) => {}
            None => {
                let m = member(&sender, Role::Observer, password)?;
                self.work.game_mut(&key).state.members.push(m);
            }
        }
        self.context = Some(Context {
            key,
            who: Who::Observer,
        });
        self.ok(text, format!("You are observing {name}."));
        Ok(())
    }

    fn set_preference(
        &mut self,
        line: usize,
        text: &str,
        groups: &[Vec<String>],
    ) -> Result<(), EngineError> {
        let sender = self.sender.clone();
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let g = self.work.game(&ctx.key);
        if g.state.status != Status::Forming
            || !g
                .state
                .players()
                .any(|m| m.address.eq_ignore_ascii_case(&sender))
        {
            self.fail(
                line,
                text,
                "SET PREFERENCE is only possible in a forming game you have joined",
            );
            return Ok(());
        }
        let map = map_for(&g.state.settings.variant)?;
        let mut clean = Vec::new();
        for group in groups {
            let mut names = Vec::new();
            for p in group {
                match power_by_initial(map, p) {
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
        let g = self.work.game_mut(&ctx.key);
        if let Some(m) = g
            .state
            .members
            .iter_mut()
            .find(|m| m.role == Role::Player && m.address.eq_ignore_ascii_case(&sender))
        {
            m.preferences = clean;
        }
        self.ok(text, format!("Preferences recorded: {shown}"));
        Ok(())
    }

    fn set_timezone(&mut self, line: usize, text: &str, zone: &str) -> Result<(), EngineError> {
        if zone.parse::<chrono_tz::Tz>().is_err() {
            self.fail(
                line,
                text,
                format!("unknown time zone {zone:?} (use an IANA name such as Europe/London)"),
            );
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

    fn set_wait(&mut self, line: usize, text: &str, on: bool) -> Result<(), EngineError> {
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

    fn running(&mut self, line: usize, text: &str, key: &str, what: &str) -> bool {
        let g = self.work.game(key);
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

    fn set_draw(
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
        let map = map_for(&g.state.settings.variant)?;
        let position = position_of(map, &g.state)?;
        let alive: Vec<String> = survivors(map, &position)
            .into_iter()
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
                        "this game allows only draws including all survivors",
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

    fn set_concede(
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
        let map = map_for(&g.state.settings.variant)?;
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

    fn set_absence(
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
        if (to - from).num_days() > 31 {
            self.fail(line, text, "an absence may last at most 31 days");
            return Ok(());
        }
        let g = self.work.game_mut(&key);
        let map = map_for(&g.state.settings.variant)?;
        if let Some(m) = g.state.player_of_mut(&power) {
            m.absences.push(super::clock::Absence { from, to });
        }
        if g.state.status == Status::Active && g.state.position.is_some() {
            advance::reschedule_for_absences(map, &mut g.state)?;
        }
        let tz = self.work.zone_of(&self.sender);
        let g = self.work.game(&key);
        let line2 = deadline_line(&g.state, tz, self.now());
        self.ok(
            text,
            format!(
                "Absence recorded from {} to {}.\n{line2}",
                super::clock::format_in(from, tz),
                super::clock::format_in(to, tz)
            ),
        );
        Ok(())
    }

    fn answer(
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
            Request::List(_) => answers::list(&g.state, tz, self.now()),
            Request::WhoGame(_) => answers::whogame(&g.state),
            Request::Summary(_) => answers::summary(self.work.tx, g.row.id, &g.state)?,
            _ => answers::history(self.work.tx, g.row.id, &g.state)?,
        };
        self.ok(text, body);
        Ok(())
    }

    fn resign(&mut self, line: usize, text: &str) -> Result<(), EngineError> {
        let Some((key, power)) = self.require_power(line, text) else {
            return Ok(());
        };
        let g = self.work.game_mut(&key);
        let name = g.state.name.clone();
        g.state
            .members
            .retain(|m| !(m.role == Role::Player && m.power.as_deref() == Some(power.as_str())));
        self.context = None;
        self.ok(
            text,
            format!("You have resigned {power} in {name}; the power is now without a player."),
        );
        Ok(())
    }

    fn master_command(
        &mut self,
        line: usize,
        text: &str,
        request: &Request,
    ) -> Result<(), EngineError> {
        use Request::*;
        let Some(ctx) = self.require_context(line, text, true) else {
            return Ok(());
        };
        let key = ctx.key;
        let status = self.work.game(&key).state.status;
        let name = self.work.game(&key).state.name.clone();
        match request {
            ForceBegin => {
                if status != Status::Forming {
                    self.fail(line, text, format!("{name} has already started"));
                } else if self.work.game(&key).state.players().count() == 0 {
                    self.fail(line, text, format!("{name} has no players yet"));
                } else {
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
                    let g = self.work.game_mut(&key);
                    g.state.status = Status::Paused;
                    g.state.paused_from = Some(Status::Active);
                    self.ok(text, format!("{name} is paused."));
                }
            }
            Resume => {
                if status != Status::Paused {
                    self.fail(line, text, format!("{name} is not paused"));
                } else {
                    let now = self.now();
                    let g = self.work.game_mut(&key);
                    let map = map_for(&g.state.settings.variant)?;
                    g.state.status = g.state.paused_from.take().unwrap_or(Status::Active);
                    advance::schedule(map, &mut g.state, now)?;
                    self.ok(text, format!("{name} is running again."));
                }
            }
            Terminate => {
                if status == Status::Finished {
                    self.fail(line, text, format!("{name} is already over"));
                } else {
                    advance::finish(self.work, &key, super::model::Outcome::Terminated)?;
                    self.ok(text, format!("{name} is terminated."));
                }
            }
            SetDeadline(t) => {
                if !matches!(status, Status::Active | Status::Paused) {
                    self.fail(line, text, format!("{name} is not running"));
                } else if *t <= self.now() {
                    self.fail(line, text, "the new deadline must be in the future");
                } else {
                    let g = self.work.game_mut(&key);
                    let kind = position_of(map_for(&g.state.settings.variant)?, &g.state)?
                        .phase
                        .kind;
                    let sched = g.state.settings.schedule.for_kind(kind).clone();
                    g.state.clock.deadline = Some(*t);
                    g.state.clock.grace = Some(super::clock::grace_end(&sched, *t));
                    g.state.clock.late_notice_sent = false;
                    g.state.clock.explicit = true;
                    let tz = self.work.zone_of(&self.sender);
                    self.ok(
                        text,
                        format!("Deadline set to {}.", super::clock::format_in(*t, tz)),
                    );
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
                self.work.game_mut(&key).state.settings.partial = *on;
                self.ok(
                    text,
                    if *on {
                        "Partial draws allowed."
                    } else {
                        "Only draws including all survivors."
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
            Rollback(target) => self.rollback(line, text, &key, *target)?,
            SetClock { kind, field } => {
                let g = self.work.game_mut(&key);
                let kinds = match kind {
                    Some(k) => vec![*k],
                    None => vec![
                        PhaseKind::Movement,
                        PhaseKind::Retreat,
                        PhaseKind::Adjustment,
                    ],
                };
                for k in kinds {
                    let s = g.state.settings.schedule.for_kind_mut(k);
                    match field {
                        ClockField::Time(t) => s.deadline_time = *t,
                        ClockField::NextHours(h) => s.next_hours = *h,
                        ClockField::GraceHours(h) => s.grace_hours = *h,
                        ClockField::Days(d) => s.weekdays = *d,
                    }
                }
                self.ok(text, "Schedule changed; it applies from the next phase.");
            }
            _ => self.fail(line, text, "not a master command"),
        }
        Ok(())
    }

    fn rollback(
        &mut self,
        line: usize,
        text: &str,
        key: &str,
        target: Option<Phase>,
    ) -> Result<(), EngineError> {
        let g = self.work.game(key);
        let (id, name) = (g.row.id, g.state.name.clone());
        let phases = self.work.tx.phases(id)?;
        let live: Vec<_> = phases.iter().filter(|p| !p.rolled_back).collect();
        let record = match target {
            None => live.last().copied(),
            Some(t) => live
                .iter()
                .rev()
                .find(|p| p.phase == t.to_string())
                .copied(),
        };
        let Some(record) = record else {
            let what = target
                .map(|t| t.to_string())
                .unwrap_or_else(|| "any phase".into());
            self.fail(
                line,
                text,
                format!("{name} has no processed {what} to roll back to"),
            );
            return Ok(());
        };
        let before: super::docs::PositionDoc = serde_json::from_str(&record.position_before)
            .map_err(|e| EngineError::State(e.to_string()))?;
        let now = self.now();
        let g = self.work.game_mut(key);
        let map = map_for(&g.state.settings.variant)?;
        let position = before.to_position(map)?;
        process::enter_phase(map, &mut g.state, &position);
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

/// A power by initial (`F`), name or adjective.
pub fn power_by_initial(map: &Map, text: &str) -> Option<Power> {
    if let Some(p) = map.power(text) {
        return Some(p);
    }
    let t = text.trim();
    if t.chars().count() == 1 {
        let matches: Vec<Power> = map
            .powers()
            .iter()
            .enumerate()
            .filter(|(_, i)| {
                i.name
                    .chars()
                    .next()
                    .is_some_and(|c| c.eq_ignore_ascii_case(&t.chars().next().unwrap_or(' ')))
            })
            .map(|(i, _)| Power(i as u8))
            .collect();
        if let [only] = matches.as_slice() {
            return Some(*only);
        }
    }
    None
}
