//! The engine side of the `masters` variant (rules in `crate::variant::masters`):
//! the Masters Rules chosen for a game (`CREATE ... masters=MR1,MR2`, `SET
//! MASTERS`), the orders the variant takes itself (variable control, every
//! adjustment order), the phase played through the rules core, and the lines
//! the season report adds.
//!
//! - `intake`: orders from players, kept in `MastersGame` until the deadline.
//! - `play`: a phase adjudicated with variable control, or an adjustment phase
//!   resolved by `resolve_adjustment`; the report lines of either.

mod intake;
mod play;

use std::collections::BTreeMap;

pub(crate) use intake::{take_power_orders, take_variant_order};
pub(crate) use play::adjudicate;

use super::{Answer, Standard, Variant};
use crate::game::EngineError;
use crate::game::model::{GameState, Status};
use crate::game::request::Request;
use crate::game::work::Work;
use crate::grammar::Command;
use crate::grammar::VariantOrder;
use crate::judge::{Adjudication, Position, Rules};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder};
use crate::phase::PhaseKind;
use crate::report::PhaseReport;
use crate::variant::masters::game::great_count;
pub use crate::variant::masters::game::{Mark, MastersGame, map_of};
use crate::variant::masters::{MastersState, Options, Rule, minors};

/// The variant name of a game with minor powers (MR1): its map is the standard
/// map with the twelve minors added. Without MR1 the game is `standard`.
pub const VARIANT: &str = "masters";

/// `SET MASTERS MR1,MR2` (and `CREATE ... masters=...`): the rules of a forming
/// game. An empty list plays none.
pub(crate) fn set_options(state: &mut GameState, list: &str) -> Answer {
    let options: Options = list.parse().map_err(|e| format!("{e}"))?;
    if state.status != Status::Forming {
        return Err(format!(
            "{} has started: its Masters Rules are fixed",
            state.name
        ));
    }
    let variant = state.settings.variant.to_ascii_lowercase();
    if !super::named(&variant).is_some_and(|v| v.takes_masters_rules()) {
        return Err(format!(
            "Masters Rules are played on the standard board here, not with the {variant} variant"
        ));
    }
    if options.is_empty() {
        state.masters = None;
        state.settings.variant = Standard.name().into();
        return Ok(format!(
            "{} will be played without Masters Rules.",
            state.name
        ));
    }
    state.masters = Some(MastersGame::new(options));
    state.settings.variant = name_for(options).into();
    let titles: Vec<String> = options
        .rules()
        .map(|r| format!("{} {}", r.code(), r.title()))
        .collect();
    Ok(format!(
        "{} will be played with Masters Rules: {}.",
        state.name,
        titles.join(", ")
    ))
}

/// The name of a game with these Masters Rules: `masters` with the minors
/// (MR1), else `standard`.
fn name_for(options: Options) -> &'static str {
    if options.has(Rule::MinorPowers) {
        VARIANT
    } else {
        Standard.name()
    }
}

/// At the start the variant and the rules agree, whatever order `SET VARIANT`
/// and `SET MASTERS` came in: the `masters` variant without a rule list plays
/// all six; with MR1 the board is the one with minors, without it the standard
/// one. (A game resolves to this variant only when it is named `masters` or
/// is a standard game with rules chosen: `variants::of`.)
fn before_start(state: &mut GameState) {
    let options = state
        .masters
        .as_ref()
        .map_or(Options::all(), |m| m.rules.options);
    state.masters = Some(MastersGame::new(options));
    state.settings.variant = name_for(options).into();
}

/// The Masters Rules a `CREATE` line chooses, as a `SET MASTERS` list, and the
/// variant the game is created with: `masters` alone plays all six rules;
/// `masters=MR1,MR2` (after the variant or in its place) chooses.
fn create_options(command: &Command) -> Option<(Option<String>, String)> {
    let Command::Create {
        variant, options, ..
    } = command
    else {
        return None;
    };
    let words: Vec<&String> = variant.iter().chain(options).collect();
    let listed = |o: &&String| o.to_ascii_lowercase().starts_with("masters=");
    if let Some(i) = words.iter().position(listed) {
        let list: Vec<&str> = words[i..].iter().map(|w| w.as_str()).collect();
        let variant = variant.clone().filter(|v| !listed(&v));
        return Some((variant, list.join(",")));
    }
    variant
        .as_deref()
        .is_some_and(|v| v.eq_ignore_ascii_case(VARIANT))
        .then(|| (variant.clone(), "ALL".to_string()))
}

