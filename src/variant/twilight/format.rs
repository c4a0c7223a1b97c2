//! Reading a map design from text (`grammar/twilight-map.md`).
//!
//! Sections start with a keyword line: `GRID` (optional before the first
//! row), `COASTS`, `LAND ONLY`, `CENTRES`. `#` and `//` start comments;
//! `MAP` and `ENDMAP` lines are skipped so a whole mail block may be given.

use crate::map::{Location, Map, Province};

use super::error::{DesignError, Pos};
use super::grid::Grid;

/// Rows and cells a row: far more than a readable map needs, small enough
/// that no submission costs much to check.
pub const MAX_SIDE: usize = 60;

/// Stands in for a cell that could not be read, so the row keeps its width;
/// a design with such a cell is never returned.
const UNREAD: Province = Province(u8::MAX);

/// One line of the COASTS block: a coast and the places it touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoastLine {
    pub coast: Location,
    pub touches: Vec<(Location, Pos)>,
    pub at: Pos,
}

/// A land border, written in the LAND ONLY block, that fleets cannot cross.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LandOnly {
    pub a: Province,
    pub b: Province,
    pub at: Pos,
}

/// A parsed design: well formed, not yet checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    pub grid: Grid,
    pub coasts: Vec<CoastLine>,
    pub land_only: Vec<LandOnly>,
    /// The CENTRES block, if the player wrote one.
    pub centres: Option<Vec<(Province, Pos)>>,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Section {
    Grid,
    Coasts,
    LandOnly,
    Centres,
}

#[derive(Default)]
struct Parser {
    section: Option<Section>,
    rows: Vec<Vec<(Province, Pos)>>,
    coasts: Vec<CoastLine>,
    land_only: Vec<LandOnly>,
    centres: Option<Vec<(Province, Pos)>>,
    errors: Vec<DesignError>,
}

/// Reads a design. Errors found while reading (unknown names, ragged rows,
/// malformed lines) are all reported together.
pub fn parse(text: &str) -> Result<Design, Vec<DesignError>> {
    let mut parser = Parser::default();
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        if line.trim().is_empty() {
            continue;
        }
        if let Some(keyword) = keyword(line) {
            parser.section = keyword;
            if keyword == Some(Section::Centres) {
                parser.centres.get_or_insert_with(Vec::new);
            }
            continue;
        }
        parser.line(i + 1, line);
    }
    parser.finish()
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// `Some(section)` for a section keyword, `Some(None)` for MAP / ENDMAP.
fn keyword(line: &str) -> Option<Option<Section>> {
    let word: String = line
        .trim()
        .trim_end_matches(':')
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase();
    Some(match word.as_str() {
        "MAP" | "ENDMAP" | "END MAP" => None,
        "GRID" => Some(Section::Grid),
        "COASTS" => Some(Section::Coasts),
        "LAND ONLY" | "LANDONLY" => Some(Section::LandOnly),
        "CENTRES" | "CENTERS" | "SUPPLY CENTRES" | "SUPPLY CENTERS" => Some(Section::Centres),
        _ => return None,
    })
}

/// The whitespace- or comma-separated words of a line, with their columns.
fn words(line: &str, offset: usize) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        let sep = ch.is_whitespace() || ch == ',';
        match (sep, start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((&line[s..i], offset + line[..s].chars().count() + 1));
                start = None;
            }
            _ => {}
        }
    }
    out
}

impl Parser {
    fn line(&mut self, number: usize, line: &str) {
        match self.section.unwrap_or(Section::Grid) {
            Section::Grid => self.grid_row(number, line),
            Section::Coasts => self.coast_line(number, line),
            Section::LandOnly => self.land_only_line(number, line),
            Section::Centres => self.centres_line(number, line),
        }
    }

    fn grid_row(&mut self, number: usize, line: &str) {
        let mut row = Vec::new();
        for (word, column) in words(line, 0) {
            let at = Pos {
                line: number,
                column,
            };
            match Map::standard().lookup(word) {
                Some(loc) if loc.coast.is_none() => row.push((loc.province, at)),
                Some(_) => {
                    let what = format!("{word:?}: a grid cell names a province, without a coast");
                    self.errors.push(DesignError::Format { at, what });
                    row.push((UNREAD, at));
                }
                None => {
                    let text = word.to_string();
                    self.errors.push(DesignError::UnknownProvince { at, text });
                    row.push((UNREAD, at));
                }
            }
        }
        self.rows.push(row);
    }

