//! One mail's commands and orders, applied in order against the games they
//! name. A `SIGNON` sets who the following lines speak for.

mod account;
mod conditional;
mod effect;
mod master;
mod moderation;
mod njudge;
mod press;
mod seats;
mod votes;

pub(crate) use account::tell_masters_of_guessing;
pub use account::{GUESS_LIMIT, GUESS_WINDOW};

use super::request::Vouch;
use crate::store::GameId;

use chrono::{DateTime, Utc};

use super::EngineError;
use super::advance::{self, deadline_line};
use super::answers;
use super::describe;
use super::model::{FutureOrders, GameState, Member, Role, Status};
use super::orders_check::{check_orders, merge, missing_orders};
use super::process::{self, orders_of, position_of};
use super::request::{Line, Request};
use super::work::Work;
use crate::docs::{OrderDoc, order_text};
use crate::lots::LotSecret;
use crate::map::{Map, Power};
use crate::orders::Order;
use crate::phase::{Phase, PhaseKind};
use crate::store::{NewOrder, hash_password};

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
    route: Option<crate::grammar::ConvoyRoute>,
}

impl PendingOrder {
    /// The canonical order, with the convoy route the line wrote.
    fn canonical(&self, map: &Map) -> String {
        match &self.route {
            Some(r) => crate::grammar::canonical_routed(map, &self.order, Some(r)),
            None => order_text(map, &self.order),
        }
    }
}

pub struct Session<'w, 't, 'c> {
    work: &'w mut Work<'t, 'c>,
    sender: String,
    context: Option<Context>,
    target: Option<Phase>,
    pending: Vec<PendingOrder>,
    /// What the reply says of each line: the line it is about, and the text.
    reply: Vec<(usize, String)>,
    /// The line being applied: what `ok` speaks of.
    at: usize,
    /// The phase this mail's orders completed, processed at once.
    completed: Option<Completed>,
    pub errors: usize,
    pub processed: usize,
    votes_changed: Vec<String>,
    /// Where new games' lot secrets come from (the operating system's random
    /// source, or a test's fixed one).
    secrets: &'w mut (dyn FnMut() -> [u8; 32] + Send),
    /// What the receiving mail server said of the sender.
    vouch: Vouch,
    /// What must outlive the mail even if it is undone.
    held: Held,
    /// A forming game that filled up: it starts once the whole mail is read,
    /// so that preferences given after the SIGNON count.
    pending_start: Option<String>,
    /// The line of a refused `SIGNON`: what follows and needs a sign-on is
    /// refused with a pointer to it, rather than applied to an earlier one.
    failed_signon: Option<usize>,
    /// The `IF` block the orders now read belong to.
    open_if: Option<conditional::OpenIf>,
    /// Blocks opened in this mail (numbers them).
    blocks: u32,
    /// (phase, power) whose conditional orders from earlier mails this mail
    /// has already replaced.
    cond_replaced: Vec<(String, String)>,
    /// Orders stored by this mail: (game key, power, phase, canonical order),
    /// for the variant's log of who submitted what.
    given: Vec<(String, String, String, String)>,
    /// After the master's `BECOME <player>` in a game whose players are not
    /// powers (GTD): the address of the player the orders that follow are from.
    acting_for: Option<String>,
    /// After the master's `BECOME <power>`: (game key, power), whose player
    /// gets a copy of the reply.
    /// The reply lines before it are copied as their commands only.
    became: Option<(String, String, usize)>,
}

/// A phase the mail's orders completed (every order in): it was processed
/// before the reply went out.
#[derive(Clone, Debug)]
pub struct Completed {
    /// The phase the orders were for (`S1901M`).
    pub phase: String,
    /// The sender's orders for it, as the summary gave them before processing.
    pub orders: String,
}

/// What a mail proved, and what must be kept of it even if it is undone.
#[derive(Clone, Debug, Default)]
pub struct Held {
    /// A sign-on in the mail gave a seat's right password.
    pub signed: bool,
    /// A sign-on in the mail gave the right password of a seat held at the
    /// sender's own address: the sender is that seat's player (or master).
    pub signed_own: bool,
    /// The mail met a seat's wrong-password lock.
    pub locked: Option<Locked>,
    /// Wrong passwords and locks met: counted even if the mail is undone.
    pub kept_events: Vec<KeptEvent>,
    /// The masters were told of a lock: told again if the mail is undone.
    pub masters_notice: Option<MastersNotice>,
}