/// Great powers in civil disorder: nobody plays them, or their player left
/// them (abandoned). Minors and rebels always are (MR1 c, MR3 a).
pub(crate) fn cd_great(map: &Map, state: &GameState) -> Vec<Power> {
    (0..great_count().min(map.powers().len()))
        .map(|i| Power(i as u8))
        .filter(|p| {
            let name = &map.powers()[p.0 as usize].name;
            state.player_of(name).is_none_or(|m| m.abandoned)
        })
        .collect()
}

/// The lines the report of the phase just played adds.
pub(crate) fn report_lines(state: &GameState) -> Vec<String> {
    state
        .masters
        .as_ref()
        .map(|m| m.report.clone())
        .unwrap_or_default()
}

/// Early processing of an adjustment phase waits for every player: in Masters
/// anyone may have something to do there (rebels, annexation, aid, disbands,
/// votes for powers in civil disorder), not only those the judge owes builds
/// or removals. `WAIVE` says "nothing". Other phases: the generic way.
pub(crate) fn ready(state: &GameState, kind: crate::phase::PhaseKind) -> Option<bool> {
    let game = state.masters.as_ref()?;
    if kind != crate::phase::PhaseKind::Adjustment {
        return None;
    }
    let map = game_map(state);
    let position = crate::game::process::position_of(map, state).ok()?;
    let alive = |name: &str| {
        map.power(name)
            .is_some_and(|p| position.unit_count(p) > 0 || !position.centers_of(p).is_empty())
    };
    let silent = state.players().any(|m| {
        m.power
            .as_ref()
            .is_some_and(|p| !m.abandoned && alive(p) && !game.adjustment.contains_key(p))
    });
    silent.then_some(false)
}

/// Has `power` written variable-control orders this phase? Its own units left
/// without orders then hold by choice: MR2 b lets a player spend orders on
/// units in civil disorder instead of its own, so it is not late.
pub(crate) fn wrote_variable_control(state: &GameState, power: &str) -> bool {
    state
        .masters
        .as_ref()
        .and_then(|g| g.control.get(power))
        .is_some_and(|orders| !orders.is_empty())
}

/// Variable control is decided on the board of the phase it is written in
/// (MR2 a: eligibility "at that time"), so an order for another power's unit
/// is not kept for a later phase or an `IF` block: refused, never voided later.
pub(crate) fn kept_order_refusal(state: &GameState, writer: &str, line: &str) -> Option<String> {
    state.masters.as_ref()?;
    let map = game_map(state);
    let named = crate::grammar::parse_order(map, line).ok()?.power?;
    let name = crate::docs::power_name(map, named);
    (!name.eq_ignore_ascii_case(writer)).then(|| {
        format!(
            "an order for a unit of {name} (variable control, MR2) is taken only for the \
             current phase, not in PHASE or IF blocks; send it in its phase"
        )
    })
}

/// The sender's Masters orders kept for the deadline, for the end of a reply.
pub(crate) fn order_summary(state: &GameState, sender: &str) -> Option<String> {
    let game = state.masters.as_ref()?;
    let power = state
        .players()
        .find(|m| m.address.eq_ignore_ascii_case(sender))?
        .power
        .clone()?;
    let map = game_map(state);
    let phase = state.phase_name().unwrap_or("");
    let mut text = String::new();
    if let Some(list) = game.control.get(&power).filter(|l| !l.is_empty()) {
        text.push_str(&format!(
            "\nVariable-control orders for {phase}, counted at the deadline:\n"
        ));
        for (_, doc) in list {
            if let Ok(o) = doc.to_order(map) {
                text.push_str(&format!("  {}\n", crate::docs::order_text(map, &o)));
            }
        }
    }
    if let Some(list) = game.adjustment.get(&power).filter(|l| !l.is_empty()) {
        text.push_str(&format!(
            "\nMasters adjustment orders for {phase}, resolved at the deadline:\n"
        ));
        for order in list {
            text.push_str(&format!("  {order}\n"));
        }
        text.push_str(
            "(Below, rebel builds, annexations and aid show as WAIVE: each uses a build.)\n",
        );
    }
    Some(text)
}

/// After `ROLLBACK` to the start of `phase`: the rules state as it was then
/// (rebels, owners at the previous adjustment), and no orders kept.
pub(crate) fn rolled_back(state: &mut GameState, phase: &str) {
    let Some(game) = state.masters.as_mut() else {
        return;
    };
    if let Some(rules) = game.snapshots.get(phase) {
        game.rules = rules.clone();
    }
    let Ok(at) = phase.parse::<crate::phase::Phase>() else {
        return;
    };
    let before = |p: &String| p.parse::<crate::phase::Phase>().is_ok_and(|p| p < at);
    game.snapshots.retain(|p, _| before(p));
    game.history.retain(|p, _| before(p));
    game.control.clear();
    game.adjustment.clear();
    game.marks.clear();
    game.report.clear();
}