    /// `spa/nc: mao gas por`
    fn coast_line(&mut self, number: usize, line: &str) {
        let at = |column| Pos {
            line: number,
            column,
        };
        let Some((head, rest)) = line.split_once(':') else {
            let what = "a coast line reads \"spa/nc: mao gas por\"".to_string();
            self.errors.push(DesignError::Format { at: at(1), what });
            return;
        };
        let column = line.len() - line.trim_start().len() + 1;
        let Some(coast) = self.coast_name(head.trim(), at(column)) else {
            return;
        };
        if self.coasts.iter().any(|c| c.coast == coast) {
            let what = format!("{} is given twice", head.trim());
            self.errors.push(DesignError::Format {
                at: at(column),
                what,
            });
            return;
        }
        let offset = head.chars().count() + 1;
        let mut touches = Vec::new();
        for (word, column) in words(rest, offset) {
            match Map::standard().lookup(word) {
                Some(loc) => touches.push((loc, at(column))),
                None => self.errors.push(DesignError::UnknownPlace {
                    at: at(column),
                    text: word.to_string(),
                }),
            }
        }
        self.coasts.push(CoastLine {
            coast,
            touches,
            at: at(column),
        });
    }

    /// The coast a COASTS line is about; records why not if it names none.
    fn coast_name(&mut self, head: &str, at: Pos) -> Option<Location> {
        let map = Map::standard();
        let base = head.split(['/', '(', ' ']).next().unwrap_or(head);
        let province = map.lookup(base).map(|l| l.province);
        match (map.lookup(head), province) {
            (Some(loc), _) if loc.coast.is_some() => return Some(loc),
            (_, Some(p)) if map.coasts(p).is_empty() => {
                self.errors
                    .push(DesignError::NotMultiCoast { province: p, at });
            }
            (_, Some(p)) => {
                let coasts: Vec<String> = map
                    .coasts(p)
                    .iter()
                    .map(|c| format!("{}/{}", map.abbr(p), c.abbr()))
                    .collect();
                let what = format!("{head:?}: name one coast ({})", coasts.join(" or "));
                self.errors.push(DesignError::Format { at, what });
            }
            (_, None) => self.errors.push(DesignError::UnknownPlace {
                at,
                text: head.to_string(),
            }),
        }
        None
    }

    /// `gas-mar`, `gas - mar`, `gas mar`; several pairs `a-b` on a line.
    fn land_only_line(&mut self, number: usize, line: &str) {
        let spaced = line.replace('-', " - ");
        let tokens: Vec<&str> = spaced
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .collect();
        let at = Pos {
            line: number,
            column: line.len() - line.trim_start().len() + 1,
        };
        let names: Vec<&str> = tokens.iter().copied().filter(|&w| w != "-").collect();
        let pairs = names.len() / 2;
        if names.len() % 2 == 1 || pairs == 0 {
            let what = "a land-only border reads \"gas - mar\"".to_string();
            self.errors.push(DesignError::Format { at, what });
            return;
        }
        for pair in names.chunks(2) {
            let a = self.province_word(pair[0], at);
            let b = self.province_word(pair[1], at);
            if let (Some(a), Some(b)) = (a, b) {
                self.land_only.push(LandOnly { a, b, at });
            }
        }
    }

    fn centres_line(&mut self, number: usize, line: &str) {
        for (word, column) in words(line, 0) {
            let at = Pos {
                line: number,
                column,
            };
            if let Some(p) = self.province_word(word, at) {
                self.centres.get_or_insert_with(Vec::new).push((p, at));
            }
        }
    }

    fn province_word(&mut self, word: &str, at: Pos) -> Option<Province> {
        let found = Map::standard().lookup(word).map(|l| l.province);
        if found.is_none() {
            self.errors.push(DesignError::UnknownPlace {
                at,
                text: word.to_string(),
            });
        }
        found
    }

    fn finish(mut self) -> Result<Design, Vec<DesignError>> {
        self.check_shape();
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        let grid = Grid::new(self.rows).ok_or_else(|| vec![DesignError::NoGrid])?;
        Ok(Design {
            grid,
            coasts: self.coasts,
            land_only: self.land_only,
            centres: self.centres,
        })
    }

    fn check_shape(&mut self) {
        self.rows.retain(|r| !r.is_empty());
        let Some(first) = self.rows.first() else {
            self.errors.push(DesignError::NoGrid);
            return;
        };
        let expected = first.len();
        if self.rows.len() > MAX_SIDE || self.rows.iter().any(|r| r.len() > MAX_SIDE) {
            self.errors.push(DesignError::TooLarge { max: MAX_SIDE });
            return;
        }
        for row in &self.rows[1..] {
            if row.len() != expected {
                self.errors.push(DesignError::RaggedRow {
                    at: row[0].1,
                    cells: row.len(),
                    expected,
                });
            }
        }
    }
}
