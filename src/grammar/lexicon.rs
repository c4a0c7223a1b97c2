//! Province, coast and power names: exact spellings, unambiguous prefixes,
//! coasts in every written form, and suggestions for near misses.
//!
//! Everything is looked up in `Map::spellings()` (sorted), so an exact match or
//! a prefix range is a binary search and nothing is built per call.

use crate::map::{Coast, Location, Map, Power, byte_set};

use super::error::{ErrorKind, GrammarError};
use super::lexer::{Cursor, Kind};

/// A prefix must be at least this long to name a province, so that one- and
/// two-letter order keywords (`S`, `C`, `TO`) are never read as provinces.
pub(crate) const MIN_PREFIX: usize = 3;

/// Longest province name, in words (`Gulf of Lyon`, `North Atlantic Ocean`).
const MAX_WORDS: usize = 4;

type Spellings = [(String, Location)];

/// Byte-wise comparison, inlined: the names are a few bytes long, too short
/// for a library `memcmp` call to pay off.
#[inline]
fn cmp(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

#[inline]
fn starts_with(s: &[u8], p: &[u8]) -> bool {
    s.len() >= p.len() && cmp(&s[..p.len()], p).is_eq()
}

/// Exact lookup of a normalised spelling in a sorted run of spellings.
fn exact(sp: &Spellings, key: &str) -> Option<Location> {
    let key = key.as_bytes();
    sp.binary_search_by(|(s, _)| cmp(s.as_bytes(), key))
        .ok()
        .map(|i| sp[i].1)
}

/// The spellings of a sorted run that start with `key`.
fn prefixed<'m>(sp: &'m Spellings, key: &str) -> &'m Spellings {
    let key = key.as_bytes();
    let lo = sp.partition_point(|(s, _)| cmp(s.as_bytes(), key).is_lt());
    let hi = lo + sp[lo..].partition_point(|(s, _)| starts_with(s.as_bytes(), key));
    &sp[lo..hi]
}

/// First-letter buckets of the spellings list last searched on this thread.
/// Each bucket is checked against the list before use, so a stale entry (another
/// map at the same address) is noticed and rebuilt; it only saves the binary
/// search over the whole list, which touches a dozen scattered strings per word.
struct Buckets {
    ptr: usize,
    len: usize,
    bounds: [(u16, u16); 256],
}

thread_local! {
    static BUCKETS: std::cell::RefCell<Buckets> =
        const { std::cell::RefCell::new(Buckets { ptr: 0, len: 0, bounds: [(0, 0); 256] }) };
}

fn first_byte(sp: &Spellings, i: usize) -> Option<u8> {
    sp.get(i).and_then(|(s, _)| s.as_bytes().first().copied())
}

/// Do `lo..hi` hold exactly the spellings that begin with `b`?
fn bucket_is(sp: &Spellings, b: u8, lo: usize, hi: usize) -> bool {
    if lo > hi || hi > sp.len() {
        return false;
    }
    let before = lo == 0 || first_byte(sp, lo - 1).is_none_or(|c| c < b);
    let after = hi == sp.len() || first_byte(sp, hi).is_some_and(|c| c > b);
    let inside = lo == hi || (first_byte(sp, lo) == Some(b) && first_byte(sp, hi - 1) == Some(b));
    before && after && inside
}

