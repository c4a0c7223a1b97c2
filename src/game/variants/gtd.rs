//! The engine side of the `gtd` variant (rules in `crate::variant::gtd`).
//!
//! Where GTD plugs into the engine (each a hook of `Variant`, in `Gtd`):
//! - `settings`: a GTD game needs 22 players and plays the 1971 rules (rule 3).
//! - `start`: players to countries and units by the game's lot (rules 6-8);
//!   the engine puts the opening board in place and announces it.
//! - `join`: after the start, `SIGNON ?game` signs a player on as themselves
//!   (players are not powers); from a newcomer it is a request to enter, which
//!   the Gamemaster answers with `APPROVE` or `REFUSE` (rule 1, `entry`).
//! - `take`: every order line, movement or political, from the player who
//!   writes it; kept as written until the deadline (`intake`).
//! - `play`: a phase played by `play::play`; the engine records it and mails
//!   each reader GTD's own report (`report`) with the board picture, and the
//!   Final Place List when a country has 18 centers.
//! - `restore`, `history_texts`: `ROLLBACK` and `HISTORY` from the GTD state
//!   and public report each phase leaves in the event log (`journal`).
//! - `predict`, `become_player`: the Gamemaster's `PREDICT` and `BECOME`.

mod entry;
mod intake;
pub mod journal;
mod play;
mod report;

pub(crate) use crate::variant::gtd::season::Item;
pub(crate) use entry::join;
pub(crate) use intake::{eject, order_summary, resign, take};
pub(crate) use play::{play_phase, predict};

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::super::EngineError;
use super::super::model::GameState;
use super::super::model::{Role, Settings};
use super::super::notice::subject;
use super::super::process;
use super::super::request::Request;
use super::super::work::Work;
use super::{Answer, Audience, Reply, Standard, Started, Tell, Variant};
use crate::grammar::VariantOrder;
use crate::judge::Position;
use crate::lots::{self, LotSecret};
use crate::orders::Order;
use crate::store::{GameId, PhaseRecord, Tx};
pub use crate::variant::gtd::game::{Carried, GtdGame, Seat, WrittenDoc};
use crate::variant::gtd::start::{Entrant, start as opening};

/// Rule 1: the game begins with twenty-two players.
pub const PLAYERS: usize = 22;

/// The draw function of a game's secret.
pub(crate) fn lot_of(
    secret: &LotSecret,
) -> impl FnMut(&str, &[String]) -> Result<lots::Draw, lots::LotError> + '_ {
    move |purpose, candidates| lots::draw(secret, purpose, candidates)
}

pub(crate) fn settings(settings: &mut Settings) {
    settings.players_needed = PLAYERS;
    settings.rules = "1971".to_string();
}

/// Rules 6-8 on the joined players: countries by preference and lot, units by
/// lot, the first heads of government; players beyond the seats stand by. The
/// engine puts the opening board in place and announces it.
pub(crate) fn start(work: &mut Work<'_, '_>, key: &str) -> Result<Started, EngineError> {
    let judge = work.judge.clone();
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let secret = g.lot_secret()?;
    let mut game = GtdGame::default();
    let entrants: Vec<Entrant> = g
        .state
        .players()
        .map(|m| m.address.clone())
        .zip(g.state.players().map(|m| m.preferences.clone()))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(address, prefs)| Entrant {
            name: game.seat(&address),
            preferences: prefs
                .iter()
                .flatten()
                .filter_map(|p| map.power(p))
                .collect(),
        })
        .collect();
    let position = Position::initial(map);
    let state = match opening(map, &position, &entrants, &mut lot_of(&secret)) {
        Ok(s) => s,
        Err(e) => {
            return Ok(Started::Held(Some(Tell {
                to: Audience::Masters,
                subject: subject(&judge, &g.state, "Not started"),
                body: format!("Game {} cannot start: {e}.\n", g.state.name),
            })));
        }
    };
    for m in g
        .state
        .members
        .iter_mut()
        .filter(|m| m.role == Role::Player)
    {
        let name = game.player_of(&m.address).unwrap_or_default().to_string();
        if state.standby.contains(&name) {
            m.role = Role::Standby;
        }
    }
    g.state.draws.extend(state.draws.iter().cloned());
    game.state = state;
    let body = report::opening(map, &game, &position, g.state.lot_commitment.as_deref());
    let opening = journal::Entry {
        record: None,
        opens: position.phase.to_string(),
        game: game.clone(),
        position: crate::docs::PositionDoc::from_position(map, &position),
        public: String::new(),
    };
    g.state.gtd = Some(game);
    // Rule 3, whatever SET RULES said while the game was forming.
    g.state.settings.rules = "1971".to_string();
    let id = g.row.id;
    journal::keep(work, id, &opening)?;
    Ok(Started::Seated {
        opening: position,
        announcement: body,
        detail: serde_json::json!({ "variant": "gtd" }),
    })
}

