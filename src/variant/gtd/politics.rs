//! The political orders of a Spring or Fall (and the few of a Winter): each
//! checked against the rule that allows it, applied or refused with the rule
//! named. When each takes effect relative to adjudication is `season`'s job;
//! the functions here only decide and apply.

use super::limits::{self, LimitError};
use super::model::{Country, GtdState, Player};
use super::{Lot, draw_recorded};
use crate::grammar::Country as Named;
use crate::judge::Position;
use crate::lots::LotError;
use crate::map::{Map, Power, Province, ProvinceSet};
use crate::orders::UnitSpec;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoliticsError {
    #[error("no unit in {0}")]
    NoUnit(String),
    #[error("{player} does not command the unit in {at}")]
    NotCommander { player: String, at: String },
    #[error("no country {0:?}")]
    NoCountry(String),
    #[error("{player} is not head of government of {country}")]
    NotHead { player: String, country: String },
    #[error("rule 15: {0} is in civil insurrection; its head of government has no such power")]
    Insurrection(String),
    #[error("rule 21: {0} has accepted ten units that did not defect and may accept no more")]
    AcceptanceLimit(String),
    #[error("{rule}: not in a {season} season")]
    Season {
        rule: &'static str,
        season: &'static str,
    },
    #[error("rule 18(B): a new country names exactly three different supply centers as homes")]
    Homes,
    #[error("rule 26: the name {0:?} is already a country's")]
    NameTaken(String),
    #[error("rule 20: {0} did not accept the defection this season")]
    NotAccepted(String),
    #[error("the unit is already of {0}")]
    OwnCountry(String),
    #[error("rule 25(A): {player} commanded no unit of {country} last season")]
    NotCommanderLastSeason { player: String, country: String },
    #[error("rule 25(B): no abdication in the season of resigning")]
    Resigned,
    #[error("rule 23: the unit in {0} has a commander in the game")]
    CommanderAlive(String),
    #[error("{0} is not in the game")]
    NotPlaying(String),
    #[error("rule 17: {voter} has {has} votes in {country} and cast more")]
    TooManyVotes {
        voter: String,
        country: String,
        has: u32,
    },
    #[error("rule 16: {0} holds no election this season")]
    NoElection(String),
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error(transparent)]
    Lot(#[from] LotError),
    #[error("rule 18: no country index is left for a new country")]
    TooManyCountries,
}

pub type Verdict = Result<(), PoliticsError>;

/// The country an order names: a map power by its first name or a country by its
/// current name.
pub fn resolve_country(map: &Map, state: &GtdState, c: &Named) -> Result<Power, PoliticsError> {
    let found = match c {
        Named::Power(p) => state
            .country(*p)
            .filter(|c| !c.gone)
            .map(|c| Power(c.power)),
        Named::Named(name) => state.country_named(name),
    };
    found.ok_or_else(|| {
        PoliticsError::NoCountry(match c {
            Named::Power(p) => map.power_info(*p).name.clone(),
            Named::Named(n) => n.clone(),
        })
    })
}

pub fn name_of(state: &GtdState, power: Power) -> String {
    state
        .country(power)
        .map_or_else(|| format!("country {}", power.0), |c| c.name.clone())
}

/// The unit an order names, which `player` must command.
pub fn own_unit(
    map: &Map,
    state: &GtdState,
    position: &Position,
    player: &str,
    spec: UnitSpec,
) -> Result<Province, PoliticsError> {
    let p = spec.province();
    let at = map.abbr(p).to_uppercase();
    position
        .unit_at(p)
        .ok_or_else(|| PoliticsError::NoUnit(at.clone()))?;
    if state.commander_at(p) != Some(player) {
        return Err(PoliticsError::NotCommander {
            player: player.to_string(),
            at,
        });
    }
    Ok(p)
}

