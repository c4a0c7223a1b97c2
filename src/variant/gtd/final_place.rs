//! The end of the game (rule 2 B) and the Final Place List (rule 2 C).
//!
//! The list, in the rule's four groups: (1) the head of government of the
//! country with the most supply centers; (2) the commanders of its units, by the
//! number of its units they command; (3) the other surviving heads of
//! government, by their countries' centers (a head of two countries counts the
//! larger); (4) the other surviving players (commanding at least one unit), by
//! the units of all countries they command. Nobody is listed twice.
//!
//! Ties (ruling GTD-2C): players equal on their group's count share the place
//! (places 1, 2, 2, 4), listed by name. The biggest country is the one with the
//! most centers; between equals, the one with more units, then the lower index.

use super::model::{GtdState, Player};
use crate::judge::Position;
use crate::map::Power;

/// Rule 2 (B): the country with eighteen or more centers, if any.
pub fn winner(state: &GtdState, position: &Position) -> Option<Power> {
    state
        .countries
        .iter()
        .map(|c| Power(c.power))
        .find(|p| position.centers_of(*p).len() >= 18)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// 1-based; shared by equals.
    pub place: u32,
    pub player: Player,
    /// Which of the four groups of rule 2 (C), 1 to 4.
    pub group: u8,
    /// The count the group ranks by (centers or units).
    pub count: u32,
}

pub fn biggest(state: &GtdState, position: &Position) -> Option<Power> {
    state
        .countries
        .iter()
        .filter(|c| !c.gone)
        .map(|c| Power(c.power))
        .max_by_key(|p| {
            let centers = position.centers_of(*p).len();
            (centers, position.unit_count(*p), std::cmp::Reverse(p.0))
        })
}

pub fn final_place_list(state: &GtdState, position: &Position) -> Vec<Place> {
    let mut list: Vec<Place> = Vec::new();
    let Some(top) = biggest(state, position) else {
        return list;
    };
    if let Some(head) = state.country(top).and_then(|c| c.hog.clone()) {
        let centers = position.centers_of(top).len();
        push_group(&mut list, 1, vec![(head, centers)]);
    }
    let commanders: Vec<(Player, u32)> = state
        .commanders_of(position, top)
        .into_iter()
        .map(|p| {
            let n = state.commanded(position, top, &p).len() as u32;
            (p, n)
        })
        .collect();
    push_group(&mut list, 2, commanders);
    let heads: Vec<(Player, u32)> = state
        .countries
        .iter()
        .filter(|c| !c.gone && c.power != top.0)
        .filter_map(|c| Some((c.hog.clone()?, position.centers_of(Power(c.power)).len())))
        .collect();
    push_group(&mut list, 3, best_per_player(heads));
    let survivors: Vec<(Player, u32)> = state
        .players
        .iter()
        .filter(|p| !p.out)
        .map(|p| (p.name.clone(), units_commanded(state, position, &p.name)))
        .filter(|(_, n)| *n > 0)
        .collect();
    push_group(&mut list, 4, survivors);
    list
}

fn units_commanded(state: &GtdState, position: &Position, who: &str) -> u32 {
    position
        .units
        .iter()
        .filter(|u| state.commander_at(u.province()) == Some(who))
        .count() as u32
}

fn best_per_player(mut v: Vec<(Player, u32)>) -> Vec<(Player, u32)> {
    v.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    v.dedup_by(|later, first| later.0 == first.0);
    v
}

/// Appends a group: players not yet listed, most first, equals sharing a place.
fn push_group(list: &mut Vec<Place>, group: u8, members: Vec<(Player, u32)>) {
    let mut members: Vec<(Player, u32)> = members
        .into_iter()
        .filter(|(p, _)| !list.iter().any(|x| x.player == *p))
        .collect();
    members.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    members.dedup_by(|later, first| later.0 == first.0);
    let mut previous: Option<(u32, u32)> = None;
    for (player, count) in members {
        let next = list.len() as u32 + 1;
        let place = match previous {
            Some((c, place)) if c == count => place,
            _ => next,
        };
        previous = Some((count, place));
        list.push(Place {
            place,
            player,
            group,
            count,
        });
    }
}
