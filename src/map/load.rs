//! Reading the TOML map format into a `Map`.
//!
//! The file lists provinces, powers and borders (each border once). Everything the
//! adjudicator asks later is precomputed here: adjacency bitsets, the fleet table,
//! all-pairs distances and the sorted spelling list.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::spelling::{byte_set, normalise, split_coast};
use super::table::{Derived, FleetTable, distances};
use super::{
    Location, Map, MapError, Power, PowerInfo, Province, ProvinceData, ProvinceSet, Terrain,
    UnitKind,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    name: String,
    #[serde(default)]
    start: Option<String>,
    provinces: Vec<ProvinceEntry>,
    powers: Vec<PowerEntry>,
    borders: Borders,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProvinceEntry {
    abbr: String,
    name: String,
    terrain: String,
    #[serde(default)]
    sc: bool,
    #[serde(default)]
    coasts: Vec<String>,
    #[serde(default)]
    coast_aliases: BTreeMap<String, String>,
    #[serde(default)]
    aliases: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerEntry {
    name: String,
    adjective: String,
    home: Vec<String>,
    units: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Borders {
    army: Vec<String>,
    fleet: Vec<String>,
}

fn invalid(msg: impl Into<String>) -> MapError {
    MapError::Invalid(msg.into())
}

pub fn from_toml(text: &str) -> Result<Map, MapError> {
    let file: MapFile = toml::from_str(text).map_err(|e| MapError::Toml(e.to_string()))?;
    if file.provinces.len() > 128 {
        return Err(invalid(format!(
            "{} provinces; at most 128 are supported",
            file.provinces.len()
        )));
    }
    if file.powers.len() > 255 {
        return Err(invalid("too many powers"));
    }
    let mut provinces = Vec::with_capacity(file.provinces.len());
    for entry in &file.provinces {
        provinces.push(province(entry)?);
    }
    let spellings = spellings(&file.provinces, &provinces)?;

    let mut supply_centers = ProvinceSet::EMPTY;
    for (i, p) in provinces.iter().enumerate() {
        if p.supply_center {
            supply_centers.insert(Province(i as u8));
        }
    }

    let n = provinces.len();
    let mut army_adj = vec![ProvinceSet::EMPTY; n];
    for (a, b) in edges(&file.borders.army, "borders.army")? {
        let what = format!("borders.army {a}-{b}");
        let (a, b) = (
            resolve(&spellings, &provinces, &a, &what)?,
            resolve(&spellings, &provinces, &b, &what)?,
        );
        for loc in [a, b] {
            let p = &provinces[loc.province.0 as usize];
            if loc.coast.is_some() || !matches!(p.terrain, Terrain::Inland | Terrain::Coastal) {
                return Err(invalid(format!(
                    "{what}: {} is not a place an army can stand",
                    p.abbr
                )));
            }
        }
        add_edge(&mut army_adj, a.province, b.province, &what)?;
    }

    let mut fleet = FleetTable::new(&provinces)?;
    for (a, b) in edges(&file.borders.fleet, "borders.fleet")? {
        let what = format!("borders.fleet {a}-{b}");
        let (a, b) = (
            resolve(&spellings, &provinces, &a, &what)?,
            resolve(&spellings, &provinces, &b, &what)?,
        );
        fleet
            .add_edge(a, b)
            .map_err(|e| invalid(format!("{what}: {e}")))?;
    }

    let mut powers = Vec::with_capacity(file.powers.len());
    for (i, entry) in file.powers.iter().enumerate() {
        let what = format!("powers[{i}] ({})", entry.name);
        let mut info = PowerInfo {
            name: entry.name.clone(),
            adjective: entry.adjective.clone(),
            home_centers: Vec::new(),
            starting_units: Vec::new(),
        };
        for home in &entry.home {
            let loc = resolve(&spellings, &provinces, home, &what)?;
            let p = &mut provinces[loc.province.0 as usize];
            if !p.supply_center {
                return Err(invalid(format!(
                    "{what}: home center {} is not a supply center",
                    p.abbr
                )));
            }
            if p.home.is_some() {
                return Err(invalid(format!(
                    "{what}: {} is already a home center",
                    p.abbr
                )));
            }
            p.home = Some(Power(i as u8));
            info.home_centers.push(loc.province);
        }
        for unit in &entry.units {
            info.starting_units
                .push(starting_unit(unit, &what, &spellings, &provinces, &fleet)?);
        }
        powers.push(info);
    }
    let names: Vec<String> = powers
        .iter()
        .flat_map(|p| [p.name.to_lowercase(), p.adjective.to_lowercase()])
        .collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(invalid(format!("power name {name:?} is used twice")));
        }
    }

    let distance = distances(&army_adj, &fleet, n);
    let derived = Derived::new(&provinces, &fleet);
    let spelling_sets = spellings.iter().map(|(s, _)| byte_set(s)).collect();
    let (by_length, length_starts) = by_length(&spellings)?;
    Ok(Map {
        title: file.name,
        start: file.start,
        provinces,
        powers,
        supply_centers,
        army_adj,
        fleet,
        distance,
        spellings,
        spelling_sets,
        by_length,
        length_starts,
        derived,
    })
}

/// The places of `spellings` grouped by length (each group in order), and
/// where each length's group starts (`Map::spellings_of_length`).
fn by_length(spellings: &[(String, Location)]) -> Result<(Vec<u16>, Vec<u16>), MapError> {
    let count = u16::try_from(spellings.len())
        .map_err(|_| invalid(format!("{} spellings: at most 65535", spellings.len())))?;
    let longest = spellings.iter().map(|(s, _)| s.len()).max().unwrap_or(0);
    let mut starts = vec![0u16; longest + 2];
    for (s, _) in spellings {
        starts[s.len() + 1] += 1;
    }
    for n in 1..starts.len() {
        starts[n] += starts[n - 1];
    }
    let mut places: Vec<u16> = (0..count).collect();
    places.sort_by_key(|&i| spellings[usize::from(i)].0.len());
    Ok((places, starts))
}

fn resolve(
    spellings: &[(String, Location)],
    provinces: &[ProvinceData],
    text: &str,
    what: &str,
) -> Result<Location, MapError> {
    lookup_in(spellings, provinces, text)
        .ok_or_else(|| invalid(format!("{what}: unknown place {text:?}")))
}

fn province(entry: &ProvinceEntry) -> Result<ProvinceData, MapError> {
    let what = format!("province {:?}", entry.abbr);
    let terrain = match entry.terrain.as_str() {
        "inland" => Terrain::Inland,
        "coastal" => Terrain::Coastal,
        "sea" => Terrain::Sea,
        "impassable" => Terrain::Impassable,
        other => return Err(invalid(format!("{what}: unknown terrain {other:?}"))),
    };
    let abbr = normalise(&entry.abbr);
    if abbr.is_empty() || abbr.contains(['/', ' ', '(']) {
        return Err(invalid(format!("{what}: an abbreviation is one word")));
    }
    let coast = |word: &str| {
        super::spelling::coast_word(word)
            .ok_or_else(|| invalid(format!("{what}: unknown coast {word:?}")))
    };
    let coasts = entry
        .coasts
        .iter()
        .map(|c| coast(c))
        .collect::<Result<Vec<_>, _>>()?;
    if !coasts.is_empty() && (terrain != Terrain::Coastal || coasts.len() < 2) {
        return Err(invalid(format!(
            "{what}: only a coastal province can have separate coasts, and then two or more"
        )));
    }
    let mut coast_aliases = Vec::new();
    for (spelled, meant) in &entry.coast_aliases {
        let (spelled, meant) = (coast(spelled)?, coast(meant)?);
        if coasts.contains(&spelled) || !coasts.contains(&meant) {
            return Err(invalid(format!(
                "{what}: coast alias {} -> {} does not fit its coasts",
                spelled.abbr(),
                meant.abbr()
            )));
        }
        coast_aliases.push((spelled, meant));
    }
    if entry.sc && !matches!(terrain, Terrain::Inland | Terrain::Coastal) {
        return Err(invalid(format!("{what}: a supply center must be on land")));
    }
    Ok(ProvinceData {
        abbr,
        name: entry.name.clone(),
        terrain,
        supply_center: entry.sc,
        coasts,
        coast_aliases,
        home: None,
    })
}

/// `"adr: alb apu ion"` into `(adr, alb), (adr, apu), (adr, ion)`.
fn edges(groups: &[String], what: &str) -> Result<Vec<(String, String)>, MapError> {
    let mut out = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        let (from, tos) = group.split_once(':').ok_or_else(|| {
            invalid(format!(
                "{what}[{i}]: expected \"place: place place ...\", got {group:?}"
            ))
        })?;
        let from = from.trim();
        if from.is_empty() || tos.split_whitespace().next().is_none() {
            return Err(invalid(format!("{what}[{i}]: empty border list {group:?}")));
        }
        out.extend(
            tos.split_whitespace()
                .map(|to| (from.to_string(), to.to_string())),
        );
    }
    Ok(out)
}

