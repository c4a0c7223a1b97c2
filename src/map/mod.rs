//! The board: provinces, coasts, terrain, supply centers, powers and adjacency.
//!
//! A `Map` is built from a hand-editable TOML file (`config/maps/*.toml`) into
//! compact index-based tables: a province is a `u8`, province sets are 128-bit
//! bitsets, so the adjudicator never hashes or allocates to ask "is X next to Y".
//! Variants build other maps from other data (Twilight Zone: one adjacency per
//! player over the same provinces).
//!
//! Pure: no I/O beyond parsing the text it is given (the standard map is embedded).

use std::fmt;

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
        Location { province, coast: None }
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

impl ProvinceSet {
    pub const EMPTY: ProvinceSet = ProvinceSet(0);

    pub fn contains(self, p: Province) -> bool {
        self.0 >> p.0 & 1 == 1
    }

    pub fn insert(&mut self, p: Province) {
        self.0 |= 1u128 << p.0;
    }

    pub fn remove(&mut self, p: Province) {
        self.0 &= !(1u128 << p.0);
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Province> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Province(i as u8))
        })
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

/// A loaded map. Fields are private: everything goes through the methods below,
/// which are the contract the adjudicator, the grammar and the reports rely on.
/// (Signatures fixed; bodies are filled in by the map loader.)
#[derive(Debug, Clone)]
pub struct Map {
    _private: (),
}

#[allow(unused_variables)]
impl Map {
    /// The standard Diplomacy map, parsed once from the embedded `config/maps/standard.toml`.
    pub fn standard() -> &'static Map {
        todo!()
    }

    /// Builds a map from the TOML map format (see `config/maps/standard.toml`).
    pub fn from_toml(text: &str) -> Result<Map, MapError> {
        todo!()
    }

    /// Number of provinces (Switzerland included in the standard map: 76 with it? no: see docs).
    pub fn province_count(&self) -> usize {
        todo!()
    }

    pub fn provinces(&self) -> impl Iterator<Item = Province> + '_ {
        (0..self.province_count() as u8).map(Province)
    }

    /// Canonical abbreviation, lower case: `lon`, `stp`, `mao`.
    pub fn abbr(&self, p: Province) -> &str {
        todo!()
    }

    /// Full English name: `London`, `St Petersburg`, `Mid-Atlantic Ocean`.
    pub fn name(&self, p: Province) -> &str {
        todo!()
    }

    pub fn terrain(&self, p: Province) -> Terrain {
        todo!()
    }

    pub fn is_supply_center(&self, p: Province) -> bool {
        todo!()
    }

    pub fn supply_centers(&self) -> ProvinceSet {
        todo!()
    }

    /// The coasts of a multi-coast province; empty for every other province.
    pub fn coasts(&self, p: Province) -> &[Coast] {
        todo!()
    }

    /// The great powers; `Power(i)` is `powers()[i]`.
    pub fn powers(&self) -> &[PowerInfo] {
        todo!()
    }

    pub fn power_info(&self, p: Power) -> &PowerInfo {
        &self.powers()[p.0 as usize]
    }

    /// A power by name or adjective, case-insensitive (`france`, `French`).
    pub fn power(&self, name: &str) -> Option<Power> {
        todo!()
    }

    /// The power whose home center this province is.
    pub fn home_power(&self, p: Province) -> Option<Power> {
        todo!()
    }

    /// Exact lookup of any accepted spelling: abbreviation, full name or alias, with or
    /// without a coast (`stp/nc`, `spa(sc)`, `north atlantic`, `nao`, `nat`).
    /// Case-insensitive; dots dropped and runs of spaces collapsed before matching.
    pub fn lookup(&self, name: &str) -> Option<Location> {
        todo!()
    }

    /// Every accepted spelling, normalised (lower case, single spaces), with what it names,
    /// sorted by spelling. The grammar uses it for prefix matching and suggestions.
    pub fn spellings(&self) -> &[(String, Location)] {
        todo!()
    }

    /// Can an army move from `a` to `b` (both land, sharing a land border)?
    pub fn army_adjacent(&self, a: Province, b: Province) -> bool {
        todo!()
    }

    /// Can a fleet at `from` move to `to`? Coast-exact: in a multi-coast province both
    /// must name the coast (a fleet location always carries its coast there).
    pub fn fleet_adjacent(&self, from: Location, to: Location) -> bool {
        todo!()
    }

    /// The fleet locations in province `to` that a fleet at `from` can reach
    /// (zero, one, or two coasts). Used to infer a missing coast.
    pub fn fleet_targets(&self, from: Location, to: Province) -> Vec<Location> {
        todo!()
    }

    /// Provinces an army in `p` can move to.
    pub fn army_neighbours(&self, p: Province) -> ProvinceSet {
        todo!()
    }

    /// Provinces a fleet at `from` can move to (any coast of them).
    pub fn fleet_neighbours(&self, from: Location) -> ProvinceSet {
        todo!()
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
    pub fn reaches(&self, kind: UnitKind, from: Location, to: Province) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacent(from.province, to),
            UnitKind::Fleet => self.fleet_neighbours(from).contains(to),
        }
    }

    /// Shortest number of steps between two provinces over every border, army or fleet,
    /// whatever the unit type (the 2023 civil-disorder distance). `u8::MAX` if unreachable.
    pub fn distance(&self, a: Province, b: Province) -> u8 {
        todo!()
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
