//! The engine side of the `agora` variant (rules in `crate::variant::agora`).
//!
//! Where it plugs in (each a hook of `Variant`, in `Agora`):
//! - creation: the settings of section 15 and an empty tournament with the
//!   creator as Gamemaster (`setup`);
//! - joining: `ENTER` / `SIGNON ?game` enters the tournament (`join`);
//! - signing on as a power: the contestant or an announced ordering assistant
//!   (`sign_on_refusal`); orders given are logged with their submitter
//!   (`orders_given`);
//! - the start: powers by the engine's lot, then told to the tournament
//!   (`started`); not before entry closes unless seven have entered (`may_begin`);
//! - processing: movement waits for its deadline, retreats and adjustments
//!   follow at once from the orders given with the movement (`ready`); no solo
//!   ends the game by itself (`solo_ends_game`); after each turn, contestants
//!   who cease, the draw clock and the winners' notice (`play::after_phase`);
//! - the clock: a declared draw or announced winners (`play::due`); while
//!   forming, the close of entry starts play (`entry`);
//! - orders: a convoyed move names its path (section 17), refused without
//!   one (`route_refusal`); only the named fleets carry it (`adjudicate`);
//! - the mail commands of the tournament (`commands::run`).

mod commands;
pub mod effect;
mod entry;
mod paths;
mod play;
mod report;

use chrono::{DateTime, Utc};

use super::super::EngineError;
use super::super::model::{GameState, Member, Role, Settings};
use super::super::notice::{broadcast, subject};
use super::super::work::Work;
use super::{Next, Reply, Standard, Variant};
use crate::grammar::ConvoyRoute;
use crate::judge::Position;
use crate::judge::{Adjudication, Rules};
use crate::map::Map;
use crate::orders::{Order, PowerOrder};
use crate::phase::PhaseKind;
use crate::store::hash_password;
use crate::variant::agora::schedule::default_schedule;
use crate::variant::agora::state::Agora as AgoraState;
use crate::variant::agora::tournament::{CAP, Stage, Tournament};
use crate::variant::agora::{Audience, Notice, person};

pub(crate) use commands::{AgoraCommand, run as command};
pub(crate) use entry::{closed as entry_closed, wakeup as entry_wakeup};
pub(crate) use paths::{adjudicate, order_line, replay_adjudication, route_refusal};
pub(crate) use play::{after_phase, due};
pub(crate) use report::{public_lines, reader_lines};

/// The regulations until the Gamemaster publishes them (`AMEND REGULATIONS`).
const UNPUBLISHED: &str =
    "The Gamemaster has not yet published the regulations of this tournament.\n";

/// Settings the regulations fix: the 2000 rulebook (its civil-disorder rule is
/// section 24's), missed orders processed as civil disorder (section 24), the
/// two-day turn of section 15, at most seven contestants.
pub(crate) fn setup(settings: &mut Settings) {
    settings.rules = "2000".to_string();
    settings.nmr = true;
    settings.wait_allowed = false;
    settings.schedule = default_schedule();
    settings.players_needed = CAP;
}

/// A new tournament with its creator as Gamemaster and Judge (section 0).
pub(crate) fn created(map: &Map, state: &mut GameState, gamemaster: &str, now: DateTime<Utc>) {
    let tournament = Tournament::new(gamemaster, now, now);
    state.agora = Some(AgoraState::new(
        tournament,
        UNPUBLISHED,
        &Position::initial(map),
    ));
}

/// A person enters by announcement while the window is open and fewer than
/// seven have entered (section 1): a player with the password given, and the
/// entry published to the game. Play begins when the seventh enters.
pub(crate) fn join(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    password: &str,
) -> Result<Reply, EngineError> {
    let now = work.now;
    let g = work.game_mut(key);
    let Some(agora) = g.state.agora.as_mut() else {
        return Ok(Reply::only(Err("this game has no tournament".into())));
    };
    if agora.tournament.stage == Stage::Playing {
        return Ok(Reply::only(Err(
            "the tournament has begun: only the Gamemaster can make a contestant now (section 2)"
                .into(),
        )));
    }
    let notice = match agora.tournament.enter(sender, now) {
        Ok(n) => n,
        Err(e) => return Ok(Reply::only(Err(e.to_string()))),
    };
    let count = agora.tournament.contestants.len();
    g.state.members.push(player(sender, password)?);
    let name = g.state.name.clone();
    deliver(work, key, vec![notice])?;
    Ok(Reply {
        answer: Ok(format!(
            "You have entered the tournament {name} ({count} of at most {CAP})."
        )),
        // Play begins when the seventh enters.
        next: if count >= CAP {
            Next::Start
        } else {
            Next::Nothing
        },
    })
}

