//! The board: provinces, coasts, terrain, supply centers, powers and adjacency.
//!
//! A `Map` is built from a hand-editable TOML file (`config/maps/*.toml`) into
//! compact index-based tables: a province is a `u8`, province sets are 128-bit
//! bitsets, so the adjudicator never hashes or allocates to ask "is X next to Y".
//! Variants build other maps from other data (Twilight Zone: one adjacency per
//! player over the same provinces).
//!
//! Pure: no I/O beyond parsing the text it is given (the standard map is embedded).
//!
//! Switzerland is a province of the standard map, with terrain `Impassable`: it
//! borders nothing a unit may cross, but reports can name it and an order that
//! mentions it gets a clear "no unit may enter Switzerland" rather than "unknown
//! place". So the standard map has 76 provinces (`province_count() == 76`), of
//! which 75 are playable (`playable_count()`): 19 sea, 14 inland, 42 coastal.

use std::fmt;
use std::sync::OnceLock;

mod load;
mod spelling;
mod table;

pub use spelling::{byte_set, normalise};

/// A province, as an index into its `Map`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Province(pub u8);

/// One coast of a multi-coast province (Spain, St Petersburg, Bulgaria in the standard map).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Coast {
    North,
    South,
    East,
    West,
}

impl Coast {
    /// `nc`, `sc`, `ec`, `wc`.
    pub fn abbr(self) -> &'static str {
        match self {
            Coast::North => "nc",
            Coast::South => "sc",
            Coast::East => "ec",
            Coast::West => "wc",
        }
    }

    /// `north coast` ...
    pub fn name(self) -> &'static str {
        match self {
            Coast::North => "north coast",
            Coast::South => "south coast",
            Coast::East => "east coast",
            Coast::West => "west coast",
        }
    }
}

/// Where a unit stands: a province and, for a fleet in a multi-coast province, the coast.
/// Armies and single-coast provinces have `coast: None`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub province: Province,
    pub coast: Option<Coast>,
}

impl Location {
    pub const fn new(province: Province, coast: Option<Coast>) -> Location {
        Location { province, coast }
    }
}

impl From<Province> for Location {
    fn from(province: Province) -> Location {
        Location {
            province,
            coast: None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    Army,
    Fleet,
}

impl UnitKind {
    /// `A` or `F`.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }

    /// `Army` or `Fleet`.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Army => "Army",
            UnitKind::Fleet => "Fleet",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Land with no coast: armies only.
    Inland,
    /// Land on the sea: armies, and fleets along the coast.
    Coastal,
    /// Water: fleets only.
    Sea,
    /// No unit may enter (Switzerland).
    Impassable,
}

/// A great power, as an index into `Map::powers`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Power(pub u8);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PowerInfo {
    /// `France`
    pub name: String,
    /// `French`
    pub adjective: String,
    pub home_centers: Vec<Province>,
    pub starting_units: Vec<(UnitKind, Location)>,
}

/// A set of provinces as a 128-bit bitset (maps have at most 128 provinces).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProvinceSet(pub u128);

/// The bit of each `u8` province index: a table load is cheaper than a variable
/// 128-bit shift, and indices from 128 on (never a province) have no bit.
static BIT: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut i = 0;
    while i < 128 {
        table[i] = 1u128 << i;
        i += 1;
    }
    table
};

impl ProvinceSet {
    pub const EMPTY: ProvinceSet = ProvinceSet(0);

    #[inline]
    pub fn contains(self, p: Province) -> bool {
        self.0 & BIT[p.0 as usize] != 0
    }

    #[inline]
    pub fn insert(&mut self, p: Province) {
        self.0 |= BIT[p.0 as usize];
    }

    #[inline]
    pub fn remove(&mut self, p: Province) {
        self.0 &= !BIT[p.0 as usize];
    }

    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The provinces in ascending order.
    #[inline]
    pub fn iter(self) -> Provinces {
        Provinces {
            lo: self.0 as u64,
            hi: (self.0 >> 64) as u64,
        }
    }
}

/// Iterator over a [`ProvinceSet`]: two 64-bit halves, whose trailing-zero counts
/// are single instructions (a 128-bit count is not).
pub struct Provinces {
    lo: u64,
    hi: u64,
}

impl Iterator for Provinces {
    type Item = Province;

    #[inline]
    fn next(&mut self) -> Option<Province> {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            Some(Province(i as u8))
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros();
            self.hi &= self.hi - 1;
            Some(Province(64 + i as u8))
        } else {
            None
        }
    }
}

