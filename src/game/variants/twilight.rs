//! The engine side of the `twilight` variant (rules in `crate::variant::twilight`).
//!
//! - Before powers are assigned, each player mails a map (`MAP ... ENDMAP`);
//!   it is checked against rules 2.1-2.8 and against every other player's map,
//!   and the accepted map's picture goes to that player alone.
//! - The game starts when every player's map is in (or when the Gamemaster
//!   forces it: players without a map play on the standard borders), with the
//!   placement of rule 3 (`BUILD A Par`), then Spring 1901 BC.
//! - Every order may name a map (`(French Map)`); the judge checks and
//!   adjudicates each order's reach on that map (`judge::OrderMaps`) and prints
//!   the map used with every order (rule 4.2).
//! - No reply, report or error ever tells anything about a map's borders
//!   (rule 4.3): an order illegal on its map is "not possible on the French map".

use serde_json::json;

use super::{Answer, Audience, Next, Reply, Started, Tell, Variant};
use crate::docs::{order_text, power_name};
use crate::game::EngineError;
use crate::game::model::{GameState, Status};
use crate::game::notice::subject;
use crate::game::orders_check::{OrderProblem, fits_phase, is_illegal, merge};
use crate::game::process::{self, orders_of, position_of, rules_for};
use crate::game::work::Work;
use crate::judge::{
    Adjudication, Countries, OrderMaps, Position, Reason, Rules, Verdict, adjudicate_on,
};
use crate::map::{Map, Power, UnitKind};
use crate::orders::{Order, PowerOrder, UnitSpec};
use crate::phase::{Era, Phase, PhaseKind, Season};
use crate::report::{PhaseReport, names::power_adjective};
use crate::store::{NewOrder, OutboxAttachment};
use crate::variant::twilight as rules;
pub use crate::variant::twilight::game::{Choice, Submitted, TwilightGame};

/// The variant's name in `CREATE` and the game's settings.
pub const NAME: &str = "twilight";

/// Centres needed to win: 17 of the 33, a majority (rulings). The engine's
/// rule of more than half the centres gives it from the game's map.
pub const VICTORY: u32 = 17;

/// The placement of rule 3: an adjustment phase before Spring 1901 BC.
pub const PLACEMENT: Phase = Phase::new(Season::Winter, 1900, PhaseKind::Adjustment);

fn map() -> &'static Map {
    rules::base()
}

fn game_of(state: &GameState) -> TwilightGame {
    state.twilight.clone().unwrap_or_default()
}

// ----- map submission -----

/// `MAP ... ENDMAP` from a player of a forming game.
pub(crate) fn submit(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    text: &str,
) -> Result<Reply, EngineError> {
    let state = &work.game(key).state;
    let name = state.name.clone();
    if state.status != Status::Forming {
        return Ok(Reply::only(Err(format!(
            "maps are submitted before powers are assigned; {name} has started"
        ))));
    }
    if !state
        .players()
        .any(|m| m.address.eq_ignore_ascii_case(sender))
    {
        return Ok(Reply::only(Err(format!(
            "only a player who has joined {name} may submit a map (SIGNON ?{name} <password> first)"
        ))));
    }
    let accepted = match rules::check(text, "Your Twilight Zone map") {
        Ok(a) => a,
        Err(errors) => return Ok(Reply::only(Err(refusal(&errors)))),
    };
    let tz = game_of(state);
    let others: Vec<Map> = tz
        .designs
        .iter()
        .filter(|d| !d.address.eq_ignore_ascii_case(sender))
        .filter_map(|d| rules::check(&d.text, "other").ok().map(|a| a.map))
        .collect();
    let refs: Vec<&Map> = others.iter().collect();
    if let Err(e) = rules::distinct(&accepted.map, &refs) {
        return Ok(Reply::only(Err(refusal(&[e]))));
    }
    let g = work.game_mut(key);
    let (id, players) = (g.row.id, g.state.players().count());
    let needed = g.state.settings.players_needed;
    let tz = g.state.twilight.get_or_insert_with(TwilightGame::default);
    tz.designs
        .retain(|d| !d.address.eq_ignore_ascii_case(sender));
    tz.designs.push(Submitted {
        address: sender.to_string(),
        text: text.to_string(),
    });
    let maps_in = tz.designs.len();
    send_picture(work, key, sender, &accepted.design)?;
    work.event(
        Some(id),
        "twilight.map_accepted",
        json!({ "player": sender }),
    )?;
    let mut msg = format!(
        "Map accepted ({maps_in} of {players} players' maps in). Its picture is mailed to you alone."
    );
    let mut next = Next::Nothing;
    if players >= needed && all_maps_in(&work.game(key).state) {
        msg.push_str(" Every player's map is in: the game starts.");
        next = Next::Start;
    }
    Ok(Reply {
        answer: Ok(msg),
        next,
    })
}