/// After the generic start gave powers by lot (section 6): the tournament
/// learns who plays what, and play begins.
pub(crate) fn started(map: &Map, state: &mut GameState) {
    let members: Vec<(String, Option<String>)> = state
        .members
        .iter()
        .filter(|m| m.role == Role::Player)
        .map(|m| (person(&m.address), m.power.clone()))
        .collect();
    let Some(agora) = state.agora.as_mut() else {
        return;
    };
    for c in &mut agora.tournament.contestants {
        c.power = members
            .iter()
            .find(|(a, _)| *a == c.person)
            .and_then(|(_, p)| p.as_deref())
            .and_then(|p| map.power(p));
    }
    agora.tournament.stage = Stage::Playing;
}

fn player(address: &str, password: &str) -> Result<Member, EngineError> {
    Ok(Member::new(address, Role::Player, hash_password(password)?))
}

/// Who may sign on as a power: its contestant, or an assistant e announced as
/// one who submits orders (section 7). `None`: allowed.
pub(crate) fn sign_on_refusal(state: &GameState, power: &str, sender: &str) -> Option<String> {
    let agora = state.agora.as_ref()?;
    let player = state.player_of(power)?;
    let sender = person(sender);
    if person(&player.address) == sender
        || agora.assistants.orders_for(&sender) == Some(&person(&player.address))
    {
        return None;
    }
    Some(format!(
        "{sender} is neither the contestant playing {power} nor an assistant e announced \
         with ASSISTANT {sender} ORDERS (section 7)"
    ))
}

/// Logs orders given in one mail with their submitter; when the submitter is
/// an assistant, tells the contestant what was submitted for eir country and
/// by whom (section 7). `orders`: (phase, canonical order).
pub(crate) fn orders_given(
    work: &mut Work<'_, '_>,
    key: &str,
    power: &str,
    sender: &str,
    orders: &[(String, String)],
) -> Result<(), EngineError> {
    paths::record(work, key, power, orders)?;
    let g = work.game_mut(key);
    let map = Map::standard();
    let (Some(p), Some(owner)) = (
        map.power(power),
        g.state.player_of(power).map(|m| m.address.clone()),
    ) else {
        return Ok(());
    };
    let turn = g.state.phase_name().unwrap_or_default().to_string();
    let Some(agora) = g.state.agora.as_mut() else {
        return Ok(());
    };
    for (phase, order) in orders {
        let entry = crate::variant::agora::assistants::OrderEntry {
            turn: phase.clone(),
            power: p,
            order: order.clone(),
            submitted_by: person(sender),
        };
        // The Gamemaster ordering with BECOME is no one's submission to log.
        let _ = agora.assistants.log_order(&owner, sender, entry);
    }
    if person(sender) != person(&owner) {
        let notice = agora.assistants.notice(&owner, p, &turn);
        deliver(work, key, vec![notice])?;
    }
    Ok(())
}

/// The Gamemaster starts play only once entry has closed or seven have entered.
pub(crate) fn may_begin(state: &GameState, now: DateTime<Utc>) -> Option<String> {
    let t = &state.agora.as_ref()?.tournament;
    if t.contestants.len() < CAP && now < t.entry_closes() {
        return Some(format!(
            "entry is open until {} (section 1); play begins when it closes or seven have entered",
            t.entry_closes().format("%Y-%m-%d %H:%M UTC")
        ));
    }
    None
}

/// Early processing: never for movement (orders may be changed until the
/// deadline, section 15); retreats and adjustments at once, from the orders
/// given with the movement; nothing while a draw or winners are pending.
pub(crate) fn ready(state: &GameState, kind: PhaseKind) -> bool {
    let Some(agora) = &state.agora else {
        return false;
    };
    !suspended(agora) && kind != PhaseKind::Movement
}