impl FromIterator<Province> for ProvinceSet {
    fn from_iter<I: IntoIterator<Item = Province>>(iter: I) -> ProvinceSet {
        let mut set = ProvinceSet::EMPTY;
        for p in iter {
            set.insert(p);
        }
        set
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("map data is not valid TOML: {0}")]
    Toml(String),
    #[error("map data: {0}")]
    Invalid(String),
}

impl fmt::Display for Province {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What the map knows of one province.
#[derive(Debug, Clone)]
struct ProvinceData {
    abbr: String,
    name: String,
    terrain: Terrain,
    supply_center: bool,
    coasts: Vec<Coast>,
    /// A coast players write that means another one (`bul/nc` for Bulgaria's east coast).
    coast_aliases: Vec<(Coast, Coast)>,
    home: Option<Power>,
}

/// A loaded map. Fields are private: everything goes through the methods below,
/// which are the contract the adjudicator, the grammar and the reports rely on.
#[derive(Debug, Clone)]
pub struct Map {
    title: String,
    start: Option<String>,
    provinces: Vec<ProvinceData>,
    powers: Vec<PowerInfo>,
    supply_centers: ProvinceSet,
    army_adj: Vec<ProvinceSet>,
    fleet: table::FleetTable,
    /// `distance[a * n + b]`
    distance: Vec<u8>,
    spellings: Vec<(String, Location)>,
    /// Per spelling, in the same order: its `byte_set`.
    spelling_sets: Vec<u64>,
    /// The places of the spellings in `spellings`, by length, then in order:
    /// those of length `n` are `by_length[length_starts[n]..length_starts[n + 1]]`.
    by_length: Vec<u16>,
    length_starts: Vec<u16>,
    /// Sets derived once from the tables above, for the adjudicator's hot path.
    derived: table::Derived,
}

const STANDARD_TOML: &str = include_str!("../../config/maps/standard.toml");

impl Map {
    /// The standard Diplomacy map, parsed once from the embedded `config/maps/standard.toml`.
    pub fn standard() -> &'static Map {
        static STANDARD: OnceLock<Map> = OnceLock::new();
        // The embedded file is checked by the tests; a broken build-time file is a bug, not input.
        STANDARD.get_or_init(|| match Map::from_toml(STANDARD_TOML) {
            Ok(map) => map,
            Err(e) => panic!("config/maps/standard.toml: {e}"),
        })
    }

    /// Builds a map from the TOML map format (see `config/maps/standard.toml`).
    pub fn from_toml(text: &str) -> Result<Map, MapError> {
        load::from_toml(text)
    }

    /// Number of provinces, impassable ones included (76 for the standard map: see the module doc).
    #[inline]
    pub fn province_count(&self) -> usize {
        self.provinces.len()
    }

