//! The standard map: counts, known borders, spellings, distances, and a
//! cross-check of every fact against the reference map in `../shared/maps`.

use std::collections::{BTreeMap, BTreeSet};

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

/// The reference map in the DPjudge format (see `../shared/maps/README.md`).
struct Reference {
    /// `(power, adjective, homes, units)`, upper case as in the file.
    powers: Vec<(String, String, Vec<String>, Vec<String>)>,
    neutral_centers: Vec<String>,
    /// `full name -> [abbreviation, aliases...]`, `+` read as a space.
    names: Vec<(String, Vec<String>)>,
    /// `(terrain, location, borders)`; letter case kept (lower case means army only).
    lines: Vec<(String, String, Vec<String>)>,
}

fn read_reference() -> Option<Reference> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/maps/standard.map");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if std::env::var("LEGATE_SKIP_SHARED").as_deref() == Ok("1") => {
            eprintln!(
                "skipping the reference cross-check: {}: {e}",
                path.display()
            );
            return None;
        }
        Err(e) => panic!(
            "cannot read the reference map {}: {e}\n(set LEGATE_SKIP_SHARED=1 to run without ../shared)",
            path.display()
        ),
    };
    let mut reference = Reference {
        powers: Vec::new(),
        neutral_centers: Vec::new(),
        names: Vec::new(),
        lines: Vec::new(),
    };
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some((name, aliases)) = line.split_once('=') {
            let spellings = aliases
                .split_whitespace()
                .map(|a| a.replace('+', " "))
                .collect();
            reference.names.push((name.trim().to_string(), spellings));
        } else if words.len() >= 3 && words[2] == "ABUTS" {
            let borders = words[3..].iter().map(|w| w.to_string()).collect();
            reference
                .lines
                .push((words[0].to_string(), words[1].to_string(), borders));
        } else if words[0] == "UNOWNED" {
            reference.neutral_centers = words[1..].iter().map(|w| w.to_string()).collect();
        } else if words.len() >= 2 && words[1].starts_with('(') {
            let adjective = words[1].trim_matches(|c| c == '(' || c == ')').to_string();
            let homes = words[2..].iter().map(|w| w.to_string()).collect();
            reference
                .powers
                .push((words[0].to_string(), adjective, homes, Vec::new()));
        } else if matches!(words[0], "A" | "F") && words.len() == 2 {
            let last = reference
                .powers
                .last_mut()
                .expect("a unit line follows its power");
            last.3.push(line.to_string());
        }
    }
    assert_eq!(reference.powers.len(), 7, "reference file not understood");
    Some(reference)
}