/// A declared draw or announced winners stop play until they take effect.
fn suspended(agora: &AgoraState) -> bool {
    agora.draw_clock.declared.is_some()
        || agora.victory.pending.is_some()
        || agora.victory.winners.is_some()
}

/// Sends the core's notices: public ones to everyone in the game, private
/// ones to their one reader.
pub(crate) fn deliver(
    work: &mut Work<'_, '_>,
    key: &str,
    notices: Vec<Notice>,
) -> Result<(), EngineError> {
    if notices.is_empty() {
        return Ok(());
    }
    let judge = work.judge.clone();
    let g = work.game(key);
    let (id, state) = (g.row.id, g.state.clone());
    let subject = subject(&judge, &state, "Tournament");
    for n in notices {
        match n.to {
            Audience::Public => {
                broadcast(work, &state, &subject, &n.text, Some(id))?;
            }
            Audience::Private(to) => {
                let body = format!(":: Judge: {judge}  Game: {}\n\n{}\n", state.name, n.text);
                work.send(&to, subject.clone(), body, Some(id), false);
            }
        }
    }
    Ok(())
}

/// Stops the turn clock until `at`, when the clock calls `due` again.
fn suspend(state: &mut GameState, at: DateTime<Utc>) {
    state.clock.deadline = Some(at);
    state.clock.grace = Some(at);
    state.clock.late_notice_sent = false;
    state.clock.explicit = true;
}

/// Players' draw and concession votes have no place in the regulations: the
/// Gamemaster declares a draw (section 9), the judge announces winners (3).
pub(crate) fn vote_refusal(what: &str) -> String {
    format!(
        "{what} is not part of the Agora tournament: a draw is declared by the Gamemaster \
         after three game-years without a change of ownership (section 9), and the judge \
         announces the winners (section 3)"
    )
}

/// Retreat instructions given ahead are a preference list (the `turn`
/// module): all are kept, in order, without repeats.
pub(crate) fn alternatives(
    existing: &[crate::orders::Order],
    new: &[crate::orders::Order],
) -> Vec<crate::orders::Order> {
    let mut out = existing.to_vec();
    for o in new {
        if !out.contains(o) {
            out.push(*o);
        }
    }
    out
}

/// Entering a retreat phase: each power's alternatives become, for each of
/// its dislodged units, the first possible one (section 22: none, disbanded).
pub(crate) fn entered_phase(map: &Map, state: &mut GameState, position: &Position) {
    if position.phase.kind != PhaseKind::Retreat {
        return;
    }
    let rules = super::super::process::rules_for(state);
    let mut given = Vec::new();
    for (power, list) in &state.orders {
        let Some(p) = map.power(power) else { continue };
        for o in list {
            if let Ok(order) = o.to_order(map) {
                given.push(crate::orders::PowerOrder { power: p, order });
            }
        }
    }
    let chosen =
        crate::variant::agora::turn::first_possible_retreats(map, &rules, position, &given);
    state.orders.clear();
    for power in (0..map.powers().len() as u8).map(crate::map::Power) {
        let mine: Vec<crate::orders::Order> = chosen
            .iter()
            .filter(|o| o.power == power)
            .map(|o| o.order)
            .collect();
        if !mine.is_empty() {
            super::super::process::set_orders(map, state, power, &mine);
        }
    }
}

/// The Agora Birthday Tournament.
pub struct Agora;

impl Agora {
    fn running(work: &Work<'_, '_>, key: &str) -> bool {
        work.game(key).state.agora.is_some()
    }
}

impl Variant for Agora {
    fn has_own_state(&self, state: &GameState) -> bool {
        state.agora.is_some()
    }

