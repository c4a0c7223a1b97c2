//! Where the engine meets the variants: each hook the engine calls is one
//! function here that dispatches on the game's variant to that variant's
//! module, so generic engine code never names a variant.
//!
//! The rules themselves are pure and live in `crate::variant::*`; the modules
//! here only adapt them to the game state, the store and the mail replies.

pub mod agora;
pub mod gtd;
pub mod masters;
pub mod twilight;

use super::EngineError;
use super::model::{GameState, Settings};
use super::work::Work;
use crate::grammar::VariantOrder;
use crate::orders::Order;

/// What a reply line says: accepted (`Ok`) or refused (`Err`), with why.
pub type Answer = Result<String, String>;

/// Hook: a new game's settings for its variant (`CREATE`).
pub fn settings(settings: &mut Settings) {
    if settings.variant == "gtd" {
        gtd::settings(settings);
    }
    if settings.variant == "agora" {
        agora::setup(settings);
    }
}

/// Hook: starting a full forming game. `true` when the variant started it.
pub fn start(work: &mut Work<'_, '_>, key: &str) -> Result<bool, EngineError> {
    masters::before_start(&mut work.game_mut(key).state);
    if work.game(key).state.settings.variant == "gtd" {
        gtd::start(work, key)?;
        return Ok(true);
    }
    if twilight::plays(&work.game(key).state) {
        twilight::start(work, key)?;
        return Ok(true);
    }
    Ok(false)
}

/// Hook: processing one phase. `true` when the variant processed it.
pub fn process_one(work: &mut Work<'_, '_>, key: &str) -> Result<bool, EngineError> {
    if work.game(key).state.gtd.is_some() {
        gtd::process_one(work, key)?;
        return Ok(true);
    }
    Ok(false)
}

/// Hook: `SIGNON ?game` handled by the variant (`None`: the generic way).
pub fn join(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    password: &str,
) -> Result<Option<Answer>, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::join(work, key, sender, password).map(Some);
    }
    if work.game(key).state.agora.is_some() {
        return agora::join(work, key, sender, password).map(Some);
    }
    Ok(None)
}

/// Hook: may a power nobody plays be taken over by signing on to it, as on
/// njudge? Not in the tournaments, whose organisers choose who plays (GTD's
/// Gamemaster approves entrants, Agora's adds contestants).
pub fn open_to_take_over(state: &GameState) -> bool {
    state.gtd.is_none() && state.agora.is_none()
}

/// Does the game take its orders through its variant (by player, not power)?
pub fn takes_own_orders(state: &GameState) -> bool {
    state.gtd.is_some()
}

/// Hook: one order line of a game that `takes_own_orders`.
pub fn take_order(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    order: &Order,
) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::take(work, key, sender, gtd::Item::Order(*order));
    }
    Ok(Err("this game takes no orders this way".into()))
}

/// Hook: a variant's own order line; `power`: the power the sender speaks
/// for (their own, or the one the master became).
pub fn take_variant_order(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    power: Option<&str>,
    order: &VariantOrder,
) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::take(work, key, sender, gtd::Item::Variant(order.clone()));
    }
    if work.game(key).state.masters.is_some() {
        return masters::take_variant_order(work, key, sender, power, order);
    }
    let variant = work.game(key).state.settings.variant.clone();
    Ok(Err(format!(
        "this order is not part of the {variant} variant; the line was not applied"
    )))
}

/// Hook: the sender's current orders, for the end of a reply (games that
/// `takes_own_orders`).
pub fn order_summary(state: &GameState, sender: &str) -> Option<String> {
    if state.masters.is_some() {
        return masters::order_summary(state, sender);
    }
    state.gtd.as_ref().map(|g| gtd::order_summary(g, sender))
}

/// Hook: the master's `EJECT` in a game that `takes_own_orders`.
pub fn eject(work: &mut Work<'_, '_>, key: &str, who: &str) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::eject(work, key, who);
    }
    Ok(Err(format!("{who} is not in this game")))
}

/// Hook: who signs press sent by a member who plays no power (GTD: the
/// player's name), if the variant lets them send press.
pub fn press_author(state: &GameState, sender: &str) -> Option<String> {
    state
        .gtd
        .as_ref()
        .and_then(|g| gtd::press_author(g, sender))
}