/// Every failing rule, one a line, with where.
fn refusal(errors: &[rules::DesignError]) -> String {
    let mut out = format!(
        "the map is refused ({} problem(s)); nothing was stored:",
        errors.len()
    );
    for e in errors {
        out.push_str("\n  - ");
        out.push_str(&e.to_string());
    }
    out
}

/// The map's picture, mailed to its designer alone.
fn send_picture(
    work: &mut Work<'_, '_>,
    key: &str,
    to: &str,
    design: &rules::Design,
) -> Result<(), EngineError> {
    let g = work.game(key);
    let (id, game) = (g.row.id, g.state.name.clone());
    let svg = rules::draw(design, &format!("{game}: your map"));
    let subject = format!("{}:{game} your Twilight Zone map", work.judge);
    let body = format!(
        ":: Judge: {}  Game: {game}\n\nYour map for {game} is accepted. Its picture is attached \
         (PNG and SVG). Only you receive it: the judge shows no player's map to anyone else.\n",
        work.judge
    );
    work.send(to, subject, body, Some(id), false);
    let mut files = Vec::new();
    if let Ok(png) = crate::report::png::render(&svg, Some(1000)) {
        files.push(OutboxAttachment {
            filename: format!("{game}-map.png"),
            content_type: "image/png".into(),
            bytes: png,
        });
    }
    files.push(OutboxAttachment {
        filename: format!("{game}-map.svg"),
        content_type: "image/svg+xml".into(),
        bytes: svg.into_bytes(),
    });
    work.attach(files);
    Ok(())
}

fn all_maps_in(state: &GameState) -> bool {
    let tz = game_of(state);
    state.players().all(|m| {
        tz.designs
            .iter()
            .any(|d| d.address.eq_ignore_ascii_case(&m.address))
    })
}

/// `FORCE BEGIN`: start without waiting for the missing maps.
pub(crate) fn force(state: &mut GameState) {
    state
        .twilight
        .get_or_insert_with(TwilightGame::default)
        .forced = true;
}

// ----- the start -----

/// Starting a full game: held until every map is in (unless forced); then
/// the engine's start: powers by lot, each power's map (`started`), and the
/// placement phase (`opening`).
fn start(work: &mut Work<'_, '_>, key: &str) -> Started {
    let state = &work.game(key).state;
    if state.status != Status::Forming {
        return Started::Held(None);
    }
    if game_of(state).forced || all_maps_in(state) {
        return Started::Generic;
    }
    let tz = game_of(state);
    let missing = state.players().count() - tz.designs.len().min(state.players().count());
    Started::Held(Some(Tell {
        to: Audience::Everyone,
        subject: subject(&work.judge, state, "Waiting for maps"),
        body: format!(
            "Game {} has its players. It starts when every player's map is accepted \
             ({missing} still to come); send yours with MAP ... ENDMAP.\n",
            state.name
        ),
    }))
}

/// Powers given: each power plays on its player's map.
fn started(state: &mut GameState) {
    let mut tz = game_of(state);
    for m in state.players() {
        let Some(power) = &m.power else { continue };
        let design = tz
            .designs
            .iter()
            .find(|d| d.address.eq_ignore_ascii_case(&m.address))
            .map(|d| d.text.clone());
        tz.maps.push((power.clone(), design));
    }
    state.twilight = Some(tz);
}

// ----- the maps of a game -----

