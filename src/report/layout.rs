//! Where the board picture draws each province: a point for the unit and label,
//! extra seed points that shape its area, and points for the coasts of
//! multi-coast provinces. Read from `config/maps/<map>-layout.toml`.
//!
//! A province's area is every canvas point nearer to one of its seeds than to
//! any other seed (a Voronoi diagram), so the layout file is a list of points,
//! not drawn outlines.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::map::{Coast, Location, Map, Province};

/// A point on the canvas, in pixels.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

impl Pt {
    pub const fn new(x: f32, y: f32) -> Pt {
        Pt { x, y }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("board layout is not valid TOML: {0}")]
    Toml(String),
    #[error("board layout: {0}")]
    Invalid(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutFile {
    width: f32,
    height: f32,
    provinces: BTreeMap<String, PlaceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceFile {
    at: [f32; 2],
    #[serde(default)]
    more: Vec<[f32; 2]>,
    #[serde(default)]
    coasts: BTreeMap<String, [f32; 2]>,
}

/// Where one province is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub at: Pt,
    pub coasts: Vec<(Coast, Pt)>,
}

/// One seed's share of the canvas: a convex polygon, and for each edge
/// (from vertex `i` to `i + 1`) the seed on its other side (`None`: the frame).
#[derive(Clone, Debug)]
pub struct Cell {
    pub province: Province,
    pub points: Vec<Pt>,
    pub neighbours: Vec<Option<usize>>,
}

/// A map's board layout.
#[derive(Clone, Debug)]
pub struct Layout {
    pub width: f32,
    pub height: f32,
    /// Indexed by province.
    places: Vec<Place>,
    seeds: Vec<(Pt, Province)>,
}

const STANDARD_LAYOUT: &str = include_str!("../../config/maps/standard-layout.toml");

impl Layout {
    /// The layout of the standard map, parsed once.
    pub fn standard() -> &'static Layout {
        static STANDARD: OnceLock<Layout> = OnceLock::new();
        // The embedded file is checked by the tests: a broken one is a bug, not input.
        STANDARD.get_or_init(
            || match Layout::from_toml(Map::standard(), STANDARD_LAYOUT) {
                Ok(layout) => layout,
                Err(e) => panic!("config/maps/standard-layout.toml: {e}"),
            },
        )
    }

    /// Reads a layout for `map`; every province of the map must be placed.
    pub fn from_toml(map: &Map, text: &str) -> Result<Layout, LayoutError> {
        let file: LayoutFile =
            toml::from_str(text).map_err(|e| LayoutError::Toml(e.to_string()))?;
        if !(file.width > 0.0 && file.height > 0.0) {
            return Err(LayoutError::Invalid(
                "width and height must be positive".into(),
            ));
        }
        let mut places: Vec<Option<Place>> = vec![None; map.province_count()];
        let mut seeds = Vec::new();
        for (abbr, place) in &file.provinces {
            let loc = map
                .lookup(abbr)
                .filter(|l| l.coast.is_none())
                .ok_or_else(|| LayoutError::Invalid(format!("unknown province {abbr:?}")))?;
            let p = loc.province;
            let pt = |xy: [f32; 2]| Pt::new(xy[0], xy[1]);
            let mut coasts = Vec::new();
            for (name, xy) in &place.coasts {
                let coast = map
                    .coasts(p)
                    .iter()
                    .copied()
                    .find(|c| c.abbr() == name.as_str())
                    .ok_or_else(|| LayoutError::Invalid(format!("{abbr}: no coast {name:?}")))?;
                coasts.push((coast, pt(*xy)));
            }
            seeds.push((pt(place.at), p));
            seeds.extend(place.more.iter().map(|xy| (pt(*xy), p)));
            places[p.0 as usize] = Some(Place {
                at: pt(place.at),
                coasts,
            });
        }
        let places = places
            .into_iter()
            .enumerate()
            .map(|(i, place)| {
                place.ok_or_else(|| {
                    LayoutError::Invalid(format!(
                        "province {:?} is not placed",
                        map.abbr(Province(i as u8))
                    ))
                })
            })
            .collect::<Result<Vec<Place>, LayoutError>>()?;
        Ok(Layout {
            width: file.width,
            height: file.height,
            places,
            seeds,
        })
    }

    pub fn place(&self, p: Province) -> Option<&Place> {
        self.places.get(p.0 as usize)
    }

    /// Where a unit at `loc` is drawn: the coast's point for a fleet on a named
    /// coast, else the province's.
    pub fn point(&self, loc: Location) -> Pt {
        let Some(place) = self.place(loc.province) else {
            return Pt::new(0.0, 0.0);
        };
        loc.coast
            .and_then(|c| {
                place
                    .coasts
                    .iter()
                    .find(|(k, _)| *k == c)
                    .map(|(_, pt)| *pt)
            })
            .unwrap_or(place.at)
    }

    /// The province a seed belongs to.
    pub fn seed_province(&self, seed: usize) -> Option<Province> {
        self.seeds.get(seed).map(|(_, p)| *p)
    }

    /// Every seed's cell of the canvas.
    pub fn cells(&self) -> Vec<Cell> {
        (0..self.seeds.len()).map(|i| self.cell(i)).collect()
    }

    fn cell(&self, i: usize) -> Cell {
        let (w, h) = (self.width, self.height);
        let mut poly: Vec<(Pt, Option<usize>)> = vec![
            (Pt::new(0.0, 0.0), None),
            (Pt::new(w, 0.0), None),
            (Pt::new(w, h), None),
            (Pt::new(0.0, h), None),
        ];
        let (si, province) = self.seeds[i];
        for (j, (sj, _)) in self.seeds.iter().enumerate() {
            if j != i && !poly.is_empty() {
                poly = clip(&poly, si, *sj, j);
            }
        }
        Cell {
            province,
            points: poly.iter().map(|(p, _)| *p).collect(),
            neighbours: poly.iter().map(|(_, n)| *n).collect(),
        }
    }
}

/// Keeps the part of the polygon nearer to `a` than to `b`; the new edge along
/// the bisector is labelled with `label` (the seed `b`).
fn clip(poly: &[(Pt, Option<usize>)], a: Pt, b: Pt, label: usize) -> Vec<(Pt, Option<usize>)> {
    // Nearer to a: (b - a) . p <= (|b|^2 - |a|^2) / 2
    let (nx, ny) = (b.x - a.x, b.y - a.y);
    let c = (b.x * b.x + b.y * b.y - a.x * a.x - a.y * a.y) / 2.0;
    let side = |p: Pt| nx * p.x + ny * p.y - c;
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (p, edge) = poly[k];
        let (q, _) = poly[(k + 1) % poly.len()];
        let (sp, sq) = (side(p), side(q));
        let cross = || {
            let t = sp / (sp - sq);
            Pt::new(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y))
        };
        match (sp <= 0.0, sq <= 0.0) {
            (true, true) => out.push((p, edge)),
            (true, false) => {
                out.push((p, edge));
                out.push((cross(), Some(label)));
            }
            (false, true) => out.push((cross(), edge)),
            (false, false) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_layout_places_every_province_on_the_canvas() {
        let map = Map::standard();
        let layout = Layout::standard();
        for p in map.provinces() {
            let at = layout.point(p.into());
            assert!(at.x > 0.0 && at.x < layout.width, "{}", map.abbr(p));
            assert!(at.y > 0.0 && at.y < layout.height, "{}", map.abbr(p));
            for c in map.coasts(p) {
                let place = layout.place(p).unwrap();
                assert!(
                    place.coasts.iter().any(|(k, _)| k == c),
                    "{} {c:?}",
                    map.abbr(p)
                );
            }
        }
    }

    #[test]
    fn cells_tile_the_canvas() {
        let layout = Layout::standard();
        let area: f32 = layout
            .cells()
            .iter()
            .map(|c| {
                let n = c.points.len();
                (0..n)
                    .map(|i| {
                        let (a, b) = (c.points[i], c.points[(i + 1) % n]);
                        a.x * b.y - b.x * a.y
                    })
                    .sum::<f32>()
                    .abs()
                    / 2.0
            })
            .sum();
        let canvas = layout.width * layout.height;
        assert!((area - canvas).abs() / canvas < 0.001, "{area} vs {canvas}");
    }

    #[test]
    fn an_unknown_province_is_refused() {
        let text = "width = 10\nheight = 10\n[provinces]\nxyz = { at = [1, 1] }\n";
        assert!(matches!(
            Layout::from_toml(Map::standard(), text),
            Err(LayoutError::Invalid(_))
        ));
    }
}
