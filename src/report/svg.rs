//! The board as SVG: provinces from the map's layout, supply centers coloured by
//! owner, units by power, the phase's orders as arrows (failed ones dashed and
//! crossed), dislodged units beside their province with their retreats.

use std::fmt::Write;

use super::layout::{Layout, Pt};
use super::model::{PhaseReport, ResolvedOrder};
use crate::judge::{Unit, Verdict};
use crate::map::{Map, Power, Province, Terrain, UnitKind};
use crate::orders::Order;
use crate::phase::{PhaseKind, Season};

const SEA: &str = "#b7d3ec";
const LAND: &str = "#f1e7cc";
const IMPASSABLE: &str = "#cfc8b8";
const FONT: &str = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

/// The colour of a power's units and centers.
pub fn power_colour(map: &Map, power: Power) -> &'static str {
    let name = map
        .powers()
        .get(power.0 as usize)
        .map(|p| p.name.to_ascii_lowercase())
        .unwrap_or_default();
    match name.as_str() {
        "austria" => "#d23c36",
        "england" => "#2f47b0",
        "france" => "#4fa7e8",
        "germany" => "#555555",
        "italy" => "#2e9a44",
        "russia" => "#8a55b8",
        "turkey" => "#e3b021",
        _ => ["#b5651d", "#00897b", "#c2185b", "#7cb342", "#5d4037"][power.0 as usize % 5],
    }
}

/// Draws the board after the phase of `report` (already seen through the
/// recipient's view).
pub fn render(map: &Map, layout: &Layout, report: &PhaseReport) -> String {
    let mut svg = Svg::new(layout);
    svg.fixed(|svg| svg.provinces(map, layout));
    svg.centers(map, layout, report);
    svg.orders(map, layout, report);
    svg.fixed(|svg| svg.labels(map, layout));
    svg.units(map, layout, report);
    svg.dislodged(map, layout, report);
    svg.title(report);
    svg.legend(map, report);
    svg.finish()
}

/// Marks the start of a part drawn the same on every board of a map (the
/// land, sea, borders and names): the PNG renderer draws such a part once per
/// process and reuses it.
pub const FIXED_START: &str = "<!-- fixed -->\n";
/// Marks the end of a part begun with [`FIXED_START`].
pub const FIXED_END: &str = "<!-- /fixed -->\n";

struct Svg {
    out: String,
}