/// Hook: does press to `powers` reach this member of a variant game (GTD: a
/// player commanding a unit of one of them or heading one)?
pub fn press_reaches(state: &GameState, address: &str, powers: &[String]) -> bool {
    state
        .gtd
        .as_ref()
        .is_some_and(|g| gtd::press_reaches(g, state, address, powers))
}

/// Hook: a master command the game's variant does not allow, with why.
pub fn master_refusal(state: &GameState, request: &super::request::Request) -> Option<String> {
    if state.gtd.is_some() {
        return gtd::master_refusal(request);
    }
    None
}

/// Hook: `RESIGN` in a game that `takes_own_orders`.
pub fn resign(work: &mut Work<'_, '_>, key: &str, sender: &str) -> Result<Answer, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::resign(work, key, sender);
    }
    Ok(Err("nothing to resign".into()))
}

/// Hook: orders of a power's player that the variant takes itself (Masters:
/// orders for units in civil disorder, every adjustment order). One answer per
/// order; `None`: the order goes the generic way.
pub fn take_power_orders(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    power: &str,
    orders: &[(String, Order)],
) -> Result<Vec<Option<Answer>>, EngineError> {
    if work.game(key).state.masters.is_some() {
        return masters::take_power_orders(work, key, sender, power, orders);
    }
    if twilight::plays(&work.game(key).state) {
        return twilight::take_power_orders(work, key, sender, power, orders);
    }
    Ok(vec![None; orders.len()])
}

/// Hook: the adjudication of the current phase, for variants that change it
/// (Masters: variable control, its own adjustment phase). `given` is replaced
/// by the orders adjudicated. `None`: the judge's own.
pub fn adjudicate(
    map: &crate::map::Map,
    rules: &crate::judge::Rules,
    state: &mut GameState,
    position: &crate::judge::Position,
    given: &mut Vec<crate::orders::PowerOrder>,
) -> Option<crate::judge::Adjudication> {
    if state.masters.is_some() {
        return Some(masters::adjudicate(map, rules, state, position, given));
    }
    if twilight::plays(state) {
        return Some(twilight::adjudicate(rules, state, position, given));
    }
    if state.agora.is_some() {
        return agora::adjudicate(map, rules, state, position, given);
    }
    None
}

/// Hook: `MAP ... ENDMAP`, a player's map (Twilight Zone).
pub fn submit_map(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    text: &str,
) -> Result<Answer, EngineError> {
    if twilight::plays(&work.game(key).state) {
        return twilight::submit(work, key, sender, text);
    }
    let variant = work.game(key).state.settings.variant.clone();
    Ok(Err(format!(
        "maps are submitted only in Twilight Zone games; this game is {variant}"
    )))
}

/// Hook: a power's current order as the reply's summary lists it (Twilight
/// Zone: with the map it uses; Agora: a convoyed move with its path).
/// `None`: the canonical order.
pub fn order_line(state: &GameState, power: &str, order: &Order) -> Option<String> {
    if twilight::plays(state) {
        return twilight::order_line(state, power, order);
    }
    if state.agora.is_some() {
        return agora::order_line(state, order);
    }
    None
}

/// Hook: why an order line of `power`'s player kept for a later phase or an
/// `IF` block cannot be kept as written (Twilight Zone: one naming a map;
/// Masters Rules: one for another power's unit). `None`: it can.
pub fn kept_order_refusal(state: &GameState, power: &str, line: &str) -> Option<String> {
    if twilight::plays(state) {
        return twilight::kept_order_refusal(line);
    }
    masters::kept_order_refusal(state, power, line)
}

/// Hook: the master's `FORCE BEGIN` was accepted (Twilight Zone: start
/// without waiting for the players' maps).
pub fn force_begin(state: &mut GameState) {
    if twilight::plays(state) {
        twilight::force(state);
    }
}

/// Hook: the season report of a phase just played, as the variant prints it
/// (Twilight Zone: the map each order used, years BC, no borders disclosed).
pub fn edit_report(state: &GameState, report: &mut crate::report::PhaseReport) {
    if twilight::plays(state) {
        twilight::edit_report(state, report);
    }
    if state.masters.is_some() {
        masters::edit_report(state, report);
    }
}

