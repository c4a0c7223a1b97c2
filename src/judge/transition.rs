//! From one phase to the next: phases where nothing can happen are skipped, and
//! supply centers change hands when the Fall turns are over.

use super::{Position, retreat};
use crate::map::{Map, Power, Province};
use crate::phase::{Phase, PhaseKind, Season};

/// Sets `after.phase` to the phase actually played after `played`, updating
/// ownership on the way out of the Fall.
pub(crate) fn advance(map: &Map, after: &mut Position, played: Phase) {
    let mut next = played.successor();
    loop {
        if next.season == Season::Winter {
            take_centers(map, after);
        }
        let play = match next.kind {
            PhaseKind::Movement => true,
            PhaseKind::Retreat => after
                .dislodged
                .iter()
                .any(|d| !retreat::retreat_options(map, after, d).is_empty()),
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
    for u in &after.units {
        let p = u.location.province;
        if map.is_supply_center(p) {
            if let Some(o) = after.owners.get_mut(p.0 as usize) {
                *o = Some(u.power);
            }
        }
    }
}

/// Builds a power may make now: centers over units, limited by its free home centers.
pub(crate) fn build_room(map: &Map, position: &Position, power: Power) -> (i32, u32) {
    let centers = position.centers_of(power).len() as i32;
    let units = position.unit_count(power) as i32;
    let free = position
        .home_of(power)
        .iter()
        .filter(|&h| position.owner(h) == Some(power) && position.unit_at(h).is_none())
        .filter(|&h| (h.0 as usize) < map.province_count())
        .count() as u32;
    (centers - units, free)
}

fn adjustment_needed(map: &Map, position: &Position) -> bool {
    (0..map.powers().len()).any(|i| {
        let (diff, free) = build_room(map, position, Power(i as u8));
        diff < 0 || (diff > 0 && free > 0)
    })
}

/// Is `p` a province index of this map?
pub(crate) fn on_map(map: &Map, p: Province) -> bool {
    (p.0 as usize) < map.province_count()
}