/// The spellings that begin with byte `b`.
fn bucket(sp: &Spellings, b: u8) -> &Spellings {
    let cached = BUCKETS.with(|c| {
        let c = c.borrow();
        (c.ptr == sp.as_ptr() as usize && c.len == sp.len()).then(|| c.bounds[b as usize])
    });
    if let Some((lo, hi)) = cached {
        let (lo, hi) = (lo as usize, hi as usize);
        if bucket_is(sp, b, lo, hi) {
            return &sp[lo..hi];
        }
    }
    if sp.len() >= u16::MAX as usize {
        let lo = sp.partition_point(|(s, _)| s.as_bytes().first().is_none_or(|&c| c < b));
        let hi = lo + sp[lo..].partition_point(|(s, _)| s.as_bytes().first() == Some(&b));
        return &sp[lo..hi];
    }
    let mut bounds = [(0u16, 0u16); 256];
    let mut i = 0;
    while i < sp.len() {
        let Some(c) = first_byte(sp, i) else {
            i += 1;
            continue;
        };
        let start = i;
        while first_byte(sp, i) == Some(c) {
            i += 1;
        }
        bounds[c as usize] = (start as u16, i as u16);
    }
    // Empty buckets sit where their letter would go.
    let mut next = sp.len() as u16;
    for c in (0..256).rev() {
        if bounds[c] == (0, 0) && first_byte(sp, 0) != Some(c as u8) {
            bounds[c] = (next, next);
        } else {
            next = bounds[c].0;
        }
    }
    BUCKETS.with(|c| {
        *c.borrow_mut() = Buckets {
            ptr: sp.as_ptr() as usize,
            len: sp.len(),
            bounds,
        }
    });
    let (lo, hi) = bounds[b as usize];
    let (lo, hi) = (lo as usize, hi as usize);
    if bucket_is(sp, b, lo, hi) {
        &sp[lo..hi]
    } else {
        // Not sorted as promised: fall back to a plain scan's worth of search.
        let lo = sp.partition_point(|(s, _)| s.as_bytes().first().is_none_or(|&c| c < b));
        let hi = lo + sp[lo..].partition_point(|(s, _)| s.as_bytes().first() == Some(&b));
        &sp[lo..hi]
    }
}

/// The spellings that start with `word`: its first letter's bucket, then a
/// binary search inside it.
fn starting_with<'m>(map: &'m Map, word: &str) -> &'m Spellings {
    match word.as_bytes().first() {
        Some(&b) => prefixed(bucket(map.spellings(), b), word),
        None => &[],
    }
}

/// An open-addressing hash index of a spellings list: slot values are the
/// spelling's position plus one (0 is empty). Kept per thread for the list last
/// searched, like the buckets; every hit is checked against the list itself, so
/// a stale index can only miss, never mislead.
struct Index {
    ptr: usize,
    len: usize,
    slots: Vec<u16>,
}

thread_local! {
    static INDEX: std::cell::RefCell<Index> =
        const { std::cell::RefCell::new(Index { ptr: 0, len: 0, slots: Vec::new() }) };
}

/// FNV-1a: the keys are a few bytes long.
#[inline]
fn hash(key: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in key {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h ^ (h >> 29)) as usize
}

fn build_index(sp: &Spellings) -> Vec<u16> {
    let size = (sp.len() * 2).next_power_of_two().max(16);
    let mask = size - 1;
    let mut slots = vec![0u16; size];
    for (i, (s, _)) in sp.iter().enumerate() {
        let mut k = hash(s.as_bytes()) & mask;
        loop {
            match slots[k] {
                0 => {
                    slots[k] = (i + 1) as u16;
                    break;
                }
                j if sp[j as usize - 1].0 == *s => break,
                _ => k = (k + 1) & mask,
            }
        }
    }
    slots
}

/// The position of the spelling `key` in `sp`, by the hash index (`None` if
/// absent, or if the index cannot be used).
fn indexed(sp: &Spellings, key: &str) -> Option<usize> {
    if sp.len() >= u16::MAX as usize {
        return None;
    }
    INDEX.with(|c| {
        let mut c = c.try_borrow_mut().ok()?;
        if c.ptr != sp.as_ptr() as usize || c.len != sp.len() {
            *c = Index {
                ptr: sp.as_ptr() as usize,
                len: sp.len(),
                slots: build_index(sp),
            };
        }
        let mask = c.slots.len() - 1;
        let mut k = hash(key.as_bytes()) & mask;
        loop {
            let j = *c.slots.get(k)? as usize;
            let (s, _) = sp.get(j.checked_sub(1)?)?;
            if cmp(s.as_bytes(), key.as_bytes()).is_eq() {
                return Some(j - 1);
            }
            k = (k + 1) & mask;
        }
    })
}

/// The location [`location`]'s full search would find for the word at the
/// cursor, found by one hash lookup, in the common case where that word is a
/// spelling and the search would try no longer key: no longer spelling starts
/// with the word and a space (`par`, `burgundy`), or no word follows it
/// (`stp/nc`). `None`: use the full search.
fn single_word(map: &Map, cur: &Cursor) -> Option<Location> {
    let w = cur.word()?;
    let sp = map.spellings();
    let i = indexed(sp, w)?;
    if goes_on(sp, i, w) && !one_key(cur) {
        return None;
    }
    Some(sp[i].1)
}

