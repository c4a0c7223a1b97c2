//! Writing the result document of an adjudicated phase, straight into one
//! buffer: keys in the order a `serde_json::Value` object prints them (sorted),
//! powers by their upper-case names, lists in the order they come.

use serde_json::Value;

use super::places::{Places, Ready, json};
use super::{Entry, Request};
use crate::judge::{Adjudication, Position, Reason, Resolution, Rules, Verdict};
use crate::map::{Location, Map, Power, Province, ProvinceSet, UnitKind};
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;
use crate::report::why::{Adjudicated, Text, may_explain};

/// The result document of an adjudicated request. `rules` are those it was
/// adjudicated under: they decide where dislodged units may retreat.
pub fn write_result(map: &Map, rules: &Rules, request: &Request, done: &Adjudication) -> Value {
    let mut out = Vec::new();
    let writer = Writer {
        map,
        places: &Places::new(map),
        keys: &Keys::new(map),
    };
    writer.result(&mut out, &mut Scratch::default(), rules, request, done);
    serde_json::from_slice(&out).unwrap_or(Value::Null)
}

/// `text` as a JSON string.
pub fn string(out: &mut Vec<u8>, text: &str) {
    // serde_json escapes `"`, `\` and control characters only: text without
    // them is copied as it is.
    if super::plain::is_plain(text) {
        quoted(out, text);
        return;
    }
    // Writing to a vector cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// `text` as a JSON string; `plain`: it has nothing to escape.
#[inline(always)]
fn text_as_read(out: &mut Vec<u8>, text: &str, plain: bool) {
    if plain {
        quoted(out, text);
    } else {
        string(out, text);
    }
}

/// `text`, which has nothing to escape, as a JSON string.
#[inline]
fn quoted(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// Every power of the map as `(key as a JSON string, power)`, sorted by key:
/// the order of the result's objects.
pub struct Keys {
    keys: Vec<(Ready, Power)>,
    /// Per power: its place in `keys`, or `KEYLESS`.
    ranks: [u8; 256],
}

impl Keys {
    pub fn new(map: &Map) -> Keys {
        Keys::of(map, (0..map.powers().len()).map(|i| Power(i as u8)))
    }

    /// The keys of `powers`, each once, sorted.
    fn of(map: &Map, powers: impl Iterator<Item = Power>) -> Keys {
        let mut keys: Vec<(String, Power)> = powers.map(|p| (power_key(map, p), p)).collect();
        keys.sort();
        keys.dedup();
        let mut ranks = [KEYLESS; 256];
        // Backwards: of two keys for one power, the first counts.
        for (i, (_, p)) in keys.iter().enumerate().rev() {
            ranks[p.0 as usize] = i as u8;
        }
        Keys {
            keys: keys
                .into_iter()
                .map(|(key, p)| (Ready::new(json(&key)), p))
                .collect(),
            ranks,
        }
    }
}

/// Lists reused from one result to the next.
#[derive(Default)]
pub struct Scratch {
    groups: Groups,
    /// `(place of the power in the key order, index of the item)`.
    items: Vec<(usize, usize)>,
    /// The text of a default order.
    text: String,
    reason: String,
    words: Words,
    /// Per place in the key order: the centers its power owns.
    owned: Vec<ProvinceSet>,
}

/// What writing needs besides the buffer.
pub struct Writer<'m> {
    pub map: &'m Map,
    pub places: &'m Places,
    pub keys: &'m Keys,
}

/// A power's key in the result (`FRANCE`).
fn power_key(map: &Map, p: Power) -> String {
    map.powers()
        .get(p.0 as usize)
        .map_or_else(|| format!("POWER{}", p.0), |i| i.name.to_uppercase())
}

/// Writes the objects of the result, `{"POWER": [items...], ...}`, reusing
/// its lists from one object to the next.
#[derive(Default)]
struct Groups {
    /// Per place in `powers`: where its items end in `order`.
    ends: Vec<usize>,
    /// The items, power by power.
    order: Vec<usize>,
}

impl Groups {
    /// One object: `items` are `(place of the power in `powers`, index of the
    /// item)`, in the order they come; `write` writes one item. Each power's
    /// items keep their order (a counting sort by power). Every place is one
    /// in `powers` (`Writer::keyed` gives no other; one past them would be
    /// written under the key `""`).
    fn write(
        &mut self,
        out: &mut Vec<u8>,
        powers: &[(Ready, Power)],
        items: &[(usize, usize)],
        mut write: impl FnMut(&mut Vec<u8>, usize),
    ) {
        let last = powers.len();
        let key = |out: &mut Vec<u8>, rank: usize| match powers.get(rank) {
            Some((key, _)) => key.write(out),
            None => out.extend_from_slice(b"\"\""),
        };
        // Items that come grouped by power already (units, orders as written)
        // are written as they come.
        if items.is_sorted_by_key(|&(rank, _)| rank) {
            out.push(b'{');
            let mut open = None;
            for &(rank, item) in items {
                if open == Some(rank) {
                    out.push(b',');
                } else {
                    if open.is_some() {
                        out.extend_from_slice(b"],");
                    }
                    key(out, rank);
                    out.extend_from_slice(b":[");
                    open = Some(rank);
                }
                write(out, item);
            }
            if open.is_some() {
                out.push(b']');
            }
            out.push(b'}');
            return;
        }
        let ends = &mut self.ends;
        ends.clear();
        ends.resize(powers.len() + 1, 0);
        for &(rank, _) in items {
            ends[rank.min(last)] += 1;
        }
        let mut sum = 0;
        for slot in ends.iter_mut() {
            let n = *slot;
            *slot = sum;
            sum += n;
        }
        self.order.clear();
        self.order.resize(items.len(), 0);
        for &(rank, item) in items {
            let slot = &mut ends[rank.min(last)];
            self.order[*slot] = item;
            *slot += 1;
        }
        out.push(b'{');
        let (mut start, mut any_power) = (0, false);
        for (rank, &end) in ends.iter().enumerate() {
            if end > start {
                comma(out, &mut any_power);
                key(out, rank);
                out.push(b':');
                out.push(b'[');
                for (k, &item) in self.order[start..end].iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    write(out, item);
                }
                out.push(b']');
            }
            start = end;
        }
        out.push(b'}');
    }
}