/// The head of government with powers (rule 15): heads it, and it is not in insurrection.
pub fn head_with_powers(state: &GtdState, country: Power, player: &str) -> Verdict {
    let c = state
        .country(country)
        .ok_or_else(|| PoliticsError::NoCountry(country.0.to_string()))?;
    if c.hog.as_deref() != Some(player) || !state.is_active(player) {
        return Err(PoliticsError::NotHead {
            player: player.to_string(),
            country: c.name.clone(),
        });
    }
    if c.insurrection {
        return Err(PoliticsError::Insurrection(c.name.clone()));
    }
    Ok(())
}

fn name_free(map: &Map, state: &GtdState, name: &str) -> Verdict {
    let taken = state
        .countries
        .iter()
        .any(|c| !c.gone && c.name.eq_ignore_ascii_case(name))
        || map.power(name).is_some();
    if taken || name.trim().is_empty() {
        return Err(PoliticsError::NameTaken(name.to_string()));
    }
    Ok(())
}

// ------------------------------------------------------------ independence (18-19)

/// Rule 18: `player`'s `units` declare the independence of `name` with `homes`.
/// The units join it at once (18 D), the player heads it (18 C). It owns no
/// center until the end of a Fall, and may build on a named home only after
/// holding it at the end of a Fall (18 B; see `homes_held`).
pub fn declare_independence(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    player: &str,
    units: &[UnitSpec],
    name: &str,
    homes: &[Province],
) -> Result<Power, PoliticsError> {
    let provinces = units
        .iter()
        .map(|u| own_unit(map, state, position, player, *u))
        .collect::<Result<Vec<_>, _>>()?;
    let set: ProvinceSet = homes.iter().copied().collect();
    if homes.len() != 3 || set.len() != 3 || homes.iter().any(|h| !map.is_supply_center(*h)) {
        return Err(PoliticsError::Homes);
    }
    name_free(map, state, name)?;
    limits::may_head_another(state, player)?;
    let power = state.free_power().ok_or(PoliticsError::TooManyCountries)?;
    state.countries.push(Country {
        power: power.0,
        name: name.to_string(),
        hog: Some(player.to_string()),
        homes: homes.iter().map(|h| h.0).collect(),
        ..Country::default()
    });
    ensure_homes(position, power);
    for u in position
        .units
        .iter_mut()
        .filter(|u| provinces.contains(&u.province()))
    {
        u.power = power;
    }
    Ok(power)
}

/// The judge's per-power home table reaches every country index.
fn ensure_homes(position: &mut Position, power: Power) {
    let i = power.0 as usize;
    if position.homes.len() <= i {
        position.homes.resize(i + 1, ProvinceSet::EMPTY);
    }
}

/// After the centers change hands at the end of a Fall: a new country's named
/// homes that its units stand in become buildable (18 B), and the judge's home
/// table follows.
pub fn homes_held(state: &mut GtdState, position: &mut Position) {
    for c in state.countries.iter_mut().filter(|c| !c.gone) {
        for &h in &c.homes {
            let held = position
                .unit_at(Province(h))
                .is_some_and(|u| u.power.0 == c.power);
            if held && !c.buildable.contains(&h) {
                c.buildable.push(h);
            }
        }
        ensure_homes(position, Power(c.power));
        position.homes[c.power as usize] = c.buildable.iter().map(|&p| Province(p)).collect();
    }
}

// ------------------------------------------------------------ defection (19-21)

/// A defection order: the unit, who ordered it, and where to.
#[derive(Clone, Debug)]
pub struct Defection {
    pub player: Player,
    pub unit: Province,
    pub to: Power,
}

/// An acceptance: the head of government and the unit accepted.
#[derive(Clone, Debug)]
pub struct Acceptance {
    pub player: Player,
    pub unit: Province,
    pub country: Power,
}

/// Rule 21 and 15: may this head of government accept defections now?
pub fn may_accept(state: &GtdState, country: Power, player: &str) -> Verdict {
    head_with_powers(state, country, player)?;
    let c = state
        .country(country)
        .map(|c| (c.wasted_acceptances, c.name.clone()));
    match c {
        Some((w, name)) if w >= 10 => Err(PoliticsError::AcceptanceLimit(name)),
        _ => Ok(()),
    }
}

