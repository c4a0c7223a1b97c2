//! The adjustment phase: builds and removals, waived builds, and removals by the
//! civil-disorder rule when a power does not order enough of them.

use super::{
    Adjudication, Allegiance, CivilDisorder, Position, Reason, Resolution, Rules, Unit, Verdict,
    transition,
};
use crate::map::{Location, Map, Power, Province, ProvinceSet, Terrain, UnitKind};
use crate::orders::{Order, PowerOrder, UnitSpec};

pub(super) fn adjudicate<A: Allegiance + ?Sized>(
    map: &Map,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    let powers = map.powers().len();
    let mut after = position.clone();
    after.dislodged.clear();
    after.contested = ProvinceSet::EMPTY;
    let mut resolutions = Vec::with_capacity(orders.len() + 4);
    // Builds (positive) or removals (negative) still to make, per power.
    let room = transition::Room::of(map, position);
    let mut left: Vec<i32> = (0..powers).map(|i| room.get(Power(i as u8))).collect();
    let mut removed = ProvinceSet::EMPTY;
    let mut built = ProvinceSet::EMPTY;
    for po in orders {
        let (verdict, reason) = apply(
            map,
            rules,
            allegiance,
            position,
            po,
            &mut left,
            &mut after,
            &mut removed,
            &mut built,
        );
        resolutions.push(Resolution {
            power: po.power,
            order: po.order,
            verdict,
            dislodged: false,
            dislodged_by: None,
            reason,
            defaulted: false,
        });
    }
    for i in 0..powers {
        let power = Power(i as u8);
        let need = left.get(i).copied().unwrap_or(0);
        if need > 0 {
            for _ in 0..need {
                resolutions.push(default(power, Order::Waive, Verdict::Ok, Reason::Waived));
            }
        }
        let owed = need.min(0).unsigned_abs() as usize;
        if owed == 0 {
            continue;
        }
        for unit in removal_order(map, rules, &after, power)
            .into_iter()
            .take(owed)
        {
            after
                .units
                .retain(|u| u.location.province != unit.location.province);
            let spec = UnitSpec {
                kind: Some(unit.kind),
                location: unit.location,
                power: Some(power),
            };
            resolutions.push(default(
                power,
                Order::Remove { unit: spec },
                Verdict::Disband,
                Reason::CivilDisorder,
            ));
        }
    }
    transition::advance(map, rules, &mut after, position.phase);
    Adjudication { resolutions, after }
}

fn default(power: Power, order: Order, verdict: Verdict, reason: Reason) -> Resolution {
    Resolution {
        power,
        order,
        verdict,
        dislodged: false,
        dislodged_by: None,
        reason,
        defaulted: true,
    }
}

#[allow(clippy::too_many_arguments)]
fn apply<A: Allegiance + ?Sized>(
    map: &Map,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    po: &PowerOrder,
    left: &mut [i32],
    after: &mut Position,
    removed: &mut ProvinceSet,
    built: &mut ProvinceSet,
) -> (Verdict, Reason) {
    let Some(room) = left.get_mut(po.power.0 as usize) else {
        return (Verdict::Void, Reason::NoBuildsLeft);
    };
    match po.order {
        Order::Build { unit } => {
            if *room <= 0 {
                return (Verdict::Void, Reason::NoBuildsLeft);
            }
            // A second build in one province finds it occupied.
            if built.contains(unit.location.province) {
                return (
                    Verdict::Void,
                    Reason::Occupied {
                        at: unit.location.province,
                    },
                );
            }
            match home_build(map, position, po.power, unit) {
                Ok(new) => {
                    *room -= 1;
                    built.insert(new.location.province);
                    after.units.push(new);
                    (Verdict::Ok, Reason::None)
                }
                Err(reason) => (Verdict::Void, reason),
            }
        }
        Order::Waive => {
            if *room <= 0 || !rules.waive_allowed {
                return (Verdict::Void, Reason::NoBuildsLeft);
            }
            *room -= 1;
            (Verdict::Ok, Reason::None)
        }
        Order::Remove { unit } | Order::Disband { unit } => {
            let at = unit.location.province;
            let Some(target) = position.unit_at(at).copied() else {
                return (Verdict::Void, Reason::NoUnit { at });
            };
            if !allegiance.may_order(po.power, &target) {
                return (
                    Verdict::Void,
                    Reason::ForeignUnit {
                        owner: target.power,
                    },
                );
            }
            if removed.contains(at) {
                return (Verdict::Void, Reason::NoUnit { at });
            }
            // Removals are counted against the unit's own power.
            let Some(need) = left.get_mut(target.power.0 as usize) else {
                return (Verdict::Void, Reason::NoRemovalsLeft);
            };
            if *need >= 0 {
                return (Verdict::Void, Reason::NoRemovalsLeft);
            }
            *need += 1;
            removed.insert(at);
            after.units.retain(|u| u.location.province != at);
            (Verdict::Ok, Reason::None)
        }
        _ => (Verdict::Void, Reason::WrongPhase),
    }
}

