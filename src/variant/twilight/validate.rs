//! Rules 2.1 to 2.8 and the design's own consistency, one check each.
//! Every check reports all it finds, so a player learns every fault at once.

use crate::map::{Location, Map, Province, ProvinceSet, Terrain};

use super::adjacency::{reachable_by_sea, seas};
use super::error::{DesignError, Pos};
use super::facts::{COUNTRY_SPACES, is_supply_centre, province, sevastopol};
use super::format::{CoastLine, Design};
use super::grid::Grid;

struct Ctx<'a> {
    design: &'a Design,
    grid: &'a Grid,
    touching: Vec<ProvinceSet>,
    present: ProvinceSet,
}

impl Ctx<'_> {
    fn touching(&self, p: Province) -> ProvinceSet {
        self.touching[p.0 as usize]
    }

    fn present_with(&self, terrain: Terrain) -> impl Iterator<Item = Province> + '_ {
        self.present.iter().filter(move |&p| kind(p) == terrain)
    }

    fn touching_with(&self, p: Province, f: fn(Terrain) -> bool) -> Vec<Province> {
        self.touching(p).iter().filter(|&q| f(kind(q))).collect()
    }

    fn coast_line(&self, coast: Location) -> Option<&CoastLine> {
        self.design.coasts.iter().find(|l| l.coast == coast)
    }

    /// The seas a fleet at `loc` can reach: its COASTS line for a coast.
    fn seas_at(&self, loc: Location) -> ProvinceSet {
        match loc.coast {
            None => seas(&self.touching, loc.province),
            Some(_) => self.coast_line(loc).map_or(ProvinceSet::EMPTY, |l| {
                l.touches
                    .iter()
                    .map(|t| t.0.province)
                    .filter(|&q| kind(q) == Terrain::Sea)
                    .filter(|&q| self.touching(loc.province).contains(q))
                    .collect()
            }),
        }
    }
}

fn kind(p: Province) -> Terrain {
    Map::standard().terrain(p)
}

fn is_land(t: Terrain) -> bool {
    matches!(t, Terrain::Inland | Terrain::Coastal)
}

/// Every fault of the design; empty when it keeps every rule.
pub fn validate(design: &Design) -> Vec<DesignError> {
    let ctx = Ctx {
        design,
        grid: &design.grid,
        touching: design.grid.touching(),
        present: design.grid.present(),
    };
    let mut errors = Vec::new();
    let checks: [fn(&Ctx, &mut Vec<DesignError>); 10] = [
        rule_2_1_provinces,
        rule_2_2_terrain,
        rule_2_2_coasts,
        rule_2_3_centres,
        rule_2_4_land,
        rule_2_5_seas,
        rule_2_6_countries,
        rule_2_7_sides,
        coast_lines,
        land_only,
    ];
    for check in checks {
        check(&ctx, &mut errors);
    }
    errors
}

/// 2.1: every playable standard province, each in one piece. Switzerland,
/// impassable, may be drawn or left out.
fn rule_2_1_provinces(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for p in Map::standard().provinces() {
        if !ctx.present.contains(p) {
            if Map::standard().is_passable(p) {
                errors.push(DesignError::MissingProvince { province: p });
            }
            continue;
        }
        let pieces = ctx.grid.pieces(p);
        if pieces.len() > 1 {
            errors.push(DesignError::SplitProvince {
                province: p,
                first: pieces[0],
                second: pieces[1],
            });
        }
    }
}

/// 2.2: inland touches no sea; coastal touches one.
fn rule_2_2_terrain(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for p in ctx.present_with(Terrain::Inland) {
        if let Some(sea) = seas(&ctx.touching, p).iter().next() {
            let at = ctx.grid.first_pos(p);
            errors.push(DesignError::InlandTouchesSea {
                province: p,
                sea,
                at,
            });
        }
    }
    for p in ctx.present_with(Terrain::Coastal) {
        if seas(&ctx.touching, p).is_empty() {
            let at = ctx.grid.first_pos(p);
            errors.push(DesignError::CoastalWithoutSea { province: p, at });
        }
    }
}

/// 2.2: Spain, St Petersburg and Bulgaria keep their coasts, each on a sea,
/// and every sea they touch is on one of them.
fn rule_2_2_coasts(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    let map = Map::standard();
    for p in ctx.present.iter().filter(|&p| !map.coasts(p).is_empty()) {
        for &c in map.coasts(p) {
            let coast = Location::new(p, Some(c));
            match ctx.coast_line(coast) {
                None => errors.push(DesignError::MissingCoast { coast }),
                Some(line) if ctx.seas_at(coast).is_empty() => {
                    errors.push(DesignError::CoastWithoutSea { coast, at: line.at })
                }
                Some(_) => {}
            }
        }
        let on_coasts = map
            .coasts(p)
            .iter()
            .fold(0, |acc, &c| acc | ctx.seas_at(Location::new(p, Some(c))).0);
        for sea in seas(&ctx.touching, p).iter() {
            if on_coasts >> sea.0 & 1 == 0 {
                let at = ctx.grid.first_pos(sea);
                errors.push(DesignError::SeaOnNoCoast {
                    sea,
                    province: p,
                    at,
                });
            }
        }
    }
}

/// 2.3 and 2.8: a CENTRES block, if written, names the 33 centres, not Sevastopol.
fn rule_2_3_centres(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    let Some(listed) = &ctx.design.centres else {
        return;
    };
    for &(p, at) in listed {
        if p == sevastopol() {
            errors.push(DesignError::SevastopolCentre { at });
        } else if !is_supply_centre(p) {
            errors.push(DesignError::ExtraCentre { province: p, at });
        }
    }
    for p in Map::standard().provinces().filter(|&p| is_supply_centre(p)) {
        if !listed.iter().any(|&(q, _)| q == p) {
            errors.push(DesignError::MissingCentre { province: p });
        }
    }
}

