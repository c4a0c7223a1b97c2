//! The Winter (rules 9-12, 15): builds that name a commander, removals,
//! redistribution and purges, each by the head of government with powers; the
//! Gamemaster's part (removals and excess units chosen by lot) drawn by the
//! auditable lot. Countries are taken in power order, a country's orders in the
//! order written.

use super::limits::{self, LimitError};
use super::model::{GtdState, Player};
use super::politics::{self, PoliticsError, name_of};
use super::{Lot, draw_recorded};
use crate::judge::{Position, Unit};
use crate::lots::LotError;
use crate::map::{Map, Power, Province};
use crate::orders::UnitSpec;

/// One Winter order, with who wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinterOrder {
    pub player: Player,
    pub kind: WinterKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinterKind {
    /// `BUILD A PAR COMMANDER alice` (9 B)
    Build { unit: UnitSpec, commander: Player },
    /// `REMOVE A PAR` (10 A)
    Remove { unit: UnitSpec },
    /// `APPOINT alice TO A PAR`: redistribution (11), purge (12) or a dead
    /// commander's unit (23).
    Appoint { player: Player, unit: UnitSpec },
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WinterError {
    #[error(transparent)]
    Politics(#[from] PoliticsError),
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error("{0} has no build left")]
    NoBuild(String),
    #[error("rule 18(B): {0} is no home center {1} may build on")]
    NotBuildableHome(String, String),
    #[error("{0} is occupied")]
    Occupied(String),
    #[error("no such unit can stand in {0}")]
    CannotStand(String),
    #[error("{0} owes no removal")]
    NoRemoval(String),
    #[error(
        "rule 12: {country} may purge {allowed} units this Winter (it had {size} at its start)"
    )]
    PurgeLimit {
        country: String,
        allowed: u32,
        size: u32,
    },
}

/// What the Winter's opening fixes: each country's size (9 F, 12) and the excess
/// units its head of government must redistribute this Winter (11 B).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinterStart {
    pub sizes: Vec<(Power, u32)>,
    pub excess: Vec<(Power, Player, u32)>,
}

/// Called once the Fall is over (centers updated): what each head of
/// government must do, for the reports and for `resolve`.
pub fn open(state: &GtdState, position: &Position) -> WinterStart {
    let mut start = WinterStart::default();
    for c in state.countries.iter().filter(|c| !c.gone) {
        let power = Power(c.power);
        start.sizes.push((power, position.unit_count(power) as u32));
        for (p, n) in limits::excess(state, position, power) {
            start.excess.push((power, p, n));
        }
    }
    start
}

impl WinterStart {
    pub fn size(&self, power: Power) -> u32 {
        self.sizes.iter().find(|s| s.0 == power).map_or(0, |s| s.1)
    }
}

/// Rule 12 (B)-(C): how many commands a head of government may change in a
/// purge. More than six and less than eleven units: three; eleven or more: five
/// (the text's "more than eleven" leaves eleven out; ruling GTD-12 in
/// docs/rulings.md#gtd); six or fewer: none.
pub fn purge_allowance(size: u32) -> u32 {
    match size {
        0..=6 => 0,
        7..=10 => 3,
        _ => 5,
    }
}

/// What the Winter did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WinterReport {
    pub outcomes: Vec<(WinterOrder, Result<(), WinterError>)>,
    /// Units removed by lot (rule 10 B or 11 F), with the rule.
    pub lot_removals: Vec<(Power, Province, &'static str)>,
    /// Builds not used, per country.
    pub unused_builds: Vec<(Power, i32)>,
}

/// Plays the Winter: `orders` from every player, in arrival order.
pub fn resolve(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    start: &WinterStart,
    orders: &[WinterOrder],
    lot: &mut Lot<'_>,
) -> Result<WinterReport, LotError> {
    let mut report = WinterReport::default();
    let countries: Vec<Power> = start.sizes.iter().map(|s| s.0).collect();
    // Fixed before any order acts, so one order cannot move another to a country.
    let acts_for: Vec<Option<Power>> = orders
        .iter()
        .map(|o| order_country(state, position, o))
        .collect();
    for country in countries {
        let mut ctx = Ctx {
            country,
            balance: balance(position, country),
            purged: 0,
        };
        let mine = orders
            .iter()
            .zip(&acts_for)
            .filter(|(_, c)| **c == Some(country));
        for (o, _) in mine {
            let verdict = apply(map, state, position, start, &mut ctx, o);
            report.outcomes.push((o.clone(), verdict));
        }
        removals_by_lot(map, state, position, &mut ctx, lot, &mut report)?;
        excess_by_lot(map, state, position, start, country, lot, &mut report)?;
        if ctx.balance > 0 {
            report.unused_builds.push((country, ctx.balance));
        }
    }
    for (o, c) in orders.iter().zip(&acts_for) {
        if c.is_none() {
            let e = PoliticsError::NoUnit(map.abbr(order_unit(o).province()).to_uppercase());
            report.outcomes.push((o.clone(), Err(e.into())));
        }
    }
    retire_gone(state, position);
    Ok(report)
}