/// Members follow the game: a stand-by player who entered it (rule 1, by an
/// appointment or rule 27) is a player and receives the reports.
pub(crate) fn sync_roles(state: &mut super::super::model::GameState) {
    let Some(game) = &state.gtd else { return };
    let entered: Vec<String> = game
        .seats
        .iter()
        .filter(|s| game.state.is_active(&s.name))
        .map(|s| s.address.clone())
        .collect();
    for m in &mut state.members {
        if m.role == Role::Standby && entered.iter().any(|a| a.eq_ignore_ascii_case(&m.address)) {
            m.role = Role::Player;
        }
    }
}

/// Press from a player in the game is signed with their name.
pub(crate) fn press_author(game: &GtdGame, sender: &str) -> Option<String> {
    let me = game.player_of(sender)?;
    game.state.is_active(me).then(|| me.to_string())
}

/// Press to countries reaches their heads and every commander of their units.
pub(crate) fn press_reaches(
    game: &GtdGame,
    state: &super::super::model::GameState,
    address: &str,
    powers: &[String],
) -> bool {
    let Some(me) = game.player_of(address) else {
        return false;
    };
    let Some(position) = state
        .position
        .as_ref()
        .and_then(|p| p.to_position(crate::map::Map::standard()).ok())
    else {
        return false;
    };
    game.state.countries.iter().filter(|c| !c.gone).any(|c| {
        let named = powers.iter().any(|p| p.eq_ignore_ascii_case(&c.name));
        let power = crate::map::Power(c.power);
        named
            && (c.hog.as_deref() == Some(me)
                || !game.state.commanded(&position, power, me).is_empty())
    })
}

/// Master commands that do not fit a running GTD game.
pub(crate) fn master_refusal(request: &super::super::request::Request) -> Option<String> {
    use super::super::request::Request;
    match request {
        Request::SetRules(r) if r != "1971" => {
            Some("rule 3: a GTD game is played under the 1971 rules".into())
        }
        _ => None,
    }
}

/// `BECOME <who>`: the Gamemaster speaks for a player (by name or address),
/// or for the head of government of a country (by its name); the address
/// the orders are then taken from, and who that is.
pub(crate) fn become_player(game: &GtdGame, who: &str) -> Result<(String, String), String> {
    let who = who.trim();
    if let Some(seat) = game
        .seats
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(who) || s.address.eq_ignore_ascii_case(who))
    {
        return Ok((seat.address.clone(), seat.name.clone()));
    }
    let Some(country) = game.state.country_named(who) else {
        return Err(format!(
            "{who} is neither a player nor a country of this game (BECOME <player> or \
             BECOME <country> for its head of government)"
        ));
    };
    let c = game
        .state
        .country(country)
        .map(|c| (c.name.clone(), c.hog.clone()));
    match c {
        Some((name, Some(head))) => match game.address_of(&head) {
            Some(a) => Ok((
                a.to_string(),
                format!("{head}, head of government of {name}"),
            )),
            None => Err(format!(
                "{head}, head of {name}, has no address in this game"
            )),
        },
        Some((name, None)) => Err(format!(
            "{name} has no head of government to speak for; BECOME one of its commanders"
        )),
        None => Err(format!("{who} is not a country of this game")),
    }
}

/// Rule 1: a GTD game begins with twenty-two players, even when forced.
pub(crate) fn may_begin(state: &super::super::model::GameState) -> Option<String> {
    let n = state.players().count();
    (n < PLAYERS)
        .then(|| format!("rule 1: a GTD game begins with {PLAYERS} players; {n} have joined"))
}

/// Grand Tournament Diplomacy. Before the start (no `GtdGame` yet) a GTD
/// game forms as a standard one does, apart from its settings and rule 1.
pub struct Gtd;

impl Gtd {
    fn game(state: &GameState) -> Option<&GtdGame> {
        state.gtd.as_ref()
    }

    fn running(work: &Work<'_, '_>, key: &str) -> bool {
        Self::game(&work.game(key).state).is_some()
    }
}

