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
    use crate::judge::testing::*;
    use crate::judge::{Countries, Dislodged, Rules, adjudicate_on};

    /// The standard map (index 0) and a Twilight Zone map where Paris borders
    /// Belgium (index 1), with their union as the game map.
    fn two_maps() -> (Vec<Map>, Map) {
        let text = include_str!("../../config/twilight/north-channel.txt");
        let tz = crate::variant::twilight::check(text, "tz")
            .expect("valid")
            .map;
        let maps = vec![Map::standard().clone(), tz];
        let union = crate::variant::twilight::union(&[&maps[0], &maps[1]]).expect("union");
        (maps, union)
    }

    fn play_on(
        maps: &[Map],
        game: &Map,
        phase: &str,
        units: &[&str],
        lines: &[&str],
        choice: &[Option<u8>],
    ) -> crate::judge::Adjudication {
        let p = position(phase, units);
        let given = orders(&p, lines);
        let m = OrderMaps::new(maps, choice);
        adjudicate_on(game, &m, &Rules::default(), &Countries, &p, &given)
    }

    #[test]
    fn a_move_is_legal_on_the_map_its_order_names_only() {
        let (maps, game) = two_maps();
        let units = ["France: A PAR"];
        let adj = play_on(
            &maps,
            &game,
            "S1901M",
            &units,
            &["France: A PAR - BEL"],
            &[Some(1)],
        );
        assert_eq!(results(&adj), ["ok"]);
        let adj = play_on(
            &maps,
            &game,
            "S1901M",
            &units,
            &["France: A PAR - BEL"],
            &[Some(0)],
        );
        assert_eq!(results(&adj), ["void"]);
    }

    #[test]
    fn moves_on_different_maps_stand_off_and_supports_count_across_maps() {
        let (maps, game) = two_maps();
        let units = ["France: A PAR", "Germany: A RUH", "France: A BUR"];
        let lines = ["France: A PAR - BEL", "Germany: A RUH - BEL"];
        let adj = play_on(&maps, &game, "S1901M", &units, &lines, &[Some(1), Some(0)]);
        assert_eq!(results(&adj), ["bounce", "bounce"]);
        // Burgundy supports on the standard map a move made on the other one.
        let lines = [
            "France: A PAR - BEL",
            "Germany: A RUH - BEL",
            "France: A BUR S A PAR - BEL",
        ];
        let choice = [Some(1), Some(0), Some(0)];
        let adj = play_on(&maps, &game, "S1901M", &units, &lines, &choice);
        assert_eq!(results(&adj), ["ok", "bounce", "ok"]);
    }

    #[test]
    fn a_convoy_route_is_found_on_the_maps_the_orders_name() {
        // On the second map the Black Sea opens on the Aegean.
        let (maps, game) = two_maps();
        let units = ["Russia: A RUM", "Russia: F BLA", "Russia: F AEG"];
        let lines = [
            "Russia: A RUM - GRE",
            "Russia: F BLA C A RUM - GRE",
            "Russia: F AEG C A RUM - GRE",
        ];
        let adj = play_on(&maps, &game, "S1901M", &units, &lines, &[Some(1); 3]);
        assert_eq!(results(&adj), ["ok", "ok", "ok"]);
        let adj = play_on(&maps, &game, "S1901M", &units, &lines, &[Some(0); 3]);
        assert_eq!(results(&adj)[0], "void");
    }

    #[test]
    fn a_retreat_is_legal_on_the_map_its_order_names_only() {
        let (maps, game) = two_maps();
        let mut p = position("S1901R", &["Germany: A BUR"]);
        p.dislodged = vec![Dislodged {
            unit: unit("France: A PAR"),
            attacker_from: Map::standard().lookup("bur").expect("bur").province,
            via_convoy: false,
        }];
        let given = orders(&p, &["France: A PAR - BEL"]);
        for (choice, want) in [(Some(1), "ok"), (Some(0), "void")] {
            let c = [choice];
            let m = OrderMaps::new(&maps, &c);
            let adj = adjudicate_on(&game, &m, &Rules::default(), &Countries, &p, &given);
            assert_eq!(results(&adj), [want], "{choice:?}");
        }
    }

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
