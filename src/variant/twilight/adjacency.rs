//! The borders a design gives, derived from the grid and the two blocks.
//!
//! - Army: two land provinces whose cells share an edge.
//! - Fleet, sea to sea and sea to a one-coast province: cells share an edge.
//! - Fleet, two one-coast provinces: cells share an edge, both touch a common
//!   sea, and the pair is not in LAND ONLY.
//! - Fleet, a coast of Spain, St Petersburg or Bulgaria: exactly what its
//!   COASTS line lists (a place it touches in the grid), either side's line
//!   counting when two such provinces meet.
//!
//! Every border is kept once, smaller end first, so the result is symmetric.

use std::collections::BTreeSet;

use crate::map::{Location, Map, Province, ProvinceSet, Terrain};

use super::format::Design;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Borders {
    pub army: BTreeSet<(Province, Province)>,
    pub fleet: BTreeSet<(Location, Location)>,
}

fn terrain(p: Province) -> Terrain {
    Map::standard().terrain(p)
}

fn is_land(p: Province) -> bool {
    matches!(terrain(p), Terrain::Inland | Terrain::Coastal)
}

fn multi_coast(p: Province) -> bool {
    !Map::standard().coasts(p).is_empty()
}

fn ordered<T: Ord>(a: T, b: T) -> (T, T) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The seas a province touches.
pub fn seas(touching: &[ProvinceSet], p: Province) -> ProvinceSet {
    touching[p.0 as usize]
        .iter()
        .filter(|&q| terrain(q) == Terrain::Sea)
        .collect()
}

/// The borders of a design. It need not be valid: places the grid does not
/// make neighbours are ignored here (validation reports them).
pub fn derive(design: &Design) -> Borders {
    let touching = design.grid.touching();
    let mut borders = Borders::default();
    for a in Map::standard().provinces() {
        for b in touching[a.0 as usize].iter().filter(|&b| b > a) {
            if is_land(a) && is_land(b) {
                borders.army.insert((a, b));
            }
            if !multi_coast(a) && !multi_coast(b) && plain_fleet(design, &touching, a, b) {
                borders.fleet.insert((a.into(), b.into()));
            }
        }
    }
    for line in &design.coasts {
        let p = line.coast.province;
        for &(to, _) in &line.touches {
            if touching[p.0 as usize].contains(to.province) && reachable_by_sea(to) {
                borders.fleet.insert(ordered(line.coast, to));
            }
        }
    }
    borders
}

/// A fleet border between two provinces without separate coasts?
fn plain_fleet(design: &Design, touching: &[ProvinceSet], a: Province, b: Province) -> bool {
    match (terrain(a), terrain(b)) {
        (Terrain::Sea, Terrain::Sea | Terrain::Coastal) | (Terrain::Coastal, Terrain::Sea) => true,
        (Terrain::Coastal, Terrain::Coastal) => {
            let common = seas(touching, a).0 & seas(touching, b).0;
            common != 0 && !is_land_only(design, a, b)
        }
        _ => false,
    }
}

fn is_land_only(design: &Design, a: Province, b: Province) -> bool {
    design
        .land_only
        .iter()
        .any(|l| ordered(l.a, l.b) == ordered(a, b))
}

/// Could a fleet stand at this place: a sea, a one-coast province, or a
/// named coast of a multi-coast one?
pub fn reachable_by_sea(loc: Location) -> bool {
    match terrain(loc.province) {
        Terrain::Sea => loc.coast.is_none(),
        Terrain::Coastal => loc.coast.is_some() == multi_coast(loc.province),
        _ => false,
    }
}