/// The map of each power, in power order (the standard borders for a power
/// without one).
fn power_maps(state: &GameState) -> Vec<Map> {
    let tz = game_of(state);
    map()
        .powers()
        .iter()
        .map(|info| {
            tz.maps
                .iter()
                .find(|(p, _)| p.eq_ignore_ascii_case(&info.name))
                .and_then(|(_, text)| text.as_deref())
                .and_then(|t| rules::check(t, &info.name).ok())
                .map_or_else(|| map().clone(), |a| a.map)
        })
        .collect()
}

/// The game's map for adjudication: every border of every power's map.
fn union_of(maps: &[Map]) -> Map {
    let all: Vec<&Map> = maps.iter().collect();
    rules::union(&all).unwrap_or_else(|_| map().clone())
}

/// The map the order of `power`'s unit `spec` names in `phase` (its own by default).
fn choice_of(state: &GameState, phase: &str, power: Power, spec: Option<UnitSpec>) -> Power {
    let name = power_name(map(), power);
    let Some(spec) = spec else { return power };
    let unit = map().abbr(spec.location.province).to_string();
    state
        .twilight
        .iter()
        .flat_map(|t| &t.choices)
        .find(|c| c.phase == phase && c.power == name && c.unit == unit)
        .and_then(|c| map().power(&c.map))
        .unwrap_or(power)
}

/// Does an order of this kind use a map's borders (rule 4)?
fn uses_map(order: &Order) -> bool {
    matches!(
        order,
        Order::Move { .. }
            | Order::SupportHold { .. }
            | Order::SupportMove { .. }
            | Order::Convoy { .. }
    )
}

// ----- orders -----

/// Every order of a power's player for the current phase: read with the map
/// its line names, checked on that map, stored with it.
pub(crate) fn take_power_orders(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    power: &str,
    orders: &[(String, Order)],
) -> Result<Vec<Option<Answer>>, EngineError> {
    let state = &work.game(key).state;
    let position = position_of(map(), state)?;
    let Some(p) = map().power(power) else {
        return Ok(vec![None; orders.len()]);
    };
    let phase = position.phase.to_string();
    let kind = position.phase.kind;
    let existing = orders_of(map(), state, power)?;
    let named: Vec<Power> = orders
        .iter()
        .map(|(text, _)| named_map(text, kind).unwrap_or(p))
        .collect();
    let maps = power_maps(state);
    let union = union_of(&maps);
    let rules = rules_for(state);
    let problems: Vec<Option<OrderProblem>> = if kind == PhaseKind::Adjustment {
        // Builds and removals count against each other: the set is checked
        // whole (no map matters to them).
        let new: Vec<Order> = orders.iter().map(|(_, o)| *o).collect();
        let merged = merge(kind, &existing, &new);
        let all = check(
            &maps,
            &union,
            &rules,
            &position,
            p,
            &merged,
            &vec![p; merged.len()],
        );
        new.iter()
            .map(|o| {
                merged
                    .iter()
                    .position(|m| m == o)
                    .and_then(|k| all[k].clone())
            })
            .collect()
    } else {
        // Each line on the map it names: two lines for one unit may name two maps.
        orders
            .iter()
            .zip(&named)
            .map(|((_, o), &on)| check(&maps, &union, &rules, &position, p, &[*o], &[on]).remove(0))
            .collect()
    };
    let mut answers = Vec::new();
    let mut good: Vec<(usize, Power)> = Vec::new();
    for (i, (_, o)) in orders.iter().enumerate() {
        match problems[i].clone() {
            Some(problem) => answers.push(Some(Err(problem_text(&problem, o, named[i])))),
            None => {
                answers.push(Some(Ok(format!(
                    "Accepted: {}",
                    with_map(order_text(map(), o), o, named[i])
                ))));
                good.push((i, named[i]));
            }
        }
    }
    if good.is_empty() {
        return Ok(answers);
    }
    let kept: Vec<Order> = good.iter().map(|&(i, _)| orders[i].1).collect();
    let merged = merge(kind, &existing, &kept);
    let id = work.game(key).row.id;
    for &(i, m) in &good {
        let (text, o) = &orders[i];
        let canon = with_map(order_text(map(), o), o, m);
        work.tx.insert_order(&NewOrder {
            game: id,
            phase: &phase,
            power,
            text,
            canonical: Some(&canon),
            submitter: sender,
            submitted_at: work.now,
            inbound: work.inbound,
        })?;
    }
    let g = work.game_mut(key);
    process::set_orders(map(), &mut g.state, p, &merged);
    let tz = g.state.twilight.get_or_insert_with(TwilightGame::default);
    for &(i, m) in &good {
        let Some(spec) = orders[i].1.unit() else {
            continue;
        };
        let unit = map().abbr(spec.location.province).to_string();
        tz.choices
            .retain(|c| !(c.phase == phase && c.power == power && c.unit == unit));
        tz.choices.push(Choice {
            phase: phase.clone(),
            power: power.to_string(),
            unit,
            map: power_name(map(), m),
        });
    }
    if let Some(m) = g.state.player_of_mut(power) {
        m.abandoned = false;
    }
    Ok(answers)
}

