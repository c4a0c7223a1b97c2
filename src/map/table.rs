//! The precomputed tables behind the `Map` queries.

use super::{Coast, Location, MapError, Province, ProvinceData, ProvinceSet, Terrain};

/// No fleet can stand in this province.
const NO_FLEET: u8 = u8::MAX;

/// Fleet adjacency, coast-exact. Every place a fleet can stand (a sea, a coastal
/// province, or one coast of a multi-coast province) gets a small index; adjacency
/// is a bitset over those indexes, plus a province bitset for "any coast of".
#[derive(Debug, Clone)]
pub struct FleetTable {
    /// Per province: the index of its first fleet location, or `NO_FLEET`.
    base: Vec<u8>,
    /// Per province: the fleet-location index for "no coast" (slot 0) and for
    /// each `Coast` (slots 1-4), or `NO_FLEET`. One array read answers `index`,
    /// which every fleet query starts with.
    slots: Vec<[u8; 5]>,
    /// Per province: its coasts (empty for single-coast provinces), in index order.
    coasts: Vec<Vec<Coast>>,
    /// Per fleet location: the fleet locations next to it.
    adj: Vec<u128>,
    /// Per fleet location: the provinces next to it.
    reach: Vec<ProvinceSet>,
    /// Per fleet location: the location itself.
    locations: Vec<Location>,
}

impl FleetTable {
    pub fn new(provinces: &[ProvinceData]) -> Result<FleetTable, MapError> {
        let mut table = FleetTable {
            base: Vec::with_capacity(provinces.len()),
            slots: Vec::with_capacity(provinces.len()),
            coasts: Vec::with_capacity(provinces.len()),
            adj: Vec::new(),
            reach: Vec::new(),
            locations: Vec::new(),
        };
        for (i, p) in provinces.iter().enumerate() {
            let province = Province(i as u8);
            table.coasts.push(p.coasts.clone());
            let mut slots = [NO_FLEET; 5];
            if !matches!(p.terrain, Terrain::Sea | Terrain::Coastal) {
                table.base.push(NO_FLEET);
                table.slots.push(slots);
                continue;
            }
            let first = table.locations.len();
            if p.coasts.is_empty() {
                table.locations.push(Location::new(province, None));
            } else {
                table
                    .locations
                    .extend(p.coasts.iter().map(|&c| Location::new(province, Some(c))));
            }
            if table.locations.len() > 128 {
                return Err(MapError::Invalid(
                    "more than 128 places a fleet can stand".into(),
                ));
            }
            table.base.push(first as u8);
            if p.coasts.is_empty() {
                slots[0] = first as u8;
            }
            for (i, &c) in p.coasts.iter().enumerate() {
                slots[slot(Some(c))] = (first + i) as u8;
            }
            table.slots.push(slots);
        }
        table.adj = vec![0; table.locations.len()];
        table.reach = vec![ProvinceSet::EMPTY; table.locations.len()];
        Ok(table)
    }

    /// The fleet-location index of `loc`, if a fleet can stand there.
    #[inline]
    pub fn index(&self, loc: Location) -> Option<usize> {
        let i = self.slots.get(loc.province.0 as usize)?[slot(loc.coast)];
        (i != NO_FLEET).then_some(i as usize)
    }

    pub fn add_edge(&mut self, a: Location, b: Location) -> Result<(), String> {
        let fleet_place =
            |l: Location| format!("no fleet can stand at #{} {:?}", l.province.0, l.coast);
        let i = self.index(a).ok_or_else(|| fleet_place(a))?;
        let j = self.index(b).ok_or_else(|| fleet_place(b))?;
        if a.province == b.province {
            return Err("a province does not border itself".into());
        }
        if self.adj[i] >> j & 1 == 1 {
            return Err("border listed twice".into());
        }
        self.adj[i] |= 1 << j;
        self.adj[j] |= 1 << i;
        self.reach[i].insert(b.province);
        self.reach[j].insert(a.province);
        Ok(())
    }

    #[inline]
    pub fn adjacent(&self, from: Location, to: Location) -> bool {
        match (self.index(from), self.index(to)) {
            (Some(i), Some(j)) => self.adj[i] >> j & 1 == 1,
            _ => false,
        }
    }

