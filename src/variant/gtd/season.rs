//! When GTD's political orders take effect relative to adjudication, so that
//! the adjudicator sees one country per unit for the whole of a phase:
//!
//! 1. Start of a season (`begin_season`): heads elected, abdicated to, or
//!    succeeding take office; new names take effect (17, 24, 25, 26 "effective
//!    at the start of the following season"); last season's declarations clear.
//! 2. At the movement deadline (`before_movement`), in this order: declarations
//!    of independence (18 D "immediately"), then defections with their
//!    acceptances (19: a unit may defect to a country declared the same
//!    season), then appointments to dead commanders' units (23), abdications,
//!    renamings; insurrection declarations and votes are noted. Then every
//!    commander's movement order becomes an order of its unit's (new) country.
//!    A unit nobody (active) commands gets no order: it holds.
//! 3. The judge adjudicates the movement and retreat phases with those
//!    countries; `follow` moves the commands along with their units.
//! 4. End of the season (`end_season`): insurrection starts or ends (14),
//!    elections are counted (16-17, 24), a new country's homes held at the end
//!    of a Fall become buildable (18 B), countries with nothing left are retired.
//!
//! Supply centers keep their owner when a unit changes country: they change
//! hands only at the end of a Fall, as in the rulebook, to the country of the
//! unit standing in them then.

use super::model::{GtdState, Player};
use super::politics::{
    self, Acceptance, Defection, ElectionKind, PoliticsError, Tally, Verdict, Vote, name_of,
};
use crate::grammar::VariantOrder;
use crate::judge::{Adjudication, Position, Verdict as JudgeVerdict};
use crate::map::{Map, Power, Province};
use crate::orders::{Order, PowerOrder};
use crate::phase::{PhaseKind, Season};

/// An order as a player wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Order(Order),
    Variant(VariantOrder),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub player: Player,
    pub item: Item,
}

/// What the movement deadline decided.
#[derive(Clone, Debug, Default)]
pub struct Before {
    /// For `judge::adjudicate`, with `Commanders` as the allegiance.
    pub judge_orders: Vec<PowerOrder>,
    /// Every written order with its verdict, in the order written.
    pub outcomes: Vec<(Written, Verdict)>,
    pub new_countries: Vec<Power>,
    /// Votes by country, and each voter's units of that country (17 A), fixed
    /// once the season's countries are (after defections).
    pub votes: Vec<(Power, Vote)>,
    pub weights: Vec<(Power, Player, u32)>,
}

/// Step 1.
pub fn begin_season(state: &mut GtdState) {
    for c in state.countries.iter_mut().filter(|c| !c.gone) {
        if let Some(s) = c.successor.take() {
            c.hog = Some(s);
            c.election_after_death = false;
        }
        if let Some(n) = c.rename_to.take() {
            c.name = n;
        }
    }
    for c in &mut state.commands {
        c.declared = None;
    }
}

/// Step 2, for a Spring or Fall. In a Winter it takes that season's political
/// orders (votes, abdication, renaming, rule 23 appointments: the Winter's own
/// builds, removals and appointments go to `winter`), and refuses independence,
/// defection and declarations of insurrection (18 A, 20, 14: not in Winter).
pub fn before_movement(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    written: &[Written],
    resigned: &[Player],
) -> Before {
    let mut b = Before::default();
    let last_season = commanders_by_country(state, position);
    let mut verdicts: Vec<Option<Verdict>> = vec![None; written.len()];
    if position.phase.season == Season::Winter {
        refuse_in_winter(written, &mut verdicts);
    }
    independence(map, state, position, written, &mut verdicts, &mut b);
    defections(map, state, position, written, &mut verdicts);
    for (i, w) in written.iter().enumerate() {
        if verdicts[i].is_none() {
            verdicts[i] = one(
                map,
                state,
                position,
                w,
                written,
                &last_season,
                resigned,
                &mut b,
            );
        }
    }
    b.weights = weights(state, position);
    b.outcomes = written
        .iter()
        .cloned()
        .zip(verdicts.into_iter().map(|v| v.unwrap_or(Ok(()))))
        .collect();
    b
}

fn refuse_in_winter(written: &[Written], verdicts: &mut [Option<Verdict>]) {
    for (w, v) in written.iter().zip(verdicts.iter_mut()) {
        let rule = match &w.item {
            Item::Variant(VariantOrder::DeclareIndependence { .. }) => "rule 18(A)",
            Item::Variant(VariantOrder::Defect { .. } | VariantOrder::AcceptDefection { .. }) => {
                "rule 20"
            }
            Item::Variant(VariantOrder::DeclareInsurrection { .. }) => "rule 14",
            _ => continue,
        };
        *v = Some(Err(PoliticsError::Season {
            rule,
            season: "Spring or Fall",
        }));
    }
}