    fn name(&self) -> &'static str {
        "agora"
    }

    fn settings(&self, settings: &mut Settings) {
        setup(settings);
    }

    fn created(&self, state: &mut GameState, creator: &str, now: DateTime<Utc>) {
        created(self.board(), state, creator, now);
    }

    fn started(&self, state: &mut GameState) {
        started(self.board(), state);
    }

    fn join(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        password: &str,
    ) -> Result<Option<Reply>, EngineError> {
        if !Self::running(work, key) {
            return Ok(None);
        }
        join(work, key, sender, password).map(Some)
    }

    /// The Gamemaster adds contestants (section 2).
    fn open_to_take_over(&self, state: &GameState) -> bool {
        state.agora.is_none()
    }

    fn adjudicate(
        &self,
        map: &Map,
        rules: &Rules,
        state: &mut GameState,
        position: &Position,
        given: &mut Vec<PowerOrder>,
    ) -> Option<Adjudication> {
        state.agora.as_ref()?;
        adjudicate(map, rules, state, position, given)
    }

    /// A convoyed move with its path.
    fn order_line(&self, state: &GameState, _power: &str, order: &Order) -> Option<String> {
        state.agora.as_ref()?;
        order_line(state, order)
    }

    fn may_begin(&self, state: &GameState, now: DateTime<Utc>) -> Option<String> {
        may_begin(state, now)
    }

    fn report_sections(&self, state: &GameState) -> Vec<String> {
        public_lines(state)
    }

    /// Eir own votes on open proposals.
    fn reader_lines(&self, state: &GameState, reader: &str) -> String {
        reader_lines(state, reader)
    }

    fn replay_adjudication(
        &self,
        state: &GameState,
        before: &Position,
        orders: &[PowerOrder],
        _after: &Position,
    ) -> Option<Adjudication> {
        state.agora.as_ref()?;
        replay_adjudication(state, before, orders)
    }

    /// When entry closes.
    fn forming_wakeup(&self, state: &GameState) -> Option<DateTime<Utc>> {
        entry_wakeup(state)
    }

    /// Entry closed: play begins, or the Gamemaster is told too few entered.
    fn forming_due(&self, work: &mut Work<'_, '_>, key: &str) -> Result<Next, EngineError> {
        if !Self::running(work, key) {
            return Ok(Next::Nothing);
        }
        entry_closed(work, key)
    }

    /// Section 17: a convoyed move names its path.
    fn route_refusal(
        &self,
        state: &GameState,
        position: &Position,
        kind: PhaseKind,
        order: &Order,
        route: Option<ConvoyRoute>,
    ) -> Option<String> {
        state.agora.as_ref()?;
        route_refusal(position, kind, order, route)
    }

    /// Only the contestant or an announced ordering assistant.
    fn sign_on_refusal(&self, state: &GameState, power: &str, sender: &str) -> Option<String> {
        sign_on_refusal(state, power, sender)
    }

    /// Logged with their submitter; the contestant is told of an assistant's.
    fn orders_given(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        power: &str,
        sender: &str,
        orders: &[(String, String)],
    ) -> Result<(), EngineError> {
        if !Self::running(work, key) {
            return Ok(());
        }
        orders_given(work, key, power, sender, orders)
    }

    fn ready(&self, state: &GameState, kind: PhaseKind) -> Option<bool> {
        state.agora.as_ref()?;
        Some(ready(state, kind))
    }

    /// The judge announces winners with notice (section 3).
    fn solo_ends_game(&self, state: &GameState) -> bool {
        state.agora.is_none()
    }

    fn after_phase(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        after: &Position,
    ) -> Result<(), EngineError> {
        if !Self::running(work, key) {
            return Ok(());
        }
        after_phase(work, key, after)
    }

    fn due(&self, work: &mut Work<'_, '_>, key: &str) -> Result<Option<Next>, EngineError> {
        if !Self::running(work, key) {
            return Ok(None);
        }
        due(work, key)
    }

    /// The Gamemaster declares draws, the judge names winners.
    fn vote_refusal(&self, state: &GameState, what: &str) -> Option<String> {
        state.agora.as_ref()?;
        Some(vote_refusal(what))
    }

    /// Retreats given ahead are kept as alternatives, in the order given.
    fn merge_later(
        &self,
        state: &GameState,
        kind: PhaseKind,
        existing: &[Order],
        new: &[Order],
    ) -> Vec<Order> {
        if state.agora.is_some() && kind == PhaseKind::Retreat {
            return alternatives(existing, new);
        }
        Standard.merge_later(state, kind, existing, new)
    }

    /// Of each unit's alternative retreats, the first possible.
    fn entered_phase(&self, map: &Map, state: &mut GameState, position: &Position) {
        if state.agora.is_some() {
            entered_phase(map, state, position);
        }
    }
}
