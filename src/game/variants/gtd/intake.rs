//! Order lines and seats of a running GTD game: each line is checked against
//! what can be known when it arrives (the writer plays, commands the unit,
//! the order fits the phase) and kept as written; the rules that depend on
//! everyone's orders are applied at the deadline (`play`).

use super::super::Answer;
use super::{GtdGame, Item, WrittenDoc};
use crate::docs::{OrderDoc, order_text};
use crate::game::EngineError;
use crate::game::describe;
use crate::game::model::{GameState, Status};
use crate::game::orders_check::check_orders;
use crate::game::process::{position_of, rules_for};
use crate::game::work::Work;
use crate::grammar::{VariantOrder, variant_canonical};
use crate::judge::Position;
use crate::map::{Map, Province};
use crate::orders::Order;
use crate::phase::PhaseKind;
use crate::store::NewOrder;
use crate::variant::gtd::politics::remove_player;

/// `RESIGN` (rule 22): out of the game at once; the units hold until their
/// head of government appoints new commanders (rule 23).
pub(crate) fn resign(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
) -> Result<Answer, EngineError> {
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let position = position_of(map, &g.state)?;
    let name = g.state.name.clone();
    let Some(game) = g.state.gtd.as_mut() else {
        return Ok(Err(format!("{name} is not a GTD game")));
    };
    let Some(who) = game.player_of(sender).map(str::to_string) else {
        return Ok(Err(format!("you do not play in {name}")));
    };
    if !game.state.is_active(&who) {
        return Ok(Err(format!("{who} is not in the game")));
    }
    remove_player(&mut game.state, &position, &who);
    game.resigned.push(who.clone());
    game.state.note(format!("rule 22: {who} resigned"));
    Ok(Ok(format!(
        "You ({who}) have resigned from {name}. Your units hold until your head of \
         government appoints new commanders (rule 23)."
    )))
}

/// One order line of `sender`.
pub(crate) fn take(
    work: &mut Work<'_, '_>,
    key: &str,
    sender: &str,
    item: Item,
) -> Result<Answer, EngineError> {
    let g = work.game(key);
    let id = g.row.id;
    let map = crate::map::Map::standard();
    let Some(game) = g.state.gtd.as_ref() else {
        return Ok(Err("this game takes no GTD orders".into()));
    };
    if !matches!(g.state.status, Status::Active | Status::Paused) {
        return Ok(Err(format!(
            "game {} is not running, so it takes no orders",
            g.state.name
        )));
    }
    let is_master = g
        .state
        .masters()
        .any(|m| m.address.eq_ignore_ascii_case(sender));
    if is_master && let Item::Variant(v) = &item {
        let v = named(game, v.clone());
        return gamemaster(work, key, &v);
    }
    if is_master && game.player_of(sender).is_none() {
        return Ok(Err(
            "the Gamemaster orders no unit; write BECOME <player> (or BECOME <country> for \
             its head of government) first to give that player's orders"
                .into(),
        ));
    }
    let Some(player) = game.player_of(sender).map(str::to_string) else {
        return Ok(Err(format!("you do not play in {}", g.state.name)));
    };
    if !game.state.is_active(&player) {
        return Ok(Err(format!(
            "{player} is not in the game (stand-by, resigned or removed): no orders count"
        )));
    }
    let position = position_of(map, &g.state)?;
    let doc = match check(map, &g.state, game, &position, &player, item) {
        Ok(doc) => doc,
        Err(e) => return Ok(Err(e)),
    };
    let canon = canonical(map, &doc)?;
    let phase = position.phase.to_string();
    work.tx.insert_order(&NewOrder {
        game: id,
        phase: &phase,
        power: &player,
        text: &canon,
        canonical: Some(&canon),
        submitter: sender,
        submitted_at: work.now,
        inbound: work.inbound,
    })?;
    let g = work.game_mut(key);
    if let Some(game) = g.state.gtd.as_mut() {
        keep(map, game, doc);
        if !game.wrote.contains(&player) {
            game.wrote.push(player.clone());
        }
    }
    Ok(Ok(format!(
        "Accepted for {player} ({phase}): {canon}; it takes effect at the deadline."
    )))
}

