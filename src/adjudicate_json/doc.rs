//! The document as fields borrowed from its text: the fast way in.
//!
//! A scanner for the document's fixed shape: objects where objects are
//! expected, strings where strings are, lists of them, no unknown field, no key
//! given twice, no escape in a string, `true`, `false` or `null` only for
//! `via_convoy`. Anything else (including every defect of the document) is
//! refused here, and the document is read again as a `serde_json::Value`, whose
//! reader names the defect (`read.rs`). So a document read here is one the
//! `Value` reader accepts, field for field, read the same way: the lists of an
//! object come in the order of their keys, as a `Value` object iterates.

use std::ops::Range;

/// The per-power objects of the contract, in the order of `Doc::lists`.
#[derive(Copy, Clone)]
pub enum ListsField {
    Units,
    SupplyCenters,
    HomeCenters,
    Orders,
}

/// `{"unit": "A MUN", "attacker_from": "BUR", "via_convoy": false}`
pub struct DislodgedDoc<'a> {
    pub unit: &'a str,
    pub attacker_from: &'a str,
    pub via_convoy: bool,
}

/// A whole document. Each per-power object is a range of `keys`: its powers
/// as written, sorted, each with its range of `strings` (or of `dislodged`).
pub struct Doc<'a> {
    pub variant: Option<&'a str>,
    pub phase: Option<&'a str>,
    lists: [Option<Range<usize>>; 4],
    dislodged: Option<Range<usize>>,
    contested: Option<Range<usize>>,
    keys: Vec<(&'a str, Range<usize>)>,
    strings: Vec<&'a str>,
    dislodged_items: Vec<DislodgedDoc<'a>>,
}

impl<'a> Doc<'a> {
    /// The document of `text`, if it has the expected shape.
    pub fn parse(text: &'a str) -> Option<Doc<'a>> {
        let mut scan = Scanner {
            text,
            at: 0,
            doc: Doc {
                variant: None,
                phase: None,
                lists: [None, None, None, None],
                dislodged: None,
                contested: None,
                keys: Vec::with_capacity(32),
                strings: Vec::with_capacity(128),
                dislodged_items: Vec::new(),
            },
        };
        scan.document()?;
        Some(scan.doc)
    }

    /// `(key as written, its strings)` per power, sorted by key.
    pub fn lists<'s>(
        &'s self,
        field: ListsField,
    ) -> Option<impl Iterator<Item = (&'s str, &'s [&'a str])> + 's> {
        let range = self.lists[field as usize].clone()?;
        Some(
            self.keys[range]
                .iter()
                .map(|(key, items)| (&**key, &self.strings[items.clone()])),
        )
    }

    /// `(key as written, its dislodged units)` per power, sorted by key.
    pub fn dislodged<'s>(
        &'s self,
    ) -> Option<impl Iterator<Item = (&'s str, &'s [DislodgedDoc<'a>])> + 's> {
        let range = self.dislodged.clone()?;
        Some(
            self.keys[range]
                .iter()
                .map(|(key, items)| (&**key, &self.dislodged_items[items.clone()])),
        )
    }

    /// The `contested` list.
    pub fn contested(&self) -> Option<&[&'a str]> {
        Some(&self.strings[self.contested.clone()?])
    }
}

struct Scanner<'a> {
    text: &'a str,
    at: usize,
    doc: Doc<'a>,
}

/// `None`: not of the expected shape.
type Scan<T> = Option<T>;

impl<'a> Scanner<'a> {
    #[inline(always)]
    fn peek(&mut self) -> Scan<u8> {
        let b = self.text.as_bytes();
        // Most tokens follow the last directly or after one space.
        if let Some(&c) = b.get(self.at)
            && c > b' '
        {
            return Some(c);
        }
        if b.get(self.at) == Some(&b' ')
            && let Some(&c) = b.get(self.at + 1)
            && c > b' '
        {
            self.at += 1;
            return Some(c);
        }
        while let Some(&c) = b.get(self.at) {
            if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(c);
            }
            self.at += 1;
        }
        None
    }

    /// The next byte but white space is `c`: taken.
    #[inline(always)]
    fn take(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Scan<()> {
        self.take(c).then_some(())
    }

    /// A string without escapes or control characters (JSON forbids the
    /// latter, and the former are left to the `Value` reader).
    #[inline(always)]
    fn string(&mut self) -> Scan<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let rest = self.text.as_bytes().get(start..)?;
        let len = plain_run(rest);
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.at = start + len + 1;
        // Cut at ASCII bytes, so at character boundaries.
        self.text.get(start..start + len)
    }

    /// `word` (`true`, `null`) spelled out.
    fn word(&mut self, word: &str) -> bool {
        if self.peek().is_some() && self.text.as_bytes()[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            true
        } else {
            false
        }
    }

    /// `{ item, item ... }` or `[ item ... ]`: `item` is called for each.
    fn items(
        &mut self,
        open: u8,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Scan<()>,
    ) -> Scan<()> {
        self.expect(open)?;
        if self.take(close) {
            return Some(());
        }
        loop {
            item(self)?;
            if self.take(close) {
                return Some(());
            }
            self.expect(b',')?;
        }
    }

    /// `"key":`
    fn key(&mut self) -> Scan<&'a str> {
        let key = self.string()?;
        self.expect(b':')?;
        Some(key)
    }