/// What the masters are told when a seat is locked.
#[derive(Clone, Debug)]
pub struct MastersNotice {
    pub game: GameId,
    pub seat: String,
    pub count: usize,
    pub until: DateTime<Utc>,
}

/// A sign-on refused because its seat is locked.
#[derive(Clone, Debug)]
pub struct Locked {
    pub game: GameId,
    pub game_name: String,
    pub line: usize,
    pub text: String,
    pub message: String,
}

/// An event of the password guard.
#[derive(Clone, Debug)]
pub struct KeptEvent {
    pub game: Option<GameId>,
    pub kind: &'static str,
    pub detail: serde_json::Value,
}

fn err(line: usize, text: &str, message: impl std::fmt::Display) -> String {
    format!("> {text}\nError (line {line}): {message}")
}

impl<'w, 't, 'c> Session<'w, 't, 'c> {
    pub fn new(
        work: &'w mut Work<'t, 'c>,
        sender: &str,
        secrets: &'w mut (dyn FnMut() -> [u8; 32] + Send),
        vouch: Vouch,
    ) -> Self {
        Session {
            work,
            sender: sender.to_string(),
            context: None,
            target: None,
            pending: Vec::new(),
            reply: Vec::new(),
            at: 0,
            completed: None,
            errors: 0,
            processed: 0,
            votes_changed: Vec::new(),
            secrets,
            vouch,
            held: Held::default(),
            pending_start: None,
            failed_signon: None,
            open_if: None,
            blocks: 0,
            cond_replaced: Vec::new(),
            given: Vec::new(),
            acting_for: None,
            became: None,
        }
    }

    /// Whose orders the lines are in a game that takes orders by player: the
    /// sender's, or the player's the master became.
    fn order_sender(&self) -> String {
        self.acting_for
            .clone()
            .unwrap_or_else(|| self.sender.clone())
    }

    fn now(&self) -> DateTime<Utc> {
        self.work.now
    }

    fn fail(&mut self, line: usize, text: &str, message: impl std::fmt::Display) {
        self.errors += 1;
        self.reply.push((line, err(line, text, message)));
    }

    /// What became of the line being applied.
    fn ok(&mut self, text: &str, message: impl std::fmt::Display) {
        self.ok_at(self.at, text, message);
    }

    /// What became of line `line` (an order applied after the lines that
    /// follow it were read).
    fn ok_at(&mut self, line: usize, text: &str, message: impl std::fmt::Display) {
        self.reply.push((line, format!("> {text}\n{message}")));
    }

    /// What the reply says of each line, in the mail's line order (orders are
    /// applied together, after the lines around them, and answered in place).
    pub fn reply(&self) -> Vec<&str> {
        let mut said: Vec<&(usize, String)> = self.reply.iter().collect();
        said.sort_by_key(|(line, _)| *line);
        said.into_iter().map(|(_, text)| text.as_str()).collect()
    }

    /// The phase the mail's orders completed, if it was processed at once.
    pub fn completed(&self) -> Option<&Completed> {
        self.completed.as_ref()
    }

    /// Why a line that needs a sign-on has none: no SIGNON, or a refused one.
    fn no_signon(&self, what: &str) -> String {
        match self.failed_signon {
            Some(n) => {
                format!("{what}; the SIGNON on line {n} was refused, so this line is not applied")
            }
            None => format!("{what} first"),
        }
    }

