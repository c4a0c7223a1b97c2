//! A picture of a design as SVG, drawn straight from the grid: one square a
//! cell, coloured by terrain and country, a line where two provinces meet.
//! Dashed lines are land borders no fleet crosses; small tags on the cells of
//! Spain, St Petersburg and Bulgaria tell which coast a sea lies on.

use std::fmt::Write;

use crate::map::{Location, Map, Province, Terrain};

use super::adjacency::{Borders, derive};
use super::facts::{COUNTRY_SPACES, is_supply_centre, province};
use super::format::Design;

const CELL: usize = 40;
const MARGIN: usize = 12;
const TITLE: usize = 28;
const LEGEND_LINE: usize = 16;

/// Pale country colours, in `COUNTRY_SPACES` order.
const COUNTRY_FILL: [&str; 7] = [
    "#e6b8b0", "#c9b8e0", "#b8cde8", "#c8c0b0", "#c0e0b0", "#e8e8e8", "#f0e0a0",
];
const SEA_FILL: &str = "#9ec5e6";
const NEUTRAL_FILL: &str = "#f2e6c8";
const IMPASSABLE_FILL: &str = "#8c8c8c";

/// The SVG picture of a design (any parsed design; it need not be valid).
pub fn draw(design: &Design, title: &str) -> String {
    let grid = &design.grid;
    let (w, h) = (grid.width() * CELL, grid.height() * CELL);
    let legend = legend(design);
    let total_h = TITLE + h + MARGIN * 2 + legend.len() * LEGEND_LINE;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{total_h}\" \
         font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{MARGIN}\" y=\"20\" font-size=\"16\">{}</text>\n",
        w + MARGIN * 2,
        escape(title)
    );
    cells(design, &mut svg);
    borders(design, &derive(design), &mut svg);
    coast_tags(design, &mut svg);
    labels(design, &mut svg);
    let _ = writeln!(
        svg,
        "<rect x=\"{MARGIN}\" y=\"{TITLE}\" width=\"{w}\" height=\"{h}\" fill=\"none\" \
         stroke=\"black\" stroke-width=\"3\"/>"
    );
    for (i, line) in legend.iter().enumerate() {
        let y = TITLE + h + MARGIN + (i + 1) * LEGEND_LINE;
        let _ = writeln!(
            svg,
            "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"12\">{}</text>",
            escape(line)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn fill(p: Province) -> &'static str {
    match Map::standard().terrain(p) {
        Terrain::Sea => SEA_FILL,
        Terrain::Impassable => IMPASSABLE_FILL,
        _ => COUNTRY_SPACES
            .iter()
            .position(|(_, spaces)| spaces.iter().any(|a| province(a) == p))
            .map_or(NEUTRAL_FILL, |i| COUNTRY_FILL[i]),
    }
}

/// Top-left corner of a cell in the picture.
fn origin(row: usize, col: usize) -> (usize, usize) {
    (MARGIN + col * CELL, TITLE + row * CELL)
}

fn cells(design: &Design, svg: &mut String) {
    for (r, c, p) in design.grid.cells() {
        let (x, y) = origin(r, c);
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
            fill(p)
        );
    }
}

/// Is there any fleet border between the two provinces (any coasts)?
fn fleets_cross(borders: &Borders, a: Province, b: Province) -> bool {
    borders
        .fleet
        .iter()
        .any(|&(x, y)| (x.province, y.province) == (a, b) || (x.province, y.province) == (b, a))
}

fn borders(design: &Design, found: &Borders, svg: &mut String) {
    let grid = &design.grid;
    for ((r1, c1), (r2, c2)) in grid.edges() {
        let (a, b) = (grid.at(r1, c1), grid.at(r2, c2));
        if a == b {
            continue;
        }
        let coastal = |p| Map::standard().terrain(p) == Terrain::Coastal;
        let dash = if coastal(a) && coastal(b) && !fleets_cross(found, a, b) {
            " stroke-dasharray=\"5,3\" stroke=\"#b02020\""
        } else {
            " stroke=\"black\""
        };
        let (x, y) = origin(r2, c2);
        let (x2, y2) = if r1 == r2 {
            (x, y + CELL)
        } else {
            (x + CELL, y)
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{x}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y2}\" stroke-width=\"2\"{dash}/>"
        );
    }
}

