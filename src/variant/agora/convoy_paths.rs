//! Convoy paths (section 17: "A Move order making use of a Convoy must specify
//! what Convoy paths it will use or conditionals to determine such").
//!
//! A convoyed move names the seas its army crosses, in order
//! (`A LON - NTH - BEL`). This module checks a path when it is written, keeps
//! the paths given for each phase, and at adjudication turns the convoy orders
//! of fleets off every named path of an army into holds for that army, so only
//! the named fleets can carry it. Rulings: `docs/rulings.md#agora`.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::grammar::ConvoyRoute;
use crate::judge::Position;
use crate::map::{Location, Map, Power, Province, Terrain, UnitKind};
use crate::orders::{Order, PowerOrder};

/// Why a move's path (or its lack) is refused when written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error(
        "section 17: a move making use of a convoy must name its convoy path; write the \
         seas the army crosses between its province and its destination, e.g. {example}"
    )]
    Missing { example: String },
    #[error(
        "section 17: a move making use of a convoy must name its convoy path, and no chain \
         of seas joins {from} to {to}, so no convoy can carry this army there"
    )]
    NoChain { from: String, to: String },
    #[error("only an army is convoyed: a fleet's move names no convoy path (section 17)")]
    NotArmy,
    #[error("{0} is not a sea: a convoy path names the seas the army crosses (section 17)")]
    NotSea(String),
    #[error("{0} is named twice on the convoy path")]
    Repeated(String),
    #[error("the convoy path is broken: {from} does not touch {to}")]
    Broken { from: String, to: String },
}

/// Does a sea touch the province `p` (shares a border a fleet can cross)?
fn touches(map: &Map, sea: Province, p: Province) -> bool {
    map.fleet_neighbours(Location::from(sea)).contains(p)
}

/// Is the unit the order names an army (as written, else as on the board)?
fn is_army(position: &Position, unit: &crate::orders::UnitSpec) -> Option<bool> {
    match unit.kind {
        Some(k) => Some(k == UnitKind::Army),
        None => position
            .unit_at(unit.location.province)
            .map(|u| u.kind == UnitKind::Army),
    }
}

/// Checks a movement-phase order and the convoy route written with it: a move
/// that can only succeed by convoy (marked `VIA CONVOY`, or an army going to a
/// coastal province it does not border) must name its path, and a named path
/// must be a chain of seas from the army's province to its destination.
pub fn check(
    map: &Map,
    position: &Position,
    order: &Order,
    route: Option<&ConvoyRoute>,
) -> Result<(), PathError> {
    let Order::Move {
        unit,
        to,
        via_convoy,
    } = order
    else {
        return Ok(());
    };
    let (from, to) = (unit.location.province, to.province);
    let army = is_army(position, unit);
    let Some(route) = route else {
        let coastal = |p| map.terrain(p) == Terrain::Coastal;
        let by_convoy_only =
            *via_convoy || (!map.army_adjacent(from, to) && coastal(from) && coastal(to));
        if army != Some(true) || !by_convoy_only {
            return Ok(());
        }
        return Err(match shortest_path(map, from, to) {
            Some(seas) => PathError::Missing {
                example: example(map, from, &seas, to),
            },
            None => PathError::NoChain {
                from: map.name(from).to_string(),
                to: map.name(to).to_string(),
            },
        });
    };
    if army == Some(false) {
        return Err(PathError::NotArmy);
    }
    let seas = route.seas();
    for (i, &sea) in seas.iter().enumerate() {
        if map.terrain(sea) != Terrain::Sea {
            return Err(PathError::NotSea(map.name(sea).to_string()));
        }
        if seas[..i].contains(&sea) {
            return Err(PathError::Repeated(map.name(sea).to_string()));
        }
    }
    let mut prev = from;
    for &p in seas.iter().chain(std::iter::once(&to)) {
        let joined = if map.terrain(prev) == Terrain::Sea {
            touches(map, prev, p)
        } else {
            touches(map, p, prev)
        };
        if !joined {
            return Err(PathError::Broken {
                from: map.name(prev).to_string(),
                to: map.name(p).to_string(),
            });
        }
        prev = p;
    }
    Ok(())
}