    /// Applies every line, each on its own: a refused line changes nothing,
    /// the others still apply. Then what follows from them (early processing,
    /// votes, a game that filled up).
    pub fn run(&mut self, lines: &[Line]) -> Result<(), EngineError> {
        for l in lines {
            self.at = l.number();
            match l {
                Line::Unread { line, text } => self.ok_at(
                    *line,
                    text,
                    "Not read: prose after the last order or command (a closing, a signature).",
                ),
                Line::Error {
                    line,
                    text,
                    message,
                } => self.line_error(*line, text, message)?,
                Line::Order {
                    line,
                    text,
                    order,
                    route,
                } => self.pending.push(PendingOrder {
                    line: *line,
                    text: text.clone(),
                    order: *order,
                    route: *route,
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
        // What follows speaks of the whole mail: after every line.
        self.at = usize::MAX;
        if let Some(open) = self.open_if.take() {
            self.reply.push((
                usize::MAX,
                format!(
                    "The IF on line {} has no ENDIF: it is taken to end with the mail.",
                    open.line
                ),
            ));
        }
        if let Some(key) = self.pending_start.take() {
            advance::start(self.work, &key)?;
        }
        for key in std::mem::take(&mut self.votes_changed) {
            advance::check_votes(self.work, &key)?;
        }
        // njudge's DELAY counts "after the last required orders have been
        // received": orders changed by this mail restart it.
        let changed: Vec<String> = self.given.iter().map(|(k, ..)| k.clone()).collect();
        self.report_given()?;
        if let Some(ctx) = self.context.clone()
            && matches!(ctx.who, Who::Power(_))
        {
            // The orders as they stood for the phase they were for: once it
            // is processed, the summary would speak of the next one.
            let before = self.order_summary();
            let phase = self
                .work
                .game(&ctx.key)
                .state
                .phase_name()
                .map(str::to_string);
            let changed = changed.contains(&ctx.key);
            let processed = advance::process_if_ready(self.work, &ctx.key, changed)?;
            self.processed += processed;
            if let (true, Some((_, orders)), Some(phase)) = (processed > 0, before, phase) {
                self.completed = Some(Completed { phase, orders });
            }
        }
        self.copy_to_become_player();
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
        let (state, variant, map): (&GameState, _, _) = (&g.state, g.variant, g.map());
        let tz = self.work.zone_of(&self.sender);
        let mut text = String::new();
        text.push_str(&deadline_line(state, tz, self.now()));
        text.push('\n');
        if let Some(own) = variant.order_summary(state, &self.order_sender()) {
            text.push_str(&own);
        }
        if let Some(power) = power
            && (state.status == Status::Active || state.status == Status::Paused)
        {
            let orders = orders_of(map, state, power).ok()?;
            let position = position_of(map, state).ok()?;
            let p = map.power(power)?;
            text.push_str(&format!(
                "\nCurrent orders for {power} ({}):\n",
                state.phase_name().unwrap_or("")
            ));
            if orders.is_empty() {
                text.push_str("  (none)\n");
            }
            for o in &orders {
                let line = variant
                    .order_line(state, power, o)
                    .unwrap_or_else(|| order_text(map, o));
                text.push_str(&format!("  {line}\n"));
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
            for c in state.conditional.iter().filter(|c| c.power == power) {
                text.push_str(&conditional::describe(map, c));
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

    /// A fresh secret for each game created: never derived from the clock or
    /// shared between two games of one mail.
    fn next_secret(&mut self) -> LotSecret {
        LotSecret((self.secrets)())
    }

    /// A sign-on gave a seat's right password (`own`: a seat held at the
    /// sender's address).
    fn signed(&mut self, own: bool) {
        self.held.signed = true;
        self.held.signed_own |= own;
    }

    /// What the engine needs once the lines are read: whether the mail signed
    /// on with a right password, met a lock, and the events to keep if undone.
    pub fn held(&self) -> Held {
        self.held.clone()
    }

    // ----- orders -----

    fn flush_orders(&mut self) -> Result<(), EngineError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if self.variant_takes_orders() {
            return self.flush_variant_orders();
        }
        let mut pending = std::mem::take(&mut self.pending);
        let Some(Context {
            key,
            who: Who::Power(power),
        }) = self.context.clone()
        else {
            let why = self.no_signon("orders need a SIGNON as a power of a game");
            for p in &pending {
                self.fail(p.line, &p.text, &why);
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
        let map = g.map();
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
        let kind = self.target.unwrap_or(position.phase).kind;
        pending = self.refuse_routes(&key, &position, kind, pending);
        if pending.is_empty() {
            return Ok(());
        }
        if self.open_if.is_none() && self.target.is_none_or(|t| t == position.phase) {
            pending = self.variant_power_orders(&key, &power, pending)?;
            if pending.is_empty() {
                return Ok(());
            }
        }
        pending = self.refuse_kept_orders(&key, &power, pending);
        if pending.is_empty() {
            return Ok(());
        }
        if self.open_if.is_some() {
            return self.store_conditional(&key, map, p, &power, &position, pending);
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
        let verdicts = verdicts(map, &rules, &position, p, &existing, &pending);
        // Each refused line is reported and left out; the others are stored.
        let mut good = Vec::new();
        for (o, verdict) in pending.into_iter().zip(verdicts) {
            match verdict {
                Verdict::Refused(msg) => self.fail(o.line, &o.text, msg),
                Verdict::Replaced(msg) => self.ok_at(o.line, &o.text, msg),
                Verdict::Accepted => {
                    self.ok_at(o.line, &o.text, format!("Accepted: {}", o.canonical(map)));
                    good.push(o);
                }
            }
        }
        if good.is_empty() {
            return Ok(());
        }
        let new: Vec<Order> = good.iter().map(|o| o.order).collect();
        let merged = merge(position.phase.kind, &existing, &new);
        let phase_name = position.phase.to_string();
        for o in &good {
            let canon = o.canonical(map);
            self.given
                .push((key.into(), power.into(), phase_name.clone(), canon.clone()));
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
        let merged = g.variant.merge_later(&g.state, phase.kind, &existing, &new);
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
        let id = g.row.id;
        for o in &pending {
            let canon = o.canonical(map);
            self.given
                .push((key.into(), power.into(), name.clone(), canon.clone()));
            self.work.tx.insert_order(&NewOrder {
                game: id,
                phase: &name,
                power,
                text: &o.text,
                canonical: Some(&canon),
                submitter: &self.sender,
                submitted_at: self.now(),
                inbound: self.work.inbound,
            })?;
            self.ok_at(o.line, &o.text, format!("Stored for {name}: {canon}"));
        }
        Ok(())
    }

    /// Hands the orders this mail stored to the variant, one call per power.
    fn report_given(&mut self) -> Result<(), EngineError> {
        let mut given = std::mem::take(&mut self.given);
        while let Some((key, power, _, _)) = given.first().cloned() {
            let (mine, rest): (Vec<_>, Vec<_>) = given
                .into_iter()
                .partition(|(k, p, _, _)| *k == key && *p == power);
            given = rest;
            let orders: Vec<(String, String)> =
                mine.into_iter().map(|(_, _, ph, o)| (ph, o)).collect();
            let sender = self.sender.clone();
            self.work
                .variant(&key)
                .orders_given(self.work, &key, &power, &sender, &orders)?;
        }
        Ok(())
    }

    /// An Agora tournament command, for the game signed on to.
    fn agora(
        &mut self,
        line: usize,
        text: &str,
        command: &crate::variant::agora::command::AgoraCommand,
    ) -> Result<(), EngineError> {
        use crate::variant::agora::command::AgoraCommand;
        // Without a game, `GET REGULATIONS` is a help topic like any other.
        if self.context.is_none() && matches!(command, AgoraCommand::GetRegulations(None)) {
            return self.dispatch(line, text, &Request::Get("regulations".into()));
        }
        // `EFFECT PROPOSAL n <command>`: the command is run and logged.
        if let AgoraCommand::Effect {
            proposal,
            text: what,
        } = command
            && self.agora_effect(line, text, *proposal, what)?
        {
            return Ok(());
        }
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let sender = self.sender.clone();
        let master = ctx.who == Who::Master;
        let reply = super::variants::agora_command(self.work, &ctx.key, &sender, master, command)?;
        advance::follow(self.work, &ctx.key, reply.next)?;
        match reply.answer {
            Ok(m) => self.ok(text, m),
            Err(m) => self.fail(line, text, m),
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
                let why = self.no_signon("this command needs a SIGNON to a game");
                self.fail(line, text, why);
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
                let why = self.no_signon("this command needs a SIGNON as a power");
                self.fail(line, text, why);
                None
            }
        }
    }

    fn command(&mut self, line: usize, text: &str, request: &Request) -> Result<(), EngineError> {
        let signs_on = matches!(
            request,
            Request::SignOn { .. }
                | Request::Observe { .. }
                | Request::Create { .. }
                | Request::SignOnNamed { .. }
        );
        let errors = self.errors;
        if signs_on {
            // A sign-on ends the PHASE block before it.
            self.acting_for = None;
            self.target = None;
        }
        self.dispatch(line, text, request)?;
        if signs_on {
            if self.errors > errors {
                // Nothing after a refused sign-on speaks for an earlier one.
                self.context = None;
                self.target = None;
                self.failed_signon = Some(line);
            } else {
                self.failed_signon = None;
            }
        }
        Ok(())
    }

    fn dispatch(&mut self, line: usize, text: &str, request: &Request) -> Result<(), EngineError> {
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
            } if game.is_empty() => {
                self.join_next(line, text, password, &super::variants::Standard)
            }
            SignOn {
                power: None,
                game,
                password,
            } => self.join(line, text, game, password),
            SignOnNamed {
                variant,
                options,
                signon,
            } => self.sign_on_named(line, text, variant, options, signon),
            ListFull => self.list_full(text),
            SetPreferenceAny => self.set_preference_any(line, text),
            WhoIs(users) => self.whois(text, users),
            InfoPlayer(address) => self.info_player(text, address),
            IAmAlso(address) => {
                self.i_am_also(line, text, address);
                Ok(())
            }
            PostalPress(_) => {
                self.postal_press(line, text);
                Ok(())
            }
            SignOn {
                power: Some(p),
                game,
                password,
            } => self.guarded_sign_on(line, text, p, game, password),
            Observe { game, password } => self.observe(line, text, game, password),
            SetPreference(groups) => self.set_preference(line, text, groups),
            SetTimezone(zone) => self.set_timezone(line, text, zone),
            SetPassword(pw) => self.set_password(line, text, pw),
            SetWait(on) => self.set_wait(line, text, *on),
            SetDraw(vote) => self.set_draw(line, text, vote.clone()),
            SetConcede(to) => self.set_concede(line, text, to.clone()),
            SetAbsence { from, to } => self.set_absence(line, text, *from, *to),
            If(c) => self.open_if(line, text, c),
            Else => self.else_branch(line, text),
            ElseIf(c) => self.else_if(line, text, c),
            EndIf => self.end_if(line, text),
            Request::Phase(p) => {
                self.target = Some(*p);
                self.ok(text, format!("The orders that follow are for {p}."));
                Ok(())
            }
            List(g) | Summary(g) | History { game: g, .. } | WhoGame(g) => {
                self.answer(line, text, request, g.clone())
            }
            // njudge's `GET map`: the board of the game signed on to, or
            // the standard board; `GET map.<variant>`: that variant's.
            Get(topic) if is_map_topic(topic) => {
                let topic = topic.trim().to_ascii_lowercase();
                let map = match (topic.split_once('.'), &self.context) {
                    (Some((_, variant)), _) => match process::map_for(variant) {
                        Ok(m) => m,
                        Err(_) => {
                            self.fail(
                                line,
                                text,
                                format!(
                                    "there is no variant {variant:?} on this judge (its \
                                     variants: standard, masters, twilight, gtd, agora)"
                                ),
                            );
                            return Ok(());
                        }
                    },
                    (None, Some(c)) => self.work.game(&c.key).map(),
                    (None, None) => crate::map::Map::standard(),
                };
                self.ok(text, super::help::map_text(map).trim_end());
                Ok(())
            }
            Get(topic) => {
                match super::help::topic(topic) {
                    Some(body) => self.ok(text, body.trim_end()),
                    None => self.fail(
                        line,
                        text,
                        format!(
                            "there is no help topic {topic:?}; the topics are: {}",
                            super::help::names().join(", ")
                        ),
                    ),
                }
                Ok(())
            }
            Register(fields) => self.register(line, text, fields),
            Diary(action) => self.diary(line, text, action),
            SetAddress(address) => self.set_address(line, text, address.as_deref()),
            Help => {
                self.ok(text, answers::help());
                Ok(())
            }
            Version => {
                self.ok(text, format!("Legate {}", env!("CARGO_PKG_VERSION")));
                Ok(())
            }
            Resign => self.resign(line, text),
            Press {
                to,
                grey,
                fake,
                text: message,
            } => self.press(line, text, to, *grey, fake.as_ref(), message),
            Unsupported(what) => {
                self.ok(
                    text,
                    format!("{what} is not supported by this judge yet; the line was not applied."),
                );
                Ok(())
            }
            Variant(order) => self.variant_order(line, text, order),
            SubmitMap(design) => self.submit_map(line, text, design),
            Agora(c) => self.agora(line, text, c),
            BecomeMaster | ClearLater | Refused { .. } | Already { .. } => {
                self.njudge_master(line, text, request)
            }
            _ => self.master_command(line, text, request),
        }
    }

    /// The game signed on to takes orders from its players through its
    /// variant (GTD: by commander, not by power).
    fn variant_takes_orders(&self) -> bool {
        self.context.as_ref().is_some_and(|c| {
            self.work
                .variant(&c.key)
                .takes_own_orders(&self.work.game(&c.key).state)
        })
    }

    fn flush_variant_orders(&mut self) -> Result<(), EngineError> {
        let Some(ctx) = self.context.clone() else {
            return Ok(());
        };
        for p in std::mem::take(&mut self.pending) {
            let sender = self.order_sender();
            match self
                .work
                .variant(&ctx.key)
                .take_order(self.work, &ctx.key, &sender, &p.order)?
            {
                Ok(m) => self.ok_at(p.line, &p.text, m),
                Err(m) => self.fail(p.line, &p.text, m),
            }
        }
        Ok(())
    }

    /// Orders for the current phase the game's variant takes itself (Masters:
    /// variable control, adjustments); the rest are returned for the generic way.
    fn variant_power_orders(
        &mut self,
        key: &str,
        power: &str,
        pending: Vec<PendingOrder>,
    ) -> Result<Vec<PendingOrder>, EngineError> {
        let orders: Vec<(String, Order)> =
            pending.iter().map(|p| (p.text.clone(), p.order)).collect();
        let sender = self.sender.clone();
        let answers = self
            .work
            .variant(key)
            .take_power_orders(self.work, key, &sender, power, &orders)?;
        let mut rest = Vec::new();
        for (p, answer) in pending.into_iter().zip(answers) {
            match answer {
                None => rest.push(p),
                Some(Ok(m)) => self.ok_at(p.line, &p.text, m),
                Some(Err(m)) => self.fail(p.line, &p.text, m),
            }
        }
        Ok(rest)
    }

    /// Orders whose convoy route, or lack of one, the game's variant refuses
    /// (Agora, section 17); the rest are returned.
    fn refuse_routes(
        &mut self,
        key: &str,
        position: &crate::judge::Position,
        kind: PhaseKind,
        pending: Vec<PendingOrder>,
    ) -> Vec<PendingOrder> {
        let mut rest = Vec::new();
        for p in pending {
            let g = self.work.game(key);
            match g
                .variant
                .route_refusal(&g.state, position, kind, &p.order, p.route)
            {
                Some(why) => self.fail(p.line, &p.text, why),
                None => rest.push(p),
            }
        }
        rest
    }

    /// Orders kept for later (`PHASE`, `IF`) that the game's variant cannot
    /// keep as written are refused; the rest are returned.
    fn refuse_kept_orders(
        &mut self,
        key: &str,
        power: &str,
        pending: Vec<PendingOrder>,
    ) -> Vec<PendingOrder> {
        let mut rest = Vec::new();
        for p in pending {
            let g = self.work.game(key);
            match g.variant.kept_order_refusal(&g.state, power, &p.text) {
                Some(why) => self.fail(p.line, &p.text, why),
                None => rest.push(p),
            }
        }
        rest
    }

    /// A variant's own order, for the variant of the game signed on to.
    fn variant_order(
        &mut self,
        line: usize,
        text: &str,
        order: &crate::grammar::VariantOrder,
    ) -> Result<(), EngineError> {
        let Some(ctx) = self.require_context(line, text, false) else {
            return Ok(());
        };
        let sender = self.order_sender();
        let power = match &ctx.who {
            Who::Power(p) => Some(p.clone()),
            _ => None,
        };
        match self.work.variant(&ctx.key).take_variant_order(
            self.work,
            &ctx.key,
            &sender,
            power.as_deref(),
            order,
        )? {
            Ok(m) => self.ok(text, m),
            Err(m) => self.fail(line, text, m),
        }
        Ok(())
    }
}

/// What becomes of one order line of a mail.
enum Verdict {
    Accepted,
    /// Valid, but a later line of the mail orders the same unit.
    Replaced(String),
    Refused(String),
}

/// Each order line's verdict. Every line is checked as it would stand in the
/// set, so an illegal order is never stored whatever the lines around it; for
/// a unit ordered twice the last valid line counts (njudge, `syntax`:
/// "The last valid order for a particular unit will be honored"), and each
/// answer names the order in force.
fn verdicts(
    map: &Map,
    rules: &crate::judge::Rules,
    position: &crate::judge::Position,
    power: Power,
    existing: &[Order],
    pending: &[PendingOrder],
) -> Vec<Verdict> {
    let kind = position.phase.kind;
    let check = |batch: &[Order], o: &Order| {
        let merged = merge(kind, existing, batch);
        let i = merged.iter().position(|m| m == o)?;
        check_orders(map, rules, position, power, &merged)[i].clone()
    };
    let all: Vec<Order> = pending.iter().map(|o| o.order).collect();
    // An adjustment batch replaces the whole set: it is checked as one.
    let problems: Vec<_> = pending
        .iter()
        .map(|o| match kind {
            PhaseKind::Adjustment => check(&all, &o.order),
            _ => check(&[o.order], &o.order),
        })
        .collect();
    let unit_of = |o: &Order| o.unit().map(|u| u.location.province);
    pending
        .iter()
        .zip(&problems)
        .map(|(o, problem)| {
            let unit = unit_of(&o.order).filter(|_| kind != PhaseKind::Adjustment);
            let last = unit.and_then(|u| {
                pending
                    .iter()
                    .zip(&problems)
                    .rfind(|(l, pr)| pr.is_none() && unit_of(&l.order) == Some(u))
                    .map(|(l, _)| l)
            });
            let in_force = match (last, unit) {
                (Some(l), _) => format!("{} (line {})", l.canonical(map), l.line),
                (None, Some(u)) => existing
                    .iter()
                    .find(|e| unit_of(e) == Some(u))
                    .map(|e| format!("{} (from an earlier mail)", order_text(map, e)))
                    .unwrap_or_else(|| "none".to_string()),
                (None, None) => String::new(),
            };
            match (problem, last) {
                (Some(problem), _) => {
                    let at = unit_of(&o.order);
                    let mut msg = describe::problem(map, at, problem);
                    // A refused retreat says where the unit can go instead.
                    if kind == PhaseKind::Retreat
                        && let Some(choices) =
                            at.and_then(|a| describe::retreat_choices(map, rules, position, a))
                    {
                        msg.push_str("; ");
                        msg.push_str(&choices);
                    }
                    Verdict::Refused(match unit {
                        Some(_) => format!("{msg}; the order in force for this unit: {in_force}"),
                        None => msg,
                    })
                }
                (None, Some(l)) if !std::ptr::eq(l, o) => Verdict::Replaced(format!(
                    "Replaced: a later line orders the same unit; the order in force is {in_force}"
                )),
                (None, _) => Verdict::Accepted,
            }
        })
        .collect()
}

fn member(address: &str, role: Role, password: &str) -> Result<Member, EngineError> {
    Ok(Member::new(address, role, hash_password(password)?))
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

/// njudge's `GET map` and `GET map.<variant>`.
fn is_map_topic(topic: &str) -> bool {
    let t = topic.trim().to_ascii_lowercase();
    t == "map" || t == "maps" || t.starts_with("map.")
}