/// Hook: a stored phase adjudicated again for `HISTORY`, when the variant
/// adjudicates differently (Twilight Zone: each order on the map it named).
/// `None`: the judge's own.
pub fn replay_adjudication(
    state: &GameState,
    before: &crate::judge::Position,
    orders: &[crate::orders::PowerOrder],
    after: &crate::judge::Position,
) -> Option<crate::judge::Adjudication> {
    if twilight::plays(state) {
        return Some(twilight::replay_adjudication(state, before, orders));
    }
    if state.masters.is_some() && before.phase.kind == crate::phase::PhaseKind::Adjustment {
        return Some(masters::replay_adjustment(orders, after));
    }
    if state.agora.is_some() {
        return agora::replay_adjudication(state, before, orders);
    }
    None
}

/// Hook: when the clock must call for a forming game (Agora: when entry
/// closes). `None`: a forming game waits for its players or master.
pub fn forming_wakeup(state: &GameState) -> Option<chrono::DateTime<chrono::Utc>> {
    agora::entry_wakeup(state)
}

/// Hook: the clock's call for a forming game whose wake-up has come (Agora:
/// entry closed; play begins, or the Gamemaster is told too few entered).
pub fn forming_due(work: &mut Work<'_, '_>, key: &str) -> Result<usize, EngineError> {
    if work.game(key).state.agora.is_some() {
        return agora::entry_closed(work, key);
    }
    Ok(0)
}

/// Hook: why an order line's convoy route, or its lack, is refused when
/// written for a phase of `kind` (Agora, section 17: a convoyed move names
/// its path). `None`: accepted.
pub fn route_refusal(
    state: &GameState,
    position: &crate::judge::Position,
    kind: crate::phase::PhaseKind,
    order: &Order,
    route: Option<crate::grammar::ConvoyRoute>,
) -> Option<String> {
    state.agora.as_ref()?;
    agora::route_refusal(position, kind, order, route)
}

/// Hook: a stored phase's report for `HISTORY`, as the variant names its
/// powers when that phase was played (Masters: rebels).
pub fn edit_history_report(
    state: &GameState,
    phase: &str,
    report: &mut crate::report::PhaseReport,
) {
    masters::edit_history_report(state, phase, report);
}

/// Hook: `SET MASTERS` (and the Masters Rules chosen at `CREATE`).
pub fn set_masters(state: &mut GameState, list: &str) -> Answer {
    masters::set_options(state, list)
}

/// Hook: lines a variant adds to the report of the phase just played.
pub fn report_sections(state: &GameState) -> Vec<String> {
    if state.masters.is_some() {
        return masters::report_lines(state);
    }
    if state.agora.is_some() {
        return agora::public_lines(state);
    }
    Vec::new()
}

/// Hook: text only `reader` gets at the end of a phase report (Agora: eir own
/// votes on open proposals).
pub fn reader_lines(state: &GameState, reader: &str) -> String {
    agora::reader_lines(state, reader)
}

/// Hook: the map a mail is read with: that of the game its first `SIGNON`,
/// `OBSERVE` or `JOIN` names, when the game's variant has its own (Masters
/// minor powers); else the standard map.
pub fn mail_map(
    tx: &crate::store::Tx<'_>,
    body: &crate::grammar::Body,
) -> Result<&'static crate::map::Map, EngineError> {
    use crate::grammar::{Command, Entry};
    let standard = crate::map::Map::standard();
    let game = body.lines.iter().find_map(|l| match &l.entry {
        Entry::Command(Command::Signon { game, .. })
        | Entry::Command(Command::Observe { game, .. })
        | Entry::Command(Command::Join {
            game: Some(game), ..
        }) => Some(game.clone()),
        _ => None,
    });
    let Some(row) = game.map(|g| tx.game_by_name(&g)).transpose()?.flatten() else {
        return Ok(standard);
    };
    let settings: Result<super::model::Settings, _> = serde_json::from_str(&row.settings);
    Ok(settings
        .ok()
        .and_then(|s| super::process::map_for(&s.variant).ok())
        .unwrap_or(standard))
}

/// Hook: a variant's options on a `CREATE` line: the variant the game is
/// created with, and a request applied right after (Masters: `SET MASTERS`).
pub fn create_options(
    command: &crate::grammar::Command,
) -> Option<(Option<String>, super::request::Request)> {
    masters::create_options(command)
        .map(|(variant, list)| (variant, super::request::Request::SetMasters(list)))
}

