//! The board picture's layout against the map: the drawn areas of two provinces
//! touch where the map lets a unit cross between them.

use std::collections::BTreeSet;

use legate::map::{Map, Province};
use legate::report::Layout;
use legate::report::layout::Pt;

/// Pairs of provinces whose drawn areas share a border at least `min` pixels long.
fn drawn_borders(layout: &Layout, min: f32) -> BTreeSet<(Province, Province)> {
    let mut out = BTreeSet::new();
    for cell in layout.cells() {
        let n = cell.points.len();
        for (k, other) in cell.neighbours.iter().enumerate() {
            let Some(q) = other.and_then(|j| layout.seed_province(j)) else {
                continue;
            };
            let (a, b): (Pt, Pt) = (cell.points[k], cell.points[(k + 1) % n]);
            let len = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
            if q != cell.province && len >= min {
                out.insert((cell.province.min(q), cell.province.max(q)));
            }
        }
    }
    out
}

fn map_borders(map: &Map) -> BTreeSet<(Province, Province)> {
    let mut out: BTreeSet<(Province, Province)> = map.army_borders().into_iter().collect();
    for (a, b) in map.fleet_borders() {
        let (a, b) = (a.province, b.province);
        out.insert((a.min(b), a.max(b)));
    }
    out
}

#[test]
fn drawn_borders_match_the_map() {
    let map = Map::standard();
    let drawn = drawn_borders(Layout::standard(), 3.0);
    let real = map_borders(map);
    let name = |(a, b): &(Province, Province)| format!("{}-{}", map.abbr(*a), map.abbr(*b));
    let missing: Vec<String> = real.difference(&drawn).map(name).collect();
    // Switzerland borders nothing a unit may cross, but it is drawn among its neighbours.
    let swi = map.lookup("swi").unwrap().province;
    let extra: Vec<String> = drawn
        .difference(&real)
        .filter(|(a, b)| *a != swi && *b != swi)
        .map(name)
        .collect();
    println!("missing: {missing:?}\nextra: {extra:?}");
    assert!(
        missing.is_empty(),
        "borders of the map not drawn: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "borders drawn that the map does not have: {extra:?}"
    );
}
