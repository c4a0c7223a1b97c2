//! The retreat phase: dislodged units retreat or are disbanded.

use super::maps::{OrderMaps, pick};
use super::movement::step_target;
use super::{
    Adjudication, Allegiance, Dislodged, Position, Reason, Resolution, Rules, Verdict, transition,
};
use crate::map::{Location, Map, ProvinceSet, Terrain, UnitKind};
use crate::orders::{Order, PowerOrder, UnitSpec};

/// Where a dislodged unit may retreat under the 2023 rules: a province it could move
/// to, empty, not left empty by a standoff, and not its attacker's origin unless the
/// attack came by convoy (DATC 4.A.5 b). A fleet gets one entry per reachable coast.
pub fn retreat_options(map: &Map, position: &Position, d: &Dislodged) -> Vec<Location> {
    retreat_options_with(map, &Rules::default(), position, d)
}

/// [`retreat_options`] under the given rules (`Rules::retreat_to_convoy_origin`).
pub fn retreat_options_with(
    map: &Map,
    rules: &Rules,
    position: &Position,
    d: &Dislodged,
) -> Vec<Location> {
    let from = d.unit.location;
    let open = open_provinces(map, rules, d, closed(map, position));
    let mut out = Vec::new();
    for p in open.iter() {
        match d.unit.kind {
            UnitKind::Army => out.push(Location::from(p)),
            UnitKind::Fleet => out.extend(map.fleet_targets(from, p)),
        }
    }
    out
}

/// Can any unit of `position.dislodged` retreat? Asked on every movement phase, so
/// it lists nothing.
pub(crate) fn any_can_retreat(map: &Map, rules: &Rules, position: &Position) -> bool {
    if position.dislodged.is_empty() {
        return false;
    }
    let closed = closed(map, position);
    position
        .dislodged
        .iter()
        .any(|d| !open_provinces(map, rules, d, closed).is_empty())
}

/// Provinces no retreat may enter: occupied, or left empty by a standoff.
fn closed(map: &Map, position: &Position) -> ProvinceSet {
    ProvinceSet(position.contested.0 | transition::occupied(map, position).0)
}

/// The provinces `d` may retreat to: ones it could move to that are not `closed`
/// and not its attacker's origin unless the attack came by convoy (as the rules say).
fn open_provinces(map: &Map, rules: &Rules, d: &Dislodged, closed: ProvinceSet) -> ProvinceSet {
    let from = d.unit.location;
    if !transition::on_map(map, from.province) {
        return ProvinceSet::EMPTY;
    }
    let neighbours = match d.unit.kind {
        UnitKind::Army => map.army_neighbours(from.province),
        UnitKind::Fleet => map.fleet_neighbours(from),
    };
    let origin_open = d.via_convoy && rules.retreat_to_convoy_origin;
    ProvinceSet(neighbours.0 & !closed.0)
        .iter()
        .filter(|&p| map.terrain(p) != Terrain::Impassable && (p != d.attacker_from || origin_open))
        .collect()
}

pub(super) fn adjudicate<A: Allegiance + ?Sized>(
    map: &Map,
    maps: Option<&OrderMaps<'_>>,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    let n = position.dislodged.len();
    // Per dislodged unit: the order it carries out (index) and its destination.
    let mut chosen: Vec<Option<(usize, Option<Location>)>> = vec![None; n];
    let mut resolutions: Vec<Resolution> = Vec::with_capacity(orders.len() + n);
    for (i, po) in orders.iter().enumerate() {
        let (verdict, reason, target) = check(pick(maps, map, i), rules, allegiance, position, po);
        resolutions.push(Resolution {
            power: po.power,
            order: po.order,
            verdict,
            dislodged: false,
            dislodged_by: None,
            reason,
            defaulted: false,
        });
        if let Some((k, to)) = target {
            if let Some((prev, _)) = chosen[k] {
                resolutions[prev].verdict = Verdict::Void;
                resolutions[prev].reason = Reason::Replaced;
            }
            chosen[k] = Some((i, to));
        }
    }
    // Two retreats to one province: both units are disbanded.
    let mut seen = ProvinceSet::EMPTY;
    let mut clash = ProvinceSet::EMPTY;
    for (_, to) in chosen.iter().flatten() {
        if let Some(l) = to {
            if seen.contains(l.province) {
                clash.insert(l.province);
            }
            seen.insert(l.province);
        }
    }
    let mut after = position.clone();
    after.dislodged.clear();
    after.contested = ProvinceSet::EMPTY;
    for (k, d) in position.dislodged.iter().enumerate() {
        match chosen[k] {
            Some((i, Some(to))) if clash.contains(to.province) => {
                let with = chosen
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .find_map(|(j, c)| match c {
                        Some((_, Some(t))) if t.province == to.province => {
                            Some(position.dislodged[j].unit.location.province)
                        }
                        _ => None,
                    })
                    .unwrap_or(to.province);
                resolutions[i].verdict = Verdict::Bounce;
                resolutions[i].reason = Reason::RetreatClash { with };
            }
            Some((_, Some(to))) => {
                let mut unit = d.unit;
                unit.location = to;
                after.units.push(unit);
            }
            Some((_, None)) => {}
            None => resolutions.push(Resolution {
                power: d.unit.power,
                order: Order::Disband { unit: spec(d) },
                verdict: Verdict::Disband,
                dislodged: false,
                dislodged_by: None,
                reason: Reason::NoRetreat,
                defaulted: true,
            }),
        }
    }
    transition::advance(map, rules, &mut after, position.phase);
    Adjudication { resolutions, after }
}

