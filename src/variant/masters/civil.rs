//! Removals for a power that orders fewer than it owes: the judge's civil-disorder
//! rule (DATC 4.D.8), made here because Masters adjustments are resolved outside
//! the judge, and kept to the same order so a game reads the same either way.

use crate::judge::{CivilDisorder, Position, Rules, Unit};
use crate::map::{Map, Power, Province, ProvinceSet, UnitKind};

/// The unit removed next: furthest from an owned center (2023) or home center
/// (older rules), fleets before armies, then by English province name.
pub fn pick(map: &Map, rules: &Rules, position: &Position, power: Power) -> Option<Unit> {
    let targets = match rules.civil_disorder {
        CivilDisorder::OwnedCenter => position.centers_of(power),
        CivilDisorder::HomeCenter => position.home_of(power),
    };
    position
        .units
        .iter()
        .filter(|u| u.power == power)
        .max_by(|a, b| {
            let (da, db) = (
                nearest(map, a.province(), targets),
                nearest(map, b.province(), targets),
            );
            da.cmp(&db)
                .then((a.kind == UnitKind::Fleet).cmp(&(b.kind == UnitKind::Fleet)))
                .then_with(|| name(map, b.province()).cmp(&name(map, a.province())))
        })
        .copied()
}

fn name(map: &Map, p: Province) -> String {
    map.name(p).to_lowercase()
}

fn nearest(map: &Map, from: Province, targets: ProvinceSet) -> u8 {
    targets
        .iter()
        .map(|t| map.distance(from, t))
        .min()
        .unwrap_or(u8::MAX)
}