/// The map a line names: `A Par - Tri (German Map)`.
fn named_map(text: &str, kind: PhaseKind) -> Option<Power> {
    crate::grammar::parse_order_in(map(), text, Some(kind))
        .ok()
        .and_then(|o| o.map)
}

/// A current order with the map it uses, for the reply's summary.
pub(crate) fn order_line(state: &GameState, power: &str, order: &Order) -> Option<String> {
    let p = map().power(power)?;
    let phase = state.phase_name()?;
    let on = choice_of(state, phase, p, order.unit());
    Some(with_map(order_text(map(), order), order, on))
}

/// An order kept for a later phase or an `IF` block may not name a map: the
/// map is read and checked with the order, in the phase it is for.
pub(crate) fn kept_order_refusal(line: &str) -> Option<String> {
    let named = crate::grammar::parse_order(map(), line).ok()?.map?;
    Some(format!(
        "orders for a later phase or in an IF block cannot name a map (here the {} map); \
         send this order in its phase, or leave the map out to use your own",
        power_adjective(map(), named)
    ))
}

/// `A PAR - TRI (German Map)`: the canonical order with the map it uses.
fn with_map(text: String, order: &Order, on: Power) -> String {
    if uses_map(order) {
        format!("{text} ({} Map)", power_adjective(map(), on))
    } else {
        text
    }
}

/// Checks a power's order set, each order on its map. One entry per order.
fn check(
    maps: &[Map],
    union: &Map,
    rules: &Rules,
    position: &Position,
    power: Power,
    orders: &[Order],
    choice: &[Power],
) -> Vec<Option<OrderProblem>> {
    let mut problems: Vec<Option<OrderProblem>> = orders
        .iter()
        .map(|o| {
            if !fits_phase(position.phase.kind, o) {
                return Some(OrderProblem::WrongPhase);
            }
            owner_problem(position, power, o)
        })
        .collect();
    let mut batch = Vec::new();
    let mut picks = Vec::new();
    for (k, o) in orders.iter().enumerate() {
        if problems[k].is_none() {
            batch.push(PowerOrder { power, order: *o });
            picks.push(Some(choice[k].0));
        }
    }
    if batch.is_empty() {
        return problems;
    }
    let order_maps = OrderMaps::new(maps, &picks);
    let adjudication = adjudicate_on(union, &order_maps, rules, &Countries, position, &batch);
    let mut resolutions = adjudication.resolutions.iter().filter(|r| !r.defaulted);
    for slot in problems.iter_mut().filter(|p| p.is_none()) {
        if let Some(r) = resolutions.next()
            && r.verdict != Verdict::Ok
            && is_illegal(&r.reason)
            // Whether the supported unit can get there is its own order's
            // business, on whatever map that names (rule 4.1).
            && !matches!(r.reason, Reason::SupportedMoveImpossible { .. })
        {
            *slot = Some(OrderProblem::Illegal(r.reason));
        }
    }
    problems
}