/// A build by `power`: an owned, empty home center and a unit that can stand
/// there (DATC 4.B.7, 4.C.3, 4.C.4, 4.D.5).
pub fn home_build(
    map: &Map,
    position: &Position,
    power: Power,
    spec: UnitSpec,
) -> Result<Unit, Reason> {
    let at = spec.location.province;
    if !transition::on_map(map, at) || !position.home_of(power).contains(at) {
        return Err(Reason::NotHomeCenter { at });
    }
    if position.owner(at) != Some(power) {
        return Err(Reason::CenterNotOwned { at });
    }
    if position.unit_at(at).is_some() {
        return Err(Reason::Occupied { at });
    }
    let (kind, location) = placement(map, spec)?;
    Ok(Unit {
        power,
        kind,
        location,
    })
}

/// The unit kind and location a build of `spec` makes, if one can stand there.
/// Without a unit type: an army inland, a fleet where a coast is named (4.C.3 c).
pub fn placement(map: &Map, spec: UnitSpec) -> Result<(UnitKind, Location), Reason> {
    let at = spec.location.province;
    let terrain = map.terrain(at);
    let coasts = map.coasts(at);
    let coast = spec.location.coast.filter(|c| coasts.contains(c));
    let kind = match spec.kind {
        Some(k) => k,
        None if terrain == Terrain::Inland => UnitKind::Army,
        None if coast.is_some() => UnitKind::Fleet,
        None => return Err(Reason::WrongUnitKind),
    };
    let location = match kind {
        UnitKind::Army if terrain == Terrain::Sea => return Err(Reason::ArmyBuildAtSea { at }),
        UnitKind::Army => Location::from(at),
        UnitKind::Fleet if terrain != Terrain::Coastal => {
            return Err(Reason::FleetBuildInland { at });
        }
        UnitKind::Fleet if coasts.is_empty() => Location::from(at),
        UnitKind::Fleet => match coast {
            Some(c) => Location::new(at, Some(c)),
            None => return Err(Reason::CoastNeeded { to: at }),
        },
    };
    Ok((kind, location))
}

/// `power`'s units in the order the civil-disorder rule removes them (DATC
/// 4.D.8): furthest from an owned center (2023) or a home center (older rules)
/// first, fleets before armies, then by English province name. Removing a unit
/// changes no other unit's distance, so the order holds for every removal.
pub fn removal_order(map: &Map, rules: &Rules, position: &Position, power: Power) -> Vec<Unit> {
    let targets = match rules.civil_disorder {
        CivilDisorder::OwnedCenter => position.centers_of(power),
        CivilDisorder::HomeCenter => position.home_of(power),
    };
    let mut units: Vec<(u8, Unit)> = position
        .units
        .iter()
        .filter(|u| u.power == power)
        .map(|u| {
            let d = match rules.civil_disorder {
                CivilDisorder::OwnedCenter => nearest(map, u.location.province, targets),
                CivilDisorder::HomeCenter => home_distance(map, u, targets),
            };
            (d, *u)
        })
        .collect();
    units.sort_by(|(da, a), (db, b)| {
        db.cmp(da)
            .then((a.kind == UnitKind::Army).cmp(&(b.kind == UnitKind::Army)))
            .then_with(|| {
                // As the lower-case names compare, without making them.
                let lower = |u: &Unit| {
                    map.name(u.location.province)
                        .chars()
                        .flat_map(char::to_lowercase)
                };
                lower(a).cmp(lower(b))
            })
    });
    units.into_iter().map(|(_, u)| u).collect()
}

/// Steps to the nearest province of `targets` over every border (`u8::MAX`: none).
fn nearest(map: &Map, from: Province, targets: ProvinceSet) -> u8 {
    targets
        .iter()
        .map(|t| map.distance(from, t))
        .min()
        .unwrap_or(u8::MAX)
}

