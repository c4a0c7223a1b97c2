//! The standard map: counts, known borders, spellings, distances, and a
//! cross-check of every fact against a public reference map is `scripts/crosscheck-map`.

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

#[test]
fn known_fleet_edges() {
    let map = std_map();
    assert!(map.fleet_adjacent(loc("stp/sc"), loc("bot")));
    assert!(map.fleet_adjacent(loc("bot"), loc("stp/sc")));
    assert!(!map.fleet_adjacent(loc("stp/nc"), loc("bot")));
    assert!(map.fleet_adjacent(loc("spa/sc"), loc("mao")));
    assert!(map.fleet_adjacent(loc("spa/nc"), loc("mao")));
    assert!(!map.fleet_adjacent(loc("spa/nc"), loc("wes")));
    assert!(map.fleet_adjacent(loc("con"), loc("smy")));
    assert!(map.fleet_adjacent(loc("bul/ec"), loc("bla")));
    assert!(!map.fleet_adjacent(loc("bul/sc"), loc("bla")));
    // A multi-coast province is only reached by naming a coast.
    assert!(!map.fleet_adjacent(loc("mao"), loc("spa")));
    assert!(!map.fleet_adjacent(loc("spa"), loc("mao")));
}

#[test]
fn army_only_borders() {
    let map = std_map();
    for (a, b) in [
        ("gas", "mar"),
        ("ank", "smy"),
        ("apu", "rom"),
        ("edi", "lvp"),
        ("fin", "nwy"),
        ("pie", "ven"),
    ] {
        assert!(map.army_adjacent(p(a), p(b)), "{a}-{b} army");
        assert!(map.army_adjacent(p(b), p(a)), "{b}-{a} army");
        assert!(
            !map.fleet_adjacent(loc(a), loc(b)),
            "{a}-{b} is not a fleet border"
        );
        assert!(!map.fleet_neighbours(loc(a)).contains(p(b)));
    }
    assert!(map.can_move(UnitKind::Army, loc("gas"), loc("mar")));
    assert!(!map.can_move(UnitKind::Fleet, loc("gas"), loc("mar")));
}

#[test]
fn armies_and_fleets_keep_to_their_terrain() {
    let map = std_map();
    assert!(!map.army_adjacent(p("lon"), p("nth")));
    assert!(!map.army_adjacent(p("lon"), p("bel")));
    assert!(map.army_neighbours(p("nth")).is_empty());
    assert!(map.fleet_neighbours(loc("mun")).is_empty());
    assert!(
        map.fleet_neighbours(loc("spa")).is_empty(),
        "a fleet in Spain stands on a coast"
    );
    assert!(map.army_adjacent(p("spa"), p("por")));
    assert!(map.army_adjacent(p("stp"), p("nwy")));
    assert!(map.can_move(UnitKind::Army, loc("spa"), loc("por")));
    assert!(
        !map.can_move(UnitKind::Army, loc("gas"), loc("spa/nc")),
        "armies ignore coasts"
    );
}

#[test]
fn canals() {
    let map = std_map();
    for sea in ["bal", "hel"] {
        assert!(map.fleet_adjacent(loc("kie"), loc(sea)), "kie-{sea}");
    }
    assert!(
        map.fleet_adjacent(loc("bal"), loc("kie")) && map.fleet_adjacent(loc("kie"), loc("hel"))
    );
    for sea in ["bla", "aeg"] {
        assert!(map.fleet_adjacent(loc("con"), loc(sea)), "con-{sea}");
    }
    assert!(
        map.fleet_adjacent(loc("con"), loc("bul/ec"))
            && map.fleet_adjacent(loc("con"), loc("bul/sc"))
    );
    assert!(map.army_adjacent(p("kie"), p("den")) && map.fleet_adjacent(loc("kie"), loc("den")));
    assert!(map.army_adjacent(p("con"), p("ank")) && map.army_adjacent(p("con"), p("bul")));
}

#[test]
fn fleet_targets_infer_coasts() {
    let map = std_map();
    assert_eq!(
        map.fleet_targets(loc("mao"), p("spa")),
        vec![loc("spa/nc"), loc("spa/sc")]
    );
    assert_eq!(map.fleet_targets(loc("gas"), p("spa")), vec![loc("spa/nc")]);
    assert_eq!(map.fleet_targets(loc("wes"), p("spa")), vec![loc("spa/sc")]);
    assert_eq!(map.fleet_targets(loc("bot"), p("stp")), vec![loc("stp/sc")]);
    assert_eq!(map.fleet_targets(loc("con"), p("bul")).len(), 2);
    assert_eq!(map.fleet_targets(loc("nth"), p("lon")), vec![loc("lon")]);
    assert!(map.fleet_targets(loc("nth"), p("bal")).is_empty());
    assert!(map.reaches(UnitKind::Fleet, loc("gas"), p("spa")));
    assert!(!map.reaches(UnitKind::Fleet, loc("wes"), p("gas")));
}