/// Rule 20: every defection with a matching acceptance moves the unit (and its
/// commander with it) to the country; every acceptance without one is wasted
/// (rule 21). Returns each defection's verdict, in input order.
pub fn resolve_defections(
    state: &mut GtdState,
    position: &mut Position,
    defections: &[Defection],
    acceptances: &[Acceptance],
) -> Vec<Verdict> {
    let verdicts: Vec<Verdict> = defections
        .iter()
        .map(|d| defection_verdict(state, position, d, acceptances))
        .collect();
    for (d, v) in defections.iter().zip(&verdicts) {
        if v.is_ok()
            && let Some(u) = position.units.iter_mut().find(|u| u.province() == d.unit)
        {
            u.power = d.to;
        }
    }
    for a in acceptances {
        let used = defections
            .iter()
            .zip(&verdicts)
            .any(|(d, v)| v.is_ok() && d.unit == a.unit && d.to == a.country);
        if !used && let Some(c) = state.country_mut(a.country) {
            c.wasted_acceptances += 1;
        }
    }
    verdicts
}

fn defection_verdict(
    state: &GtdState,
    position: &Position,
    d: &Defection,
    acceptances: &[Acceptance],
) -> Verdict {
    let unit = position
        .unit_at(d.unit)
        .ok_or_else(|| PoliticsError::NoUnit(d.unit.0.to_string()))?;
    if unit.power == d.to {
        return Err(PoliticsError::OwnCountry(name_of(state, d.to)));
    }
    let accepted = acceptances
        .iter()
        .any(|a| a.unit == d.unit && a.country == d.to);
    if !accepted {
        return Err(PoliticsError::NotAccepted(name_of(state, d.to)));
    }
    Ok(())
}

// ------------------------------------------------------------ insurrection (14)

/// At the end of a season: the country's units in its home centers, and whether
/// each declared insurrection (`Some(true)`), no insurrection (`Some(false)`) or
/// nothing. Rule 14: one declaring unit starts it; it ends when none is in the
/// homes or every one there declared no insurrection. Returns the new state.
pub fn insurrection_after(in_insurrection: bool, in_homes: &[Option<bool>]) -> bool {
    if !in_insurrection {
        return in_homes.contains(&Some(true));
    }
    !in_homes.iter().all(|d| *d == Some(false))
}

// ------------------------------------------------------------ elections (16-17, 24)

/// One `VOTE` order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vote {
    pub voter: Player,
    pub candidate: Player,
    pub votes: u32,
}

/// What an election gave, for publication (17 B, 24 C).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub country: String,
    /// Counted votes, candidate by candidate (sorted by name).
    pub totals: Vec<(Player, u32)>,
    pub cast: u32,
    /// Votes needed: more than this.
    pub above: u32,
    pub elected: Option<Player>,
    /// Each vote as given, with a refusal if it did not count.
    pub votes: Vec<(Vote, Verdict)>,
}

/// How the winner is found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ElectionKind {
    /// 17 (C): more than half the country's units.
    FirstSeason,
    /// 17 (D), 24 (D): a majority of the votes cast.
    VotesCast,
}