/// The older rule's distance to the nearest home center: armies may count sea
/// steps (as a convoy would carry them), fleets move as fleets; a fleet that can
/// reach none (an inland home country) counts every border.
fn home_distance(map: &Map, unit: &Unit, homes: ProvinceSet) -> u8 {
    match unit.kind {
        UnitKind::Army => nearest(map, unit.location.province, homes),
        UnitKind::Fleet => map
            .sailing_distance(unit.location.province, homes)
            .unwrap_or_else(|| nearest(map, unit.location.province, homes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Edition;
    use crate::judge::testing::*;

    /// Winter 1901 with `owners` (power, centers) replacing the whole ownership.
    fn winter(units: &[&str], owners: &[(&str, &[&str])]) -> Position {
        let mut p = position("W1901A", units);
        p.owners = vec![None; map().province_count()];
        for (power, centers) in owners {
            for c in *centers {
                p.owners[map().lookup(c).expect(c).province.0 as usize] = Some(power_of(power));
            }
        }
        p
    }

    #[test]
    fn builds_need_an_owned_empty_home_center_and_a_coast_for_a_multi_coast_fleet() {
        let p = winter(
            &["Russia: A MOS"],
            &[("Russia", &["mos", "stp", "war", "sev", "swe"])],
        );
        let adj = play(
            &Rules::default(),
            &p,
            &[
                "Russia: BUILD A MOS",
                "Russia: BUILD F STP/NC",
                "Russia: BUILD A SWE",
                "Russia: BUILD A WAR",
            ],
        );
        assert_eq!(results(&adj), ["void", "ok", "void", "ok"]);
        assert!(matches!(adj.resolutions[0].reason, Reason::Occupied { .. }));
        assert!(matches!(
            adj.resolutions[2].reason,
            Reason::NotHomeCenter { .. }
        ));
        assert!(units_after(&adj).contains(&"F STP/NC".to_string()));
        // Four builds allowed, two used: the other two are waived.
        let waived: Vec<_> = adj.resolutions.iter().filter(|r| r.defaulted).collect();
        assert_eq!(waived.len(), 2);
        assert_eq!(waived[0].reason, Reason::Waived);
        assert_eq!(adj.after.phase.to_string(), "S1902M");
    }

    #[test]
    fn too_many_builds_use_the_first_legal_ones() {
        let p = winter(&[], &[("France", &["par", "bre"])]);
        let adj = play(
            &Rules::default(),
            &p,
            &[
                "France: BUILD A PAR",
                "France: BUILD F BRE",
                "France: BUILD A MAR",
            ],
        );
        assert_eq!(results(&adj), ["ok", "ok", "void"]);
        assert_eq!(adj.resolutions[2].reason, Reason::NoBuildsLeft);
    }

    #[test]
    fn civil_disorder_removes_the_furthest_from_an_owned_center_fleets_first() {
        // DATC 6.J.7: equal distance, the fleets go first, North Sea before Skagerrak.
        let p = winter(
            &["Russia: A BOH", "Russia: F SKA", "Russia: F NTH"],
            &[("Russia", &["stp", "war"])],
        );
        let adj = play(&Rules::default(), &p, &[]);
        assert_eq!(units_after(&adj), ["A BOH", "F SKA"]);
        assert_eq!(adj.resolutions[0].reason, Reason::CivilDisorder);
        assert!(adj.resolutions[0].defaulted);
    }

    #[test]
    fn civil_disorder_ties_go_by_full_english_name() {
        // Liverpool and Livonia, both one step from an owned center: Liverpool comes
        // first by name (by abbreviation, lvn would come before lvp).
        let p = winter(
            &["England: A LVP", "England: A LVN", "England: A EDI"],
            &[("England", &["edi", "stp"])],
        );
        let adj = play(&Rules::default(), &p, &[]);
        assert_eq!(units_after(&adj), ["A EDI", "A LVN"]);
    }

    #[test]
    fn the_older_rule_counts_from_home_centers() {
        // DATC 6.J.11: the 2023 rule keeps the army defending Warsaw.
        let p = winter(&["Italy: A WAR", "Italy: A TUS"], &[("Italy", &["war"])]);
        let modern = play(&Rules::default(), &p, &[]);
        assert_eq!(units_after(&modern), ["A WAR"]);
        let old = play(&Rules::preset(Edition::E2000), &p, &[]);
        assert_eq!(units_after(&old), ["A TUS"]);
    }

    #[test]
    fn a_removal_counts_once_and_others_follow_civil_disorder() {
        // DATC 6.J.2: removing the same unit twice.
        let p = winter(
            &["France: A PAR", "France: A PIC", "France: A MAR"],
            &[("France", &["bre"])],
        );
        let adj = play(
            &Rules::default(),
            &p,
            &["France: REMOVE A PAR", "France: REMOVE A PAR"],
        );
        assert_eq!(results(&adj), ["ok", "void"]);
        assert_eq!(adj.after.units.len(), 1);
    }
}