/// The rank of a power without a key (a power is a byte, and no map has 255).
const KEYLESS: u8 = u8::MAX;

/// A comma before every item but the first.
fn comma(out: &mut Vec<u8>, any: &mut bool) {
    if *any {
        out.push(b',');
    }
    *any = true;
}

impl Writer<'_> {
    /// Writes the result of `request`, adjudicated as `done`, to `out`.
    pub fn result(
        &self,
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
        rules: &Rules,
        request: &Request,
        done: &Adjudication,
    ) {
        let start = out.len();
        if self.keyed(out, scratch, rules, request, done, self.keys) {
            return;
        }
        // A power the map does not know (never one read from a document)
        // still gets its key, in its place: the result is written again with
        // the keys of every power present.
        out.truncate(start);
        let (after, all) = (&done.after, &done.resolutions);
        let present = request
            .entries
            .iter()
            .map(|(p, _)| *p)
            .chain(all.iter().map(|r| r.power))
            .chain(after.units.iter().map(|u| u.power))
            .chain(after.dislodged.iter().map(|d| d.unit.power))
            .chain(after.owners.iter().flatten().copied());
        let known = self.keys.keys.iter().map(|(_, p)| *p);
        let keys = Keys::of(self.map, known.chain(present));
        self.keyed(out, scratch, rules, request, done, &keys);
    }

    /// `result`, each power's items under its key in `keys`; `false` when
    /// some power has none there (what is written is then to be dropped).
    fn keyed(
        &self,
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
        rules: &Rules,
        request: &Request,
        done: &Adjudication,
        keys: &Keys,
    ) -> bool {
        let (map, powers) = (self.map, keys.keys.as_slice());
        let (before, after) = (&request.position, &done.after);
        let all = done.resolutions.as_slice();
        let Scratch {
            groups,
            items,
            text,
            reason,
            words,
            owned,
        } = scratch;
        // Texts read by the scanner have nothing to escape.
        let order = |out: &mut Vec<u8>, text: &str| text_as_read(out, text, request.plain);

        out.extend_from_slice(b"{\"contested\":[");
        if after.phase.kind == PhaseKind::Retreat {
            let mut any = false;
            for p in after.contested.iter() {
                comma(out, &mut any);
                self.places.write_province(map, out, p);
            }
        }
        out.extend_from_slice(b"],\"dislodged\":");
        // Place of each power in `powers`; a power not there is noted.
        let keyless = std::cell::Cell::new(false);
        let rank = |p: Power| match keys.ranks[p.0 as usize] {
            KEYLESS => {
                keyless.set(true);
                0
            }
            i => usize::from(i),
        };
        items.clear();
        if before.phase.kind == PhaseKind::Movement {
            items.extend(
                after
                    .dislodged
                    .iter()
                    .enumerate()
                    .map(|(i, d)| (rank(d.unit.power), i)),
            );
        }
        groups.write(out, powers, items, |out, i| {
            let d = &after.dislodged[i];
            out.extend_from_slice(b"{\"attacker_from\":");
            self.places.write_province(map, out, d.attacker_from);
            out.extend_from_slice(b",\"retreats\":[");
            if after.phase.kind == PhaseKind::Retreat {
                let mut listed = false;
                for l in crate::judge::retreat_options_with(map, rules, after, d) {
                    comma(out, &mut listed);
                    self.places.write(map, out, l);
                }
            }
            out.extend_from_slice(b"],\"unit\":");
            self.unit(out, d.unit.kind, d.unit.location);
            out.extend_from_slice(if d.via_convoy {
                &b",\"via_convoy\":true}"[..]
            } else {
                &b",\"via_convoy\":false}"[..]
            });
        });
        out.extend_from_slice(b",\"next_phase\":");
        phase(out, after.phase);
        out.extend_from_slice(b",\"phase\":");
        phase(out, before.phase);
        out.extend_from_slice(b",\"results\":");
        let why = Adjudicated::new(map, before, all);
        // The orders as written, then the defaults the judge added.
        let written = request.entries.len();
        items.clear();
        items.extend(
            request
                .entries
                .iter()
                .enumerate()
                .map(|(i, (p, _))| (rank(*p), i)),
        );
        let defaults = all.iter().enumerate().skip(request.orders.len());
        items.extend(defaults.map(|(i, r)| (rank(r.power), written + i)));
        groups.write(out, powers, items, |out, i| {
            let Some((_, entry)) = request.entries.get(i) else {
                let Some(r) = all.get(i - written) else {
                    return;
                };
                text.clear();
                write_order_text(text, map, self.places, before, &r.order);
                let plain = self.places.plain_names;
                self.item(out, words, reason, &why, (text, plain), r, true);
                return;
            };
            match *entry {
                Entry::Read { index, text } => match all.get(index) {
                    Some(r) => self.item(out, words, reason, &why, (text, request.plain), r, false),
                    None => {
                        out.extend_from_slice(b"{\"order\":");
                        order(out, text);
                        out.extend_from_slice(b",\"result\":\"void\"}");
                    }
                },
                Entry::Unread { text, why } => {
                    out.extend_from_slice(b"{\"order\":");
                    order(out, text);
                    out.extend_from_slice(b",\"reason\":");
                    string(out, request.reasons.get(why).map_or("", String::as_str));
                    out.extend_from_slice(b",\"result\":\"void\"}");
                }
            }
        });
        out.extend_from_slice(b",\"supply_centers\":{");
        // Each power's centers as a set (a map has at most 128 provinces),
        // written in province order.
        owned.clear();
        owned.resize(powers.len(), ProvinceSet::EMPTY);
        for (i, owner) in after.owners.iter().enumerate() {
            if let Some(p) = owner
                && let Some(set) = owned.get_mut(rank(*p))
            {
                set.insert(Province(i as u8));
            }
        }
        let mut any_power = false;
        for (set, (key, _)) in owned.iter().zip(powers) {
            if set.is_empty() {
                continue;
            }
            comma(out, &mut any_power);
            key.write(out);
            out.extend_from_slice(b":[");
            let mut any = false;
            for p in set.iter() {
                comma(out, &mut any);
                self.places.write_province(map, out, p);
            }
            out.push(b']');
        }
        out.push(b'}');
        out.extend_from_slice(b",\"units\":");
        items.clear();
        items.extend(
            after
                .units
                .iter()
                .enumerate()
                .map(|(i, u)| (rank(u.power), i)),
        );
        groups.write(out, powers, items, |out, i| {
            let u = &after.units[i];
            self.unit(out, u.kind, u.location);
        });
        out.push(b'}');
        !keyless.get()
    }

    /// `"A PAR"`
    #[inline]
    fn unit(&self, out: &mut Vec<u8>, kind: UnitKind, loc: Location) {
        self.places.write_unit(self.map, out, kind, loc);
    }

    /// One entry of `results`; `reason` is the report's plain-words explanation.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn item(
        &self,
        out: &mut Vec<u8>,
        words: &mut Words,
        reason: &mut String,
        why: &Adjudicated,
        (text, plain): (&str, bool),
        r: &Resolution,
        defaulted: bool,
    ) {
        out.push(b'{');
        if defaulted || r.defaulted {
            out.extend_from_slice(b"\"default\":true,");
        }
        out.extend_from_slice(b"\"order\":");
        text_as_read(out, text, plain);
        if may_explain(r) {
            self.reason(out, reason, why, r, (text, plain));
        }
        out.extend_from_slice(b",\"result\":");
        words.write(out, r);
        out.push(b'}');
    }

    /// `,"reason":` and the explanation of `r`, if there is one.
    fn reason(
        &self,
        out: &mut Vec<u8>,
        reason: &mut String,
        why: &Adjudicated,
        r: &Resolution,
        (text, plain): (&str, bool),
    ) {
        // Nothing to escape: written in place.
        if plain && self.places.plain_names {
            let mark = out.len();
            out.extend_from_slice(b",\"reason\":\"");
            if why.explain_into(&mut Unescaped(out), r, text) {
                out.push(b'"');
            } else {
                out.truncate(mark);
            }
            return;
        }
        reason.clear();
        if why.explain_into(reason, r, text) {
            out.extend_from_slice(b",\"reason\":");
            string(out, reason);
        }
    }
}