#[test]
fn lookup_spellings() {
    let map = std_map();
    let stp_nc = Location::new(p("stp"), Some(Coast::North));
    for text in [
        "stp/nc",
        "STP/NC",
        "stp(nc)",
        "stp (nc)",
        "stp nc",
        "stp/north coast",
        "St Petersburg (north coast)",
        "st. petersburg/nc",
        "Saint Petersburg north coast",
        "stp / n.c.",
    ] {
        assert_eq!(map.lookup(text), Some(stp_nc), "{text}");
    }
    for (text, abbr) in [
        ("mid atlantic", "mao"),
        ("Mid-Atlantic Ocean", "mao"),
        ("mid", "mao"),
        ("north atlantic", "nao"),
        ("nat", "nao"),
        ("nrg", "nwg"),
        ("gol", "lyo"),
        ("Gulf of Lyons", "lyo"),
        ("nor", "nwy"),
        ("English Channel", "eng"),
        ("channel", "eng"),
        ("helgoland bight", "hel"),
        ("Heligoland", "hel"),
        ("st petersburg", "stp"),
        ("saint petersburg", "stp"),
        ("St. Petersburg", "stp"),
        ("  north   sea ", "nth"),
        ("Switzerland", "swi"),
    ] {
        let found = map.lookup(text).map(|l| map.abbr(l.province));
        assert_eq!(found, Some(abbr), "{text}");
    }
    assert_eq!(
        map.lookup("bul/nc"),
        Some(loc("bul/ec")),
        "players write bul/nc for the Black Sea coast"
    );
    assert_eq!(map.lookup("spa/wc"), Some(loc("spa/sc")));
    for bad in [
        "",
        "xyz",
        "lon/nc",
        "stp/ec",
        "spa/north coast coast",
        "par (sc)",
    ] {
        assert_eq!(map.lookup(bad), None, "{bad:?}");
    }
    assert_eq!(map.lookup("stp"), Some(Location::new(p("stp"), None)));
}

#[test]
fn spellings_are_sorted_normalised_and_complete() {
    let map = std_map();
    let list = map.spellings();
    assert!(
        list.windows(2).all(|w| w[0].0 < w[1].0),
        "sorted, no duplicates"
    );
    for (text, place) in list {
        assert_eq!(&legate::map::normalise(text), text);
        assert_eq!(map.lookup(text), Some(*place), "{text}");
    }
    for q in map.provinces() {
        assert!(
            list.iter()
                .any(|(s, l)| s == map.abbr(q) && l.province == q)
        );
    }
    // The byte sets the suggestions search by stand beside their spellings.
    let sets = map.spelling_sets();
    assert_eq!(sets.len(), list.len());
    for ((text, _), &set) in list.iter().zip(sets) {
        assert_eq!(set, legate::map::byte_set(text), "{text}");
    }
    assert_eq!(
        legate::map::byte_set("ab"),
        1 << (b'a' & 63) | 1 << (b'b' & 63)
    );
    // And each spelling once among those of its length, in order.
    let mut seen = vec![false; list.len()];
    for n in 0..64 {
        let places = map.spellings_of_length(n);
        assert!(places.windows(2).all(|w| w[0] < w[1]), "length {n}");
        for &i in places {
            let i = usize::from(i);
            assert_eq!(list[i].0.len(), n, "{}", list[i].0);
            assert!(!std::mem::replace(&mut seen[i], true));
        }
    }
    assert!(seen.iter().all(|&s| s));
}