fn canonical(map: &Map, doc: &WrittenDoc) -> Result<String, EngineError> {
    if let Some(o) = &doc.order {
        return Ok(order_text(map, &o.to_order(map)?));
    }
    Ok(doc.variant.clone().unwrap_or_default())
}

/// A later order for a unit replaces the writer's earlier one; a political
/// order written twice counts once.
fn keep(map: &Map, game: &mut GtdGame, doc: WrittenDoc) {
    let unit_of = |d: &WrittenDoc| {
        d.order
            .as_ref()
            .and_then(|o| o.to_order(map).ok())
            .and_then(|o| o.unit().map(|u| u.province()))
    };
    let at = unit_of(&doc);
    game.written.retain(|w| {
        w.player != doc.player
            || (at.is_some() && unit_of(w) != at)
            || (at.is_none() && (w.variant.is_none() || w.variant != doc.variant))
    });
    game.written.push(doc);
}

/// What can be checked when the line arrives.
fn check(
    map: &Map,
    state: &GameState,
    game: &GtdGame,
    position: &Position,
    player: &str,
    item: Item,
) -> Result<WrittenDoc, String> {
    let kind = position.phase.kind;
    let order = match item {
        Item::Variant(v) => return political(map, kind, player, &named(game, v)),
        Item::Order(o) => o,
    };
    let order = match (kind, order) {
        (PhaseKind::Adjustment, Order::Disband { unit }) => Order::Remove { unit },
        (_, o) => o,
    };
    match kind {
        PhaseKind::Movement => movement(map, state, game, position, player, &order)?,
        PhaseKind::Retreat => retreat(map, game, position, player, &order)?,
        PhaseKind::Adjustment => winter(map, position, &order)?,
    }
    Ok(WrittenDoc {
        player: player.to_string(),
        order: Some(OrderDoc::from_order(map, &order)),
        variant: None,
    })
}

fn at_name(map: &Map, o: &Order) -> String {
    o.unit()
        .map(|u| map.abbr(u.province()).to_uppercase())
        .unwrap_or_else(|| "that province".into())
}

/// The unit `o` orders, as `find` finds it by its province, and the
/// province's name for messages; `missing` ("no unit") when it finds none.
fn ordered_unit<T>(
    map: &Map,
    o: &Order,
    missing: &str,
    find: impl FnOnce(Province) -> Option<T>,
) -> Result<(T, String), String> {
    let at = at_name(map, o);
    let unit = o
        .unit()
        .and_then(|u| find(u.province()))
        .ok_or_else(|| format!("{missing} in {at}"))?;
    Ok((unit, at))
}

fn movement(
    map: &Map,
    state: &GameState,
    game: &GtdGame,
    position: &Position,
    player: &str,
    o: &Order,
) -> Result<(), String> {
    let (unit, at) = ordered_unit(map, o, "no unit", |p| position.unit_at(p))?;
    let commander = game.state.commander_at(unit.province());
    // Rule 23: a unit whose commander left the game may be given to the writer
    // this season; the order counts if the appointment is made.
    let vacant = commander.is_none_or(|c| !game.state.is_active(c));
    if commander != Some(player) && !vacant {
        return Err(format!("{player} does not command the unit in {at}"));
    }
    let rules = rules_for(state);
    let problems = check_orders(map, &rules, position, unit.power, std::slice::from_ref(o));
    match problems.into_iter().next().flatten() {
        Some(p) => Err(describe::problem(map, Some(unit.province()), &p)),
        None => Ok(()),
    }
}

fn retreat(
    map: &Map,
    game: &GtdGame,
    position: &Position,
    player: &str,
    o: &Order,
) -> Result<(), String> {
    let (p, at) = ordered_unit(map, o, "no dislodged unit", |p| {
        position.dislodged_at(p).map(|_| p)
    })?;
    let mine = game
        .state
        .commands
        .iter()
        .any(|c| c.at == p.0 && c.dislodged && c.commander.as_deref() == Some(player));
    if !mine {
        return Err(format!(
            "{player} does not command the dislodged unit in {at}"
        ));
    }
    if !matches!(o, Order::Move { .. } | Order::Disband { .. }) {
        return Err("a retreat phase takes only retreats and disbands".into());
    }
    Ok(())
}

