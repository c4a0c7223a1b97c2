//! Per-order map choice: the hook for variants where an order names the board
//! whose borders it uses (Twilight Zone, rule 4.4: every player has a map of
//! their own, and an order may use any of them).
//!
//! Only the questions "may this unit reach there?" change: a move's, a
//! support's, a convoy's and a retreat's reach are checked on the order's map.
//! Everything else (terrain, centers, who conflicts with whom, the strength of
//! each move) is the standard resolution on the game's map, which for such a
//! variant should allow every border of every order map (the union), so that a
//! supported move legal on any map can be supported and a unit that could
//! retreat somewhere gets its retreat phase.
//!
//! The standard game passes no `OrderMaps`: each order then uses the game's map
//! and pays one branch per order.

use crate::map::Map;

/// The maps orders may name, and the one each input order uses.
#[derive(Copy, Clone, Debug)]
pub struct OrderMaps<'a> {
    maps: &'a [Map],
    choice: &'a [Option<u8>],
}

impl<'a> OrderMaps<'a> {
    /// `choice[i]` is the index in `maps` of the map input order `i` names;
    /// `None`, a missing entry or an index out of range: the game's map.
    pub fn new(maps: &'a [Map], choice: &'a [Option<u8>]) -> OrderMaps<'a> {
        OrderMaps { maps, choice }
    }

    /// The map of input order `index`, if it names one.
    fn of(&self, index: usize) -> Option<&'a Map> {
        let i = (*self.choice.get(index)?)?;
        self.maps.get(i as usize)
    }
}

/// The map input order `index` is checked on: its own if `maps` names one,
/// else the game's map `base`.
#[inline]
pub(crate) fn pick<'m>(maps: Option<&OrderMaps<'m>>, base: &'m Map, index: usize) -> &'m Map {
    match maps {
        None => base,
        Some(m) => m.of(index).unwrap_or(base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_without_a_choice_uses_the_game_map() {
        let base = Map::standard();
        let maps = vec![Map::standard().clone()];
        let choice = [Some(0), None, Some(7)];
        let m = OrderMaps::new(&maps, &choice);
        assert!(std::ptr::eq(pick(Some(&m), base, 0), &maps[0]));
        assert!(std::ptr::eq(pick(Some(&m), base, 1), base));
        assert!(std::ptr::eq(pick(Some(&m), base, 2), base));
        assert!(std::ptr::eq(pick(Some(&m), base, 9), base));
        assert!(std::ptr::eq(pick(None, base, 0), base));
    }
}
