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

/// Per power: centers minus units, and the home centers free to build in
/// (owned by the power and empty). One pass over the board.
pub(crate) struct Room {
    counts: [(i32, u32); MAX_POWERS],
}

const MAX_POWERS: usize = 32;

impl Room {
    pub fn of(map: &Map, position: &Position) -> Room {
        let mut counts = [(0i32, 0u32); MAX_POWERS];
        // One more counter for powers beyond `MAX_POWERS`: no bounds check.
        let mut centers = [0i32; MAX_POWERS + 1];
        for p in map.supply_centers().iter() {
            if let Some(Some(o)) = position.owners.get(p.0 as usize) {
                centers[(o.0 as usize).min(MAX_POWERS)] += 1;
            }
        }
        for (c, &k) in counts.iter_mut().zip(&centers) {
            c.0 = k;
        }
        let on_board = board_mask(map);
        let mut occupied = ProvinceSet::EMPTY;
        for u in &position.units {
            if on_map(map, u.province()) {
                occupied.insert(u.province());
            }
            if let Some(c) = counts.get_mut(u.power.0 as usize) {
                c.0 -= 1;
            }
        }
        // Only the few empty home centers need their owner looked up.
        for (k, home) in position.homes.iter().enumerate().take(MAX_POWERS) {
            let power = Some(Power(k as u8));
            let empty = ProvinceSet(home.0 & on_board.0 & !occupied.0);
            let mut free = 0;
            for p in empty.iter() {
                free += u32::from(position.owner(p) == power);
            }
            counts[k].1 = free;
        }
        Room { counts }
    }

    /// (centers minus units, free home centers) of `power`.
    pub fn get(&self, power: Power) -> (i32, u32) {
        self.counts.get(power.0 as usize).copied().unwrap_or((0, 0))
    }
}

fn adjustment_needed(map: &Map, position: &Position) -> bool {
    let room = Room::of(map, position);
    (0..map.powers().len()).any(|i| {
        let (diff, free) = room.get(Power(i as u8));
        diff < 0 || (diff > 0 && free > 0)
    })
}

/// Every province index of this map, as a set.
fn board_mask(map: &Map) -> ProvinceSet {
    match map.province_count() {
        n if n >= 128 => ProvinceSet(u128::MAX),
        n => ProvinceSet((1u128 << n) - 1),
    }
}

/// Is `p` a province index of this map?
pub(crate) fn on_map(map: &Map, p: Province) -> bool {
    (p.0 as usize) < map.province_count()
}