/// Hook: a one-letter seat several powers of the map share (Masters minors:
/// `T` is Turkey and Tunis): the one power with that initial that players play.
pub fn played_power_by_initial(
    state: &GameState,
    map: &crate::map::Map,
    initial: &str,
) -> Option<crate::map::Power> {
    let mut chars = initial.trim().chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    state.masters.as_ref()?;
    let great = crate::map::Map::standard().powers().len();
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
        [only] => Some(crate::map::Power(*only as u8)),
        _ => None,
    }
}

/// Hook: the powers players are given at the start (Masters: the great powers,
/// not the minors of MR1).
pub fn playable_powers(state: &GameState, map: &crate::map::Map) -> Vec<String> {
    let all = map.powers().iter().map(|p| p.name.clone());
    match &state.masters {
        Some(m) => all.take(m.rules.great as usize).collect(),
        None => all.collect(),
    }
}

/// Hook: a game just created (`CREATE`), with its creator as master (Agora:
/// the tournament, its creator the Gamemaster).
pub fn created(state: &mut GameState, creator: &str, now: chrono::DateTime<chrono::Utc>) {
    if state.settings.variant == "agora" {
        agora::created(crate::map::Map::standard(), state, creator, now);
    }
}

/// Hook: a forming game has just started, powers given (Agora: the
/// tournament learns who plays what).
pub fn started(state: &mut GameState) {
    if state.agora.is_some() {
        agora::started(crate::map::Map::standard(), state);
    }
}

/// Hook: why the master may not `FORCE BEGIN` now (`None`: may).
pub fn may_begin(state: &GameState, now: chrono::DateTime<chrono::Utc>) -> Option<String> {
    if state.settings.variant == "gtd" {
        return gtd::may_begin(state);
    }
    agora::may_begin(state, now)
}

/// Hook: why `sender` may not sign on as `power` though the password is right
/// (Agora: only the contestant or an announced ordering assistant).
pub fn sign_on_refusal(state: &GameState, power: &str, sender: &str) -> Option<String> {
    agora::sign_on_refusal(state, power, sender)
}

/// Hook: orders a power's seat gave in one mail, (phase, canonical order), with
/// the sender (Agora: logged with their submitter; the contestant is told of
/// an assistant's).
pub fn orders_given(
    work: &mut Work<'_, '_>,
    key: &str,
    power: &str,
    sender: &str,
    orders: &[(String, String)],
) -> Result<(), EngineError> {
    if work.game(key).state.agora.is_some() {
        agora::orders_given(work, key, power, sender, orders)?;
    }
    Ok(())
}

/// Hook: whether the current phase is processed before its deadline
/// (`None`: when every order is in, the generic way).
pub fn ready(state: &GameState, kind: crate::phase::PhaseKind) -> Option<bool> {
    if state.masters.is_some() {
        return masters::ready(state, kind);
    }
    state.agora.as_ref()?;
    Some(agora::ready(state, kind))
}

/// Hook: has a power's player given this phase's orders in a way the generic
/// count of own units does not see (Masters: variable-control orders, written
/// in place of orders for some of the writer's own units, MR2 b)?
pub fn orders_given_otherwise(state: &GameState, power: &str) -> bool {
    masters::wrote_variable_control(state, power)
}

/// Hook: names shown for powers the map does not name (GTD: countries
/// declared independent, stored as `power 7`...), stored name -> shown name.
pub fn display_names(state: &GameState) -> std::collections::BTreeMap<String, String> {
    if state.masters.is_some() {
        return masters::display_names(state);
    }
    let Some(gtd) = state.gtd.as_ref() else {
        return Default::default();
    };
    let map = crate::map::Map::standard();
    gtd.state
        .countries
        .iter()
        .map(|c| {
            let stored = super::docs::power_name(map, crate::map::Power(c.power));
            (stored, c.name.clone())
        })
        .filter(|(stored, shown)| stored != shown)
        .collect()
}

/// Hook: does a power with a majority of centres end the game at once? (Agora:
/// no; the judge announces winners with notice.)
pub fn solo_ends_game(state: &GameState) -> bool {
    state.agora.is_none()
}

/// Hook: after a phase is processed, before its report is made (the report
/// shows what the hook changed).
pub fn after_phase(
    work: &mut Work<'_, '_>,
    key: &str,
    after: &crate::judge::Position,
) -> Result<(), EngineError> {
    if work.game(key).state.agora.is_some() {
        agora::after_phase(work, key, after)?;
    }
    Ok(())
}