impl Svg {
    fn new(layout: &Layout) -> Svg {
        let (w, h) = (layout.width, layout.height);
        let mut out = String::with_capacity(64 * 1024);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\">"
        );
        out.push_str(
            "<defs>\
             <marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"4\" \
             markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker>\
             </defs>\n",
        );
        Svg { out }
    }

    /// Writes a part that depends only on the map, between the markers.
    fn fixed(&mut self, draw: impl FnOnce(&mut Svg)) {
        self.out.push_str(FIXED_START);
        draw(self);
        self.out.push_str(FIXED_END);
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }

    fn provinces(&mut self, map: &Map, layout: &Layout) {
        let cells = layout.cells();
        self.out.push_str("<g stroke-linejoin=\"round\">\n");
        for cell in &cells {
            let fill = match map.terrain(cell.province) {
                Terrain::Sea => SEA,
                Terrain::Impassable => IMPASSABLE,
                _ => LAND,
            };
            // A hairline of the fill colour closes the seams between cells.
            let _ = writeln!(
                self.out,
                "<path d=\"{}\" fill=\"{fill}\" stroke=\"{fill}\" stroke-width=\"0.8\"/>",
                path(&cell.points, true)
            );
        }
        self.out
            .push_str("</g>\n<g stroke-linecap=\"round\" fill=\"none\">\n");
        for (i, cell) in cells.iter().enumerate() {
            let n = cell.points.len();
            for (k, other) in cell.neighbours.iter().enumerate() {
                let Some(j) = *other else { continue };
                let Some(q) = layout.seed_province(j) else {
                    continue;
                };
                if j < i || q == cell.province {
                    continue;
                }
                let (a, b) = (cell.points[k], cell.points[(k + 1) % n]);
                let (ta, tb) = (map.terrain(cell.province), map.terrain(q));
                let style = match (ta == Terrain::Sea, tb == Terrain::Sea) {
                    (true, true) => "stroke=\"#8fb4d6\" stroke-width=\"1\"",
                    (false, false) => "stroke=\"#a08c68\" stroke-width=\"1.2\"",
                    _ => "stroke=\"#46698c\" stroke-width=\"2\"",
                };
                let _ = writeln!(
                    self.out,
                    "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" {style}/>",
                    a.x, a.y, b.x, b.y
                );
            }
        }
        self.out.push_str("</g>\n");
    }

    fn labels(&mut self, map: &Map, layout: &Layout) {
        self.out
            // A light halo keeps labels readable where arrows cross them.
            .push_str(
                "<g font-size=\"11\" text-anchor=\"middle\" paint-order=\"stroke\" \
                 stroke=\"#fff\" stroke-opacity=\"0.6\" stroke-width=\"2.5\">\n",
            );
        for p in map.provinces() {
            let Some(place) = layout.place(p) else {
                continue;
            };
            let sea = map.terrain(p) == Terrain::Sea;
            let (fill, style) = if sea {
                ("#2d5a84", " font-style=\"italic\"")
            } else {
                ("#4a3b22", "")
            };
            let _ = writeln!(
                self.out,
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{fill}\"{style}>{}</text>",
                place.at.x,
                place.at.y + 22.0,
                map.abbr(p).to_ascii_uppercase()
            );
            for (coast, pt) in &place.coasts {
                let _ = writeln!(
                    self.out,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"none\" stroke=\"#46698c\"/>\
                     <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#2d5a84\">{}</text>",
                    pt.x,
                    pt.y,
                    pt.x,
                    pt.y + 13.0,
                    coast.abbr()
                );
            }
        }
        self.out.push_str("</g>\n");
    }

    fn centers(&mut self, map: &Map, layout: &Layout, report: &PhaseReport) {
        for p in map.supply_centers().iter() {
            let Some(place) = layout.place(p) else {
                continue;
            };
            let fill = report
                .after
                .owner(p)
                .map_or("#ffffff", |o| power_colour(map, o));
            let _ = writeln!(
                self.out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{fill}\" stroke=\"#222\" stroke-width=\"1.2\"/>",
                place.at.x + 15.0,
                place.at.y - 9.0
            );
        }
    }

    fn units(&mut self, map: &Map, layout: &Layout, report: &PhaseReport) {
        for u in &report.after.units {
            self.token(map, layout.point(u.location), u, 1.0);
        }
        // Builds and removals are ringed; a removed unit is shown crossed out.
        for o in &report.orders {
            let ok = o.resolution.verdict == Verdict::Ok;
            match o.resolution.order {
                Order::Build { unit } if ok => {
                    let at = layout.point(unit.location);
                    self.ring(at, "#1b8a3a");
                }
                Order::Remove { .. } if report.phase.kind == PhaseKind::Adjustment => {
                    if let Some(u) = o.unit {
                        let at = layout.point(u.location);
                        self.token(map, at, &u, 0.45);
                        self.cross(at, 9.0);
                    }
                }
                // A unit lost in the retreats: disbanded, or bounced off another.
                _ if report.phase.kind == PhaseKind::Retreat
                    && o.resolution.verdict != Verdict::Ok =>
                {
                    if let Some(u) = o.unit {
                        let at = dislodged_point(layout.point(u.location));
                        self.token(map, at, &u, 0.45);
                        self.cross(at, 9.0);
                    }
                }
                _ => {}
            }
        }
    }

    fn token(&mut self, map: &Map, at: Pt, unit: &Unit, opacity: f32) {
        let colour = power_colour(map, unit.power);
        let shape = match unit.kind {
            UnitKind::Army => format!("<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"9\"", at.x, at.y),
            UnitKind::Fleet => format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"18\" height=\"16\" rx=\"4\"",
                at.x - 9.0,
                at.y - 8.0
            ),
        };
        let _ = writeln!(
            self.out,
            "<g opacity=\"{opacity}\">{shape} fill=\"{colour}\" stroke=\"#111\" stroke-width=\"1.5\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">{}</text></g>",
            at.x,
            at.y + 4.0,
            unit.kind.letter()
        );
    }

    fn ring(&mut self, at: Pt, colour: &str) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"13\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2.5\"/>",
            at.x, at.y
        );
    }

    fn cross(&mut self, at: Pt, r: f32) {
        let _ = writeln!(
            self.out,
            "<path d=\"M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}\" stroke=\"#c0001a\" stroke-width=\"3\" stroke-linecap=\"round\"/>",
            at.x - r,
            at.y - r,
            at.x + r,
            at.y + r,
            at.x - r,
            at.y + r,
            at.x + r,
            at.y - r
        );
    }

    fn orders(&mut self, map: &Map, layout: &Layout, report: &PhaseReport) {
        self.out
            .push_str("<g fill=\"none\" stroke-linecap=\"round\">\n");
        for o in &report.orders {
            self.order(map, layout, report, o);
        }
        self.out.push_str("</g>\n");
    }

    fn order(&mut self, map: &Map, layout: &Layout, report: &PhaseReport, o: &ResolvedOrder) {
        let colour = power_colour(map, o.power());
        let failed = o.failed();
        let from = |spec: &crate::orders::UnitSpec| {
            let loc = o
                .unit
                .filter(|u| u.province() == spec.province())
                .map_or(spec.location, |u| u.location);
            let at = layout.point(loc);
            if report.phase.kind == PhaseKind::Retreat {
                dislodged_point(at)
            } else {
                at
            }
        };
        match o.resolution.order {
            Order::Move { unit, to, .. } => {
                let mut points = vec![from(&unit)];
                points.extend(o.convoy_route.iter().map(|p| layout.point((*p).into())));
                points.push(layout.point(to));
                self.arrow(&points, colour, failed, "none");
            }
            Order::SupportMove {
                unit,
                supported,
                to,
            } => {
                let start = from(&unit);
                let a = support_origin(report, layout, supported.province());
                let b = layout.point(to);
                // Aim at a point short of the supported move's end.
                let end = Pt::new(a.x + (b.x - a.x) * 0.75, a.y + (b.y - a.y) * 0.75);
                self.arrow(&[start, end], colour, failed, "4 4");
            }
            Order::SupportHold { unit, supported } => {
                let start = from(&unit);
                let end = support_origin(report, layout, supported.province());
                self.arrow(&[start, shorten(start, end, 12.0)], colour, failed, "4 4");
            }
            Order::Convoy { unit, army, to } => {
                let start = from(&unit);
                let a = support_origin(report, layout, army.province());
                let b = layout.point(to);
                let mid = Pt::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                self.arrow(&[start, mid], colour, failed, "1 4");
            }
            _ => {}
        }
    }

    /// A line through `points` ending in an arrow head; a failed order is dashed
    /// and crossed at its end.
    fn arrow(&mut self, points: &[Pt], colour: &str, failed: bool, dash: &str) {
        let (Some(&first), Some(&last)) = (points.first(), points.last()) else {
            return;
        };
        if points.len() < 2 {
            return;
        }
        let end = shorten(points[points.len() - 2], last, 11.0);
        let mut pts: Vec<Pt> = points[..points.len() - 1].to_vec();
        pts[0] = shorten(points[1], first, 8.0);
        pts.push(end);
        let dash = if failed && dash == "none" {
            "7 5"
        } else {
            dash
        };
        let _ = writeln!(
            self.out,
            "<path d=\"{}\" stroke=\"#fff\" stroke-width=\"5\" opacity=\"0.7\"/>\
             <path d=\"{}\" stroke=\"{colour}\" stroke-width=\"2.6\" stroke-dasharray=\"{dash}\" marker-end=\"url(#head)\"/>",
            path(&pts, false),
            path(&pts, false)
        );
        if failed {
            self.cross(end, 5.0);
        }
    }

    fn dislodged(&mut self, map: &Map, layout: &Layout, report: &PhaseReport) {
        for d in &report.dislodged {
            let at = dislodged_point(layout.point(d.unit.location));
            for option in &d.options {
                let to = layout.point(*option);
                let _ = writeln!(
                    self.out,
                    "<path d=\"{}\" fill=\"none\" stroke=\"#c0001a\" stroke-width=\"1.6\" stroke-dasharray=\"2 3\" marker-end=\"url(#head)\"/>",
                    path(&[at, shorten(at, to, 10.0)], false)
                );
            }
            self.token(map, at, &d.unit, 0.8);
            let _ = writeln!(
                self.out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"12\" fill=\"none\" stroke=\"#c0001a\" stroke-width=\"2\"/>",
                at.x, at.y
            );
            if d.options.is_empty() {
                self.cross(at, 8.0);
            }
        }
    }

    fn title(&mut self, report: &PhaseReport) {
        let phase = &report.phase;
        let season = match phase.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        };
        let kind = match phase.kind {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreats",
            PhaseKind::Adjustment => "adjustments",
        };
        let text = format!(
            "{} \u{2014} {season} {} {kind}",
            escape(&report.info.game),
            report.era.year(phase.year)
        );
        let _ = writeln!(
            self.out,
            "<g><rect x=\"8\" y=\"{:.1}\" width=\"{:.1}\" height=\"26\" rx=\"4\" fill=\"#fff\" opacity=\"0.85\" stroke=\"#555\"/>\
             <text x=\"16\" y=\"{:.1}\" font-size=\"15\" font-weight=\"bold\" fill=\"#222\">{text}</text></g>",
            8.0,
            9.0 * text.chars().count() as f32 + 20.0,
            26.0
        );
    }

    fn legend(&mut self, map: &Map, report: &PhaseReport) {
        let rows = &report.powers;
        if rows.is_empty() {
            return;
        }
        // Top left, under the title: open ocean on most maps.
        let x = 8.0;
        let y0 = 50.0;
        let _ = writeln!(
            self.out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"142\" height=\"{:.1}\" rx=\"4\" fill=\"#fff\" opacity=\"0.85\" stroke=\"#555\"/>",
            x,
            y0 - 8.0,
            17.0 * rows.len() as f32 + 12.0
        );
        for (i, s) in rows.iter().enumerate() {
            let y = y0 + 17.0 * i as f32;
            let _ = writeln!(
                self.out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"#111\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" fill=\"#222\">{} {}/{}</text>",
                x + 8.0,
                y,
                power_colour(map, s.power),
                x + 26.0,
                y + 10.5,
                escape(&s.name),
                s.centers.len(),
                s.units
            );
        }
    }
}

/// Where a dislodged unit is drawn: beside its province's own unit place.
fn dislodged_point(home: Pt) -> Pt {
    Pt::new(home.x + 18.0, home.y + 14.0)
}

/// Where the unit in `p` stood before the phase.
fn support_origin(report: &PhaseReport, layout: &Layout, p: Province) -> Pt {
    let loc = report
        .before
        .unit_at(p)
        .map_or_else(|| p.into(), |u| u.location);
    layout.point(loc)
}

/// `b` moved towards `a` by `by` pixels (a line ending short of a token).
fn shorten(a: Pt, b: Pt, by: f32) -> Pt {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len <= by || len == 0.0 {
        return b;
    }
    Pt::new(b.x - dx / len * by, b.y - dy / len * by)
}

fn path(points: &[Pt], closed: bool) -> String {
    let mut d = String::with_capacity(points.len() * 14);
    for (i, p) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{:.1},{:.1} ",
            if i == 0 { 'M' } else { 'L' },
            p.x,
            p.y
        );
    }
    if closed {
        d.push('z');
    }
    d.trim_end().to_string()
}

/// Text safe inside an SVG element.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