/// Counts an election. `weights`: each commander of the country and the units of
/// it they command (17 A). A voter's votes beyond their weight void all their
/// votes that season (the text gives "a number of votes equal to" the units; a
/// ballot that oversteps it has no reading that is not a guess).
pub fn count(
    country: &str,
    kind: ElectionKind,
    units: u32,
    weights: &[(Player, u32)],
    votes: &[Vote],
    may_head: impl Fn(&str) -> bool,
) -> Tally {
    let weight = |v: &str| weights.iter().find(|(p, _)| p == v).map_or(0, |w| w.1);
    let mut judged = Vec::new();
    for v in votes {
        let cast: u32 = votes
            .iter()
            .filter(|x| x.voter == v.voter)
            .map(|x| x.votes)
            .sum();
        let has = weight(&v.voter);
        let verdict = if cast > has {
            Err(PoliticsError::TooManyVotes {
                voter: v.voter.clone(),
                country: country.into(),
                has,
            })
        } else {
            Ok(())
        };
        judged.push((v.clone(), verdict));
    }
    let mut totals: Vec<(Player, u32)> = Vec::new();
    for (v, _) in judged.iter().filter(|(_, ok)| ok.is_ok()) {
        match totals.iter_mut().find(|(c, _)| *c == v.candidate) {
            Some(t) => t.1 += v.votes,
            None => totals.push((v.candidate.clone(), v.votes)),
        }
    }
    totals.sort();
    let cast: u32 = totals.iter().map(|t| t.1).sum();
    let above = match kind {
        ElectionKind::FirstSeason => units / 2,
        ElectionKind::VotesCast => cast / 2,
    };
    let self_vote = |c: &str| {
        judged
            .iter()
            .any(|(v, ok)| ok.is_ok() && v.voter == c && v.candidate == c && v.votes > 0)
    };
    let elected = totals
        .iter()
        .find(|(c, n)| *n > above && weight(c) > 0 && self_vote(c) && may_head(c))
        .map(|(c, _)| c.clone());
    Tally {
        country: country.into(),
        totals,
        cast,
        above,
        elected,
        votes: judged,
    }
}

// ------------------------------------------------------------ death, succession (22-25, 27)

/// Rule 22: the player leaves the game (resignation or play death). Their units
/// keep them as commander until reassigned, but hold meanwhile (nobody orders
/// them). A head of government's country gets an election next season (24 A),
/// or, with one commander left, that commander at once (24 E).
pub fn remove_player(state: &mut GtdState, position: &Position, who: &str) {
    if let Some(p) = state.players.iter_mut().find(|p| p.name == who) {
        p.out = true;
    }
    state.standby.retain(|p| p != who);
    for power in state.headed_by(who) {
        let left: Vec<Player> = state
            .commanders_of(position, power)
            .into_iter()
            .filter(|p| state.is_active(p))
            .collect();
        let Some(c) = state.country_mut(power) else {
            continue;
        };
        c.hog = None;
        c.successor = None;
        if let [only] = left.as_slice() {
            c.hog = Some(only.clone());
            let line = format!("rule 24(E): {only} is head of government of {}", c.name);
            state.note(line);
        } else {
            c.election_next_season = true;
        }
    }
}

/// Rule 23: the head of government gives a unit whose commander left the game
/// (or that has none) to `player`, if that needs no redistribution. A stand-by
/// player so appointed enters the game (rule 1).
pub fn appoint_dead_commanders_unit(
    map: &Map,
    state: &mut GtdState,
    position: &Position,
    head: &str,
    player: &str,
    unit: Province,
) -> Verdict {
    let at = map.abbr(unit).to_uppercase();
    let u = *position
        .unit_at(unit)
        .ok_or_else(|| PoliticsError::NoUnit(at.clone()))?;
    head_with_powers(state, u.power, head)?;
    if state.commander_at(unit).is_some_and(|c| state.is_active(c)) {
        return Err(PoliticsError::CommanderAlive(at));
    }
    appoint_within_limits(state, position, u.power, player, unit, None)
}

/// Gives `unit` to `player` if the player then commands no more of the country
/// than rule 9 allows; `at_winter_start` is the Winter's opening size (9 F).
pub fn appoint_within_limits(
    state: &mut GtdState,
    position: &Position,
    country: Power,
    player: &str,
    unit: Province,
    at_winter_start: Option<u32>,
) -> Verdict {
    let known = state.is_active(player) || state.standby.iter().any(|p| p == player);
    if !known {
        return Err(PoliticsError::NotPlaying(player.to_string()));
    }
    let already = state.commanded(position, country, player);
    let total = position.unit_count(country) as u32;
    let name = name_of(state, country);
    let head = state.country(country).and_then(|c| c.hog.clone());
    limits::check(&limits::Holding {
        player,
        country: &name,
        is_head: head.as_deref() == Some(player),
        count: already.len() as u32 + u32::from(!already.contains(&unit)),
        total,
        at_winter_start: at_winter_start.unwrap_or(total),
    })?;
    enter(state, player);
    state.set_commander(unit, Some(player.to_string()));
    Ok(())
}

