//! Cross-checks every fact of the standard map (`config/maps/standard.toml`:
//! provinces, names, terrain, coasts, borders, powers, homes and starting units)
//! against a public reference map in the DPjudge format, kept outside the
//! project: `scripts/crosscheck-map FILE`. Panics naming the first difference.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use legate::map::{Location, Map, Province, Terrain, UnitKind};

fn std_map() -> &'static Map {
    Map::standard()
}

/// The reference map in the DPjudge format.
struct Reference {
    /// `(power, adjective, homes, units)`, upper case as in the file.
    powers: Vec<(String, String, Vec<String>, Vec<String>)>,
    neutral_centers: Vec<String>,
    /// `full name -> [abbreviation, aliases...]`, `+` read as a space.
    names: Vec<(String, Vec<String>)>,
    /// `(terrain, location, borders)`; letter case kept (lower case means army only).
    lines: Vec<(String, String, Vec<String>)>,
}

fn read_reference(path: &Path) -> Reference {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read the reference map {}: {e}", path.display()));
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
    reference
}

fn main() {
    let Some(path) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: crosscheck_map FILE (a standard map in the DPjudge format)");
        std::process::exit(2);
    };
    let reference = read_reference(&path);
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
    println!("the standard map agrees with {}", path.display());
}
