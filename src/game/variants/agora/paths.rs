//! Section 17 in the engine: a convoyed move names its path when written
//! (`route_refusal`), the paths given are kept with the tournament (`record`),
//! and only the named fleets carry the army at adjudication (`adjudicate`).

use super::super::super::EngineError;
use super::super::super::model::GameState;
use super::super::super::process::map_for;
use super::super::super::work::Work;
use crate::grammar::{ConvoyRoute, parse_order};
use crate::judge::{
    Adjudication, Countries, Position, Reason, Rules, Verdict, adjudicate as judge,
};
use crate::orders::{Order, PowerOrder};
use crate::phase::PhaseKind;
use crate::variant::agora::convoy_paths::{Given, Paths, check};

/// The suffix the session gives orders stored under an `IF` for a later phase.
const CONDITIONAL: &str = " (conditional)";

/// Why a movement order is refused for its convoy path (or lack of one).
pub fn route_refusal(
    position: &Position,
    kind: PhaseKind,
    order: &Order,
    route: Option<ConvoyRoute>,
) -> Option<String> {
    if kind != PhaseKind::Movement {
        return None;
    }
    let map = crate::map::Map::standard();
    check(map, position, order, route.as_ref())
        .err()
        .map(|e| e.to_string())
}

/// Keeps the paths written with the orders one mail stored for `power`:
/// (phase, canonical order as stored, the route printed in it).
pub fn record(
    work: &mut Work<'_, '_>,
    key: &str,
    power: &str,
    orders: &[(String, String)],
) -> Result<(), EngineError> {
    let g = work.game_mut(key);
    let map = map_for(&g.state.settings.variant)?;
    let Some(p) = map.power(power) else {
        return Ok(());
    };
    let Some(agora) = g.state.agora.as_mut() else {
        return Ok(());
    };
    let mut phases: Vec<&str> = orders.iter().map(|(ph, _)| ph.as_str()).collect();
    phases.dedup();
    for phase in phases {
        let movement = phase
            .parse::<crate::phase::Phase>()
            .is_ok_and(|ph| ph.kind == PhaseKind::Movement);
        if !movement {
            continue;
        }
        let given: Vec<Given> = orders
            .iter()
            .filter(|(ph, _)| ph == phase)
            .filter_map(|(_, text)| {
                let (text, conditional) = match text.strip_suffix(CONDITIONAL) {
                    Some(t) => (t, true),
                    None => (text.as_str(), false),
                };
                parse_order(map, text).ok().map(|parsed| Given {
                    order: parsed.order,
                    route: parsed.route,
                    conditional,
                })
            })
            .collect();
        agora.paths.given(phase, p, &given);
    }
    Ok(())
}

/// A convoyed move of the current phase as the reply's summary lists it: with
/// the path (or paths, from `IF` blocks) named for it. `None`: as any order.
pub fn order_line(state: &GameState, order: &Order) -> Option<String> {
    let Order::Move { unit, to, .. } = order else {
        return None;
    };
    let map = map_for(&state.settings.variant).ok()?;
    let phase = state.phase_name()?;
    let (army, to) = (unit.location.province.0, to.province.0);
    let shown: Vec<String> = state
        .agora
        .as_ref()?
        .paths
        .named
        .iter()
        .filter(|n| n.phase == phase && n.army == army && n.to == to)
        .filter_map(|n| {
            let seas: Vec<crate::map::Province> =
                n.seas.iter().map(|&s| crate::map::Province(s)).collect();
            let route = ConvoyRoute::new(&seas)?;
            Some(crate::grammar::canonical_routed(map, order, Some(&route)))
        })
        .collect();
    (!shown.is_empty()).then(|| shown.join(" or "))
}

/// A movement phase adjudicated with only the named fleets carrying each
/// army that named its paths: the other fleets' convoys of it count as holds,
/// and are reported as written, void, "not on the route".
pub fn adjudicate(
    map: &crate::map::Map,
    rules: &Rules,
    state: &GameState,
    position: &Position,
    given: &[PowerOrder],
) -> Option<Adjudication> {
    let paths = &state.agora.as_ref()?.paths;
    restricted(map, rules, paths, position, given)
}

/// The same for a stored phase read again (`HISTORY`).
pub fn replay_adjudication(
    state: &GameState,
    before: &Position,
    orders: &[PowerOrder],
) -> Option<Adjudication> {
    let map = map_for(&state.settings.variant).ok()?;
    let rules = super::super::super::process::rules_for(state);
    adjudicate(map, &rules, state, before, orders)
}

fn restricted(
    map: &crate::map::Map,
    rules: &Rules,
    paths: &Paths,
    position: &Position,
    given: &[PowerOrder],
) -> Option<Adjudication> {
    if position.phase.kind != PhaseKind::Movement {
        return None;
    }
    let (orders, changed) = paths.restrict(&position.phase.to_string(), given);
    if changed.is_empty() {
        return None;
    }
    let mut a = judge(map, rules, &Countries, position, &orders);
    for i in changed {
        if let Some(r) = a.resolutions.get_mut(i) {
            r.order = given[i].order;
            r.verdict = Verdict::Void;
            r.reason = Reason::ConvoyNotOnRoute;
        }
    }
    Some(a)
}
