//! What can be wrong with a map design, each naming the rule it breaks,
//! the provinces involved and where in the text.

use std::fmt;

use crate::map::{Location, Map, Province};

/// A place in the design's text: 1-based line and character column.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// `Paris (PAR)`.
fn nm(p: &Province) -> String {
    let map = Map::standard();
    format!("{} ({})", map.name(*p), map.location_code((*p).into()))
}

/// `St Petersburg (north coast) (STP/NC)`.
fn loc(l: &Location) -> String {
    let map = Map::standard();
    format!("{} ({})", map.location_name(*l), map.location_code(*l))
}

fn list(ps: &[Province]) -> String {
    ps.iter().map(nm).collect::<Vec<_>>().join(", ")
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DesignError {
    #[error("format: {at}: {what}")]
    Format { at: Pos, what: String },
    #[error("format: the grid may have at most {max} rows and {max} cells a row")]
    TooLarge { max: usize },
    #[error("format: the map has no grid")]
    NoGrid,
    #[error("rule 2.1: {at}: {text:?} is not a province of the standard board")]
    UnknownProvince { at: Pos, text: String },
    #[error("rule 2.1: {} is missing from the grid", nm(.province))]
    MissingProvince { province: Province },
    #[error("rule 2.1: {} is in two separate places ({first} and {second}); a province's cells must join side by side", nm(.province))]
    SplitProvince {
        province: Province,
        first: Pos,
        second: Pos,
    },
    #[error("rule 2.2: {} is inland but touches the sea {} ({at})", nm(.province), nm(.sea))]
    InlandTouchesSea {
        province: Province,
        sea: Province,
        at: Pos,
    },
    #[error("rule 2.2: {} is coastal but touches no sea ({at})", nm(.province))]
    CoastalWithoutSea { province: Province, at: Pos },
    #[error("rule 2.2: {at}: {} has no separate coasts", nm(.province))]
    NotMultiCoast { province: Province, at: Pos },
    #[error("rule 2.2: the COASTS block does not give {}", loc(.coast))]
    MissingCoast { coast: Location },
    #[error("rule 2.2: {at}: {} touches no sea", loc(.coast))]
    CoastWithoutSea { coast: Location, at: Pos },
    #[error("rule 2.3: {at}: {} is not a supply centre", nm(.province))]
    ExtraCentre { province: Province, at: Pos },
    #[error("rule 2.3: the CENTRES block leaves out the supply centre {}", nm(.province))]
    MissingCentre { province: Province },
    #[error("rule 2.8: {at}: Sevastopol (SEV) is a Turkish non-supply centre")]
    SevastopolCentre { at: Pos },
    #[error("rule 2.4: {} ({at}) borders {} other land space(s) ({}); it needs at least two", nm(.province), .neighbours.len(), list(.neighbours))]
    FewLandNeighbours {
        province: Province,
        neighbours: Vec<Province>,
        at: Pos,
    },
    #[error("rule 2.5: {} ({at}) borders {} other sea(s) ({}); it needs at least two", nm(.province), .neighbours.len(), list(.neighbours))]
    FewSeaNeighbours {
        province: Province,
        neighbours: Vec<Province>,
        at: Pos,
    },
    #[error("rule 2.5: {} ({at}) borders no coastal space", nm(.province))]
    SeaWithoutCoast { province: Province, at: Pos },
    #[error("rule 2.6: {country}'s spaces are not continuous: {} cannot be reached from {} through {country}'s spaces ({at})", list(.cut_off), nm(.from))]
    CountrySplit {
        country: String,
        from: Province,
        cut_off: Vec<Province>,
        at: Pos,
    },
    #[error(
        "rule 2.7: {at}: this grid row has {cells} cells but the first row has {expected}; the board must be rectangular"
    )]
    RaggedRow {
        at: Pos,
        cells: usize,
        expected: usize,
    },
    #[error("rule 2.7: {} ({at}) touches {sides} sides of the board; no space may touch more than two", nm(.province))]
    TooManySides {
        province: Province,
        sides: usize,
        at: Pos,
    },
    #[error("rule 2.7: {} ({at}) touches two sides of the board but is not in a corner", nm(.province))]
    TwoSidesNotCorner { province: Province, at: Pos },
    #[error(
        "rule 2: this map has exactly the borders of a map already submitted; every player's map must differ"
    )]
    NotDistinct,
    #[error("consistency: {at}: {text:?} is not a place on the board")]
    UnknownPlace { at: Pos, text: String },
    #[error("consistency: {at}: {} is listed, but it does not border {} in the grid", loc(.place), nm(.of))]
    NotNeighbour {
        at: Pos,
        place: Location,
        of: Province,
    },
    #[error("consistency: {at}: {} is not on the sea, so no fleet can reach it", loc(.place))]
    NotCoastal { at: Pos, place: Location },
    #[error("consistency: {at}: {} borders {}; name its coast", nm(.of), nm(.place))]
    CoastNeeded {
        at: Pos,
        place: Province,
        of: Province,
    },
    #[error("consistency: {at}: {} and {} touch no common sea, so no coastline joins them", loc(.a), loc(.b))]
    NoCommonSea { at: Pos, a: Location, b: Location },
    #[error("consistency: the sea {} ({at}) touches {} but is on none of its coasts in COASTS", nm(.sea), nm(.province))]
    SeaOnNoCoast {
        sea: Province,
        province: Province,
        at: Pos,
    },
    #[error("consistency: {at}: {} - {}: {why}", nm(.a), nm(.b))]
    LandOnly {
        at: Pos,
        a: Province,
        b: Province,
        why: &'static str,
    },
    #[error("the map could not be built: {0}")]
    Build(String),
}

impl DesignError {
    /// The rule the error is about: `2.1` ... `2.8`, `2` (a different map),
    /// `consistency`, `format` or `build`.
    pub fn rule(&self) -> &'static str {
        use DesignError::*;
        match self {
            Format { .. } | TooLarge { .. } | NoGrid => "format",
            UnknownProvince { .. } | MissingProvince { .. } | SplitProvince { .. } => "2.1",
            InlandTouchesSea { .. }
            | CoastalWithoutSea { .. }
            | NotMultiCoast { .. }
            | MissingCoast { .. }
            | CoastWithoutSea { .. } => "2.2",
            ExtraCentre { .. } | MissingCentre { .. } => "2.3",
            FewLandNeighbours { .. } => "2.4",
            FewSeaNeighbours { .. } | SeaWithoutCoast { .. } => "2.5",
            CountrySplit { .. } => "2.6",
            RaggedRow { .. } | TooManySides { .. } | TwoSidesNotCorner { .. } => "2.7",
            SevastopolCentre { .. } => "2.8",
            NotDistinct => "2",
            UnknownPlace { .. }
            | NotNeighbour { .. }
            | NotCoastal { .. }
            | CoastNeeded { .. }
            | NoCommonSea { .. }
            | SeaOnNoCoast { .. }
            | LandOnly { .. } => "consistency",
            Build(_) => "build",
        }
    }
}
