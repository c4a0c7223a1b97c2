//! Section 24: a contestant who leaves or misses a turn and is not replaced.
//! Eir units hold and do not support each other, dislodged units are disbanded,
//! no units are built, and removals take the units farthest from the country
//! first, fleets before armies at equal distance, then by province name.
//!
//! All of that is what the judge does for a power with no orders, under the
//! older rulebooks' civil-disorder rule (`CivilDisorder::HomeCenter`); this
//! module picks those rules, strips a collapsed power's orders, and states the
//! removal order for reports (checked against the judge in the tests).

use crate::judge::{CivilDisorder, Edition, Position, Rules, Unit};
use crate::map::{Location, Map, Power, ProvinceSet, UnitKind};
use crate::orders::PowerOrder;

/// The rules Agora plays: the rulebook the regulations cite (the 2000 edition),
/// whose civil-disorder rule counts distance from the home supply centres.
pub fn rules() -> Rules {
    let r = Rules::preset(Edition::E2000);
    debug_assert_eq!(r.civil_disorder, CivilDisorder::HomeCenter);
    r
}

/// The orders that count: none from a power in civil disorder, so its units hold
/// without supporting each other and it neither retreats nor builds.
pub fn strip(orders: &[PowerOrder], collapsed: &[Power]) -> Vec<PowerOrder> {
    orders
        .iter()
        .filter(|o| !collapsed.contains(&o.power))
        .copied()
        .collect()
}

/// `power`'s units in the order section 24 removes them: farthest from a home
/// supply centre first (armies count every border, fleets sail), fleets before
/// armies, then by English province name.
pub fn removal_order(map: &Map, position: &Position, power: Power) -> Vec<Unit> {
    let homes = position.home_of(power);
    let mut units: Vec<(u8, Unit)> = position
        .units
        .iter()
        .filter(|u| u.power == power)
        .map(|u| (distance(map, u, homes), *u))
        .collect();
    units.sort_by(|(da, a), (db, b)| {
        db.cmp(da)
            .then((a.kind == UnitKind::Army).cmp(&(b.kind == UnitKind::Army)))
            .then_with(|| name(map, a).cmp(&name(map, b)))
    });
    units.into_iter().map(|(_, u)| u).collect()
}

fn name(map: &Map, u: &Unit) -> String {
    map.name(u.province()).to_lowercase()
}

/// Steps to the nearest home centre. A fleet counts the moves it could make;
/// when it can reach none (an inland home country), every border counts.
fn distance(map: &Map, unit: &Unit, homes: ProvinceSet) -> u8 {
    let any = || {
        homes
            .iter()
            .map(|h| map.distance(unit.province(), h))
            .min()
            .unwrap_or(u8::MAX)
    };
    match unit.kind {
        UnitKind::Army => any(),
        UnitKind::Fleet => sail(map, unit.province(), homes).unwrap_or_else(any),
    }
}

fn sail(map: &Map, from: crate::map::Province, targets: ProvinceSet) -> Option<u8> {
    let mut reached = ProvinceSet::EMPTY;
    reached.insert(from);
    let mut frontier = reached;
    for step in 0..u8::MAX {
        if frontier.0 & targets.0 != 0 {
            return Some(step);
        }
        let mut next = ProvinceSet::EMPTY;
        for p in frontier.iter() {
            let coasts = map.coasts(p);
            if coasts.is_empty() {
                next.0 |= map.fleet_neighbours(Location::from(p)).0;
            }
            for &c in coasts {
                next.0 |= map.fleet_neighbours(Location::new(p, Some(c))).0;
            }
        }
        next.0 &= !reached.0;
        if next.is_empty() {
            return None;
        }
        reached.0 |= next.0;
        frontier = next;
    }
    None
}