/// Rebels in the results listing are named as the rules name them
/// (`Rebel A MOS`, `Rebel Moscow`), not by power number; a rebel the phase
/// removed, as the rules named it when the phase began.
pub(crate) fn edit_report(state: &GameState, report: &mut crate::report::PhaseReport) {
    let (Some(game), map) = (state.masters.as_ref(), game_map(state)) else {
        return;
    };
    let mut rules = vec![&game.rules];
    rules.extend(game.snapshots.get(&report.phase.to_string()));
    relabel(map, &rules, report);
}

/// A stored phase reported again (`HISTORY`): rebels named as the rules named
/// them when the phase was played (its opening state; a rebel raised in it, as
/// the rules name it now).
pub(crate) fn edit_history_report(
    state: &GameState,
    phase: &str,
    report: &mut crate::report::PhaseReport,
) {
    let (Some(game), map) = (state.masters.as_ref(), game_map(state)) else {
        return;
    };
    let mut rules: Vec<&MastersState> = game.snapshots.get(phase).into_iter().collect();
    rules.push(&game.rules);
    relabel(map, &rules, report);
}

/// Names the rebels of a report by the first of `rules` that knows them.
fn relabel(map: &Map, rules: &[&MastersState], report: &mut crate::report::PhaseReport) {
    let great = map.powers().len();
    let name = |p: Power, position: &crate::judge::Position| {
        rules
            .iter()
            .find(|r| r.rebel(p).is_some())
            .map(|r| r.name(map, position, p))
    };
    for o in &mut report.orders {
        let power = o.power();
        if (power.0 as usize) >= great
            && let Some(n) = name(power, &report.before)
        {
            o.power_name = n;
        }
    }
    for s in &mut report.powers {
        if (s.power.0 as usize) >= great
            && let Some(n) = name(s.power, &report.after)
        {
            s.name = n;
        }
    }
}

/// Names shown for rebels where the board stores them by number (`power 7`
/// -> `Rebel A MOS`, `Rebel Moscow`), for `LIST`.
pub(crate) fn display_names(state: &GameState) -> BTreeMap<String, String> {
    let (Some(game), map) = (state.masters.as_ref(), game_map(state)) else {
        return BTreeMap::new();
    };
    let Ok(position) = crate::game::process::position_of(map, state) else {
        return BTreeMap::new();
    };
    game.rules
        .rebels
        .iter()
        .map(|r| {
            (
                crate::docs::power_name(map, r.power),
                game.rules.name(map, &position, r.power),
            )
        })
        .collect()
}

/// A stored Masters adjustment phase for `HISTORY`: the orders carried out, as
/// stored, each done, and the board after as stored; the Masters lines (rebels,
/// annexation, aid, votes) come from the phase's kept report. The standard judge
/// would refuse what only Masters allows (a rebel's build, a vote's build).
pub(crate) fn replay_adjustment(
    orders: &[crate::orders::PowerOrder],
    after: &crate::judge::Position,
) -> crate::judge::Adjudication {
    use crate::judge::{Reason, Resolution, Verdict};
    let resolutions = orders
        .iter()
        .map(|o| Resolution {
            power: o.power,
            order: o.order,
            verdict: Verdict::Ok,
            dislodged: false,
            dislodged_by: None,
            reason: if matches!(o.order, crate::orders::Order::Waive) {
                Reason::Waived
            } else {
                Reason::None
            },
            defaulted: false,
        })
        .collect();
    crate::judge::Adjudication {
        resolutions,
        after: after.clone(),
    }
}

/// The lines the report of a stored phase had.
pub(crate) fn history_lines(state: &GameState, phase: &str) -> Vec<String> {
    state
        .masters
        .as_ref()
        .and_then(|m| m.history.get(phase).cloned())
        .unwrap_or_default()
}

/// The board of a Masters game: with the minors (MR1) when the game is named
/// `masters`, else the standard one.
pub(super) fn game_map(state: &GameState) -> &'static Map {
    Masters.map(state)
}

/// Masters Rules: a game named `masters`, or a standard game with rules chosen.
pub struct Masters;

impl Variant for Masters {
    /// `masters` alone, or `masters=MR1,MR2`: `SET MASTERS` right after.
    fn create_options(&self, command: &Command) -> Option<(Option<String>, Request)> {
        create_options(command).map(|(variant, list)| (variant, Request::SetMasters(list)))
    }

