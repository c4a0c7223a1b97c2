//! The grid of a design and what its shape says: which provinces touch,
//! whether a province's cells hold together, which sides of the board it reaches.

use crate::map::{Map, Province, ProvinceSet};

use super::error::Pos;

/// A rectangle of cells, each holding a province, with where each cell was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    cells: Vec<Province>,
    pos: Vec<Pos>,
}

impl Grid {
    /// A grid from equal-length, non-empty rows; `None` otherwise.
    pub fn new(rows: Vec<Vec<(Province, Pos)>>) -> Option<Grid> {
        let width = rows.first()?.len();
        if width == 0 || rows.iter().any(|r| r.len() != width) {
            return None;
        }
        let (cells, pos) = rows.into_iter().flatten().unzip();
        Some(Grid { width, cells, pos })
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.cells.len() / self.width
    }

    pub fn at(&self, row: usize, col: usize) -> Province {
        self.cells[row * self.width + col]
    }

    pub fn pos(&self, row: usize, col: usize) -> Pos {
        self.pos[row * self.width + col]
    }

    /// Every cell as `(row, col, province)`, row by row.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize, Province)> + '_ {
        let w = self.width;
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, &p)| (i / w, i % w, p))
    }

    /// Pairs of cells sharing an edge: each cell with its right and lower neighbour.
    pub fn edges(&self) -> impl Iterator<Item = ((usize, usize), (usize, usize))> + '_ {
        let (w, h) = (self.width, self.height());
        self.cells().flat_map(move |(r, c, _)| {
            let right = (c + 1 < w).then_some(((r, c), (r, c + 1)));
            let down = (r + 1 < h).then_some(((r, c), (r + 1, c)));
            right.into_iter().chain(down)
        })
    }

    /// The provinces written in the grid.
    pub fn present(&self) -> ProvinceSet {
        self.cells.iter().copied().collect()
    }

    /// Where a province is first written.
    pub fn first_pos(&self, p: Province) -> Pos {
        self.cells
            .iter()
            .position(|&q| q == p)
            .map_or_else(Pos::default, |i| self.pos[i])
    }

    /// For each province, the provinces it shares a cell edge with.
    pub fn touching(&self) -> Vec<ProvinceSet> {
        let mut out = vec![ProvinceSet::EMPTY; Map::standard().province_count()];
        for (a, b) in self.edges() {
            let (pa, pb) = (self.at(a.0, a.1), self.at(b.0, b.1));
            if pa != pb {
                out[pa.0 as usize].insert(pb);
                out[pb.0 as usize].insert(pa);
            }
        }
        out
    }

    /// Where each separate piece of a province starts: one entry if its
    /// cells all join side by side.
    pub fn pieces(&self, p: Province) -> Vec<Pos> {
        let mut seen = vec![false; self.cells.len()];
        let mut starts = Vec::new();
        for i in 0..self.cells.len() {
            if self.cells[i] == p && !seen[i] {
                starts.push(self.pos[i]);
                self.flood(i, &mut seen);
            }
        }
        starts
    }

    fn flood(&self, start: usize, seen: &mut [bool]) {
        let p = self.cells[start];
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(i) = stack.pop() {
            for j in self.neighbours(i) {
                if self.cells[j] == p && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, n) = (self.width, self.cells.len());
        let (r, c) = (i / w, i % w);
        [
            (r > 0).then(|| i - w),
            (i + w < n).then_some(i + w),
            (c > 0).then(|| i - 1),
            (c + 1 < w).then_some(i + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// Which sides of the board (top, bottom, left, right) the province has a cell on.
    pub fn sides(&self, p: Province) -> [bool; 4] {
        let (w, h) = (self.width, self.height());
        let mut out = [false; 4];
        for (r, c, q) in self.cells() {
            if q == p {
                out[0] |= r == 0;
                out[1] |= r + 1 == h;
                out[2] |= c == 0;
                out[3] |= c + 1 == w;
            }
        }
        out
    }

    /// Does the province hold one of the four corner cells?
    pub fn holds_corner(&self, p: Province) -> bool {
        let (w, h) = (self.width, self.height());
        [(0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)]
            .iter()
            .any(|&(r, c)| self.at(r, c) == p)
    }
}
