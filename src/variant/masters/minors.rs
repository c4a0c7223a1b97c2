//! MR1 Minor Powers: every supply center that is no great power's home at the
//! start is an independent minor power with one army, that center its home.
//!
//! Minors are made real powers of the map: the map is the base map with one
//! `[[powers]]` entry appended per minor (`Portugal`, adjective `Portuguese`,
//! home `por`, unit `A por`). So `Position::initial` gives them their army, owned
//! home center and `homes` entry; the grammar reads `Portugal: A Por S (Spanish)
//! A Spa`; the judge's civil-disorder removals cover them. Their power indexes
//! follow the great powers', in the order of their centers on the map.

use std::sync::OnceLock;

use crate::map::{Map, MapError, Power, Province, Terrain};

/// The adjectives of the standard map's minors; other maps' minors use the
/// center's name as adjective too (the map needs one, and a wrong one would mislead).
const ADJECTIVES: &[(&str, &str)] = &[
    ("Belgium", "Belgian"),
    ("Bulgaria", "Bulgarian"),
    ("Denmark", "Danish"),
    ("Greece", "Greek"),
    ("Holland", "Dutch"),
    ("Norway", "Norwegian"),
    ("Portugal", "Portuguese"),
    ("Rumania", "Rumanian"),
    ("Serbia", "Serbian"),
    ("Spain", "Spanish"),
    ("Sweden", "Swedish"),
    ("Tunis", "Tunisian"),
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MinorsError {
    #[error(transparent)]
    Map(#[from] MapError),
    #[error("the map already has a power called {0:?}: cannot add it as a minor power")]
    NameTaken(String),
}

/// A minor power: its index among the map's powers and its home center.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Minor {
    pub power: Power,
    pub home: Province,
}

/// Supply centers that are no power's home: each becomes a minor power.
pub fn neutral_centers(map: &Map) -> Vec<Province> {
    map.supply_centers()
        .iter()
        .filter(|p| map.home_power(*p).is_none())
        .collect()
}

fn adjective(name: &str) -> &str {
    ADJECTIVES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(name, |(_, a)| a)
}

/// The `[[powers]]` entry of the minor power of center `p`. An army where one can
/// stand, else a fleet (a center at sea on some other map).
fn power_entry(map: &Map, p: Province) -> String {
    let name = map.name(p);
    let kind = if map.terrain(p) == Terrain::Sea {
        'F'
    } else {
        'A'
    };
    let abbr = map.abbr(p);
    format!(
        "\n[[powers]]\nname = {name:?}\nadjective = {:?}\nhome = [{abbr:?}]\nunits = [\"{kind} {abbr}\"]\n",
        adjective(name)
    )
}

/// The base map (TOML text) with its minor powers added after its great powers.
/// Returns the map and the number of great powers (the first indexes).
pub fn with_minors(base_toml: &str) -> Result<(Map, usize), MinorsError> {
    let base = Map::from_toml(base_toml)?;
    let mut text = base_toml.to_string();
    for p in neutral_centers(&base) {
        let name = base.name(p);
        if base.power(name).is_some() || base.power(adjective(name)).is_some() {
            return Err(MinorsError::NameTaken(name.to_string()));
        }
        text.push_str(&power_entry(&base, p));
    }
    Ok((Map::from_toml(&text)?, base.powers().len()))
}

const STANDARD_TOML: &str = include_str!("../../../config/maps/standard.toml");

/// The standard map with its twelve minor powers (indexes 7 to 18).
pub fn standard() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    // The embedded map is checked by the tests: failing here is a build error, not input.
    MAP.get_or_init(|| match with_minors(STANDARD_TOML) {
        Ok((map, _)) => map,
        Err(e) => panic!("standard map with minor powers: {e}"),
    })
}

/// The minor powers of a map built by `with_minors` with `great` great powers.
pub fn minors(map: &Map, great: usize) -> Vec<Minor> {
    (great..map.powers().len())
        .filter_map(|i| {
            let home = *map.powers()[i].home_centers.first()?;
            Some(Minor {
                power: Power(i as u8),
                home,
            })
        })
        .collect()
}