    pub fn provinces(&self) -> impl Iterator<Item = Province> + '_ {
        (0..self.province_count() as u8).map(Province)
    }

    /// Canonical abbreviation, lower case: `lon`, `stp`, `mao`.
    pub fn abbr(&self, p: Province) -> &str {
        self.provinces
            .get(p.0 as usize)
            .map_or("?", |d| d.abbr.as_str())
    }

    /// Full English name: `London`, `St Petersburg`, `Mid-Atlantic Ocean`.
    pub fn name(&self, p: Province) -> &str {
        self.provinces
            .get(p.0 as usize)
            .map_or("?", |d| d.name.as_str())
    }

    #[inline]
    pub fn terrain(&self, p: Province) -> Terrain {
        self.provinces
            .get(p.0 as usize)
            .map_or(Terrain::Impassable, |d| d.terrain)
    }

    #[inline]
    pub fn is_supply_center(&self, p: Province) -> bool {
        self.supply_centers.contains(p)
    }

    #[inline]
    pub fn supply_centers(&self) -> ProvinceSet {
        self.supply_centers
    }

    /// The coasts of a multi-coast province; empty for every other province.
    #[inline]
    pub fn coasts(&self, p: Province) -> &[Coast] {
        self.provinces
            .get(p.0 as usize)
            .map_or(&[], |d| d.coasts.as_slice())
    }

    /// The great powers; `Power(i)` is `powers()[i]`.
    pub fn powers(&self) -> &[PowerInfo] {
        &self.powers
    }

    pub fn power_info(&self, p: Power) -> &PowerInfo {
        &self.powers()[p.0 as usize]
    }

    /// A power by name or adjective, case-insensitive (`france`, `French`).
    pub fn power(&self, name: &str) -> Option<Power> {
        let name = name.trim();
        self.powers
            .iter()
            .position(|p| {
                p.name.eq_ignore_ascii_case(name) || p.adjective.eq_ignore_ascii_case(name)
            })
            .map(|i| Power(i as u8))
    }

    /// The power whose home center this province is.
    pub fn home_power(&self, p: Province) -> Option<Power> {
        self.provinces.get(p.0 as usize).and_then(|d| d.home)
    }

    /// Exact lookup of any accepted spelling: abbreviation, full name or alias, with or
    /// without a coast (`stp/nc`, `spa(sc)`, `north atlantic`, `nao`, `nat`).
    /// Case-insensitive; dots dropped and runs of spaces collapsed before matching.
    pub fn lookup(&self, name: &str) -> Option<Location> {
        load::lookup_in(&self.spellings, &self.provinces, name)
    }

    /// Every accepted spelling, normalised (lower case, single spaces), with what it names,
    /// sorted by spelling. The grammar uses it for prefix matching and suggestions.
    pub fn spellings(&self) -> &[(String, Location)] {
        &self.spellings
    }

    /// The `byte_set` of each spelling, in the order of `spellings()`: a
    /// search for near misses passes over most spellings by these alone.
    pub fn spelling_sets(&self) -> &[u64] {
        &self.spelling_sets
    }

    /// The places in `spellings()` of the spellings `n` bytes long, in
    /// order: a search for near misses looks only at lengths near the word's.
    pub fn spellings_of_length(&self, n: usize) -> &[u16] {
        let at = |k: usize| self.length_starts.get(k).map(|&i| usize::from(i));
        match (at(n), at(n + 1)) {
            (Some(start), Some(end)) => self.by_length.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Can an army move from `a` to `b` (both land, sharing a land border)?
    #[inline]
    pub fn army_adjacent(&self, a: Province, b: Province) -> bool {
        self.army_adj
            .get(a.0 as usize)
            .is_some_and(|set| set.contains(b))
    }

    /// Can a fleet at `from` move to `to`? Coast-exact: in a multi-coast province both
    /// must name the coast (a fleet location always carries its coast there).
    #[inline]
    pub fn fleet_adjacent(&self, from: Location, to: Location) -> bool {
        self.fleet.adjacent(from, to)
    }

    /// The fleet locations in province `to` that a fleet at `from` can reach
    /// (zero, one, or two coasts). Used to infer a missing coast.
    pub fn fleet_targets(&self, from: Location, to: Province) -> Vec<Location> {
        self.fleet.targets(from, to)
    }

    /// Provinces an army in `p` can move to.
    #[inline]
    pub fn army_neighbours(&self, p: Province) -> ProvinceSet {
        self.army_adj.get(p.0 as usize).copied().unwrap_or_default()
    }

    /// Provinces a fleet at `from` can move to (any coast of them).
    #[inline]
    pub fn fleet_neighbours(&self, from: Location) -> ProvinceSet {
        self.fleet.neighbours(from)
    }

    /// Is the move legal for the unit kind, ignoring convoys?
    pub fn can_move(&self, kind: UnitKind, from: Location, to: Location) -> bool {
        match kind {
            UnitKind::Army => to.coast.is_none() && self.army_adjacent(from.province, to.province),
            UnitKind::Fleet => self.fleet_adjacent(from, to),
        }
    }

    /// Can a unit of this kind at `from` move into province `to` at all (any coast)?
    /// This is the reach that matters for supports.
    #[inline]
    pub fn reaches(&self, kind: UnitKind, from: Location, to: Province) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacent(from.province, to),
            UnitKind::Fleet => self.fleet_neighbours(from).contains(to),
        }
    }

    /// Every sea province.
    #[inline]
    pub fn seas(&self) -> ProvinceSet {
        self.derived.seas
    }

    /// Every coastal province (land on the sea, multi-coast ones included).
    #[inline]
    pub fn coastal(&self) -> ProvinceSet {
        self.derived.coastal
    }

    /// Provinces a fleet could reach from province `p` over any of its coasts
    /// (empty where no fleet can stand).
    #[inline]
    pub fn fleet_touching(&self, p: Province) -> ProvinceSet {
        self.derived
            .fleet_touching
            .get(p.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Fewest fleet moves from `from` to any province of `targets` (the older
    /// civil-disorder rule measures fleets so); `None` if no fleet route reaches one.
    pub fn sailing_distance(&self, from: Province, targets: ProvinceSet) -> Option<u8> {
        let mut reached = ProvinceSet::EMPTY;
        reached.insert(from);
        let mut frontier = reached;
        for step in 0..=u8::MAX {
            if frontier.0 & targets.0 != 0 {
                return Some(step);
            }
            let mut next = ProvinceSet::EMPTY;
            for p in frontier.iter() {
                next.0 |= self.fleet_touching(p).0;
            }
            next.0 &= !reached.0;
            if next.is_empty() {
                return None;
            }
            reached.0 |= next.0;
            frontier = next;
        }
        None
    }

    /// Shortest number of steps between two provinces over every border, army or fleet,
    /// whatever the unit type (the 2023 civil-disorder distance). `u8::MAX` if unreachable.
    pub fn distance(&self, a: Province, b: Province) -> u8 {
        let n = self.provinces.len();
        let (a, b) = (a.0 as usize, b.0 as usize);
        if a >= n || b >= n {
            return u8::MAX;
        }
        self.distance[a * n + b]
    }

    /// The map's name (`Standard`).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The phase the map's games start in, as written in the file (`S1901M`).
    pub fn start_phase(&self) -> Option<&str> {
        self.start.as_deref()
    }

    /// Can any unit stand in the province (not Switzerland)?
    pub fn is_passable(&self, p: Province) -> bool {
        !matches!(self.terrain(p), Terrain::Impassable)
    }

    /// Number of provinces a unit can stand in (75 for the standard map).
    pub fn playable_count(&self) -> usize {
        self.provinces
            .iter()
            .filter(|d| d.terrain != Terrain::Impassable)
            .count()
    }

    /// Can a unit of this kind stand at `loc`? Armies on land without a coast;
    /// fleets at sea, in a coastal province, or on one named coast of a
    /// multi-coast province.
    pub fn can_stand(&self, kind: UnitKind, loc: Location) -> bool {
        match kind {
            UnitKind::Army => {
                loc.coast.is_none()
                    && matches!(
                        self.terrain(loc.province),
                        Terrain::Inland | Terrain::Coastal
                    )
            }
            UnitKind::Fleet => self.fleet.index(loc).is_some(),
        }
    }

    /// Every undirected army border once (for checks and drawing).
    pub fn army_borders(&self) -> Vec<(Province, Province)> {
        let mut out = Vec::new();
        for a in self.provinces() {
            for b in self.army_neighbours(a).iter().filter(|b| *b > a) {
                out.push((a, b));
            }
        }
        out
    }

    /// Every undirected fleet border once, between fleet locations (coasts included).
    pub fn fleet_borders(&self) -> Vec<(Location, Location)> {
        self.fleet.edges()
    }

    /// `STP/NC`, `PAR`: the upper-case form the JSON interface and canonical orders use.
    pub fn location_code(&self, loc: Location) -> String {
        let mut s = self.abbr(loc.province).to_ascii_uppercase();
        if let Some(c) = loc.coast {
            s.push('/');
            s.push_str(&c.abbr().to_ascii_uppercase());
        }
        s
    }

    /// `St Petersburg (north coast)`: the form season reports use.
    pub fn location_name(&self, loc: Location) -> String {
        match loc.coast {
            Some(c) => format!("{} ({})", self.name(loc.province), c.name()),
            None => self.name(loc.province).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_province_set_walks_both_halves_in_order() {
        let set: ProvinceSet = [3, 0, 63, 64, 127, 90].into_iter().map(Province).collect();
        let got: Vec<u8> = set.iter().map(|p| p.0).collect();
        assert_eq!(got, [0, 3, 63, 64, 90, 127]);
        assert_eq!(set.len(), 6);
        assert_eq!(ProvinceSet::EMPTY.iter().count(), 0);
    }

    #[test]
    fn indices_beyond_a_set_are_never_members() {
        let mut set = ProvinceSet::EMPTY;
        set.insert(Province(200));
        assert!(set.is_empty());
        assert!(!ProvinceSet(u128::MAX).contains(Province(128)));
        set.insert(Province(127));
        assert!(set.contains(Province(127)));
        set.remove(Province(127));
        assert!(set.is_empty());
    }
}
