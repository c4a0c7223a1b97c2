//! Section 17 in the engine: a convoyed move names its path when written
//! (`route_refusal`), the paths given are kept with the tournament (`record`),
//! and only the named fleets carry the army at adjudication (`adjudicate`).

use super::super::super::EngineError;
use super::super::super::model::GameState;
use super::super::super::work::Work;
use crate::grammar::{ConvoyRoute, parse_order};
use crate::judge::{
    Adjudication, Countries, Position, Reason, Rules, Verdict, adjudicate as judge,
};
use crate::orders::{Order, PowerOrder};
use crate::phase::PhaseKind;
use crate::variant::agora::convoy_paths::{Given, Named, Paths, check};

/// The suffix the session gives orders stored under an `IF` for a later phase.
const CONDITIONAL: &str = " (conditional)";

/// Why a movement order is refused for its convoy path (or lack of one).
pub(crate) fn route_refusal(
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
pub(crate) fn record(
    work: &mut Work<'_, '_>,
    key: &str,
    power: &str,
    orders: &[(String, String)],
) -> Result<(), EngineError> {
    let g = work.game_mut(key);
    let map = crate::map::Map::standard();
    let Some(p) = map.power(power) else {
        return Ok(());
    };
    let blocks = branches(&g.state, power);
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
        // This mail's conditional orders for the phase are, in order, those
        // of the blocks now stored for it: each block's THEN, then its ELSE.
        let mut branch = blocks
            .iter()
            .filter(|(ph, _)| ph == phase)
            .map(|(_, c)| c.clone());
        let given: Vec<Given> = orders
            .iter()
            .filter(|(ph, _)| ph == phase)
            .filter_map(|(_, text)| {
                let (text, conditional) = match text.strip_suffix(CONDITIONAL) {
                    Some(t) => (t, true),
                    None => (text.as_str(), false),
                };
                let condition = if conditional { branch.next() } else { None };
                parse_order(map, text).ok().map(|parsed| Given {
                    order: parsed.order,
                    route: parsed.route,
                    conditional,
                    condition,
                })
            })
            .collect();
        agora.paths.given(phase, p, &given);
    }
    Ok(())
}

/// The orders of `power`'s stored `IF` blocks in the order they were given:
/// (phase, (the block's condition as stored, the branch)).
fn branches(state: &GameState, power: &str) -> Vec<(String, (String, bool))> {
    let mut out = Vec::new();
    let mut blocks: Vec<_> = state
        .conditional
        .iter()
        .filter(|c| c.power == power)
        .collect();
    blocks.sort_by_key(|c| c.block);
    for c in blocks {
        let cond = serde_json::to_string(&c.condition).unwrap_or_default();
        for (list, branch) in [(&c.then, true), (&c.otherwise, false)] {
            for _ in list {
                out.push((c.phase.clone(), (cond.clone(), branch)));
            }
        }
    }
    out
}

/// Whether a named path applies on `position`: a plain one always; a
/// conditional one when its branch is the one the board chooses.
fn applies(map: &crate::map::Map, position: &Position, n: &Named) -> bool {
    let Some((cond, branch)) = &n.condition else {
        return true;
    };
    let Ok(doc) = serde_json::from_str::<super::super::super::conditions::CondDoc>(cond) else {
        return true;
    };
    doc.holds(map, position, Some(crate::map::Power(n.power)))
        .is_ok_and(|h| h == *branch)
}

/// A convoyed move of the current phase as the reply's summary lists it: with
/// the path (or paths, from `IF` blocks) named for it. `None`: as any order.
pub(crate) fn order_line(state: &GameState, order: &Order) -> Option<String> {
    let Order::Move { unit, to, .. } = order else {
        return None;
    };
    let map = crate::map::Map::standard();
    let phase = state.phase_name()?;
    let position = super::super::super::process::position_of(map, state).ok()?;
    let applies = |n: &Named| applies(map, &position, n);
    let shown: Vec<String> = state
        .agora
        .as_ref()?
        .paths
        .paths_for(phase, unit.location.province, to.province, &applies)
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
/// and are reported as written, void, off the army's named path.
pub(crate) fn adjudicate(
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
pub(crate) fn replay_adjudication(
    state: &GameState,
    before: &Position,
    orders: &[PowerOrder],
) -> Option<Adjudication> {
    let map = crate::map::Map::standard();
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
    let applies = |n: &Named| applies(map, position, n);
    let (orders, changed) = paths.restrict(&position.phase.to_string(), given, &applies);
    if changed.is_empty() {
        return None;
    }
    let mut a = judge(map, rules, &Countries, position, &orders);
    for i in changed {
        if let Some(r) = a.resolutions.get_mut(i) {
            r.order = given[i].order;
            r.verdict = Verdict::Void;
            r.reason = match given[i].order {
                Order::Convoy { army, .. } => Reason::ConvoyOffNamedPath {
                    army: army.location.province,
                },
                _ => Reason::ConvoyNotOnRoute,
            };
        }
    }
    Some(a)
}