fn owner_problem(position: &Position, power: Power, order: &Order) -> Option<OrderProblem> {
    let spec = order.unit()?;
    if matches!(order, Order::Build { .. }) {
        return None;
    }
    let p = spec.location.province;
    let unit = match position.phase.kind {
        PhaseKind::Retreat => position.dislodged_at(p).map(|d| d.unit),
        _ => position.unit_at(p).copied(),
    };
    match unit {
        None => Some(OrderProblem::NoUnit),
        Some(u) if u.power != power => Some(OrderProblem::NotYours),
        Some(_) => None,
    }
}

/// Does this reason depend on a map's borders? Then it is told only as "not
/// possible on the X map" (rule 4.3).
fn about_borders(reason: &Reason) -> bool {
    use Reason::*;
    matches!(
        reason,
        NotAdjacent { .. }
            | SupportUnreachable { .. }
            | ConvoyNotOnRoute
            | CoastUnreachable { .. }
            | CoastNeeded { .. }
            | RetreatBlocked { .. }
            | SupportedMoveImpossible { .. }
    )
}

/// "not possible on the French map"
fn not_possible(on: Power) -> String {
    format!("not possible on the {} map", power_adjective(map(), on))
}

fn problem_text(problem: &OrderProblem, order: &Order, on: Power) -> String {
    match problem {
        OrderProblem::Illegal(r) if about_borders(r) => not_possible(on),
        _ => {
            let at = order.unit().map(|u| u.location.province);
            crate::game::describe::problem(map(), at, problem)
        }
    }
}

// ----- processing -----

/// The phase adjudicated with each order on the map it names, everything
/// else on the union of the players' maps. Units not placed in the placement
/// phase are placed as armies.
pub(crate) fn adjudicate(
    rules: &Rules,
    state: &mut GameState,
    position: &Position,
    given: &mut Vec<PowerOrder>,
) -> Adjudication {
    if position.phase == PLACEMENT {
        place_missing(position, given);
    }
    adjudicate_given(rules, state, position, given)
}

/// A stored phase adjudicated again (for `HISTORY`), each order on the map it named.
pub(crate) fn replay_adjudication(
    state: &GameState,
    position: &Position,
    given: &[PowerOrder],
) -> Adjudication {
    adjudicate_given(&rules_for(state), state, position, given)
}

fn adjudicate_given(
    rules: &Rules,
    state: &GameState,
    position: &Position,
    given: &[PowerOrder],
) -> Adjudication {
    let phase = position.phase.to_string();
    let maps = power_maps(state);
    let picks: Vec<Option<u8>> = given
        .iter()
        .map(|po| {
            let on = if uses_map(&po.order) {
                choice_of(state, &phase, po.power, po.order.unit())
            } else {
                po.power
            };
            Some(on.0)
        })
        .collect();
    let union = union_of(&maps);
    adjudicate_on(
        &union,
        &OrderMaps::new(&maps, &picks),
        rules,
        &Countries,
        position,
        given,
    )
}

/// The game went back to the start of `phase`: the maps named from then on go.
pub(crate) fn rolled_back(state: &mut GameState, phase: &str) {
    let Ok(from) = phase.parse::<Phase>() else {
        return;
    };
    if let Some(tz) = state.twilight.as_mut() {
        tz.choices
            .retain(|c| c.phase.parse::<Phase>().is_ok_and(|p| p < from));
    }
}

/// Rule 3 (rulings): a home centre left empty at the placement deadline gets an army.
fn place_missing(position: &Position, given: &mut Vec<PowerOrder>) {
    for i in 0..map().powers().len() {
        let power = Power(i as u8);
        for home in position.home_of(power).iter() {
            let placed = given.iter().any(|po| {
                po.power == power
                    && matches!(po.order, Order::Build { unit } if unit.location.province == home)
            });
            if !placed {
                let mut unit = UnitSpec::new(UnitKind::Army, home.into());
                unit.power = Some(power);
                given.push(PowerOrder {
                    power,
                    order: Order::Build { unit },
                });
            }
        }
    }
}

// ----- reports -----