fn winter(map: &Map, position: &Position, o: &Order) -> Result<(), String> {
    match o {
        Order::Remove { unit } if position.unit_at(unit.province()).is_some() => Ok(()),
        Order::Remove { .. } => Err(format!("no unit in {}", at_name(map, o))),
        Order::Build { .. } => {
            Err("rule 9(B): a build names its commander: BUILD A PAR COMMANDER <player>".into())
        }
        Order::Waive => Err("no WAIVE in GTD: builds not ordered are not made".into()),
        _ => Err("Winter takes builds, removals and appointments only".into()),
    }
}

/// A political order; the season rules that need no one else's orders.
fn political(
    map: &Map,
    kind: PhaseKind,
    player: &str,
    v: &VariantOrder,
) -> Result<WrittenDoc, String> {
    let winter_only = matches!(v, VariantOrder::BuildCommander { .. });
    let not_winter = matches!(
        v,
        VariantOrder::Defect { .. }
            | VariantOrder::AcceptDefection { .. }
            | VariantOrder::DeclareIndependence { .. }
            | VariantOrder::DeclareInsurrection { .. }
            | VariantOrder::DeclareNoInsurrection { .. }
    );
    let gm_only = matches!(
        v,
        VariantOrder::AppointToCountry { .. }
            | VariantOrder::ApproveEntry { .. }
            | VariantOrder::RefuseEntry { .. }
    );
    let other = matches!(
        v,
        VariantOrder::BuildRebel { .. }
            | VariantOrder::Annex { .. }
            | VariantOrder::Aid { .. }
            | VariantOrder::AidRebel { .. }
            | VariantOrder::Maintain { .. }
    );
    if other {
        return Err("this order is not part of Grand Tournament Diplomacy".into());
    }
    if gm_only {
        return Err(
            "only the Gamemaster gives a country and answers requests to enter (rules 1, 27)"
                .into(),
        );
    }
    if winter_only && kind != PhaseKind::Adjustment {
        return Err("rule 9(B): builds are ordered in the Winter".into());
    }
    if not_winter && kind != PhaseKind::Movement {
        return Err("this order is given in a Spring or Fall movement season".into());
    }
    if kind == PhaseKind::Retreat {
        return Err("political orders are given with the season's movement orders".into());
    }
    Ok(WrittenDoc {
        player: player.to_string(),
        order: None,
        variant: Some(variant_canonical(map, v)),
    })
}

/// The writer's orders kept for this phase, for the end of each reply.
pub(crate) fn order_summary(game: &GtdGame, sender: &str) -> String {
    let Some(me) = game.player_of(sender) else {
        return String::new();
    };
    let map = crate::map::Map::standard();
    let mut s = format!("\nYour orders so far ({me}):\n");
    let mine: Vec<String> = game
        .written
        .iter()
        .filter(|w| w.player == me)
        .filter_map(|w| canonical(map, w).ok())
        .collect();
    if mine.is_empty() {
        s.push_str("  (none: your units hold)\n");
    }
    for line in mine {
        s.push_str(&format!("  {line}\n"));
    }
    s
}

/// The Gamemaster's removal of a player (rule 22, play death): out of the
/// game; the units hold until the head appoints new commanders (23).
pub(crate) fn eject(work: &mut Work<'_, '_>, key: &str, who: &str) -> Result<Answer, EngineError> {
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let position = position_of(map, &g.state)?;
    let name = g.state.name.clone();
    let Some(game) = g.state.gtd.as_mut() else {
        return Ok(Err(format!("{name} is not a GTD game")));
    };
    let player = game.player_of(who).map(str::to_string).or_else(|| {
        game.seats
            .iter()
            .find(|s| s.name == who)
            .map(|s| s.name.clone())
    });
    let Some(player) = player else {
        return Ok(Err(format!("{who} is not a player of {name}")));
    };
    if !game.state.is_active(&player) {
        return Ok(Err(format!("{player} is not in the game")));
    }
    remove_player(&mut game.state, &position, &player);
    game.state
        .note(format!("rule 22: the Gamemaster removed {player}"));
    Ok(Ok(format!(
        "rule 22: {player} is removed from {name}; their units hold until their head of \
         government appoints new commanders (rule 23)."
    )))
}