/// Hook: the clock's call for a game whose deadline passed; `Some(n)`: the
/// variant dealt with it (`n` phases processed).
pub fn due(work: &mut Work<'_, '_>, key: &str) -> Result<Option<usize>, EngineError> {
    if work.game(key).state.agora.is_some() {
        return agora::due(work, key);
    }
    Ok(None)
}

/// Hook: the Agora tournament's commands (`answer` for the reply line).
pub fn agora_command(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    master: bool,
    command: &agora::AgoraCommand,
) -> Result<Answer, EngineError> {
    agora::command(work, key, sender, master, command)
}

/// Hook: does this power have a seat a player can hold (and so a vote in a
/// draw)? Masters: the great powers; minors and rebels have none.
pub fn has_seat(state: &GameState, power: crate::map::Power) -> bool {
    state
        .masters
        .as_ref()
        .is_none_or(|m| (power.0 as usize) < m.rules.great as usize)
}

/// Hook: the game was rolled back to the start of `phase` (its board is in
/// place): a variant's own state goes back too.
pub fn rolled_back(state: &mut GameState, phase: &str) {
    masters::rolled_back(state, phase);
    twilight::rolled_back(state, phase);
}

/// Hook: why a player's `SET DRAW` or `SET CONCEDE` (`what`) is refused in this
/// variant (Agora: the Gamemaster declares draws, the judge names winners).
pub fn vote_refusal(state: &GameState, what: &str) -> Option<String> {
    state.agora.as_ref()?;
    Some(agora::vote_refusal(what))
}

/// Hook: orders given ahead for a phase, added to those already stored for it
/// (Agora: retreats are kept as alternatives, in the order given; everywhere
/// else a later order for a unit replaces the earlier one).
pub fn merge_later(
    state: &GameState,
    kind: crate::phase::PhaseKind,
    existing: &[Order],
    new: &[Order],
) -> Vec<Order> {
    if state.agora.is_some() && kind == crate::phase::PhaseKind::Retreat {
        return agora::alternatives(existing, new);
    }
    super::orders_check::merge(kind, existing, new)
}

/// Hook: a phase has just been put on the board with the orders given ahead
/// for it (Agora: of each unit's alternative retreats, the first possible).
pub fn entered_phase(
    map: &crate::map::Map,
    state: &mut GameState,
    position: &crate::judge::Position,
) {
    if state.agora.is_some() {
        agora::entered_phase(map, state, position);
    }
}

/// Hook: the lines a variant added to the report of a stored phase (`HISTORY`).
pub fn history_sections(state: &GameState, phase: &str) -> Vec<String> {
    masters::history_lines(state, phase)
}

/// Hook: the text `HISTORY` shows for each phase record (by record id), for a
/// variant that keeps its own reports (GTD). `None`: the generic replay.
pub fn history_texts(
    tx: &crate::store::Tx<'_>,
    game: crate::store::GameId,
    state: &GameState,
) -> Result<Option<std::collections::BTreeMap<i64, String>>, EngineError> {
    if state.gtd.is_some() {
        return gtd::journal::history_texts(tx, game, state).map(Some);
    }
    Ok(None)
}

/// Hook: `ROLLBACK` to the start of `record`'s phase, for a variant whose own
/// state goes back with the board (GTD): the board to restore, or why the
/// rollback cannot be made. `None`: the generic way (`rolled_back` after).
pub fn restore(
    work: &mut Work<'_, '_>,
    key: &str,
    record: &crate::store::PhaseRecord,
) -> Result<Option<Result<super::docs::PositionDoc, String>>, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::journal::restore(work, key, record).map(Some);
    }
    Ok(None)
}

/// Hook: the master's `PREDICT` for a variant that plays its phases itself
/// (GTD). `None`: the generic prediction.
pub fn predict(
    work: &Work<'_, '_>,
    key: &str,
    sender: &str,
) -> Result<Option<String>, EngineError> {
    if work.game(key).state.gtd.is_some() {
        return gtd::predict(work, key, sender).map(Some);
    }
    Ok(None)
}

/// Hook: the master's `BECOME <who>` in a game that `takes_own_orders` (GTD:
/// a player, or a country's head of government): the address the master then
/// speaks for and the name shown, or why not.
pub fn become_player(state: &GameState, who: &str) -> Result<(String, String), String> {
    match &state.gtd {
        Some(game) => gtd::become_player(game, who),
        None => Err(format!("there is no player {who:?} in {}", state.name)),
    }
}