/// `A LON - NTH - BEL`: a move written with its path.
fn example(map: &Map, from: Province, seas: &[Province], to: Province) -> String {
    let mut s = format!("A {}", map.abbr(from).to_ascii_uppercase());
    for p in seas.iter().chain(std::iter::once(&to)) {
        s.push_str(" - ");
        s.push_str(&map.abbr(*p).to_ascii_uppercase());
    }
    s
}

/// The fewest seas joining two coastal provinces (breadth first), if any.
fn shortest_path(map: &Map, from: Province, to: Province) -> Option<Vec<Province>> {
    let n = map.province_count();
    let mut back: Vec<Option<Province>> = vec![None; n];
    let mut queue = VecDeque::new();
    for sea in map.provinces().filter(|&s| map.terrain(s) == Terrain::Sea) {
        if touches(map, sea, from) {
            back[sea.0 as usize] = Some(sea);
            queue.push_back(sea);
        }
    }
    while let Some(sea) = queue.pop_front() {
        if touches(map, sea, to) {
            let mut path = vec![sea];
            let mut at = sea;
            while let Some(b) = back[at.0 as usize].filter(|&b| b != at) {
                path.push(b);
                at = b;
            }
            path.reverse();
            return Some(path);
        }
        for next in map.fleet_neighbours(Location::from(sea)).iter() {
            if map.terrain(next) == Terrain::Sea && back[next.0 as usize].is_none() {
                back[next.0 as usize] = Some(sea);
                queue.push_back(next);
            }
        }
    }
    None
}

/// One path given for an army's move in a phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named {
    pub phase: String,
    pub power: u8,
    pub army: u8,
    pub to: u8,
    pub seas: Vec<u8>,
    /// Given inside an `IF` block for a later phase.
    pub conditional: bool,
    /// That block's condition, as the engine stores it, and the branch the
    /// order is in (`true`: before `ELSE`): the path counts only when the
    /// branch is the one the board chooses.
    #[serde(default)]
    pub condition: Option<(String, bool)>,
}

/// An order as stored from one mail, with the path written with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    pub order: Order,
    pub route: Option<ConvoyRoute>,
    pub conditional: bool,
    /// For a conditional order: its block's condition and branch.
    pub condition: Option<(String, bool)>,
}

/// The paths named so far, phase by phase (kept for `HISTORY`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paths {
    pub named: Vec<Named>,
}

impl Paths {
    /// One mail's orders of `power` for `phase`. As with the orders
    /// themselves, a plain order for a unit replaces that unit's earlier plain
    /// path, and a mail's conditional orders for a phase replace the power's
    /// earlier conditional ones for it.
    pub fn given(&mut self, phase: &str, power: Power, orders: &[Given]) {
        if orders.iter().any(|g| g.conditional) {
            self.named
                .retain(|n| !(n.phase == phase && n.power == power.0 && n.conditional));
        }
        for g in orders {
            let Some(unit) = g.order.unit() else { continue };
            let army = unit.location.province.0;
            if !g.conditional {
                self.named
                    .retain(|n| !(n.phase == phase && n.army == army && !n.conditional));
            }
            if let (Order::Move { to, .. }, Some(route)) = (g.order, g.route) {
                self.named.push(Named {
                    phase: phase.to_string(),
                    power: power.0,
                    army,
                    to: to.province.0,
                    seas: route.seas().iter().map(|p| p.0).collect(),
                    conditional: g.conditional,
                    condition: g.condition.clone(),
                });
            }
        }
    }