fn spec(d: &Dislodged) -> UnitSpec {
    UnitSpec {
        kind: Some(d.unit.kind),
        location: d.unit.location,
        power: Some(d.unit.power),
    }
}

type Checked = (Verdict, Reason, Option<(usize, Option<Location>)>);

/// One retreat-phase order: its verdict if it fails now, and otherwise the
/// dislodged unit it is for and where it goes (`None`: disband).
fn check<A: Allegiance + ?Sized>(
    map: &Map,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    po: &PowerOrder,
) -> Checked {
    let void = |r| (Verdict::Void, r, None);
    let (unit, to) = match po.order {
        Order::Move { unit, to, .. } => (unit, Some(to)),
        Order::Disband { unit } | Order::Remove { unit } => (unit, None),
        _ => return void(Reason::WrongPhase),
    };
    let at = unit.location.province;
    let Some(k) = position
        .dislodged
        .iter()
        .position(|d| d.unit.location.province == at)
    else {
        return void(Reason::NoUnit { at });
    };
    let d = &position.dislodged[k];
    if !allegiance.may_order(po.power, &d.unit) {
        return void(Reason::ForeignUnit {
            owner: d.unit.power,
        });
    }
    let Some(to) = to else {
        return (Verdict::Disband, Reason::None, Some((k, None)));
    };
    // The destination is checked as a move's would be (one border, coast
    // settled), then against the provinces still open to a retreat.
    let to = match step_target(map, rules, &d.unit, to) {
        Ok(to) => to,
        Err(reason) => return void(reason),
    };
    if open_provinces(map, rules, d, closed(map, position)).contains(to.province) {
        (Verdict::Ok, Reason::None, Some((k, Some(to))))
    } else {
        void(Reason::RetreatBlocked { to: to.province })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testing::*;

    fn retreat_position(units: &[&str], dislodged_units: &[(&str, &str, bool)]) -> Position {
        let mut p = position("S1901R", units);
        p.dislodged = dislodged_units
            .iter()
            .map(|(u, f, c)| dislodged(u, f, *c))
            .collect();
        p
    }

    #[test]
    fn options_exclude_occupied_contested_and_the_attackers_origin() {
        let mut p = retreat_position(
            &["Germany: A SIL", "Russia: A UKR"],
            &[("Russia: A WAR", "sil", false)],
        );
        p.contested
            .insert(map().lookup("gal").expect("gal").province);
        let d = p.dislodged[0];
        let mut got: Vec<String> = retreat_options(map(), &p, &d)
            .iter()
            .map(|l| map().location_code(*l))
            .collect();
        got.sort();
        assert_eq!(got, ["LVN", "MOS", "PRU"]);
        // Dislodged by a convoyed army: its origin is open (DATC 4.A.5 b).
        let d = dislodged("Russia: A WAR", "pru", true);
        let got: Vec<String> = retreat_options(map(), &p, &d)
            .iter()
            .map(|l| map().location_code(*l))
            .collect();
        assert!(got.contains(&"PRU".to_string()));
    }

    #[test]
    fn a_fleet_retreat_lists_each_reachable_coast() {
        let p = retreat_position(&[], &[("France: F MAO", "bre", false)]);
        let got: Vec<String> = retreat_options(map(), &p, &p.dislodged[0])
            .iter()
            .map(|l| map().location_code(*l))
            .collect();
        assert!(got.contains(&"SPA/NC".to_string()) && got.contains(&"SPA/SC".to_string()));
    }

    #[test]
    fn two_retreats_to_one_place_both_disband_and_unordered_units_disband() {
        let p = retreat_position(
            &[],
            &[
                ("Russia: A WAR", "sil", false),
                ("Austria: A BOH", "mun", false),
                ("Italy: A VEN", "tyr", false),
            ],
        );
        let adj = play(
            &Rules::default(),
            &p,
            &["Russia: A WAR - GAL", "Austria: A BOH - GAL"],
        );
        assert_eq!(results(&adj), ["bounce", "bounce"]);
        assert_eq!(
            adj.resolutions[0].reason,
            Reason::RetreatClash {
                with: map().lookup("boh").expect("boh").province
            }
        );
        let defaults: Vec<_> = adj.resolutions.iter().filter(|r| r.defaulted).collect();
        assert_eq!(defaults.len(), 1);
        assert_eq!(defaults[0].verdict, Verdict::Disband);
        assert!(adj.after.units.is_empty());
        assert!(adj.after.dislodged.is_empty());
        assert_eq!(adj.after.phase.to_string(), "F1901M");
    }

    #[test]
    fn a_retreat_to_a_closed_province_is_void_and_the_unit_disbands() {
        let p = retreat_position(&["Germany: A SIL"], &[("Russia: A WAR", "pru", false)]);
        let adj = play(
            &Rules::default(),
            &p,
            &["Russia: A WAR - PRU", "Russia: A WAR - SIL"],
        );
        assert_eq!(results(&adj), ["void", "void"]);
        assert!(
            adj.after
                .units
                .iter()
                .all(|u| u.power != power_of("Russia"))
        );
        let adj = play(&Rules::default(), &p, &["Russia: A WAR - UKR"]);
        assert_eq!(results(&adj), ["ok"]);
        assert_eq!(units_after(&adj), ["A SIL", "A UKR"]);
    }
}