/// Does some spelling after `sp[i]` (which is `w`) start with `w` and a space?
fn goes_on(sp: &Spellings, i: usize, w: &str) -> bool {
    let wb = w.as_bytes();
    // Sorted by bytes: spellings going on from `w` follow it, ordered by the
    // byte after `w`; a space comes before any letter, digit, `/` or `(`.
    for (s, _) in &sp[i + 1..] {
        let s = s.as_bytes();
        if !starts_with(s, wb) {
            return false;
        }
        match s.get(wb.len()) {
            Some(b' ') => return true,
            Some(&c) if c > b' ' => return false,
            _ => {}
        }
    }
    false
}

/// Would [`candidate_keys`] give only the first word? (No word follows it,
/// directly or across a hyphen written without spaces.)
fn one_key(cur: &Cursor) -> bool {
    let Some(d) = cur.peek_at(1) else {
        return true;
    };
    if d.kind == Kind::Word {
        return false;
    }
    let prev_end = cur.peek().map(|t| t.raw.1);
    let next = cur.peek_at(2);
    !(d.kind == Kind::Dash
        && prev_end == Some(d.raw.0)
        && next.is_some_and(|n| n.kind == Kind::Word && n.raw.0 == d.raw.1))
}

/// What a prefix names: one location, several (ambiguous) or none.
enum PrefixHit {
    None,
    One(Location),
    Many(Vec<Location>),
}

fn by_prefix(sp: &Spellings, key: &str) -> PrefixHit {
    let range = prefixed(sp, key);
    let Some(first) = range.first() else {
        return PrefixHit::None;
    };
    if range.iter().all(|(_, l)| *l == first.1) {
        return PrefixHit::One(first.1);
    }
    // Every coast of one province: the province itself (`Bulg` -> Bulgaria).
    if range.iter().all(|(_, l)| l.province == first.1.province) {
        return PrefixHit::One(Location::from(first.1.province));
    }
    let mut locs: Vec<Location> = range
        .iter()
        .map(|(_, l)| Location::from(l.province))
        .collect();
    locs.sort();
    locs.dedup();
    PrefixHit::Many(locs)
}

/// The candidate keys at the cursor: up to `MAX_WORDS` words joined by single
/// spaces, or by `-` when written without spaces (`Mid-Atlantic`). Every key is
/// a prefix of the next, so they share one string: returns it with, for each
/// key, its length in bytes and the number of tokens it spans.
fn candidate_keys(cur: &Cursor) -> (String, [(usize, usize); MAX_WORDS], usize) {
    let mut key = String::new();
    let mut ends = [(0, 0); MAX_WORDS];
    let mut count = 0;
    let mut i = 0;
    while count < MAX_WORDS {
        let Some(w) = cur.word_at(i) else { break };
        key.push_str(w);
        i += 1;
        ends[count] = (key.len(), i);
        count += 1;
        let Some(d) = cur.peek_at(i) else { break };
        if d.kind == Kind::Word {
            key.push(' ');
            continue;
        }
        // A hyphen inside a name is written without spaces on either side.
        let prev_end = cur.peek_at(i - 1).map(|t| t.raw.1);
        let next = cur.peek_at(i + 1);
        if d.kind == Kind::Dash
            && prev_end == Some(d.raw.0)
            && next.is_some_and(|n| n.kind == Kind::Word && n.raw.0 == d.raw.1)
        {
            key.push(' ');
            i += 1;
            continue;
        }
        break;
    }
    (key, ends, count)
}