fn add_edge(adj: &mut [ProvinceSet], a: Province, b: Province, what: &str) -> Result<(), MapError> {
    if a == b {
        return Err(invalid(format!(
            "{what}: a province does not border itself"
        )));
    }
    if adj[a.0 as usize].contains(b) {
        return Err(invalid(format!("{what}: border listed twice")));
    }
    adj[a.0 as usize].insert(b);
    adj[b.0 as usize].insert(a);
    Ok(())
}

fn starting_unit(
    text: &str,
    what: &str,
    spellings: &[(String, Location)],
    provinces: &[ProvinceData],
    fleet: &FleetTable,
) -> Result<(UnitKind, Location), MapError> {
    let (kind, place) = text.trim().split_once(' ').ok_or_else(|| {
        invalid(format!(
            "{what}: unit {text:?} should read \"A par\" or \"F stp/sc\""
        ))
    })?;
    let kind = match kind {
        "A" | "a" => UnitKind::Army,
        "F" | "f" => UnitKind::Fleet,
        _ => return Err(invalid(format!("{what}: unit {text:?} is neither A nor F"))),
    };
    let loc = resolve(spellings, provinces, place.trim(), what)?;
    let fits = match kind {
        UnitKind::Army => {
            loc.coast.is_none()
                && matches!(
                    provinces[loc.province.0 as usize].terrain,
                    Terrain::Inland | Terrain::Coastal
                )
        }
        UnitKind::Fleet => fleet.index(loc).is_some(),
    };
    if !fits {
        return Err(invalid(format!("{what}: unit {text:?} cannot stand there")));
    }
    Ok((kind, loc))
}