struct Ctx {
    country: Power,
    /// Builds left (positive) or removals owed (negative).
    balance: i32,
    purged: u32,
}

fn balance(position: &Position, country: Power) -> i32 {
    position.centers_of(country).len() as i32 - position.unit_count(country) as i32
}

/// The country an order acts for: the build's writer's country (the one whose
/// home it names), the unit's country otherwise.
fn order_country(state: &GtdState, position: &Position, o: &WinterOrder) -> Option<Power> {
    match &o.kind {
        WinterKind::Build { unit, .. } => {
            let p = unit.province().0;
            state
                .countries
                .iter()
                .filter(|c| !c.gone && c.homes.contains(&p))
                .find(|c| c.hog.as_deref() == Some(o.player.as_str()))
                .or_else(|| {
                    state
                        .countries
                        .iter()
                        .find(|c| !c.gone && c.homes.contains(&p))
                })
                .map(|c| Power(c.power))
        }
        WinterKind::Remove { unit } | WinterKind::Appoint { unit, .. } => {
            position.unit_at(unit.province()).map(|u| u.power)
        }
    }
}

fn order_unit(o: &WinterOrder) -> UnitSpec {
    match &o.kind {
        WinterKind::Build { unit, .. }
        | WinterKind::Remove { unit }
        | WinterKind::Appoint { unit, .. } => *unit,
    }
}

fn apply(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    start: &WinterStart,
    ctx: &mut Ctx,
    o: &WinterOrder,
) -> Result<(), WinterError> {
    politics::head_with_powers(state, ctx.country, &o.player)?;
    match &o.kind {
        WinterKind::Build { unit, commander } => {
            build(map, state, position, start, ctx, *unit, commander)
        }
        WinterKind::Remove { unit } => remove(state, position, ctx, unit.province()),
        WinterKind::Appoint { player, unit } => {
            appoint(state, position, start, ctx, player, unit.province())
        }
    }
}

fn build(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    start: &WinterStart,
    ctx: &mut Ctx,
    spec: UnitSpec,
    commander: &str,
) -> Result<(), WinterError> {
    let name = name_of(state, ctx.country);
    if ctx.balance <= 0 {
        return Err(WinterError::NoBuild(name));
    }
    let p = spec.province();
    let at = map.abbr(p).to_uppercase();
    let buildable = state
        .country(ctx.country)
        .is_some_and(|c| c.buildable.contains(&p.0));
    if !buildable || position.owner(p) != Some(ctx.country) {
        return Err(WinterError::NotBuildableHome(at, name));
    }
    if position.unit_at(p).is_some() {
        return Err(WinterError::Occupied(at));
    }
    let kind = spec.kind.unwrap_or(crate::map::UnitKind::Army);
    if !map.can_stand(kind, spec.location) {
        return Err(WinterError::CannotStand(at));
    }
    position.units.push(Unit {
        power: ctx.country,
        kind,
        location: spec.location,
    });
    let given = politics::appoint_within_limits(
        state,
        position,
        ctx.country,
        commander,
        p,
        Some(start.size(ctx.country)),
    );
    if let Err(e) = given {
        position.units.retain(|u| u.province() != p);
        return Err(e.into());
    }
    ctx.balance -= 1;
    Ok(())
}

fn remove(
    state: &mut GtdState,
    position: &mut Position,
    ctx: &mut Ctx,
    p: Province,
) -> Result<(), WinterError> {
    if ctx.balance >= 0 {
        return Err(WinterError::NoRemoval(name_of(state, ctx.country)));
    }
    take_off(state, position, p);
    ctx.balance += 1;
    Ok(())
}

