//! The state of the board between phases.

use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::phase::Phase;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: Power,
    pub kind: UnitKind,
    pub location: Location,
}

impl Unit {
    pub fn province(&self) -> Province {
        self.location.province
    }
}

/// A unit driven out of its province, waiting to retreat. `unit.location` is the
/// province it was dislodged from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dislodged {
    pub unit: Unit,
    pub attacker_from: Province,
    pub via_convoy: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub phase: Phase,
    /// Units on the board (not dislodged).
    pub units: Vec<Unit>,
    /// Units awaiting retreat: the input of a retreat phase, the output of a movement
    /// phase. After a movement phase it lists every dislodged unit, also when the
    /// retreat phase is skipped because none can retreat (then `phase` is not a
    /// retreat phase and the list is only a record: the next phase ignores it).
    pub dislodged: Vec<Dislodged>,
    /// Provinces left empty by a standoff in the movement phase (no retreat there).
    pub contested: ProvinceSet,
    /// Supply-center owner per province index (`None` for unowned or not a center).
    pub owners: Vec<Option<Power>>,
    /// Home centers per power index.
    pub homes: Vec<ProvinceSet>,
}

impl Position {
    /// The opening position of the map: starting units, home centers owned.
    pub fn initial(map: &Map) -> Position {
        let mut units = Vec::new();
        let mut owners = vec![None; map.province_count()];
        let mut homes = Vec::with_capacity(map.powers().len());
        for (i, info) in map.powers().iter().enumerate() {
            let power = Power(i as u8);
            for &(kind, location) in &info.starting_units {
                units.push(Unit {
                    power,
                    kind,
                    location,
                });
            }
            let mut home = ProvinceSet::EMPTY;
            for &p in &info.home_centers {
                home.insert(p);
                if let Some(o) = owners.get_mut(p.0 as usize) {
                    *o = Some(power);
                }
            }
            homes.push(home);
        }
        Position {
            phase: Phase::first(),
            units,
            dislodged: Vec::new(),
            contested: ProvinceSet::EMPTY,
            owners,
            homes,
        }
    }

    /// The unit on the board in province `p` (any coast).
    pub fn unit_at(&self, p: Province) -> Option<&Unit> {
        self.units.iter().find(|u| u.location.province == p)
    }

    /// The dislodged unit from province `p`.
    pub fn dislodged_at(&self, p: Province) -> Option<&Dislodged> {
        self.dislodged
            .iter()
            .find(|d| d.unit.location.province == p)
    }

    /// Owner of the supply center in `p`.
    pub fn owner(&self, p: Province) -> Option<Power> {
        self.owners.get(p.0 as usize).copied().flatten()
    }

    /// Supply centers owned by `power`.
    pub fn centers_of(&self, power: Power) -> ProvinceSet {
        let mut set = ProvinceSet::EMPTY;
        for (i, o) in self.owners.iter().enumerate() {
            if *o == Some(power) {
                set.insert(Province(i as u8));
            }
        }
        set
    }

    /// Home centers of `power` (empty for an unknown power).
    pub fn home_of(&self, power: Power) -> ProvinceSet {
        self.homes
            .get(power.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Number of units `power` has on the board.
    pub fn unit_count(&self, power: Power) -> usize {
        self.units.iter().filter(|u| u.power == power).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_position_has_22_units_and_owned_home_centers() {
        let map = Map::standard();
        let p = Position::initial(map);
        assert_eq!(p.units.len(), 22);
        assert_eq!(p.owners.iter().flatten().count(), 22);
        let france = map.power("France").expect("France");
        let paris = map.lookup("par").expect("par").province;
        assert_eq!(p.owner(paris), Some(france));
        assert!(p.home_of(france).contains(paris));
        assert_eq!(p.unit_at(paris).map(|u| u.kind), Some(UnitKind::Army));
        assert_eq!(p.centers_of(france).len(), 3);
    }
}