/// Every spelling of every place, normalised and sorted; a spelling naming two
/// different places is an error in the map file.
fn spellings(
    entries: &[ProvinceEntry],
    provinces: &[ProvinceData],
) -> Result<Vec<(String, Location)>, MapError> {
    let mut all: Vec<(String, Location)> = Vec::new();
    for (i, (entry, data)) in entries.iter().zip(provinces).enumerate() {
        let p = Province(i as u8);
        let bases: Vec<String> = std::iter::once(data.abbr.clone())
            .chain(std::iter::once(normalise(&entry.name)))
            .chain(entry.aliases.iter().map(|a| normalise(a)))
            .filter(|s| !s.is_empty())
            .collect();
        for base in &bases {
            if split_coast(base).is_some_and(|(b, _)| !b.is_empty()) && !data.coasts.is_empty() {
                return Err(invalid(format!(
                    "province {:?}: alias {base:?} reads as a coast",
                    data.abbr
                )));
            }
            all.push((base.clone(), Location::new(p, None)));
            for &coast in &data.coasts {
                let loc = Location::new(p, Some(coast));
                all.push((format!("{base}/{}", coast.abbr()), loc));
                all.push((format!("{base} ({})", coast.name()), loc));
            }
            for &(spelled, meant) in &data.coast_aliases {
                all.push((
                    format!("{base}/{}", spelled.abbr()),
                    Location::new(p, Some(meant)),
                ));
            }
        }
    }
    all.sort();
    all.dedup();
    for pair in all.windows(2) {
        if pair[0].0 == pair[1].0 {
            let names = |l: Location| provinces[l.province.0 as usize].abbr.clone();
            return Err(invalid(format!(
                "spelling {:?} names both {} and {}",
                pair[0].0,
                names(pair[0].1),
                names(pair[1].1)
            )));
        }
    }
    Ok(all)
}

/// `Map::lookup` over the raw tables, so the loader can use it before the map exists.
pub fn lookup_in(
    spellings: &[(String, Location)],
    provinces: &[ProvinceData],
    text: &str,
) -> Option<Location> {
    let norm = normalise(text);
    let find = |s: &str| {
        spellings
            .binary_search_by(|(k, _)| k.as_str().cmp(s))
            .ok()
            .map(|i| spellings[i].1)
    };
    if let Some(loc) = find(&norm) {
        return Some(loc);
    }
    let (base, coast) = split_coast(&norm)?;
    let loc = find(base)?;
    if loc.coast.is_some() {
        return None;
    }
    let data = provinces.get(loc.province.0 as usize)?;
    let coast = if data.coasts.contains(&coast) {
        coast
    } else {
        data.coast_aliases
            .iter()
            .find(|(spelled, _)| *spelled == coast)?
            .1
    };
    Some(Location::new(loc.province, Some(coast)))
}