/// The season report as Twilight Zone prints it: years BC, every order with
/// the map it used, failures on a map told without its borders, and no list
/// of where a dislodged unit may retreat (that would show a map).
pub(crate) fn edit_report(state: &GameState, report: &mut PhaseReport) {
    report.era = Era::BeforeChrist;
    let phase = report.phase.to_string();
    for o in &mut report.orders {
        let r = &o.resolution;
        if !uses_map(&r.order) || r.defaulted {
            continue;
        }
        let on = choice_of(state, &phase, r.power, r.order.unit());
        let named = format!("{} ({} Map)", o.text, power_adjective(map(), on));
        let plain = std::mem::replace(&mut o.text, named);
        if about_borders(&r.reason) && r.verdict == Verdict::Void {
            o.why = Some(format!("{}: {}", o.text, not_possible(on)));
        } else if let Some(why) = &mut o.why
            && let Some(rest) = why.strip_prefix(plain.as_str())
        {
            // The reason begins with the order: it names the map too (rule 4.2).
            *why = format!("{}{rest}", o.text);
        }
    }
    for d in std::mem::take(&mut report.dislodged) {
        report.sections.push(format!(
            "The {} {} in {} was dislodged. It may retreat to any place a map allows \
             (name the map); the judge does not list them.",
            power_adjective(map(), d.unit.power),
            d.unit.kind.name(),
            map().name(d.unit.location.province),
        ));
    }
}

/// The Twilight Zone variant.
pub struct Twilight;

impl Variant for Twilight {
    fn has_own_state(&self, state: &GameState) -> bool {
        state.twilight.is_some()
    }

    fn name(&self) -> &'static str {
        NAME
    }

    /// The standard board less Sevastopol's centre; each player's own borders
    /// come with the game.
    fn board(&self) -> &'static Map {
        map()
    }

    fn start(&self, work: &mut Work<'_, '_>, key: &str) -> Result<Started, EngineError> {
        Ok(start(work, key))
    }

    /// Rule 3: the placement before Spring 1901 BC.
    fn opening(&self, map: &Map) -> Position {
        let mut opening = Position::initial(map);
        opening.phase = PLACEMENT;
        opening
    }

    fn start_notes(&self) -> Option<&'static str> {
        Some(
            "Rule 3: each power first places its three units in its three home centres, \
             armies or fleets as it likes (BUILD A Par, BUILD F Bre; fleets on coasts only). \
             A unit not placed by the deadline is placed as an army. Spring 1901 BC follows.\n\
             Orders may name the map they use: A Par - Tri (German Map); without one, your own.\n",
        )
    }

    fn started(&self, state: &mut GameState) {
        started(state);
    }

    fn take_power_orders(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        power: &str,
        orders: &[(String, Order)],
    ) -> Result<Vec<Option<Answer>>, EngineError> {
        take_power_orders(work, key, sender, power, orders)
    }

    fn adjudicate(
        &self,
        _map: &Map,
        rules: &Rules,
        state: &mut GameState,
        position: &Position,
        given: &mut Vec<PowerOrder>,
    ) -> Option<Adjudication> {
        Some(adjudicate(rules, state, position, given))
    }

    fn submit_map(
        &self,
        work: &mut Work<'_, '_>,
        key: &str,
        sender: &str,
        text: &str,
    ) -> Result<Reply, EngineError> {
        submit(work, key, sender, text)
    }

    /// Each order with the map it uses (rule 4.2).
    fn order_line(&self, state: &GameState, power: &str, order: &Order) -> Option<String> {
        order_line(state, power, order)
    }

    fn kept_order_refusal(&self, _state: &GameState, _power: &str, line: &str) -> Option<String> {
        kept_order_refusal(line)
    }

    /// Start without waiting for the players' maps.
    fn force_begin(&self, state: &mut GameState) {
        force(state);
    }

    /// The map each order used, years BC, no borders disclosed.
    fn edit_report(&self, state: &GameState, report: &mut PhaseReport) {
        edit_report(state, report);
    }

    fn replay_adjudication(
        &self,
        state: &GameState,
        before: &Position,
        orders: &[PowerOrder],
        _after: &Position,
    ) -> Option<Adjudication> {
        Some(replay_adjudication(state, before, orders))
    }

    fn rolled_back(&self, state: &mut GameState, phase: &str) {
        rolled_back(state, phase);
    }
}