/// A stand-by player given a command or a country enters the game (rule 1).
pub fn enter(state: &mut GtdState, player: &str) {
    if state.standby.iter().any(|p| p == player) {
        state.standby.retain(|p| p != player);
        state.players.push(super::model::PlayerState {
            name: player.to_string(),
            out: false,
            silent_seasons: 0,
        });
    }
}

/// Rule 25: `head` names `successor`, who accepted the same season; they take
/// office at the start of next season. `commanders_last_season`: who commanded a
/// unit of the country in the previous season; `resigned`: the head resigned
/// this season.
pub fn abdicate(
    state: &mut GtdState,
    country: Power,
    head: &str,
    successor: &str,
    commanders_last_season: &[Player],
    resigned: bool,
) -> Verdict {
    if resigned {
        return Err(PoliticsError::Resigned);
    }
    let name = name_of(state, country);
    let is_head = state
        .country(country)
        .is_some_and(|c| c.hog.as_deref() == Some(head));
    if !is_head {
        return Err(PoliticsError::NotHead {
            player: head.into(),
            country: name,
        });
    }
    if !commanders_last_season.iter().any(|p| p == successor) {
        return Err(PoliticsError::NotCommanderLastSeason {
            player: successor.into(),
            country: name,
        });
    }
    limits::may_head_another(state, successor)?;
    if let Some(c) = state.country_mut(country) {
        c.successor = Some(successor.to_string());
    }
    Ok(())
}

/// Rule 26: a new name from the start of next season (the Gamemaster may still
/// refuse it, 26 B: `veto_rename`).
pub fn rename(map: &Map, state: &mut GtdState, country: Power, head: &str, name: &str) -> Verdict {
    let c = state
        .country(country)
        .ok_or_else(|| PoliticsError::NoCountry(name.into()))?;
    if c.hog.as_deref() != Some(head) {
        return Err(PoliticsError::NotHead {
            player: head.into(),
            country: c.name.clone(),
        });
    }
    name_free(map, state, name)?;
    if let Some(c) = state.country_mut(country) {
        c.rename_to = Some(name.to_string());
    }
    Ok(())
}

pub fn veto_rename(state: &mut GtdState, country: Power) {
    if let Some(c) = state.country_mut(country) {
        c.rename_to = None;
    }
}

/// Rule 27: a country whose head and every commander left the game in one
/// season: the head by lot among the stand-by list, then each unit (in province
/// order) by lot among the stand-by players left. Units beyond the list stay
/// without a commander (they hold).
pub fn dead_bandit(
    map: &Map,
    state: &mut GtdState,
    position: &Position,
    country: Power,
    lot: &mut Lot<'_>,
) -> Result<(), PoliticsError> {
    let name = name_of(state, country);
    if !state.standby.is_empty() {
        let purpose = format!("GTD rule 27: head of government of {name}");
        let standby = state.standby.clone();
        let head = draw_recorded(state, lot, &purpose, &standby)?;
        enter(state, &head);
        if let Some(c) = state.country_mut(country) {
            c.hog = Some(head);
            c.election_after_death = false;
            c.election_next_season = false;
        }
    }
    let mut units: Vec<Province> = position
        .units
        .iter()
        .filter(|u| u.power == country)
        .map(|u| u.province())
        .collect();
    units.sort_by_key(|p| map.abbr(*p).to_string());
    for p in units {
        if state.standby.is_empty() {
            state.set_commander(p, None);
            continue;
        }
        let purpose = format!("GTD rule 27: commander of {}", map.abbr(p).to_uppercase());
        let standby = state.standby.clone();
        let who = draw_recorded(state, lot, &purpose, &standby)?;
        enter(state, &who);
        state.set_commander(p, Some(who));
    }
    Ok(())
}