/// 2.4: every land space borders two other land spaces.
fn rule_2_4_land(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for p in ctx.present.iter().filter(|&p| is_land(kind(p))) {
        let neighbours = ctx.touching_with(p, is_land);
        if neighbours.len() < 2 {
            let at = ctx.grid.first_pos(p);
            errors.push(DesignError::FewLandNeighbours {
                province: p,
                neighbours,
                at,
            });
        }
    }
}

/// 2.5: every sea borders two other seas and a coastal space.
fn rule_2_5_seas(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for p in ctx.present_with(Terrain::Sea) {
        let neighbours = ctx.touching_with(p, |t| t == Terrain::Sea);
        if neighbours.len() < 2 {
            let at = ctx.grid.first_pos(p);
            errors.push(DesignError::FewSeaNeighbours {
                province: p,
                neighbours,
                at,
            });
        }
        if ctx.touching_with(p, |t| t == Terrain::Coastal).is_empty() {
            let at = ctx.grid.first_pos(p);
            errors.push(DesignError::SeaWithoutCoast { province: p, at });
        }
    }
}

/// 2.6: each country's spaces form one piece.
fn rule_2_6_countries(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for (country, abbrs) in COUNTRY_SPACES {
        let spaces: ProvinceSet = abbrs
            .iter()
            .map(|a| province(a))
            .filter(|&p| ctx.present.contains(p))
            .collect();
        let Some(from) = spaces.iter().next() else {
            continue;
        };
        let reached = reached_within(ctx, from, spaces);
        let cut_off: Vec<Province> = spaces.iter().filter(|&p| !reached.contains(p)).collect();
        if let Some(&first) = cut_off.first() {
            let (country, at) = (country.to_string(), ctx.grid.first_pos(first));
            errors.push(DesignError::CountrySplit {
                country,
                from,
                cut_off,
                at,
            });
        }
    }
}

/// The provinces of `within` reachable from `from` without leaving it.
fn reached_within(ctx: &Ctx, from: Province, within: ProvinceSet) -> ProvinceSet {
    let mut reached = ProvinceSet::EMPTY;
    let mut stack = vec![from];
    reached.insert(from);
    while let Some(p) = stack.pop() {
        for q in ctx.touching(p).iter().filter(|&q| within.contains(q)) {
            if !reached.contains(q) {
                reached.insert(q);
                stack.push(q);
            }
        }
    }
    reached
}

/// 2.7: only a corner space touches two sides; none touches three or four.
fn rule_2_7_sides(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for p in ctx.present.iter() {
        let sides = ctx.grid.sides(p).iter().filter(|&&s| s).count();
        let at = ctx.grid.first_pos(p);
        if sides > 2 {
            errors.push(DesignError::TooManySides {
                province: p,
                sides,
                at,
            });
        } else if sides == 2 && !ctx.grid.holds_corner(p) {
            errors.push(DesignError::TwoSidesNotCorner { province: p, at });
        }
    }
}

/// Each place on a COASTS line is a fleet place that borders the province in
/// the grid and, if it is land, shares a sea with the coast.
fn coast_lines(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for line in &ctx.design.coasts {
        for &(place, at) in &line.touches {
            if let Some(e) = coast_neighbour(ctx, line.coast, place, at) {
                errors.push(e);
            }
        }
    }
}

fn coast_neighbour(ctx: &Ctx, coast: Location, place: Location, at: Pos) -> Option<DesignError> {
    let of = coast.province;
    let map = Map::standard();
    if !reachable_by_sea(place) {
        if kind(place.province) == Terrain::Coastal && place.coast.is_none() {
            return Some(DesignError::CoastNeeded {
                at,
                place: place.province,
                of,
            });
        }
        return Some(DesignError::NotCoastal { at, place });
    }
    if !ctx.touching(of).contains(place.province) {
        return Some(DesignError::NotNeighbour { at, place, of });
    }
    let land = map.terrain(place.province) == Terrain::Coastal;
    if land && ctx.seas_at(coast).0 & ctx.seas_at(place).0 == 0 {
        return Some(DesignError::NoCommonSea {
            at,
            a: coast,
            b: place,
        });
    }
    None
}

/// Each LAND ONLY pair is a coastline the grid would otherwise give fleets.
fn land_only(ctx: &Ctx, errors: &mut Vec<DesignError>) {
    for l in &ctx.design.land_only {
        let why = land_only_fault(ctx, l.a, l.b);
        if let Some(why) = why {
            errors.push(DesignError::LandOnly {
                at: l.at,
                a: l.a,
                b: l.b,
                why,
            });
        }
    }
}

fn land_only_fault(ctx: &Ctx, a: Province, b: Province) -> Option<&'static str> {
    let map = Map::standard();
    if a == b {
        return Some("a province does not border itself");
    }
    if kind(a) != Terrain::Coastal || kind(b) != Terrain::Coastal {
        return Some("only two coastal provinces have a coastline between them");
    }
    if !map.coasts(a).is_empty() || !map.coasts(b).is_empty() {
        return Some(
            "for Spain, St Petersburg and Bulgaria leave the place off the coast's COASTS line instead",
        );
    }
    if !ctx.touching(a).contains(b) {
        return Some("they do not border each other in the grid");
    }
    if seas(&ctx.touching, a).0 & seas(&ctx.touching, b).0 == 0 {
        return Some("they touch no common sea, so fleets cannot pass there anyway");
    }
    None
}
