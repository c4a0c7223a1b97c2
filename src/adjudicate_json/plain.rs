//! The fast way in: a document of the usual shape read in one pass, from its
//! text straight into the request.
//!
//! Taken here: objects where objects are expected, strings where strings are,
//! lists of them, no unknown field, no key given twice, no escape in a string,
//! `true`, `false` or `null` only for `via_convoy`, and every item one the
//! document reader accepts. The powers of an object are read in key order, as
//! a `Value` object iterates them, whatever order they are written in. Anything else (every defect of the document
//! among it) gives `None`, and the document is read again as a
//! `serde_json::Value` by `read.rs`, which reads every shape and names the
//! first defect. The items are read and gathered by that reader's own `Reader`
//! and `Gathered`, in the order it reads them, so what is taken here is read as
//! it reads it.

use super::Request;
use super::places::{Places, same};
use super::read::{Field, Gathered, Name, OrderReader, Reader, Spare, read_phase, read_variant};
use crate::judge::{Dislodged, Unit};
use crate::map::{Map, Power, Province, ProvinceSet};
use crate::phase::{Phase, PhaseKind};

/// The request of `text`, if it is a plain document.
pub(super) fn read<'a>(
    map: &Map,
    places: &Places,
    text: &'a str,
    parse: OrderReader<'_>,
    spare: Spare,
) -> Option<Request<'a>> {
    let mut scan = Scanner {
        text,
        at: 0,
        reader: Reader { map, places },
        got: Gathered::new(map, places, spare),
        seen: 0,
        phase: None,
        order_keys: None,
        known: [("", Power(0)); KNOWN],
        known_len: 0,
    };
    // The map's own keys (`FRANCE`) are known before the document is read.
    for (slot, (key, power)) in scan.known.iter_mut().zip(places.keys()) {
        *slot = (key, power);
        scan.known_len += 1;
    }
    scan.document()?;
    let phase = scan.phase?;
    // The `Value` reader names the fields missing: the units, and the owners
    // in an adjustment phase.
    let missing = |name| scan.seen & bit(name) == 0;
    if missing(Name::Units) || missing(Name::SupplyCenters) && phase.kind == PhaseKind::Adjustment {
        return None;
    }
    // The orders are read once the phase is known, power by power in key order.
    if let Some(mut keys) = scan.order_keys {
        for &(_, (start, end)) in keys.in_order()? {
            for i in start..end {
                let &(power, text) = scan.got.stash.get(i)?;
                scan.got.order(scan.reader, phase.kind, parse, power, text);
            }
        }
    }
    Some(scan.got.request(phase, true))
}

/// Most keys a per-power object may have here (the standard map has seven
/// powers; a document with more keys is read by the `Value` reader).
const MAX_KEYS: usize = 8;

/// Most keys remembered: the map's and as many again met in a document
/// (`france`, `French`).
const KNOWN: usize = 2 * MAX_KEYS;