    #[inline]
    pub fn neighbours(&self, from: Location) -> ProvinceSet {
        self.index(from)
            .map_or(ProvinceSet::EMPTY, |i| self.reach[i])
    }

    /// The fleet locations of province `to` next to `from`.
    pub fn targets(&self, from: Location, to: Province) -> Vec<Location> {
        let Some(i) = self.index(from) else {
            return Vec::new();
        };
        if !self.reach[i].contains(to) {
            return Vec::new();
        }
        let coasts = &self.coasts[to.0 as usize];
        if coasts.is_empty() {
            return vec![Location::new(to, None)];
        }
        coasts
            .iter()
            .map(|&c| Location::new(to, Some(c)))
            .filter(|&l| self.adjacent(from, l))
            .collect()
    }

    /// Provinces next to any fleet location in `p`.
    fn province_reach(&self, p: Province) -> ProvinceSet {
        let base = self.base[p.0 as usize];
        if base == NO_FLEET {
            return ProvinceSet::EMPTY;
        }
        let count = self.coasts[p.0 as usize].len().max(1);
        let mut set = ProvinceSet::EMPTY;
        for i in base as usize..base as usize + count {
            set.0 |= self.reach[i].0;
        }
        set
    }

    /// Every undirected fleet border once, as location pairs.
    pub fn edges(&self) -> Vec<(Location, Location)> {
        let mut out = Vec::new();
        for (i, &bits) in self.adj.iter().enumerate() {
            let mut rest = bits >> i;
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out.push((self.locations[i], self.locations[i + k]));
            }
        }
        out
    }
}

/// The slot of a coast in `FleetTable::slots`.
#[inline]
fn slot(coast: Option<Coast>) -> usize {
    match coast {
        None => 0,
        Some(Coast::North) => 1,
        Some(Coast::South) => 2,
        Some(Coast::East) => 3,
        Some(Coast::West) => 4,
    }
}

/// All-pairs shortest distance over every border (army or fleet), as an n×n
/// table; `u8::MAX` where there is no path.
pub fn distances(army_adj: &[ProvinceSet], fleet: &FleetTable, n: usize) -> Vec<u8> {
    let any: Vec<ProvinceSet> = (0..n)
        .map(|p| ProvinceSet(army_adj[p].0 | fleet.province_reach(Province(p as u8)).0))
        .collect();
    let mut table = vec![u8::MAX; n * n];
    for start in 0..n {
        let row = &mut table[start * n..(start + 1) * n];
        row[start] = 0;
        let mut seen = ProvinceSet::EMPTY;
        seen.insert(Province(start as u8));
        let mut frontier = seen;
        let mut step = 0u8;
        while !frontier.is_empty() && step < u8::MAX - 1 {
            step += 1;
            let mut next = ProvinceSet::EMPTY;
            for p in frontier.iter() {
                next.0 |= any[p.0 as usize].0;
            }
            next.0 &= !seen.0;
            for p in next.iter() {
                row[p.0 as usize] = step;
            }
            seen.0 |= next.0;
            frontier = next;
        }
    }
    table
}

/// Sets derived from the province list and the fleet table, kept so that the
/// adjudicator need not rebuild them on every phase.
#[derive(Debug, Clone, Default)]
pub struct Derived {
    pub seas: ProvinceSet,
    pub coastal: ProvinceSet,
    /// Per province: the provinces a fleet reaches from it over any of its coasts.
    pub fleet_touching: Vec<ProvinceSet>,
}

impl Derived {
    pub fn new(provinces: &[ProvinceData], fleet: &FleetTable) -> Derived {
        let mut derived = Derived {
            fleet_touching: Vec::with_capacity(provinces.len()),
            ..Derived::default()
        };
        for (i, data) in provinces.iter().enumerate() {
            let p = Province(i as u8);
            match data.terrain {
                Terrain::Sea => derived.seas.insert(p),
                Terrain::Coastal => derived.coastal.insert(p),
                Terrain::Inland | Terrain::Impassable => {}
            }
            derived.fleet_touching.push(fleet.province_reach(p));
        }
        derived
    }
}