/// On each edge between a multi-coast province and a sea, the coasts that sea is on.
fn coast_tags(design: &Design, svg: &mut String) {
    let grid = &design.grid;
    for ((r1, c1), (r2, c2)) in grid.edges() {
        for (land, sea, inward) in [((r1, c1), (r2, c2), false), ((r2, c2), (r1, c1), true)] {
            let (lp, sp) = (grid.at(land.0, land.1), grid.at(sea.0, sea.1));
            let tag = coasts_on(design, lp, sp);
            if tag.is_empty() {
                continue;
            }
            let (x, y) = origin(land.0, land.1);
            let (tx, ty) = match (r1 == r2, inward) {
                (true, false) => (x + CELL - 12, y + CELL - 4),
                (true, true) => (x + 2, y + CELL - 4),
                (false, false) => (x + 2, y + CELL - 4),
                (false, true) => (x + 2, y + 10),
            };
            let _ = writeln!(
                svg,
                "<text x=\"{tx}\" y=\"{ty}\" font-size=\"9\" fill=\"#103070\">{tag}</text>"
            );
        }
    }
}

/// `nc`, `sc`, `nc/sc`: the coasts of `land` whose COASTS line lists `sea`.
fn coasts_on(design: &Design, land: Province, sea: Province) -> String {
    if Map::standard().terrain(sea) != Terrain::Sea {
        return String::new();
    }
    design
        .coasts
        .iter()
        .filter(|l| l.coast.province == land)
        .filter(|l| l.touches.iter().any(|t| t.0 == Location::from(sea)))
        .filter_map(|l| l.coast.coast.map(|c| c.abbr()))
        .collect::<Vec<_>>()
        .join("/")
}

/// Each province's name on its most central cell; a dot marks a supply centre.
fn labels(design: &Design, svg: &mut String) {
    let grid = &design.grid;
    for p in grid.present().iter() {
        let cells: Vec<(usize, usize)> = grid
            .cells()
            .filter(|&(_, _, q)| q == p)
            .map(|(r, c, _)| (r, c))
            .collect();
        let n = cells.len().max(1) as f64;
        let mr = cells.iter().map(|c| c.0 as f64).sum::<f64>() / n;
        let mc = cells.iter().map(|c| c.1 as f64).sum::<f64>() / n;
        let dist = |c: &&(usize, usize)| (c.0 as f64 - mr).powi(2) + (c.1 as f64 - mc).powi(2);
        let Some(&(r, c)) = cells.iter().min_by(|a, b| dist(a).total_cmp(&dist(b))) else {
            continue;
        };
        let (x, y) = origin(r, c);
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let code = Map::standard().location_code(p.into());
        let _ = writeln!(
            svg,
            "<text x=\"{cx}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{code}</text>",
            cy + 4
        );
        if is_supply_centre(p) {
            let _ = writeln!(
                svg,
                "<circle cx=\"{cx}\" cy=\"{}\" r=\"3\" fill=\"black\"/>",
                cy - 8
            );
        }
    }
}

/// The text under the picture: the key and the COASTS and LAND ONLY blocks.
fn legend(design: &Design) -> Vec<String> {
    let map = Map::standard();
    let code = |l: Location| map.location_code(l);
    let mut out = vec!["Dot: supply centre. Dashed red: land border no fleet crosses.".to_string()];
    for line in &design.coasts {
        let places: Vec<String> = line.touches.iter().map(|t| code(t.0)).collect();
        out.push(format!("{}: {}", code(line.coast), places.join(" ")));
    }
    if !design.land_only.is_empty() {
        let pairs: Vec<String> = design
            .land_only
            .iter()
            .map(|l| format!("{}-{}", code(l.a.into()), code(l.b.into())))
            .collect();
        out.push(format!("Land only: {}", pairs.join(" ")));
    }
    out
}