fn commanders_by_country(state: &GtdState, position: &Position) -> Vec<(Power, Vec<Player>)> {
    state
        .countries
        .iter()
        .map(|c| {
            (
                Power(c.power),
                state.commanders_of(position, Power(c.power)),
            )
        })
        .collect()
}

fn independence(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    written: &[Written],
    verdicts: &mut [Option<Verdict>],
    b: &mut Before,
) {
    for (i, w) in written.iter().enumerate() {
        if verdicts[i].is_some() {
            continue;
        }
        if let Item::Variant(VariantOrder::DeclareIndependence { units, name, home }) = &w.item {
            let r =
                politics::declare_independence(map, state, position, &w.player, units, name, home);
            verdicts[i] = Some(r.map(|p| b.new_countries.push(p)));
        }
    }
}

fn defections(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    written: &[Written],
    verdicts: &mut [Option<Verdict>],
) {
    let mut defs = Vec::new();
    let mut accs = Vec::new();
    for (i, w) in written.iter().enumerate() {
        let Item::Variant(v) = &w.item else { continue };
        if verdicts[i].is_some() {
            continue;
        }
        match v {
            VariantOrder::Defect { unit, to } => {
                let r = politics::own_unit(map, state, position, &w.player, *unit)
                    .and_then(|p| Ok((p, politics::resolve_country(map, state, to)?)));
                match r {
                    Ok((p, to)) => defs.push((
                        i,
                        Defection {
                            player: w.player.clone(),
                            unit: p,
                            to,
                        },
                    )),
                    Err(e) => verdicts[i] = Some(Err(e)),
                }
            }
            VariantOrder::AcceptDefection { unit } => {
                let r = acceptance(state, &w.player, unit.province());
                match r {
                    Ok(a) => {
                        accs.push(a);
                        verdicts[i] = Some(Ok(()));
                    }
                    Err(e) => verdicts[i] = Some(Err(e)),
                }
            }
            _ => {}
        }
    }
    let list: Vec<Defection> = defs.iter().map(|d| d.1.clone()).collect();
    let out = politics::resolve_defections(state, position, &list, &accs);
    for ((i, _), v) in defs.iter().zip(out) {
        verdicts[*i] = Some(v);
    }
}