    fn document(&mut self) -> Scan<()> {
        self.items(b'{', b'}', |s| {
            let key = s.key()?;
            let field = match key {
                "variant" | "phase" => {
                    let value = s.string()?;
                    let slot = if key == "phase" {
                        &mut s.doc.phase
                    } else {
                        &mut s.doc.variant
                    };
                    if slot.replace(value).is_some() {
                        return None;
                    }
                    return Some(());
                }
                "contested" => {
                    let range = s.strings()?;
                    if s.doc.contested.replace(range).is_some() {
                        return None;
                    }
                    return Some(());
                }
                "dislodged" => {
                    let range = s.per_power(Self::dislodged_list)?;
                    if s.doc.dislodged.replace(range).is_some() {
                        return None;
                    }
                    return Some(());
                }
                "units" => ListsField::Units,
                "supply_centers" => ListsField::SupplyCenters,
                "home_centers" => ListsField::HomeCenters,
                "orders" => ListsField::Orders,
                _ => return None,
            };
            let range = s.per_power(Self::strings)?;
            match s.doc.lists[field as usize].replace(range) {
                Some(_) => None,
                None => Some(()),
            }
        })?;
        // Only white space may follow.
        match self.peek() {
            None => Some(()),
            Some(_) => None,
        }
    }

    /// `[ "A PAR", ... ]` onto `strings`; the range taken.
    fn strings(&mut self) -> Scan<Range<usize>> {
        let start = self.doc.strings.len();
        self.expect(b'[')?;
        if !self.take(b']') {
            loop {
                let text = self.string()?;
                self.doc.strings.push(text);
                // `", "` or `","` between strings, as programs write them,
                // taken at once; any other white space as `items` takes it.
                let b = self.text.as_bytes();
                match (b.get(self.at), b.get(self.at + 1)) {
                    (Some(b','), Some(b' ')) => self.at += 2,
                    (Some(b','), _) => self.at += 1,
                    (Some(b']'), _) => {
                        self.at += 1;
                        break;
                    }
                    _ => {
                        if self.take(b']') {
                            break;
                        }
                        self.expect(b',')?;
                    }
                }
            }
        }
        Some(start..self.doc.strings.len())
    }

    /// `{"FRANCE": list, ...}` onto `keys`, sorted by key; the range taken.
    fn per_power(&mut self, list: fn(&mut Self) -> Scan<Range<usize>>) -> Scan<Range<usize>> {
        let start = self.doc.keys.len();
        self.items(b'{', b'}', |s| {
            let key = s.key()?;
            let items = list(s)?;
            s.doc.keys.push((key, items));
            Some(())
        })?;
        let keys = &mut self.doc.keys[start..];
        // Keys come sorted and each once, as programs write them (a key given
        // twice, of which the `Value` keeps the last, is left to that reader).
        if !keys.is_sorted_by(|a, b| before(a.0, b.0)) {
            keys.sort_unstable_by(|a, b| order(a.0, b.0));
            if keys.windows(2).any(|w| w[0].0 == w[1].0) {
                return None;
            }
        }
        Some(start..self.doc.keys.len())
    }

