//! From one phase to the next: phases where nothing can happen are skipped, and
//! supply centers change hands when the Fall turns are over.

use super::{Position, Rules, retreat};
use crate::map::{Map, Power, Province, ProvinceSet};
use crate::phase::{Phase, PhaseKind, Season};

/// Sets `after.phase` to the phase actually played after `played`, updating
/// ownership on the way out of the Fall.
pub(crate) fn advance(map: &Map, rules: &Rules, after: &mut Position, played: Phase) {
    let mut next = played.successor();
    loop {
        if next.season == Season::Winter {
            take_centers(map, after);
        }
        let play = match next.kind {
            PhaseKind::Movement => true,
            PhaseKind::Retreat => retreat::any_can_retreat(map, rules, after),
            PhaseKind::Adjustment => adjustment_needed(map, after),
        };
        if play {
            break;
        }

        next = next.successor();
    }
    after.phase = next;
}

/// A unit standing on a supply center at the end of the Fall takes it.
fn take_centers(map: &Map, after: &mut Position) {
    if after.owners.len() < map.province_count() {
        after.owners.resize(map.province_count(), None);
    }
    let centers = map.supply_centers();
    for u in &after.units {
        let p = u.location.province;
        if centers.contains(p)
            && let Some(o) = after.owners.get_mut(p.0 as usize)
        {
            *o = Some(u.power);
        }
    }
}

/// Per power: supply centers minus units on the board. One pass over the
/// centers and one over the units.
pub(crate) struct Room {
    /// Indexed by every `u8` power index: no bounds check, no clamping.
    diff: [i16; 256],
}

impl Room {
    #[inline]
    pub fn of(map: &Map, position: &Position) -> Room {
        let mut diff = [0i16; 256];
        for p in map.supply_centers().iter() {
            if let Some(Some(o)) = position.owners.get(p.0 as usize) {
                diff[o.0 as usize] += 1;
            }
        }
        for u in &position.units {
            diff[u.power.0 as usize] -= 1;
        }
        Room { diff }
    }

    /// Centers minus units of `power`: builds due if positive, removals if negative.
    pub fn get(&self, power: Power) -> i32 {
        i32::from(self.diff[power.0 as usize])
    }
}

/// Is there an adjustment to make: a removal, or a build with a home center
/// free to build in? Free home centers are looked for only when builds are due.
fn adjustment_needed(map: &Map, position: &Position) -> bool {
    let room = Room::of(map, position);
    let powers = || (0..map.powers().len().min(256)).map(|i| Power(i as u8));
    if powers().any(|p| room.get(p) < 0) {
        return true;
    }
    let mut growing = powers().filter(|&p| room.get(p) > 0).peekable();
    if growing.peek().is_none() {
        return false;
    }
    let free = ProvinceSet(board_mask(map).0 & !occupied(map, position).0);
    growing.any(|power| {
        let empty = ProvinceSet(position.home_of(power).0 & free.0);
        empty.iter().any(|p| position.owner(p) == Some(power))
    })
}

/// Every province index of this map, as a set.
fn board_mask(map: &Map) -> ProvinceSet {
    match map.province_count() {
        n if n >= 128 => ProvinceSet(u128::MAX),
        n => ProvinceSet((1u128 << n) - 1),
    }
}

/// The provinces of this map holding a unit.
pub(crate) fn occupied(map: &Map, position: &Position) -> ProvinceSet {
    let mut set = ProvinceSet::EMPTY;
    for u in &position.units {
        if on_map(map, u.province()) {
            set.insert(u.province());
        }
    }
    set
}

/// Is `p` a province index of this map?
pub(crate) fn on_map(map: &Map, p: Province) -> bool {
    (p.0 as usize) < map.province_count()
}

#[cfg(test)]
mod tests {
    use crate::judge::Rules;
    use crate::judge::testing::{map, play, position, power_of};

    /// The phase played after a Fall movement in which only France owns centres
    /// (its home centres, plus `extra`) and Gascony moves to Spain or holds.
    fn after_fall(units: &[&str], extra: &[&str], take_spain: bool) -> String {
        let france = power_of("France");
        let mut p = position("F1901M", units);
        for o in p.owners.iter_mut().filter(|o| **o != Some(france)) {
            *o = None;
        }
        for c in extra {
            p.owners[map().lookup(c).expect(c).province.0 as usize] = Some(france);
        }
        let order = if take_spain {
            "France: A GAS - SPA"
        } else {
            "France: A GAS H"
        };
        play(&Rules::default(), &p, &[order])
            .after
            .phase
            .to_string()
    }

    #[test]
    fn winter_is_played_only_when_someone_builds_or_removes() {
        let full = [
            "France: A PAR",
            "France: A MAR",
            "France: F BRE",
            "France: A GAS",
        ];
        // Four centres, four units: nothing to do.
        assert_eq!(after_fall(&full, &[], true), "S1902M");
        // Three centres, four units: a removal.
        assert_eq!(after_fall(&full, &[], false), "W1901A");
        // Four centres, three units, Brest empty: a build.
        let short = ["France: A PAR", "France: A MAR", "France: A GAS"];
        assert_eq!(after_fall(&short, &[], true), "W1901A");
        // Five centres, four units, but every home centre occupied: no room to build.
        assert_eq!(after_fall(&full, &["bel"], true), "S1902M");
    }
}