/// An acceptance is for the country the writer heads (with powers) and that the
/// unit is not already of; a head of two countries accepts for the first that
/// qualifies, in power order.
fn acceptance(state: &GtdState, player: &str, unit: Province) -> Result<Acceptance, PoliticsError> {
    let headed = state.headed_by(player);
    let mut last = PoliticsError::NotHead {
        player: player.into(),
        country: "any country".into(),
    };
    for country in headed {
        match politics::may_accept(state, country, player) {
            Ok(()) => {
                return Ok(Acceptance {
                    player: player.into(),
                    unit,
                    country,
                });
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

#[allow(clippy::too_many_arguments)]
fn one(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    w: &Written,
    written: &[Written],
    last_season: &[(Power, Vec<Player>)],
    resigned: &[Player],
    b: &mut Before,
) -> Option<Verdict> {
    let v = match &w.item {
        Item::Order(o) => return Some(movement_order(map, state, position, &w.player, o, b)),
        Item::Variant(v) => v,
    };
    Some(match v {
        VariantOrder::DeclareInsurrection { unit } => {
            declare(map, state, position, &w.player, *unit, true)
        }
        VariantOrder::DeclareNoInsurrection { unit } => {
            declare(map, state, position, &w.player, *unit, false)
        }
        VariantOrder::Vote {
            country,
            player,
            votes,
        } => politics::resolve_country(map, state, country).map(|c| {
            let vote = Vote {
                voter: w.player.clone(),
                candidate: player.clone(),
                votes: votes.unwrap_or(1),
            };
            b.votes.push((c, vote));
        }),
        VariantOrder::AppointToUnit { player, unit } => politics::appoint_dead_commanders_unit(
            map,
            state,
            position,
            &w.player,
            player,
            unit.province(),
        ),
        VariantOrder::Abdicate { player } => abdication(
            map,
            state,
            &w.player,
            player,
            written,
            last_season,
            resigned,
        ),
        VariantOrder::AcceptSuccession { country } => {
            politics::resolve_country(map, state, country).map(|_| ())
        }
        VariantOrder::Rename { country, name } => politics::resolve_country(map, state, country)
            .and_then(|c| politics::rename(map, state, c, &w.player, name)),
        _ => Err(PoliticsError::Season {
            rule: "this order",
            season: "Winter",
        }),
    })
}

fn declare(
    map: &Map,
    state: &mut GtdState,
    position: &Position,
    player: &str,
    unit: crate::orders::UnitSpec,
    insurrection: bool,
) -> Verdict {
    let p = politics::own_unit(map, state, position, player, unit)?;
    if let Some(c) = state
        .commands
        .iter_mut()
        .find(|c| c.at == p.0 && !c.dislodged)
    {
        c.declared = Some(insurrection);
    }
    Ok(())
}

fn abdication(
    map: &Map,
    state: &mut GtdState,
    head: &str,
    successor: &str,
    written: &[Written],
    last_season: &[(Power, Vec<Player>)],
    resigned: &[Player],
) -> Verdict {
    let Some(country) = state.headed_by(head).into_iter().next() else {
        return Err(PoliticsError::NotHead {
            player: head.into(),
            country: "any country".into(),
        });
    };
    let accepted = written.iter().any(|w| {
        w.player == successor
            && matches!(&w.item, Item::Variant(VariantOrder::AcceptSuccession { country: c })
                if politics::resolve_country(map, state, c).ok() == Some(country))
    });
    if !accepted {
        return Err(PoliticsError::NotCommanderLastSeason {
            player: format!("{successor} (no ACCEPT SUCCESSION)"),
            country: name_of(state, country),
        });
    }
    let before = last_season
        .iter()
        .find(|(c, _)| *c == country)
        .map_or(&[][..], |x| &x.1[..]);
    let quit = resigned.iter().any(|r| r == head);
    politics::abdicate(state, country, head, successor, before, quit)
}

/// A movement order of a unit the writer commands, given as its country's order.
fn movement_order(
    map: &Map,
    state: &GtdState,
    position: &Position,
    player: &str,
    o: &Order,
    b: &mut Before,
) -> Verdict {
    let Some(spec) = o.unit() else { return Ok(()) };
    let p = spec.province();
    let at = map.abbr(p).to_uppercase();
    let unit = position
        .unit_at(p)
        .ok_or_else(|| PoliticsError::NoUnit(at.clone()))?;
    if state.commander_at(p) != Some(player) || !state.is_active(player) {
        return Err(PoliticsError::NotCommander {
            player: player.into(),
            at,
        });
    }
    b.judge_orders.push(PowerOrder {
        power: unit.power,
        order: *o,
    });
    Ok(())
}

/// A retreat-phase order of a dislodged unit the writer commands.
pub fn retreat_orders(
    state: &GtdState,
    position: &Position,
    player: &str,
    orders: &[Order],
) -> Vec<PowerOrder> {
    orders
        .iter()
        .filter_map(|o| {
            let p = o.unit()?.province();
            let d = position.dislodged_at(p)?;
            let mine = state
                .commands
                .iter()
                .any(|c| c.at == p.0 && c.dislodged && c.commander.as_deref() == Some(player));
            (mine && state.is_active(player)).then_some(PowerOrder {
                power: d.unit.power,
                order: *o,
            })
        })
        .collect()
}

fn weights(state: &GtdState, position: &Position) -> Vec<(Power, Player, u32)> {
    let mut out = Vec::new();
    for c in state.countries.iter().filter(|c| !c.gone) {
        let power = Power(c.power);
        for p in state.commanders_of(position, power) {
            let n = state.commanded(position, power, &p).len() as u32;
            out.push((power, p, n));
        }
    }
    out
}

/// Step 3: after the judge played a phase, each command follows its unit:
/// dislodged units are marked, successful moves and retreats carry the
/// commander, and units no longer on the board lose their command.
pub fn follow(state: &mut GtdState, played: PhaseKind, adj: &Adjudication) {
    let moves: Vec<(u8, u8)> = adj
        .resolutions
        .iter()
        .filter(|r| r.verdict == JudgeVerdict::Ok)
        .filter_map(|r| match r.order {
            Order::Move { unit, to, .. } => Some((unit.province().0, to.province.0)),
            _ => None,
        })
        .collect();
    let hit: Vec<u8> = adj
        .resolutions
        .iter()
        .filter(|r| r.dislodged)
        .filter_map(|r| r.order.unit().map(|u| u.province().0))
        .collect();
    for c in &mut state.commands {
        let retreating = played == PhaseKind::Retreat && c.dislodged;
        let moving = played == PhaseKind::Movement && !c.dislodged;
        if moving && hit.contains(&c.at) {
            c.dislodged = true;
        } else if (moving || retreating)
            && let Some((_, to)) = moves.iter().find(|(from, _)| *from == c.at)
        {
            c.at = *to;
            c.dislodged = false;
        }
    }
    let after = &adj.after;
    state.commands.retain(|c| {
        let p = Province(c.at);
        if c.dislodged {
            after.dislodged_at(p).is_some() && after.phase.kind == PhaseKind::Retreat
        } else {
            after.unit_at(p).is_some()
        }
    });
}

/// What the end of a season did.
#[derive(Clone, Debug, Default)]
pub struct End {
    pub tallies: Vec<Tally>,
    pub insurrections_begun: Vec<Power>,
    pub insurrections_ended: Vec<Power>,
}

/// Step 4. `votes` and `weights` from `before_movement` (or the Winter's own).
pub fn end_season(
    state: &mut GtdState,
    position: &mut Position,
    season: Season,
    votes: &[(Power, Vote)],
    weights: &[(Power, Player, u32)],
) -> End {
    let mut end = End::default();
    let powers: Vec<Power> = state
        .countries
        .iter()
        .filter(|c| !c.gone)
        .map(|c| Power(c.power))
        .collect();
    for power in powers {
        let was = state.country(power).is_some_and(|c| c.insurrection);
        let now = insurrection_now(state, position, power, season, was);
        if let Some(c) = state.country_mut(power) {
            c.insurrection = now;
        }
        if now && !was {
            end.insurrections_begun.push(power);
        }
        if was && !now {
            end.insurrections_ended.push(power);
        }
        if let Some(t) = election(state, position, power, was, now, votes, weights) {
            end.tallies.push(t);
        }
    }
    if season == Season::Fall {
        politics::homes_held(state, position);
    }
    super::winter::retire_gone(state, position);
    end
}

/// Rule 14 with the units of the country standing in its homes now. A declaration
/// of insurrection counts only outside Winter.
fn insurrection_now(
    state: &GtdState,
    position: &Position,
    power: Power,
    season: Season,
    was: bool,
) -> bool {
    let Some(c) = state.country(power) else {
        return false;
    };
    let declared: Vec<Option<bool>> = position
        .units
        .iter()
        .filter(|u| u.power == power && c.homes.contains(&u.province().0))
        .map(|u| {
            let d = state
                .commands
                .iter()
                .find(|x| x.at == u.province().0 && !x.dislodged);
            d.and_then(|x| x.declared)
        })
        .map(|d| {
            if season == Season::Winter && d == Some(true) {
                None
            } else {
                d
            }
        })
        .collect();
    politics::insurrection_after(was, &declared)
}

/// Rules 16-17 and 24: an election this season, if the country is in
/// insurrection at its end (16: the declaring season counts, the ending one does
/// not) or its head died last season. The winner takes office next season.
fn election(
    state: &mut GtdState,
    position: &Position,
    power: Power,
    was: bool,
    now: bool,
    votes: &[(Power, Vote)],
    weights: &[(Power, Player, u32)],
) -> Option<Tally> {
    let (death, next) = state.country(power).map_or((false, false), |c| {
        (c.election_after_death, c.election_next_season)
    });
    if let Some(c) = state.country_mut(power) {
        c.election_after_death = death || next;
        c.election_next_season = false;
    }
    if !now && !death {
        return None;
    }
    let kind = if now && !was {
        ElectionKind::FirstSeason
    } else {
        ElectionKind::VotesCast
    };
    let w: Vec<(Player, u32)> = weights
        .iter()
        .filter(|x| x.0 == power)
        .map(|x| (x.1.clone(), x.2))
        .collect();
    let v: Vec<Vote> = votes
        .iter()
        .filter(|x| x.0 == power)
        .map(|x| x.1.clone())
        .collect();
    let units = position.unit_count(power) as u32;
    let name = name_of(state, power);
    let snapshot = state.clone();
    let tally = politics::count(&name, kind, units, &w, &v, |p| {
        snapshot.headed_by(p).contains(&power)
            || super::limits::may_head_another(&snapshot, p).is_ok()
    });
    if let Some(winner) = &tally.elected
        && let Some(c) = state.country_mut(power)
    {
        c.successor = Some(winner.clone());
        c.election_after_death = false;
    }
    state.note(format!(
        "election in {name}: {:?}, elected {:?}",
        tally.totals, tally.elected
    ));
    Some(tally)
}

/// Rule 22: players who wrote nothing two seasons running (the Gamemaster may
/// remove them). `wrote`: who sent orders this season.
pub fn note_silence(state: &mut GtdState, wrote: &[Player]) -> Vec<Player> {
    for p in state.players.iter_mut().filter(|p| !p.out) {
        p.silent_seasons = if wrote.contains(&p.name) {
            0
        } else {
            p.silent_seasons + 1
        };
    }
    state
        .players
        .iter()
        .filter(|p| !p.out && p.silent_seasons >= 2)
        .map(|p| p.name.clone())
        .collect()
}