/// The document being written, taking text with nothing to escape in JSON
/// as it is.
struct Unescaped<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Unescaped<'_> {
    #[inline]
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

impl Text for Unescaped<'_> {}

/// The result words met so far, each made once, as JSON strings, by verdict
/// and whether the unit was dislodged (`Resolution::result_text` depends on
/// nothing else).
#[derive(Default)]
struct Words([Option<Ready>; 32]);

impl Words {
    /// `result_text(r)` as a JSON string.
    #[inline(always)]
    fn write(&mut self, out: &mut Vec<u8>, r: &Resolution) {
        let slot = contract_verdict(r) as usize * 2 + usize::from(r.dislodged);
        match self.0.get_mut(slot) {
            Some(Some(json)) => json.write(out),
            Some(empty) => {
                let word = Ready::new(json(&result_text(r)));
                word.write(out);
                *empty = Some(word);
            }
            None => string(out, &result_text(r)),
        }
    }
}

/// `"S1901M"`, as `Phase` displays it, without the formatting machinery.
fn phase(out: &mut Vec<u8>, phase: crate::phase::Phase) {
    use crate::phase::Season;
    let season = match phase.season {
        Season::Spring => b'S',
        Season::Fall => b'F',
        Season::Winter => b'W',
    };
    let kind = match phase.kind {
        PhaseKind::Movement => b'M',
        PhaseKind::Retreat => b'R',
        PhaseKind::Adjustment => b'A',
    };
    let year = phase.year;
    // A year of four digits, as games are played: written in one copy of
    // known size.
    if (1000..=9999).contains(&year) {
        let digit = |unit: u16| b'0' + (year / unit % 10) as u8;
        let text = [
            b'"',
            season,
            digit(1000),
            digit(100),
            digit(10),
            digit(1),
            kind,
            b'"',
        ];
        out.extend_from_slice(&text);
        return;
    }
    out.push(b'"');
    out.push(season);
    let mut digits = [0u8; 5];
    let (mut year, mut at) = (year, digits.len());
    loop {
        at -= 1;
        digits[at] = b'0' + (year % 10) as u8;
        year /= 10;
        if year == 0 || at == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
    out.push(kind);
    out.push(b'"');
}

/// The contract's result words. The judge's `failed` has no word there: a convoy
/// caught in a paradox was `disrupted` (its army's move is reported so too);
/// any other failure (a build that could not be made, a convoy not used because
/// the army went by land) had no effect, which the contract calls `void`.
pub fn result_text(r: &Resolution) -> String {
    Resolution {
        verdict: contract_verdict(r),
        ..*r
    }
    .result_text()
}

#[inline]
fn contract_verdict(r: &Resolution) -> Verdict {
    match r.verdict {
        Verdict::Failed => match (r.order, r.reason) {
            (Order::Convoy { .. }, Reason::Paradox) => Verdict::Disrupted,
            _ => Verdict::Void,
        },
        verdict => verdict,
    }
}

/// An order in classic judge syntax (`A PAR - BUR`, `F LON S A YOR - NTH`,
/// `BUILD F STP/NC`), for the defaults the judge adds.
/// Not the grammar's canonical form: the judge's defaults carry the unit's
/// nationality, which the contract's order strings never spell out.
pub fn order_text(map: &Map, position: &Position, order: &Order) -> String {
    let mut text = String::new();
    write_order_text(&mut text, map, &Places::new(map), position, order);
    text
}

fn write_order_text(
    out: &mut String,
    map: &Map,
    places: &Places,
    position: &Position,
    order: &Order,
) {
    let spec = |out: &mut String, u: &UnitSpec| {
        let kind = u.kind.or_else(|| {
            position
                .unit_at(u.province())
                .or_else(|| position.dislodged_at(u.province()).map(|d| &d.unit))
                .map(|x| x.kind)
        });
        if let Some(k) = kind {
            out.push(k.letter());
            out.push(' ');
        }
        places.write_code(map, out, u.location);
    };
    let code = |out: &mut String, l: Location| places.write_code(map, out, l);
    match order {
        Order::Hold { unit } => {
            spec(out, unit);
            out.push_str(" H");
        }
        Order::Move {
            unit,
            to,
            via_convoy,
        } => {
            spec(out, unit);
            out.push_str(" - ");
            code(out, *to);
            if *via_convoy {
                out.push_str(" VIA CONVOY");
            }
        }
        Order::SupportHold { unit, supported } => {
            spec(out, unit);
            out.push_str(" S ");
            spec(out, supported);
        }
        Order::SupportMove {
            unit,
            supported,
            to,
        } => {
            spec(out, unit);
            out.push_str(" S ");
            spec(out, supported);
            out.push_str(" - ");
            code(out, *to);
        }
        Order::Convoy { unit, army, to } => {
            spec(out, unit);
            out.push_str(" C ");
            spec(out, army);
            out.push_str(" - ");
            code(out, *to);
        }
        Order::Disband { unit } => {
            spec(out, unit);
            out.push_str(" D");
        }
        Order::Build { unit } => {
            out.push_str("BUILD ");
            spec(out, unit);
        }
        Order::Remove { unit } => {
            out.push_str("REMOVE ");
            spec(out, unit);
        }
        Order::Waive => out.push_str("WAIVE"),
    }
}

#[cfg(test)]
mod tests {
    use crate::phase::{Phase, PhaseKind, Season};

    #[test]
    fn phases_are_written_as_they_display() {
        let seasons = [Season::Spring, Season::Fall, Season::Winter];
        let kinds = [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ];
        for year in [0, 7, 99, 999, 1000, 1901, 2026, 9999, 10000, 65535] {
            for (season, kind) in seasons.into_iter().zip(kinds) {
                let p = Phase { year, season, kind };
                let mut out = Vec::new();
                super::phase(&mut out, p);
                assert_eq!(String::from_utf8_lossy(&out), format!("\"{p}\""));
            }
        }
    }
}