/// `location`: a province name, abbreviation, alias or unambiguous prefix,
/// then an optional coast. Consumes what it reads.
pub(crate) fn location(map: &Map, cur: &mut Cursor) -> Result<Location, GrammarError> {
    let col = cur.column();
    if cur.word().is_none() {
        return Err(cur.expected("a province"));
    }
    // Every candidate key begins with the first word: search only the
    // spellings that do, and build longer keys only if some have more words.
    let first = cur.word().unwrap_or("");
    if let Some(loc) = single_word(map, cur) {
        cur.pos += 1;
        return with_coast(map, cur, loc);
    }
    // Names of several words (`North Sea`): the longest key that is a spelling,
    // as the search below would find it.
    let (key, ends, count) = candidate_keys(cur);
    for &(len, n) in ends[..count].iter().rev() {
        let sp = map.spellings();
        if let Some(i) = indexed(sp, &key[..len]) {
            cur.pos += n;
            return with_coast(map, cur, sp[i].1);
        }
    }
    let sp = starting_with(map, first);
    let multi = sp
        .iter()
        .any(|(s, _)| s.as_bytes().get(first.len()) == Some(&b' '));
    let (ends, count) = if multi {
        (ends, count)
    } else {
        ([(first.len(), 1); MAX_WORDS], 1)
    };
    let key: &str = if multi { &key } else { first };
    let keys = &ends[..count];
    let mut found = None;
    for &(len, n) in keys.iter().rev() {
        if let Some(loc) = exact(sp, &key[..len]) {
            found = Some((loc, n));
            break;
        }
    }
    if found.is_none() {
        for &(len, n) in keys.iter().rev() {
            if len < MIN_PREFIX {
                continue;
            }
            match by_prefix(sp, &key[..len]) {
                PrefixHit::None => continue,
                PrefixHit::One(loc) => {
                    found = Some((loc, n));
                    break;
                }
                PrefixHit::Many(locs) => {
                    let word = raw_span(cur, n);
                    let list = join_or(locs.iter().map(|l| describe(map, *l)));
                    return Err(GrammarError::new(
                        ErrorKind::AmbiguousProvince,
                        col,
                        word,
                        &list,
                    ));
                }
            }
        }
    }
    let Some((loc, n)) = found else {
        let word = raw_span(cur, 1);
        let sug = suggest_province(map, &key[..keys[0].0]);
        return Err(
            GrammarError::new(ErrorKind::UnknownProvince, col, word, "a province")
                .with_suggestion(sug),
        );
    };
    cur.pos += n;
    with_coast(map, cur, loc)
}

/// The source text spanned by the next `n` tokens.
fn raw_span<'s>(cur: &Cursor<'_, 's>, n: usize) -> &'s str {
    let (Some(a), Some(b)) = (cur.peek(), cur.peek_at(n.saturating_sub(1))) else {
        return "";
    };
    cur.line
        .src
        .get(a.raw.0 as usize..b.raw.1 as usize)
        .unwrap_or("")
}

/// `Paris (PAR)`
pub(crate) fn describe(map: &Map, loc: Location) -> String {
    format!("{} ({})", map.name(loc.province), map.location_code(loc))
}

/// `A, B or C`
pub(crate) fn join_or(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} or {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

/// A coast word as written after `/`, in parentheses or after a space.
fn coast_word(w: &str, loose: bool) -> Option<Coast> {
    match w {
        "nc" | "ncs" => Some(Coast::North),
        "sc" | "scs" => Some(Coast::South),
        "ec" | "ecs" => Some(Coast::East),
        "wc" | "wcs" => Some(Coast::West),
        "n" | "north" if loose => Some(Coast::North),
        "s" | "south" if loose => Some(Coast::South),
        "e" | "east" if loose => Some(Coast::East),
        "w" | "west" if loose => Some(Coast::West),
        _ => None,
    }
}

/// Reads `nc`, `north coast`, `north` (+`coast`) at the cursor; `loose` allows
/// the single letters and bare compass words, which only `/` or `(` make safe.
fn coast_at(cur: &mut Cursor, loose: bool) -> Option<Coast> {
    let w = cur.word()?;
    let compass = matches!(w, "north" | "south" | "east" | "west");
    if compass && cur.word_at(1) == Some("coast") {
        cur.pos += 2;
        return coast_word(w, true);
    }
    let c = coast_word(w, loose)?;
    cur.bump();
    Some(c)
}

/// Optional coast after a province: `/nc`, `(nc)`, `/north coast`,
/// `(north coast)`, ` nc`, ` north coast`.
fn with_coast(map: &Map, cur: &mut Cursor, loc: Location) -> Result<Location, GrammarError> {
    let save = cur.pos;
    let col = cur.column();
    let coast = if cur.eat(Kind::Slash) {
        coast_at(cur, true)
    } else if cur.is_kind(Kind::LParen) {
        cur.bump();
        let c = coast_at(cur, true);
        if c.is_some() && !cur.eat(Kind::RParen) {
            cur.pos = save;
            return Ok(loc);
        }
        c
    } else if !map.coasts(loc.province).is_empty() {
        coast_at(cur, false)
    } else {
        None
    };
    let Some(coast) = coast else {
        cur.pos = save;
        if cur.is_kind(Kind::Slash) {
            cur.bump();
            return Err(cur.expected("a coast (nc, sc, ec, wc)"));
        }
        return Ok(loc);
    };
    if map.coasts(loc.province).contains(&coast) {
        return Ok(Location::new(loc.province, Some(coast)));
    }
    // Aliases such as `bul/nc` name another coast in the map data.
    let alias = format!("{}/{}", map.abbr(loc.province), coast.abbr());
    if let Some(l) = map
        .lookup(&alias)
        .filter(|l| l.province == loc.province && l.coast.is_some())
    {
        return Ok(l);
    }
    let coasts = map.coasts(loc.province);
    let expected = join_or(
        coasts
            .iter()
            .map(|c| map.location_code(Location::new(loc.province, Some(*c)))),
    );
    let word = if coasts.is_empty() {
        map.name(loc.province).to_string()
    } else {
        format!("{}/{}", map.abbr(loc.province), coast.abbr()).to_uppercase()
    };
    Err(GrammarError::new(
        ErrorKind::BadCoast,
        col,
        &word,
        &expected,
    ))
}

/// Does the normalised word `w` name a province (`Map::lookup`)? A plain
/// word (letters and digits) is a spelling or nothing: one hash lookup.
pub(crate) fn names_province(map: &Map, w: &str) -> bool {
    let plain = w
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !plain {
        return map.lookup(w).is_some();
    }
    let sp = map.spellings();
    indexed(sp, w).is_some() || exact(sp, w).is_some()
}

/// A power by name or adjective (`France`, `french`).
pub(crate) fn power(map: &Map, word: &str) -> Option<Power> {
    // `Map::power` without its trim: a token has no spaces around it. Names of
    // another length are rejected by one comparison each.
    if word.len() != word.trim().len() {
        return map.power(word);
    }
    map.powers()
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(word) || p.adjective.eq_ignore_ascii_case(word))
        .map(|i| Power(i as u8))
}