#[test]
fn matches_the_reference_map() {
    let Some(reference) = read_reference() else {
        return;
    };
    let map = std_map();
    let at = |code: &str| -> Location {
        map.lookup(code)
            .unwrap_or_else(|| panic!("reference place {code:?} unknown here"))
    };

    // Terrain of every province.
    let terrain: BTreeMap<String, &str> = reference
        .lines
        .iter()
        .map(|(t, l, _)| (l.to_lowercase(), t.as_str()))
        .collect();
    for (code, kind) in &terrain {
        if code.contains('/') {
            continue;
        }
        let expected = match *kind {
            "WATER" => Terrain::Sea,
            "COAST" => Terrain::Coastal,
            "LAND" => Terrain::Inland,
            _ => Terrain::Impassable,
        };
        assert_eq!(
            map.terrain(at(code).province),
            expected,
            "terrain of {code}"
        );
    }
    let provinces: BTreeSet<&str> = terrain
        .keys()
        .filter(|c| !c.contains('/'))
        .map(String::as_str)
        .collect();
    assert_eq!(provinces.len(), map.province_count(), "same provinces");
    let multi_coast: BTreeSet<String> = terrain
        .keys()
        .filter_map(|c| c.split_once('/'))
        .map(|(p, _)| p.to_string())
        .collect();

    // Borders: army borders between land provinces (coasts folded into their
    // province), fleet borders between fleet locations; lower case is army only.
    let is_land = |code: &str| matches!(terrain.get(code), Some(&"COAST") | Some(&"LAND"));
    let mut army = BTreeSet::new();
    let mut fleet = BTreeSet::new();
    for (kind, from, borders) in &reference.lines {
        let from_lc = from.to_lowercase();
        for to in borders {
            let to_lc = to.to_lowercase();
            let army_only = to == &to_lc;
            let fleet_only = to.len() > 1
                && to[..1] == to[..1].to_uppercase()
                && to[1..] == to[1..].to_lowercase();
            let (fp, tp) = (
                from_lc.split('/').next().unwrap(),
                to_lc.split('/').next().unwrap(),
            );
            if !fleet_only && !from.contains('/') && is_land(fp) && is_land(tp) && kind != "SHUT" {
                army.insert((fp.min(tp).to_string(), fp.max(tp).to_string()));
            }
            let fleet_place = |c: &str| {
                matches!(terrain.get(c), Some(&"WATER") | Some(&"COAST"))
                    && !multi_coast.contains(c)
            };
            if !army_only && *from != from_lc && fleet_place(&from_lc) && fleet_place(&to_lc) {
                fleet.insert((
                    from_lc.clone().min(to_lc.clone()),
                    from_lc.clone().max(to_lc),
                ));
            }
        }
    }
    assert_eq!(army.len(), 111, "reference army borders");
    assert_eq!(fleet.len(), 141, "reference fleet borders");
    let ours_army: BTreeSet<(String, String)> = map
        .army_borders()
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (map.abbr(a).to_string(), map.abbr(b).to_string());
            (a.clone().min(b.clone()), a.max(b))
        })
        .collect();
    assert_eq!(ours_army, army, "army borders differ");
    let code = |l: Location| map.location_code(l).to_lowercase();
    let ours_fleet: BTreeSet<(String, String)> = map
        .fleet_borders()
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (code(a), code(b));
            (a.clone().min(b.clone()), a.max(b))
        })
        .collect();
    assert_eq!(ours_fleet, fleet, "fleet borders differ");

    // Supply centers, home centers and starting units.
    let mut centers: BTreeSet<Province> = reference
        .neutral_centers
        .iter()
        .map(|c| at(c).province)
        .collect();
    for (name, adjective, homes, units) in &reference.powers {
        let power = map.power(name).unwrap_or_else(|| panic!("no power {name}"));
        assert_eq!(map.power(adjective), Some(power));
        let info = map.power_info(power);
        let expected: BTreeSet<Province> = homes.iter().map(|h| at(h).province).collect();
        assert_eq!(
            info.home_centers.iter().copied().collect::<BTreeSet<_>>(),
            expected,
            "{name} homes"
        );
        for &h in &expected {
            assert_eq!(map.home_power(h), Some(power));
        }
        centers.extend(expected);
        let expected: BTreeSet<(UnitKind, Location)> = units
            .iter()
            .map(|u| {
                let kind = if u.starts_with('A') {
                    UnitKind::Army
                } else {
                    UnitKind::Fleet
                };
                (kind, at(&u[2..]))
            })
            .collect();
        assert_eq!(
            info.starting_units.iter().copied().collect::<BTreeSet<_>>(),
            expected,
            "{name} units"
        );
    }
    assert_eq!(centers.len(), 34);
    assert_eq!(
        map.supply_centers().iter().collect::<BTreeSet<_>>(),
        centers
    );

    // Every name and alias in the reference means the same place here.
    assert_eq!(reference.names.len(), 82);
    for (full, spellings) in &reference.names {
        let canonical = at(&spellings[0]);
        assert_eq!(
            map.location_code(canonical).to_lowercase(),
            spellings[0],
            "{full}"
        );
        assert_eq!(
            map.location_name(canonical),
            *full,
            "full name of {}",
            spellings[0]
        );
        assert_eq!(map.lookup(full), Some(canonical), "{full}");
        for alias in &spellings[1..] {
            assert_eq!(
                map.lookup(alias),
                Some(canonical),
                "alias {alias:?} of {full}"
            );
        }
    }
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
