//! The opening (rules 6-8): players to countries by preference and lot, as many
//! per country as it has starting units; the rest to the stand-by list; units to
//! players by lot; the first heads of government.

use super::model::{Country, GtdState, PlayerState};
use super::{Lot, draw_recorded};
use crate::judge::Position;
use crate::lots::LotError;
use crate::map::{Map, Power, Province};

/// Rule 8: the first head of government commands this army.
const FIRST_HEADS: &[(&str, &str)] = &[
    ("England", "lvp"),
    ("France", "par"),
    ("Germany", "ber"),
    ("Italy", "rom"),
    ("Austria", "vie"),
    ("Turkey", "con"),
    ("Russia", "mos"),
];

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("rule 1: the game begins with twenty-two players; {0} joined")]
    TooFew(usize),
    #[error("player {0:?} joined twice")]
    Duplicate(String),
    #[error(transparent)]
    Lot(#[from] LotError),
}

/// One player joining, with an optional preference list (best first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    pub preferences: Vec<Power>,
}

/// The opening state for `position` (the map's initial position).
pub fn start(
    map: &Map,
    position: &Position,
    entrants: &[Entrant],
    lot: &mut Lot<'_>,
) -> Result<GtdState, StartError> {
    check_entrants(entrants)?;
    let mut state = GtdState {
        countries: map_countries(map),
        players: entrants
            .iter()
            .map(|e| PlayerState {
                name: e.name.clone(),
                out: false,
                silent_seasons: 0,
            })
            .collect(),
        ..GtdState::default()
    };
    let order = lot_order(&mut state, lot, entrants)?;
    let seats: Vec<usize> = (0..map.powers().len())
        .map(|i| position.unit_count(Power(i as u8)))
        .collect();
    let total: usize = seats.iter().sum();
    let (seated, standby) = order.split_at(order.len().min(total));
    state.standby = standby.to_vec();
    let members = seat_players(&mut state, lot, entrants, seated, seats)?;
    for (i, players) in members.iter().enumerate() {
        assign_units(&mut state, lot, map, position, Power(i as u8), players)?;
    }
    first_heads(&mut state, map);
    Ok(state)
}

fn check_entrants(entrants: &[Entrant]) -> Result<(), StartError> {
    if entrants.len() < 22 {
        return Err(StartError::TooFew(entrants.len()));
    }
    let mut names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
    names.sort();
    match names.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(StartError::Duplicate(w[0].to_string())),
        None => Ok(()),
    }
}

fn map_countries(map: &Map) -> Vec<Country> {
    map.powers()
        .iter()
        .enumerate()
        .map(|(i, info)| Country {
            power: i as u8,
            name: info.name.clone(),
            homes: info.home_centers.iter().map(|p| p.0).collect(),
            buildable: info.home_centers.iter().map(|p| p.0).collect(),
            ..Country::default()
        })
        .collect()
}

/// Rule 6 "by lot": the order in which players are seated, drawn place by place.
fn lot_order(
    state: &mut GtdState,
    lot: &mut Lot<'_>,
    entrants: &[Entrant],
) -> Result<Vec<String>, LotError> {
    let mut left: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let mut order = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let purpose = format!("GTD rule 6: seating order, place {}", order.len() + 1);
        let who = draw_recorded(state, lot, &purpose, &left)?;
        left.retain(|p| *p != who);
        order.push(who);
    }
    Ok(order)
}

/// In seating order each player takes the first country of their list that has a
/// seat left; then each player still unseated draws among the countries with seats.
fn seat_players(
    state: &mut GtdState,
    lot: &mut Lot<'_>,
    entrants: &[Entrant],
    seated: &[String],
    mut seats: Vec<usize>,
) -> Result<Vec<Vec<String>>, LotError> {
    let mut members = vec![Vec::new(); seats.len()];
    let mut unseated = Vec::new();
    for who in seated {
        let prefs = entrants
            .iter()
            .find(|e| e.name == *who)
            .map(|e| &e.preferences);
        let choice = prefs
            .into_iter()
            .flatten()
            .map(|p| p.0 as usize)
            .find(|&i| seats.get(i).is_some_and(|s| *s > 0));
        match choice {
            Some(i) => {
                seats[i] -= 1;
                members[i].push(who.clone());
            }
            None => unseated.push(who.clone()),
        }
    }
    for who in unseated {
        let open: Vec<String> = (0..seats.len())
            .filter(|&i| seats[i] > 0)
            .map(|i| state.countries[i].name.clone())
            .collect();
        let purpose = format!("GTD rule 6: country of {who}");
        let name = draw_recorded(state, lot, &purpose, &open)?;
        if let Some(i) = state.countries.iter().position(|c| c.name == name) {
            seats[i] -= 1;
            members[i].push(who);
        }
    }
    Ok(members)
}

/// Rule 7: each unit of the country, in province-name order, to one of the
/// country's players not yet given a unit, by lot.
fn assign_units(
    state: &mut GtdState,
    lot: &mut Lot<'_>,
    map: &Map,
    position: &Position,
    country: Power,
    players: &[String],
) -> Result<(), LotError> {
    let mut units: Vec<Province> = position
        .units
        .iter()
        .filter(|u| u.power == country)
        .map(|u| u.province())
        .collect();
    units.sort_by_key(|p| map.abbr(*p).to_string());
    let mut left = players.to_vec();
    for p in units {
        if left.is_empty() {
            state.set_commander(p, None);
            continue;
        }
        let purpose = format!("GTD rule 7: commander of {}", map.abbr(p).to_uppercase());
        let who = draw_recorded(state, lot, &purpose, &left)?;
        left.retain(|x| *x != who);
        state.set_commander(p, Some(who));
    }
    Ok(())
}

fn first_heads(state: &mut GtdState, map: &Map) {
    for (name, at) in FIRST_HEADS {
        let (Some(power), Some(loc)) = (map.power(name), map.lookup(at)) else {
            continue;
        };
        let head = state.commander_at(loc.province).map(str::to_string);
        if let Some(c) = state.country_mut(power) {
            c.hog = head;
        }
    }
}