/// The Gamemaster's own orders, applied at once: giving a country a head
/// (1, 27: `APPOINT alice TO France`), and vetoing a new name (26 B:
/// `RENAME France "France"`, the country's present name).
fn gamemaster(work: &mut Work<'_, '_>, key: &str, v: &VariantOrder) -> Result<Answer, EngineError> {
    use crate::variant::gtd::limits::may_head_another;
    use crate::variant::gtd::politics::{enter, resolve_country, veto_rename};
    match v {
        VariantOrder::ApproveEntry { player } => {
            return super::entry::answer(work, key, player, true);
        }
        VariantOrder::RefuseEntry { player } => {
            return super::entry::answer(work, key, player, false);
        }
        _ => {}
    }
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let Some(game) = g.state.gtd.as_mut() else {
        return Ok(Err("this is not a GTD game".into()));
    };
    if let VariantOrder::AppointToCountry { player, .. } = v
        && let Some(why) = super::entry::waiting(game, player)
    {
        return Ok(Err(why));
    }
    let vetoed = &mut game.vetoed;
    let state = &mut game.state;
    match v {
        VariantOrder::AppointToCountry { player, country } => {
            let c = match resolve_country(map, state, country) {
                Ok(c) => c,
                Err(e) => return Ok(Err(e.to_string())),
            };
            let known = state.is_active(player) || state.standby.contains(player);
            if !known {
                return Ok(Err(format!(
                    "{player} is not a player or on the stand-by list"
                )));
            }
            if let Err(e) = may_head_another(state, player) {
                return Ok(Err(e.to_string()));
            }
            enter(state, player);
            let Some(entry) = state.country_mut(c) else {
                return Ok(Err("no such country".into()));
            };
            entry.hog = Some(player.clone());
            entry.successor = None;
            entry.election_after_death = false;
            entry.election_next_season = false;
            let name = entry.name.clone();
            state.note(format!(
                "the Gamemaster made {player} head of government of {name}"
            ));
            super::sync_roles(&mut work.game_mut(key).state);
            Ok(Ok(format!(
                "{player} is head of government of {name} (the Gamemaster's appointment)."
            )))
        }
        VariantOrder::Rename { country, name } => {
            let c = match resolve_country(map, state, country) {
                Ok(c) => c,
                Err(e) => return Ok(Err(e.to_string())),
            };
            let current = state.country(c).map(|x| x.name.clone()).unwrap_or_default();
            if !current.eq_ignore_ascii_case(name) {
                return Ok(Err(format!(
                    "the Gamemaster vetoes a new name with RENAME {current} \"{current}\" (rule 26 B)"
                )));
            }
            veto_rename(state, c);
            if !vetoed.contains(&c.0) {
                vetoed.push(c.0);
            }
            Ok(Ok(format!(
                "Rule 26(B): {current} keeps its name; no new name ordered this season takes effect."
            )))
        }
        _ => Ok(Err(
            "the Gamemaster gives no player's orders; write BECOME <player> (or BECOME \
             <country> for its head of government) first"
                .into(),
        )),
    }
}

/// A player named in an order as the game knows them: the seat's name
/// whatever the case, or the seat of a full address.
fn seat_name(game: &GtdGame, written: &str) -> String {
    game.seats
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(written) || s.address.eq_ignore_ascii_case(written))
        .map_or_else(|| written.to_string(), |s| s.name.clone())
}

fn named(game: &GtdGame, v: VariantOrder) -> VariantOrder {
    let n = |p: &String| seat_name(game, p);
    match v {
        VariantOrder::Vote {
            country,
            player,
            votes,
        } => VariantOrder::Vote {
            country,
            player: n(&player),
            votes,
        },
        VariantOrder::BuildCommander { unit, commander } => VariantOrder::BuildCommander {
            unit,
            commander: n(&commander),
        },
        VariantOrder::AppointToUnit { player, unit } => VariantOrder::AppointToUnit {
            player: n(&player),
            unit,
        },
        VariantOrder::Abdicate { player } => VariantOrder::Abdicate { player: n(&player) },
        VariantOrder::AppointToCountry { player, country } => VariantOrder::AppointToCountry {
            player: n(&player),
            country,
        },
        VariantOrder::ApproveEntry { player } => VariantOrder::ApproveEntry { player: n(&player) },
        VariantOrder::RefuseEntry { player } => VariantOrder::RefuseEntry { player: n(&player) },
        other => other,
    }
}
