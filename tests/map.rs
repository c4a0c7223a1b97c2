//! The standard map: counts, known borders, spellings, distances, and a
//! cross-check of every fact against the reference map in `../shared/maps`.

use legate::map::{Coast, Location, Map, Province, Terrain, UnitKind};

fn std_map() -> &'static Map {
    Map::standard()
}

fn p(name: &str) -> Province {
    match std_map().lookup(name) {
        Some(loc) => loc.province,
        None => panic!("no province {name:?}"),
    }
}

fn loc(name: &str) -> Location {
    match std_map().lookup(name) {
        Some(loc) => loc,
        None => panic!("no location {name:?}"),
    }
}

#[test]
fn counts() {
    let map = std_map();
    assert_eq!(map.playable_count(), 75);
    assert_eq!(
        map.province_count(),
        76,
        "Switzerland is kept as an impassable province"
    );
    let count = |t: Terrain| map.provinces().filter(|&q| map.terrain(q) == t).count();
    assert_eq!(count(Terrain::Sea), 19);
    assert_eq!(count(Terrain::Inland), 14);
    assert_eq!(count(Terrain::Coastal), 42);
    assert_eq!(count(Terrain::Impassable), 1);
    assert_eq!(map.supply_centers().len(), 34);
    assert_eq!(
        map.provinces().filter(|&q| map.is_supply_center(q)).count(),
        34
    );
    assert_eq!(map.powers().len(), 7);
    let units: usize = map.powers().iter().map(|p| p.starting_units.len()).sum();
    assert_eq!(units, 22);
    let homes: usize = map.powers().iter().map(|p| p.home_centers.len()).sum();
    assert_eq!(homes, 22);
    assert_eq!(map.army_borders().len(), 111);
    assert_eq!(map.fleet_borders().len(), 141);
}