    fn takes_masters_rules(&self) -> bool {
        true
    }

    fn has_own_state(&self, state: &GameState) -> bool {
        state.masters.is_some()
    }

    /// Its players are the standard game's: the master's status lists them.
    fn keeps_own_accounts(&self, _state: &GameState) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        VARIANT
    }

    fn board(&self) -> &'static Map {
        minors::standard()
    }

    fn map(&self, state: &GameState) -> &'static Map {
        super::named(&state.settings.variant).map_or(self.board(), |v| v.board())
    }

    fn before_start(&self, state: &mut GameState) {
        before_start(state);
    }

    fn take_variant_order(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        power: Option<&str>,
        order: &VariantOrder,
    ) -> Result<Answer, EngineError> {
        if work.game(key).state.masters.is_none() {
            return Standard.take_variant_order(work, key, sender, power, order);
        }
        take_variant_order(work, key, sender, power, order)
    }

    fn order_summary(&self, state: &GameState, sender: &str) -> Option<String> {
        order_summary(state, sender)
    }

    fn take_power_orders(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        power: &str,
        orders: &[(String, Order)],
    ) -> Result<Vec<Option<Answer>>, EngineError> {
        if work.game(key).state.masters.is_none() {
            return Standard.take_power_orders(work, key, sender, power, orders);
        }
        take_power_orders(work, key, sender, power, orders)
    }

    fn adjudicate(
        &self,
        map: &Map,
        rules: &Rules,
        state: &mut GameState,
        position: &Position,
        given: &mut Vec<PowerOrder>,
    ) -> Option<Adjudication> {
        state.masters.as_ref()?;
        Some(adjudicate(map, rules, state, position, given))
    }

    fn kept_order_refusal(&self, state: &GameState, power: &str, line: &str) -> Option<String> {
        kept_order_refusal(state, power, line)
    }

    fn edit_report(&self, state: &GameState, report: &mut PhaseReport) {
        edit_report(state, report);
    }

    fn report_sections(&self, state: &GameState) -> Vec<String> {
        if state.masters.is_none() {
            return Vec::new();
        }
        report_lines(state)
    }

    fn replay_adjudication(
        &self,
        state: &GameState,
        before: &Position,
        orders: &[PowerOrder],
        after: &Position,
    ) -> Option<Adjudication> {
        (state.masters.is_some() && before.phase.kind == PhaseKind::Adjustment)
            .then(|| replay_adjustment(orders, after))
    }

    fn edit_history_report(&self, state: &GameState, phase: &str, report: &mut PhaseReport) {
        edit_history_report(state, phase, report);
    }

    fn history_sections(&self, state: &GameState, phase: &str) -> Vec<String> {
        history_lines(state, phase)
    }

    /// MR1: `T` is Turkey, not Tunis: the one great power with that initial.
    fn played_power_by_initial(
        &self,
        state: &GameState,
        map: &Map,
        initial: &str,
    ) -> Option<Power> {
        let mut chars = initial.trim().chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        state.masters.as_ref()?;
        let great = great_count();
        let found: Vec<usize> = (0..great.min(map.powers().len()))
            .filter(|&i| {
                map.powers()[i]
                    .name
                    .chars()
                    .next()
                    .is_some_and(|f| f.eq_ignore_ascii_case(&c))
            })
            .collect();
        match found.as_slice() {
            [only] => Some(Power(*only as u8)),
            _ => None,
        }
    }

    /// The great powers, not the minors of MR1.
    fn playable_powers(&self, state: &GameState, map: &Map) -> Vec<String> {
        let all = map.powers().iter().map(|p| p.name.clone());
        match &state.masters {
            Some(m) => all.take(m.rules.great as usize).collect(),
            None => all.collect(),
        }
    }

    fn ready(&self, state: &GameState, kind: PhaseKind) -> Option<bool> {
        ready(state, kind)
    }

    fn orders_given_otherwise(&self, state: &GameState, power: &str) -> bool {
        wrote_variable_control(state, power)
    }

    fn display_names(&self, state: &GameState) -> BTreeMap<String, String> {
        display_names(state)
    }

    /// Minors and rebels have no seat (MR1, MR3).
    fn has_seat(&self, state: &GameState, power: Power) -> bool {
        state
            .masters
            .as_ref()
            .is_none_or(|m| (power.0 as usize) < m.rules.great as usize)
    }

    fn rolled_back(&self, state: &mut GameState, phase: &str) {
        rolled_back(state, phase);
    }
}