    /// `[{"unit": ..., "attacker_from": ..., "via_convoy": ...}, ...]`.
    fn dislodged_list(&mut self) -> Scan<Range<usize>> {
        let start = self.doc.dislodged_items.len();
        self.items(b'[', b']', |s| {
            let item = s.dislodged()?;
            s.doc.dislodged_items.push(item);
            Some(())
        })?;
        Some(start..self.doc.dislodged_items.len())
    }

    fn dislodged(&mut self) -> Scan<DislodgedDoc<'a>> {
        let (mut unit, mut from, mut via) = (None, None, None);
        self.items(b'{', b'}', |s| {
            let key = s.key()?;
            match key {
                "unit" if unit.is_none() => unit = Some(s.string()?),
                "attacker_from" if from.is_none() => from = Some(s.string()?),
                "via_convoy" if via.is_none() => {
                    via = Some(if s.word("true") {
                        true
                    } else if s.word("false") || s.word("null") {
                        false
                    } else {
                        return None;
                    })
                }
                _ => return None,
            }
            Some(())
        })?;
        Some(DislodgedDoc {
            unit: unit?,
            attacker_from: from?,
            via_convoy: via.unwrap_or(false),
        })
    }
}

/// `a` against `b` by bytes, as `str` orders them. Inlined: keys are power
/// names, a few bytes long, that differ early.
#[inline]
fn order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// Does `a` come strictly before `b`?
#[inline]
fn before(a: &str, b: &str) -> bool {
    order(a, b).is_lt()
}

/// How many bytes at the start of `rest` a JSON string takes as they are: up
/// to the first `"`, `\` or control character (or all of them). Eight bytes
/// at a time: a string of the document is a few words long.
#[inline]
pub(super) fn plain_run(rest: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(chunk) = rest.get(i..i + 8) {
        let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(bytes);
        let quote = x ^ (ONES * u64::from(b'"'));
        let slash = x ^ (ONES * u64::from(b'\\'));
        // The high bit of each byte that is zero (after the xor) or below
        // 0x20, and perhaps of bytes above such a one, never below it: the
        // lowest bit set marks the first byte wanted.
        let hits = (quote.wrapping_sub(ONES) & !quote)
            | (slash.wrapping_sub(ONES) & !slash)
            | (x.wrapping_sub(ONES * 0x20) & !x);
        let hits = hits & HIGHS;
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let tail = rest.get(i..).unwrap_or_default();
    i + tail
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .unwrap_or(tail.len())
}

#[cfg(test)]
mod tests {
    use super::plain_run;

    /// The first `"`, `\` or control character, byte by byte.
    fn plain(rest: &[u8]) -> usize {
        rest.iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            .unwrap_or(rest.len())
    }

    #[test]
    fn plain_runs_end_where_a_byte_by_byte_search_ends() {
        let bytes = [
            b'"', b'\\', 0, 0x1f, 0x20, b'!', b'#', b'A', 0x7f, 0x80, 0xc3, 0xff, b'[', b']',
        ];
        // Every string of up to 19 bytes from a mix of these, at every offset.
        let mut seed: u64 = 1;
        for _ in 0..200_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = (seed >> 59) as usize % 20;
            let mut text = Vec::with_capacity(len);
            let mut r = seed;
            for k in 0..len {
                // Mostly plain letters, now and then a byte that ends a run.
                let pick = (r % 64) as usize;
                text.push(if pick < bytes.len() {
                    bytes[pick]
                } else {
                    b'a' + (k as u8 % 26)
                });
                r = r.rotate_left(7) ^ (r >> 3);
            }
            assert_eq!(plain_run(&text), plain(&text), "{text:?}");
        }
    }
}