/// Upper-case name of a power for canonical forms.
pub(crate) fn power_name(map: &Map, p: Power) -> String {
    map.powers()
        .get(p.0 as usize)
        .map(|i| i.name.to_uppercase())
        .unwrap_or_else(|| format!("POWER{}", p.0))
}

/// Upper-case adjective of a power for nationality in canonical forms.
pub(crate) fn power_adjective(map: &Map, p: Power) -> String {
    map.powers()
        .get(p.0 as usize)
        .map(|i| i.adjective.to_uppercase())
        .unwrap_or_else(|| format!("POWER{}", p.0))
}

/// Levenshtein distance, giving up (returning `limit + 1`) once it exceeds `limit`.
pub(crate) fn distance(a: &str, b: &str, limit: usize) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    // Names are short: rows live on the stack, and longer words are never close.
    const MAX: usize = 48;
    if a.len().abs_diff(b.len()) > limit || b.len() >= MAX || a.len() >= MAX {
        return limit + 1;
    }
    // Rows of bytes (a distance below `MAX` fits), only `b.len() + 1` of them
    // used: a suggestion compares a word with a hundred spellings.
    let n = b.len();
    let mut prev = [0u8; MAX];
    let mut cur = [0u8; MAX];
    for (j, p) in prev[..=n].iter_mut().enumerate() {
        *p = j as u8;
    }
    for (i, &x) in a.iter().enumerate() {
        let mut left = i as u8 + 1;
        cur[0] = left;
        let mut row_min = left;
        for j in 0..n {
            let cost = u8::from(x != b[j]);
            left = (prev[j + 1] + 1).min(left + 1).min(prev[j] + cost);
            cur[j + 1] = left;
            row_min = row_min.min(left);
        }
        if usize::from(row_min) > limit {
            return limit + 1;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    usize::from(prev[n])
}

/// How far a misspelling may be from a word and still be suggested.
pub(crate) fn tolerance(word: &str) -> usize {
    match word.len() {
        0..=2 => 0,
        3..=4 => 1,
        5..=8 => 2,
        _ => 3,
    }
}

/// The closest province spelling to `word`, as `Paris (PAR)`.
pub(crate) fn suggest_province(map: &Map, word: &str) -> Option<String> {
    let limit = tolerance(word);
    if limit == 0 {
        return None;
    }
    closest(map, word, limit).map(|i| describe(map, map.spellings()[i].1))
}

/// The position in `map.spellings()` of the spelling closest to `word`,
/// within `limit` edits: the least distance, then a spelling with the same
/// first letter (people rarely miss that one), then the first in the list.
/// Only spellings of a length within `limit` of the word's can be that
/// close, and of those most are passed over by their `byte_set`s. Each is
/// measured only against the best so far: it must beat it to win, so the
/// bound tightens as better ones are found.
fn closest(map: &Map, word: &str, limit: usize) -> Option<usize> {
    let (sp, sets) = (map.spellings(), map.spelling_sets());
    let first = word.as_bytes().first().copied();
    let word_set = byte_set(word);
    // (distance, first letter differs, position)
    let mut best: Option<(usize, bool, usize)> = None;
    let lengths = word.len().saturating_sub(limit)..=word.len() + limit;
    for i in lengths.flat_map(|n| map.spellings_of_length(n)) {
        let i = usize::from(*i);
        let (Some((s, _)), Some(&set)) = (sp.get(i), sets.get(i)) else {
            continue;
        };
        let differs = s.as_bytes().first().copied() != first;
        // The most edits that still beat the best: as many if this one
        // comes before it in (first letter differs, position), one fewer
        // if after.
        let bound = match best {
            None => limit,
            Some((d, best_differs, at)) if (differs, i) < (best_differs, at) => d,
            Some((0, _, _)) => continue,
            Some((d, _, _)) => d - 1,
        };
        if s.len().abs_diff(word.len()) > bound || absent_beyond(word_set, set, bound) {
            continue;
        }
        let d = distance(word, s, bound);
        if d <= bound {
            best = Some((d, differs, i));
        }
    }
    best.map(|(_, _, i)| i)
}

/// A lower bound of the distance of two words, found without the table, from
/// their `byte_set`s: each byte of either word that the other lacks costs at
/// least one edit of its own. Does that bound exceed `bound`?
#[inline]
fn absent_beyond(a: u64, b: u64, bound: usize) -> bool {
    more_than(a & !b, bound) || more_than(b & !a, bound)
}

/// Has `set` more than `n` members? Its lowest `n` cleared one by one: `n`
/// is a few edits, fewer steps than counting every member where the
/// processor has no instruction for it.
#[inline]
fn more_than(mut set: u64, n: usize) -> bool {
    for _ in 0..n {
        set &= set.wrapping_sub(1);
    }
    set != 0
}

/// The closest of `keywords` (lower case) to `word`, upper-cased.
pub(crate) fn suggest_keyword(word: &str, keywords: &[&str]) -> Option<String> {
    let w = word.to_lowercase();
    let limit = tolerance(&w);
    if limit == 0 {
        return None;
    }
    keywords
        .iter()
        .filter(|k| k.len() > 1 && **k != w)
        .map(|k| ((distance(&w, k, limit), !k.starts_with(w.as_str())), k))
        .filter(|((d, _), _)| *d <= limit)
        .min_by_key(|(key, _)| *key)
        .map(|(_, k)| k.to_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_index_finds_every_spelling_and_nothing_else() {
        let map = Map::standard();
        let sp = map.spellings();
        for (k, (s, loc)) in sp.iter().enumerate() {
            assert_eq!(indexed(sp, s), Some(k), "{s}");
            assert_eq!(exact(sp, s), Some(*loc));
        }
        for miss in ["", "parx", "zzz", "paris x", "lon/nc"] {
            assert_eq!(indexed(sp, miss).map(|i| &sp[i].0), None, "{miss}");
        }
        assert!(names_province(map, "paris") && names_province(map, "par"));
        assert!(!names_province(map, "french") && !names_province(map, "france"));
    }

    #[test]
    fn edit_distance() {
        assert_eq!(distance("parris", "paris", 3), 1);
        assert_eq!(distance("kitten", "sitting", 5), 3);
        assert_eq!(distance("abc", "abcdefgh", 2), 3);
        assert_eq!(distance("", "", 0), 0);
    }

    #[test]
    fn first_letter_buckets_match_a_plain_filter() {
        let sp = Map::standard().spellings();
        for b in 0..=255u8 {
            let want: Vec<&str> = sp
                .iter()
                .filter(|(s, _)| s.as_bytes().first() == Some(&b))
                .map(|(s, _)| s.as_str())
                .collect();
            let got: Vec<&str> = bucket(sp, b).iter().map(|(s, _)| s.as_str()).collect();
            assert_eq!(got, want, "letter {b}");
        }
        // A different list at another address is not served from the cache.
        let other: Vec<(String, Location)> = sp
            .iter()
            .filter(|(s, _)| s.starts_with('b'))
            .cloned()
            .collect();
        assert_eq!(bucket(&other, b'b').len(), other.len());
        assert!(bucket(&other, b'p').is_empty());
        assert_eq!(
            bucket(sp, b'p').len(),
            sp.iter().filter(|(s, _)| s.starts_with('p')).count()
        );
    }

    /// The plain forms `distance` and `closest` replace: every cell of a
    /// full-width table, every spelling measured against the limit.
    fn distance_plain(a: &str, b: &str, limit: usize) -> usize {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        const MAX: usize = 48;
        if a.len().abs_diff(b.len()) > limit || b.len() >= MAX || a.len() >= MAX {
            return limit + 1;
        }
        let mut prev = [0usize; MAX];
        let mut cur = [0usize; MAX];
        for (j, p) in prev.iter_mut().enumerate().take(b.len() + 1) {
            *p = j;
        }
        for i in 1..=a.len() {
            cur[0] = i;
            let mut row_min = cur[0];
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
                row_min = row_min.min(cur[j]);
            }
            if row_min > limit {
                return limit + 1;
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[b.len()]
    }

    fn suggest_plain(map: &Map, word: &str) -> Option<String> {
        let limit = tolerance(word);
        if limit == 0 {
            return None;
        }
        let first = word.as_bytes().first().copied();
        let mut best: Option<((usize, bool), Location)> = None;
        for (s, loc) in map.spellings() {
            if s.len().abs_diff(word.len()) > limit {
                continue;
            }
            let d = distance_plain(word, s, limit);
            let key = (d, s.as_bytes().first().copied() != first);
            if d <= limit && best.is_none_or(|(bk, _)| key < bk) {
                best = Some((key, *loc));
            }
        }
        best.map(|(_, l)| describe(map, l))
    }

    /// Misspellings of every spelling (each letter dropped, doubled, changed,
    /// swapped with the next), and pseudo-random words of 1 to 12 letters.
    fn misspellings(map: &Map) -> Vec<String> {
        let mut words = Vec::new();
        for (s, _) in map.spellings() {
            let b = s.as_bytes();
            words.push(s.clone());
            for i in 0..b.len() {
                let mut w = b.to_vec();
                w.remove(i);
                words.push(String::from_utf8_lossy(&w).into_owned());
                let mut w = b.to_vec();
                w.insert(i, b[i]);
                words.push(String::from_utf8_lossy(&w).into_owned());
                for c in [b'a', b'e', b'x', b' '] {
                    let mut w = b.to_vec();
                    w[i] = c;
                    words.push(String::from_utf8_lossy(&w).into_owned());
                }
                if i + 1 < b.len() {
                    let mut w = b.to_vec();
                    w.swap(i, i + 1);
                    words.push(String::from_utf8_lossy(&w).into_owned());
                }
            }
        }
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..5000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = 1 + (seed >> 59) as usize % 12;
            let word: String = (0..len)
                .map(|k| (b'a' + ((seed >> (k * 5)) % 26) as u8) as char)
                .collect();
            words.push(word);
        }
        words.extend(["xyz", "lodon", "mid atlantic", "stp/xc", "", "x"].map(String::from));
        words
    }

    #[test]
    fn suggestions_are_those_of_the_plain_search() {
        let map = Map::standard();
        let words = misspellings(map);
        assert!(words.len() > 10_000);
        let mut suggested = 0;
        for w in &words {
            let want = suggest_plain(map, w);
            suggested += usize::from(want.is_some());
            assert_eq!(suggest_province(map, w), want, "{w:?}");
        }
        assert!(suggested > 5_000, "{suggested}");
        // The distance itself, on pairs of those words and every limit.
        for (k, a) in words.iter().enumerate().step_by(7) {
            let b = &words[(k * 31 + 5) % words.len()];
            for limit in 0..5 {
                assert_eq!(
                    distance(a, b, limit),
                    distance_plain(a, b, limit),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn keyword_suggestions() {
        assert_eq!(
            suggest_keyword("SUPORT", &["support", "convoy"]).as_deref(),
            Some("SUPPORT")
        );
        assert_eq!(suggest_keyword("xyzzy", &["support", "convoy"]), None);
    }
}
