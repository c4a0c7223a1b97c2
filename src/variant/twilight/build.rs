//! A design into a `Map`: the standard provinces, names, spellings and terrain
//! in the standard order (so a `Province` means the same place on every
//! player's map), the Twilight Zone centres and homes, and the design's borders.
//!
//! Built through `Map::from_toml`: the standard map file with Sevastopol no
//! longer a centre (rule 2.8), no starting units (rule 3: players place them)
//! and the borders replaced.

use crate::map::{Location, Map};

use super::adjacency::{Borders, derive};
use super::error::DesignError;
use super::facts::sevastopol;
use super::format::Design;

const STANDARD_TOML: &str = include_str!("../../../config/maps/standard.toml");

/// The game's map in Twilight Zone: the standard provinces, centres and homes
/// of rule 2 and the standard borders. It names things (provinces, powers,
/// centres); no order uses its borders unless a player's map was missing when
/// the Gamemaster started the game.
pub fn base() -> &'static Map {
    static BASE: std::sync::LazyLock<Map> = std::sync::LazyLock::new(|| {
        let standard = Map::standard();
        match union(&[standard]) {
            Ok(map) => map,
            Err(e) => panic!("the Twilight Zone base map does not build: {e}"),
        }
    });
    &BASE
}

/// The map whose borders are those of every map given: a border is on it when
/// some player's map has it. The adjudicator resolves on it what no single
/// order's map decides (can the supported unit get there at all? may a
/// dislodged unit retreat anywhere?).
pub fn union(maps: &[&Map]) -> Result<Map, DesignError> {
    let mut borders = Borders::default();
    for m in maps {
        borders.army.extend(m.army_borders());
        for (a, b) in m.fleet_borders() {
            borders.fleet.insert(if a <= b { (a, b) } else { (b, a) });
        }
    }
    let text = map_toml(&borders, "Twilight Zone")?;
    Map::from_toml(&text).map_err(|e| DesignError::Build(e.to_string()))
}

/// The map a design gives. Call it on a design `validate` accepted: it does
/// not check the rules again, only that the result loads.
pub fn build(design: &Design, title: &str) -> Result<Map, DesignError> {
    let text = map_toml(&derive(design), title)?;
    Map::from_toml(&text).map_err(|e| DesignError::Build(e.to_string()))
}

fn map_toml(borders: &Borders, title: &str) -> Result<String, DesignError> {
    let fail = |e: &dyn std::fmt::Display| DesignError::Build(e.to_string());
    let mut file: toml::Table = toml::from_str(STANDARD_TOML).map_err(|e| fail(&e))?;
    file.insert("name".into(), title.into());
    let sev = Map::standard().abbr(sevastopol()).to_string();
    for entry in array(&mut file, "provinces") {
        if entry.get("abbr").and_then(|a| a.as_str()) == Some(sev.as_str()) {
            entry.insert("sc".into(), false.into());
        }
    }
    for power in array(&mut file, "powers") {
        if let Some(toml::Value::Array(home)) = power.get_mut("home") {
            home.retain(|h| h.as_str() != Some(sev.as_str()));
        }
        power.insert("units".into(), toml::Value::Array(Vec::new()));
    }
    let mut table = toml::Table::new();
    let army = borders.army.iter().map(|&(a, b)| (a.into(), b.into()));
    table.insert("army".into(), lines(army));
    table.insert("fleet".into(), lines(borders.fleet.iter().copied()));
    file.insert("borders".into(), table.into());
    toml::to_string(&file).map_err(|e| fail(&e))
}

/// The tables of an array of tables (`provinces`, `powers`).
fn array<'a>(file: &'a mut toml::Table, key: &str) -> impl Iterator<Item = &'a mut toml::Table> {
    file.get_mut(key)
        .and_then(|v| v.as_array_mut())
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_table_mut())
}

/// Borders as the map file writes them: `"a: b"`, one per border.
fn lines(edges: impl Iterator<Item = (Location, Location)>) -> toml::Value {
    let map = Map::standard();
    let code = |l: Location| map.location_code(l).to_ascii_lowercase();
    edges
        .map(|(a, b)| toml::Value::String(format!("{}: {}", code(a), code(b))))
        .collect::<Vec<_>>()
        .into()
}