    /// The paths named for an army's move to `to` in `phase` that `applies`
    /// (a conditional one: its branch is the one the board chose).
    pub fn paths_for<'a>(
        &'a self,
        phase: &'a str,
        army: Province,
        to: Province,
        applies: &'a dyn Fn(&Named) -> bool,
    ) -> impl Iterator<Item = &'a Named> + 'a {
        self.named
            .iter()
            .filter(move |n| n.phase == phase && n.army == army.0 && n.to == to.0)
            .filter(move |n| applies(n))
    }

    /// The seas named for an army's move to `to` in `phase` (all its paths
    /// that apply, together); `None` when no path was named for it.
    pub fn seas_for(
        &self,
        phase: &str,
        army: Province,
        to: Province,
        applies: &dyn Fn(&Named) -> bool,
    ) -> Option<Vec<Province>> {
        let mut out: Option<Vec<Province>> = None;
        for n in self.paths_for(phase, army, to, applies) {
            out.get_or_insert_with(Vec::new)
                .extend(n.seas.iter().map(|&s| Province(s)));
        }
        out
    }

    /// The orders the adjudicator is given for `phase`: a fleet's convoy of an
    /// army that named its paths counts as a hold unless the fleet is on one
    /// of them. Also the indices of the orders so changed.
    pub fn restrict(
        &self,
        phase: &str,
        given: &[PowerOrder],
        applies: &dyn Fn(&Named) -> bool,
    ) -> (Vec<PowerOrder>, Vec<usize>) {
        let mut out = given.to_vec();
        let mut changed = Vec::new();
        for (i, po) in out.iter_mut().enumerate() {
            let Order::Convoy { unit, army, to } = po.order else {
                continue;
            };
            let Some(seas) = self.seas_for(phase, army.location.province, to.province, applies)
            else {
                continue;
            };
            if !seas.contains(&unit.location.province) {
                po.order = Order::Hold { unit };
                changed.push(i);
            }
        }
        (out, changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(map: &Map, text: &str) -> (Order, Option<ConvoyRoute>) {
        let p = crate::grammar::parse_order(map, text).expect("order parses");
        (p.order, p.route)
    }

    #[test]
    fn a_convoyed_move_needs_a_path_and_a_path_must_be_a_chain_of_seas() {
        let map = Map::standard();
        let board = Position::initial(map);
        let check_text = |t: &str| {
            let (o, r) = order(map, t);
            check(map, &board, &o, r.as_ref())
        };
        assert_eq!(check_text("A Lon - Nth - Bel"), Ok(()));
        assert_eq!(check_text("A Lon - Eng - Mao - Por"), Ok(()));
        assert_eq!(check_text("A Par - Bur"), Ok(()));
        assert_eq!(
            check_text("A Lon - Bel"),
            Err(PathError::Missing {
                example: "A LON - ENG - BEL".into()
            })
        );
        assert!(matches!(
            check_text("A Wal - Pic via convoy"),
            Err(PathError::Missing { .. })
        ));
        assert_eq!(
            check_text("A Lon - Nth - Nwy - Swe"),
            Err(PathError::NotSea("Norway".into()))
        );
        assert_eq!(
            check_text("A Lon - Nth - Mao - Por"),
            Err(PathError::Broken {
                from: "North Sea".into(),
                to: "Mid-Atlantic Ocean".into()
            })
        );
        assert_eq!(check_text("F Lon - Nth - Bel"), Err(PathError::NotArmy));
        // An inland province cannot be reached by convoy: left to the judge's check.
        assert_eq!(check_text("A Lon - Mun"), Ok(()));
    }

    #[test]
    fn off_path_convoys_count_as_holds_for_that_army() {
        let map = Map::standard();
        let mut paths = Paths::default();
        let (o, r) = order(map, "A Lon - Nth - Bel");
        paths.given(
            "S1901M",
            Power(0),
            &[Given {
                order: o,
                route: r,
                conditional: false,
                condition: None,
            }],
        );
        let given: Vec<PowerOrder> = [
            "F Nth C A Lon - Bel",
            "F Eng C A Lon - Bel",
            "F Eng C A Lon - Pic",
        ]
        .iter()
        .map(|t| PowerOrder {
            power: Power(0),
            order: order(map, t).0,
        })
        .collect();
        let (out, changed) = paths.restrict("S1901M", &given, &|_| true);
        assert_eq!(changed, vec![1]);
        assert!(matches!(out[1].order, Order::Hold { .. }));
        assert_eq!(out[0], given[0]);
        assert_eq!(out[2], given[2]);
        // Another phase: nothing named, nothing changed.
        assert!(paths.restrict("F1901M", &given, &|_| true).1.is_empty());
        // A plain order for the army replaces its path.
        let (o, _) = order(map, "A Lon H");
        paths.given(
            "S1901M",
            Power(0),
            &[Given {
                order: o,
                route: None,
                conditional: false,
                condition: None,
            }],
        );
        assert!(paths.named.is_empty());
    }
}