#[test]
fn names_codes_and_powers() {
    let map = std_map();
    assert_eq!(map.abbr(p("london")), "lon");
    assert_eq!(map.name(p("mao")), "Mid-Atlantic Ocean");
    assert_eq!(map.location_code(loc("stp/nc")), "STP/NC");
    assert_eq!(
        map.location_name(loc("stp/nc")),
        "St Petersburg (north coast)"
    );
    assert_eq!(map.coasts(p("spa")), &[Coast::North, Coast::South]);
    assert_eq!(map.coasts(p("bul")), &[Coast::East, Coast::South]);
    assert!(map.coasts(p("lon")).is_empty());
    let russia = map.power("russia").expect("Russia");
    assert_eq!(map.power("RUSSIAN"), Some(russia));
    assert_eq!(map.power_info(russia).name, "Russia");
    assert_eq!(map.home_power(p("stp")), Some(russia));
    assert_eq!(map.home_power(p("bel")), None);
    assert_eq!(map.power("Prussia"), None);
    assert!(
        map.power_info(russia)
            .starting_units
            .contains(&(UnitKind::Fleet, loc("stp/sc")))
    );
    assert!(!map.is_passable(p("swi")) && map.is_passable(p("mun")));
    assert!(map.can_stand(UnitKind::Fleet, loc("stp/sc")));
    assert!(!map.can_stand(UnitKind::Fleet, loc("stp")));
    assert!(!map.can_stand(UnitKind::Army, loc("nth")));
    assert!(!map.can_stand(UnitKind::Army, loc("swi")));
}

#[test]
fn distances() {
    let map = std_map();
    assert_eq!(map.distance(p("par"), p("par")), 0);
    assert_eq!(map.distance(p("par"), p("bur")), 1);
    assert_eq!(map.distance(p("par"), p("mun")), 2);
    // By sea: Liverpool - NAO - MAO ... distance ignores unit type.
    assert_eq!(map.distance(p("lon"), p("bel")), 2);
    assert_eq!(map.distance(p("lon"), p("nth")), 1);
    assert_eq!(map.distance(p("mos"), p("stp")), 1);
    assert_eq!(map.distance(p("lvp"), p("mao")), 2);
    assert_eq!(
        map.distance(p("swi"), p("mun")),
        u8::MAX,
        "no unit reaches Switzerland"
    );
    for a in map.provinces().filter(|&q| map.is_passable(q)) {
        for b in map.provinces().filter(|&q| map.is_passable(q)) {
            let d = map.distance(a, b);
            assert_eq!(d, map.distance(b, a));
            assert!(d < 12, "{} {}", map.abbr(a), map.abbr(b));
            if d == 1 {
                let fleet = map.fleet_borders().iter().any(|(x, y)| {
                    (x.province, y.province) == (a, b) || (x.province, y.province) == (b, a)
                });
                assert!(map.army_adjacent(a, b) || fleet);
            }
        }
    }
}

#[test]
fn loader_rejects_bad_maps() {
    let text = include_str!("../config/maps/standard.toml");
    let cases = [
        (
            text.replace("\"lon: wal yor\"", "\"lon: wal yor lon\""),
            "itself",
        ),
        (
            text.replace("\"lon: wal yor\"", "\"lon: wal yor wal\""),
            "twice",
        ),
        (text.replace("\"lon: wal yor\"", "\"lon: wal xyz\""), "xyz"),
        (text.replace("\"lon: wal yor\"", "\"lon: nth\""), "army"),
        (
            text.replace("terrain = \"inland\"", "terrain = \"hills\""),
            "hills",
        ),
        (
            text.replace("aliases = [\"wale\"]", "aliases = [\"london\"]"),
            "london",
        ),
        (
            text.replace("units = [\"F bre\"", "units = [\"A nth\""),
            "cannot stand",
        ),
        (
            text.replace("[\"adriatic\", ", "[\"adriatic\", \"lvp\", "),
            "lvp",
        ),
        ("not = [toml".to_string(), "TOML"),
    ];
    for (bad, needle) in cases {
        assert_ne!(bad, text, "{needle}: the test edit must change the file");
        match Map::from_toml(&bad) {
            Ok(_) => panic!("accepted a map with {needle:?}"),
            Err(e) => assert!(
                e.to_string().contains(needle),
                "{e} should mention {needle}"
            ),
        }
    }
    assert!(Map::from_toml(text).is_ok());
}

proptest::proptest! {
    /// Any text at all: `lookup` answers without panicking, and what it finds
    /// it finds again from the canonical code.
    #[test]
    fn lookup_never_panics(text in "\\PC{0,30}", coast in "(/|\\(| )?(nc|sc|ec|north coast|s)?\\)?") {
        let map = std_map();
        for candidate in [text.clone(), format!("{text}{coast}"), format!("stp{coast}"), format!("{coast}{text}")] {
            if let Some(found) = map.lookup(&candidate) {
                proptest::prop_assert_eq!(map.lookup(&map.location_code(found)), Some(found));
            }
        }
    }
}