fn take_off(state: &mut GtdState, position: &mut Position, p: Province) {
    position.units.retain(|u| u.province() != p);
    state.commands.retain(|c| c.at != p.0 || c.dislodged);
}

/// An appointment is a redistribution when the unit's commander is over a
/// limit, gone from the game, or missing (11, 23); otherwise it is a purge and
/// counts against rule 12's allowance. Either way the appointee must stay within
/// rule 9, so no appointment ever creates a redistribution (12 A, 23 A).
fn appoint(
    state: &mut GtdState,
    position: &Position,
    start: &WinterStart,
    ctx: &mut Ctx,
    player: &str,
    p: Province,
) -> Result<(), WinterError> {
    let current = state.commander_at(p).map(str::to_string);
    let over = limits::excess(state, position, ctx.country);
    let redistribution = match &current {
        None => true,
        Some(c) => !state.is_active(c) || over.iter().any(|(x, _)| x == c),
    };
    let size = start.size(ctx.country);
    if !redistribution && ctx.purged >= purge_allowance(size) {
        let country = name_of(state, ctx.country);
        return Err(WinterError::PurgeLimit {
            country,
            allowed: purge_allowance(size),
            size,
        });
    }
    politics::appoint_within_limits(state, position, ctx.country, player, p, Some(size))?;
    if !redistribution {
        ctx.purged += 1;
    }
    Ok(())
}

/// Rule 10 (B): removals still owed are drawn by lot among the units not on a
/// supply center; if every unit stands on one, among all (ruling GTD-10).
fn removals_by_lot(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    ctx: &mut Ctx,
    lot: &mut Lot<'_>,
    report: &mut WinterReport,
) -> Result<(), LotError> {
    while ctx.balance < 0 {
        let units: Vec<Province> = position
            .units
            .iter()
            .filter(|u| u.power == ctx.country)
            .map(|u| u.province())
            .collect();
        let off: Vec<Province> = units
            .iter()
            .copied()
            .filter(|p| !map.is_supply_center(*p))
            .collect();
        let pool = if off.is_empty() { units } else { off };
        let Some(p) = pick(
            map,
            state,
            lot,
            "GTD rule 10(B): removal from",
            ctx.country,
            &pool,
        )?
        else {
            break;
        };
        take_off(state, position, p);
        report.lot_removals.push((ctx.country, p, "rule 10(B)"));
        ctx.balance += 1;
    }
    Ok(())
}

/// Rule 11 (F): excess units due this Winter and still in excess at its end are
/// chosen by lot among the player's units of the country and removed.
fn excess_by_lot(
    map: &Map,
    state: &mut GtdState,
    position: &mut Position,
    start: &WinterStart,
    country: Power,
    lot: &mut Lot<'_>,
    report: &mut WinterReport,
) -> Result<(), LotError> {
    let now = limits::excess(state, position, country);
    for (_, player, due) in start.excess.iter().filter(|e| e.0 == country) {
        let still = now.iter().find(|(p, _)| p == player).map_or(0, |x| x.1);
        for _ in 0..(*due).min(still) {
            let pool = state.commanded(position, country, player);
            let purpose = format!("GTD rule 11(F): excess unit of {player} in");
            let Some(p) = pick(map, state, lot, &purpose, country, &pool)? else {
                break;
            };
            take_off(state, position, p);
            report.lot_removals.push((country, p, "rule 11(F)"));
        }
    }
    Ok(())
}

fn pick(
    map: &Map,
    state: &mut GtdState,
    lot: &mut Lot<'_>,
    purpose: &str,
    country: Power,
    pool: &[Province],
) -> Result<Option<Province>, LotError> {
    if pool.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = pool.iter().map(|p| map.abbr(*p).to_uppercase()).collect();
    let purpose = format!("{purpose} {}", name_of(state, country));
    let won = draw_recorded(state, lot, &purpose, &names)?;
    Ok(pool
        .iter()
        .copied()
        .find(|p| map.abbr(*p).eq_ignore_ascii_case(&won)))
}

/// A country with neither units nor centers is out of the game; its head heads
/// it no more (rule 13 counts living countries only).
pub fn retire_gone(state: &mut GtdState, position: &Position) {
    for c in state.countries.iter_mut().filter(|c| !c.gone) {
        let power = Power(c.power);
        if position.unit_count(power) == 0 && position.centers_of(power).is_empty() {
            c.gone = true;
            c.hog = None;
        }
    }
}