impl Variant for Gtd {
    fn checks_own_passwords(&self, state: &GameState) -> bool {
        Self::game(state).is_some()
    }

    fn has_own_state(&self, state: &GameState) -> bool {
        Self::game(state).is_some()
    }

    fn name(&self) -> &'static str {
        "gtd"
    }

    fn settings(&self, settings: &mut Settings) {
        self::settings(settings);
    }

    fn start(&self, work: &mut Work<'_, '_>, key: &str) -> Result<Started, EngineError> {
        self::start(work, key)
    }

    fn play(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
    ) -> Result<Option<process::Played>, EngineError> {
        if !Self::running(work, key) {
            return Ok(None);
        }
        play_phase(work, key).map(Some)
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
        self::join(work, key, sender, password).map(|a| Some(Reply::only(a)))
    }

    /// The Gamemaster approves entrants (rule 1).
    fn open_to_take_over(&self, state: &GameState) -> bool {
        Self::game(state).is_none()
    }

    fn takes_own_orders(&self, state: &GameState) -> bool {
        Self::game(state).is_some()
    }

    fn take_order(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        order: &Order,
    ) -> Result<Answer, EngineError> {
        if !Self::running(work, key) {
            return Standard.take_order(work, key, sender, order);
        }
        take(work, key, sender, Item::Order(*order))
    }

    fn take_variant_order(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        power: Option<&str>,
        order: &VariantOrder,
    ) -> Result<Answer, EngineError> {
        if !Self::running(work, key) {
            return Standard.take_variant_order(work, key, sender, power, order);
        }
        take(work, key, sender, Item::Variant(order.clone()))
    }

    fn order_summary(&self, state: &GameState, sender: &str) -> Option<String> {
        Self::game(state).map(|g| order_summary(g, sender))
    }

    fn eject(&self, work: &mut Work<'_, '_>, key: &str, who: &str) -> Result<Answer, EngineError> {
        if !Self::running(work, key) {
            return Standard.eject(work, key, who);
        }
        eject(work, key, who)
    }

    fn press_author(&self, state: &GameState, sender: &str) -> Option<String> {
        Self::game(state).and_then(|g| press_author(g, sender))
    }

    fn press_reaches(&self, state: &GameState, address: &str, powers: &[String]) -> bool {
        Self::game(state).is_some_and(|g| press_reaches(g, state, address, powers))
    }

    fn master_refusal(&self, state: &GameState, request: &Request) -> Option<String> {
        Self::game(state)?;
        master_refusal(request)
    }

    fn resign(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
    ) -> Result<Answer, EngineError> {
        if !Self::running(work, key) {
            return Standard.resign(work, key, sender);
        }
        resign(work, key, sender)
    }

    fn may_begin(&self, state: &GameState, _now: DateTime<Utc>) -> Option<String> {
        may_begin(state)
    }

    /// Countries declared independent, stored as `power 7`..., by their names.
    fn display_names(&self, state: &GameState) -> BTreeMap<String, String> {
        let Some(gtd) = Self::game(state) else {
            return Default::default();
        };
        let map = crate::map::Map::standard();
        gtd.state
            .countries
            .iter()
            .map(|c| {
                let stored = crate::docs::power_name(map, crate::map::Power(c.power));
                (stored, c.name.clone())
            })
            .filter(|(stored, shown)| stored != shown)
            .collect()
    }

    fn history_texts(
        &self,
        tx: &Tx<'_>,
        game: GameId,
        state: &GameState,
    ) -> Result<Option<BTreeMap<i64, String>>, EngineError> {
        if Self::game(state).is_none() {
            return Ok(None);
        }
        journal::history_texts(tx, game, state).map(Some)
    }

    fn restore(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        record: &PhaseRecord,
    ) -> Result<Option<Result<crate::docs::PositionDoc, String>>, EngineError> {
        if !Self::running(work, key) {
            return Ok(None);
        }
        journal::restore(work, key, record).map(Some)
    }

    fn predict(
        &self,
        work: &Work<'_, '_>,
        key: &str,
        sender: &str,
    ) -> Result<Option<String>, EngineError> {
        if !Self::running(work, key) {
            return Ok(None);
        }
        predict(work, key, sender).map(Some)
    }

    fn become_player(&self, state: &GameState, who: &str) -> Result<(String, String), String> {
        match Self::game(state) {
            Some(game) => become_player(game, who),
            None => Standard.become_player(state, who),
        }
    }
}