/// The keys of one per-power object as written, each with what its list gave.
struct Keys<'a, V> {
    given: [(&'a str, V); MAX_KEYS],
    len: usize,
    /// Did they come in key order, each once?
    sorted: bool,
}

impl<'a, V: Copy> Keys<'a, V> {
    /// In key order, as a `Value` object iterates them; `None` when a key is
    /// given twice.
    fn in_order(&mut self) -> Option<&[(&'a str, V)]> {
        let keys = &mut self.given[..self.len];
        if !self.sorted {
            keys.sort_unstable_by(|a, b| order(a.0, b.0));
            if keys.windows(2).any(|w| w[0].0 == w[1].0) {
                return None;
            }
        }
        Some(keys)
    }

    /// The items of `list`, which the lists gave in the ranges `V`, put in
    /// key order.
    fn reorder<T: Copy>(&mut self, list: &mut Vec<T>) -> Option<()>
    where
        V: Into<(usize, usize)>,
    {
        if self.sorted {
            return Some(());
        }
        let mut ordered = Vec::with_capacity(list.len());
        for &(_, span) in self.in_order()? {
            let (start, end) = span.into();
            ordered.extend_from_slice(list.get(start..end)?);
        }
        *list = ordered;
        Some(())
    }
}

/// The bit of a field in `Scanner::seen`.
fn bit(name: Name) -> u8 {
    1 << name as u8
}

/// Reads `text` (`'a`); its keys are compared with the map's (`'k`).
struct Scanner<'a, 'k> {
    text: &'a str,
    at: usize,
    reader: Reader<'k>,
    got: Gathered<'a>,
    /// The fields met so far, a bit each.
    seen: u8,
    phase: Option<Phase>,
    /// The keys of the orders, each with its range of `got.stash`.
    order_keys: Option<Keys<'k, (usize, usize)>>,
    /// The map's keys and those of the per-power objects met so far, with
    /// their powers: objects mostly repeat the first one's keys, in the same
    /// order.
    known: [(&'k str, Power); KNOWN],
    known_len: usize,
}

/// `None`: not a plain document.
type Scan<T> = Option<T>;

impl<'a: 'k, 'k> Scanner<'a, 'k> {
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
    #[inline]
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

    /// The `N` bytes of the string that starts here, when it is `N` bytes
    /// long; `None` when it is not, or does not start right here (white
    /// space is left to `string`). Nothing is taken: the caller moves past
    /// the string only when it reads its bytes, which are then all plain.
    #[inline(always)]
    fn short<const N: usize>(&self) -> Option<[u8; N]> {
        let window = self.text.as_bytes().get(self.at..self.at + N + 2)?;
        let (&open, rest) = window.split_first()?;
        let (&close, inner) = rest.split_last()?;
        if open != b'"' || close != b'"' {
            return None;
        }
        inner.try_into().ok()
    }

    /// A unit of `power`: `"A PAR"` taken in one look, any other string
    /// read by the reader.
    #[inline(always)]
    fn unit(&mut self, power: Power) -> Scan<Unit> {
        if let Some([kind, b' ', a, b, c]) = self.short::<5>()
            && let Some(unit) = self.reader.unit_code(power, kind, [a, b, c])
        {
            self.at += 7;
            return Some(unit);
        }
        let text = self.string()?;
        self.reader.unit(power, text).ok()
    }

    /// A supply center: `"PAR"` taken in one look, any other string read
    /// by the reader.
    #[inline(always)]
    fn center(&mut self) -> Scan<Province> {
        if let Some(code) = self.short::<3>()
            && let Some(p) = self.reader.center_code(code)
        {
            self.at += 5;
            return Some(p);
        }
        let text = self.string()?;
        self.reader.center(text).ok()
    }

    /// `"key":`
    fn key(&mut self) -> Scan<&'a str> {
        let key = self.string()?;
        self.expect(b':')?;
        Some(key)
    }

    fn document(&mut self) -> Scan<()> {
        self.items(b'{', b'}', |s| {
            let field = s.field_name()?;
            if s.seen & bit(field) != 0 {
                return None;
            }
            s.seen |= bit(field);
            s.field(field)
        })?;
        // Only white space may follow.
        match self.peek() {
            None => Some(()),
            Some(_) => None,
        }
    }

    /// `"units":` and the others: a field's name taken in one look, any
    /// other key read as a string (`None`: not a field).
    #[inline(always)]
    fn field_name(&mut self) -> Scan<Name> {
        self.peek()?;
        let rest = self.text.as_bytes().get(self.at..)?;
        if let [b'"', initial, ..] = *rest
            && let Some(name) = Name::starting(initial)
        {
            let key = name.key().as_bytes();
            if rest.get(1..=key.len()) == Some(key) && rest.get(key.len() + 1) == Some(&b'"') {
                self.at += key.len() + 2;
                self.expect(b':')?;
                return Some(name);
            }
        }
        Name::of(self.key()?)
    }

    fn field(&mut self, field: Name) -> Scan<()> {
        let reader = self.reader;
        let map = reader.map;
        match field {
            Name::Variant => read_variant(Field::Given(self.string()?)).ok(),
            Name::Phase => {
                self.phase = Some(read_phase(Field::Given(self.string()?)).ok()?);
                Some(())
            }
            Name::Units => {
                let mut keys = self.per_power((0, 0), |s, power| {
                    let start = s.got.units.len();
                    s.list(|s| {
                        let unit = s.unit(power)?;
                        s.got.unit(map, unit).ok()
                    })?;
                    Some((start, s.got.units.len()))
                })?;
                keys.reorder(&mut self.got.units)
            }
            Name::SupplyCenters => {
                let mut keys = self.per_power((), |s, power| {
                    s.list(|s| {
                        let p = s.center()?;
                        s.got.owner(power, p).ok()
                    })
                })?;
                // The owners are the same in any order: only a key given
                // twice matters.
                keys.in_order().map(|_| ())
            }
            Name::HomeCenters => {
                let mut keys = self.per_power((Power(0), ProvinceSet::EMPTY), |s, power| {
                    let mut set = ProvinceSet::EMPTY;
                    s.list(|s| {
                        set.insert(s.center()?);
                        Some(())
                    })?;
                    Some((power, set))
                })?;
                // In key order: of two keys for one power, the later counts.
                for &(_, (power, set)) in keys.in_order()? {
                    *self.got.homes.get_mut(power.0 as usize)? = set;
                }
                Some(())
            }
            Name::Dislodged => {
                let mut keys = self.per_power((0, 0), |s, power| {
                    let start = s.got.dislodged.len();
                    s.items(b'[', b']', |s| {
                        let d = s.dislodged(power)?;
                        s.got.dislodged(d).ok()
                    })?;
                    Some((start, s.got.dislodged.len()))
                })?;
                keys.reorder(&mut self.got.dislodged)
            }
            Name::Contested => self.strings(|s, text| {
                s.got.contested.insert(reader.province(text).ok()?);
                Some(())
            }),
            Name::Orders => {
                let keys = self.per_power((0, 0), |s, power| {
                    let start = s.got.stash.len();
                    s.strings(|s, text| {
                        s.got.stash.push((power, text));
                        Some(())
                    })?;
                    Some((start, s.got.stash.len()))
                })?;
                self.order_keys = Some(keys);
                Some(())
            }
        }
    }

    /// `[ "A PAR", ... ]`: `item` is called for each string.
    #[inline]
    fn strings(&mut self, mut item: impl FnMut(&mut Self, &'a str) -> Scan<()>) -> Scan<()> {
        self.list(|s| {
            let text = s.string()?;
            item(s, text)
        })
    }

    /// `[ "A PAR", ... ]`: `item` reads each string.
    #[inline]
    fn list(&mut self, mut item: impl FnMut(&mut Self) -> Scan<()>) -> Scan<()> {
        self.expect(b'[')?;
        if self.take(b']') {
            return Some(());
        }
        loop {
            item(self)?;
            // `", "` or `","` between strings, as programs write them,
            // taken at once; any other white space as `items` takes it.
            let b = self.text.as_bytes();
            match (b.get(self.at), b.get(self.at + 1)) {
                (Some(b','), Some(b' ')) => self.at += 2,
                (Some(b','), _) => self.at += 1,
                (Some(b']'), _) => {
                    self.at += 1;
                    return Some(());
                }
                _ => {
                    if self.take(b']') {
                        return Some(());
                    }
                    self.expect(b',')?;
                }
            }
        }
    }

    /// `{"FRANCE": list, ...}`: `list` is called for each power, in the
    /// order written; its keys with what each list gave (`empty` fills the
    /// rest of the table).
    #[inline]
    fn per_power<V: Copy>(
        &mut self,
        empty: V,
        mut list: impl FnMut(&mut Self, Power) -> Scan<V>,
    ) -> Scan<Keys<'k, V>> {
        let mut keys = Keys {
            given: [("", empty); MAX_KEYS],
            len: 0,
            sorted: true,
        };
        // Where the last key was among those known.
        let mut last = usize::MAX;
        self.items(b'{', b'}', |s| {
            let (key, power) = match s.known_key(last.wrapping_add(1)) {
                Some((i, known)) => {
                    s.expect(b':')?;
                    last = i;
                    known
                }
                None => {
                    let key = s.key()?;
                    let power = s.reader.power(key)?;
                    if let Some(slot) = s.known.get_mut(s.known_len) {
                        *slot = (key, power);
                        last = s.known_len;
                        s.known_len += 1;
                    }
                    (key, power)
                }
            };
            if let Some(&(last, _)) = keys.len.checked_sub(1).and_then(|i| keys.given.get(i))
                && !before(last, key)
            {
                keys.sorted = false;
            }
            let given = list(s, power)?;
            *keys.given.get_mut(keys.len)? = (key, given);
            keys.len += 1;
            Some(())
        })?;
        Some(keys)
    }

    /// `"KEY"`, taken when it is a key known (the map's, or one met before
    /// in this document), with its place among them and its power. Objects
    /// mostly give their keys in the order they were first met: the `i`th
    /// key known, the one after the last, is tried first.
    #[inline(always)]
    fn known_key(&mut self, i: usize) -> Option<(usize, (&'k str, Power))> {
        self.peek()?;
        let b = self.text.as_bytes();
        if b.get(self.at) != Some(&b'"') {
            return None;
        }
        let start = self.at + 1;
        let here = |key: &str| {
            let end = start + key.len();
            b.get(end) == Some(&b'"') && b.get(start..end).is_some_and(|k| same(k, key.as_bytes()))
        };
        let known = self.known.get(..self.known_len)?;
        let (i, &(key, power)) = match known.get(i) {
            Some(hint) if here(hint.0) => (i, hint),
            _ => known.iter().enumerate().find(|(_, (key, _))| here(key))?,
        };
        self.at = start + key.len() + 1;
        Some((i, (key, power)))
    }

    /// `{"unit": ..., "attacker_from": ..., "via_convoy": ...}` of `power`.
    fn dislodged(&mut self, power: Power) -> Scan<Dislodged> {
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
        Some(Dislodged {
            unit: self.reader.unit(power, unit?).ok()?,
            attacker_from: self.reader.province(from?).ok()?,
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

/// Has `text` nothing to escape as a JSON string?
#[inline]
pub(super) fn is_plain(text: &str) -> bool {
    plain_run(text.as_bytes()) == text.len()
}

/// How many bytes at the start of `rest` a JSON string takes as they are: up
/// to the first `"`, `\` or control character (or all of them). Eight bytes
/// at a time: a string of the document is a few words long.
#[inline]
pub(super) fn plain_run(rest: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = rest.chunks_exact(8);
    let mut i = 0;
    for chunk in &mut chunks {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
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
    let tail = chunks.remainder();
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
