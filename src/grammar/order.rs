//! Orders in classic judge syntax (njudge and DPjudge spellings), for every phase.
//!
//! ```text
//! order-line  = [power-prefix] order [tz-map]
//! order       = adjustment | unit-order
//! unit-order  = unit ( hold | move | support | convoy | disband | build | remove )
//! ```
//! The full grammar is in `grammar/legate.ebnf`; each function below is one production.

use crate::map::{Location, Map, Power, Province, Terrain, UnitKind};
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;

use super::error::{ErrorKind, GrammarError};
use super::lexer::{Cursor, Kind, Line, one_of};
use super::lexicon::{self, join_or, location};

/// An order as read from a line: the order, and the power and Twilight Zone map
/// the line named, if any.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParsedOrder {
    /// `France: A Par - Bur`, `FRANCE A PAR-BUR`, `Portugal A Por H` (Masters).
    pub power: Option<Power>,
    pub order: Order,
    /// Twilight Zone: `A Par - Bur (German Map)` orders the unit over Germany's map.
    pub map: Option<Power>,
    /// The convoy route a move names between its start and its end
    /// (`A Lon - Nth - Nwg - Nwy`); kept beside the order, which has no room for it.
    pub route: Option<ConvoyRoute>,
}

/// The provinces a convoyed move names on its way, in the order written
/// (`NTH`, `NWG` in `A LON - NTH - NWG - NWY`): the fleets' seas.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConvoyRoute {
    len: u8,
    seas: [Province; ConvoyRoute::MAX],
}

impl ConvoyRoute {
    /// More provinces than any convoy on a playable map crosses.
    pub const MAX: usize = 16;

    /// A route through `seas`; `None` when empty or longer than [`Self::MAX`].
    pub fn new(seas: &[Province]) -> Option<ConvoyRoute> {
        if seas.is_empty() || seas.len() > Self::MAX {
            return None;
        }
        let mut r = ConvoyRoute {
            len: 0,
            seas: [Province(0); Self::MAX],
        };
        for &p in seas {
            r.seas[r.len as usize] = p;
            r.len += 1;
        }
        Some(r)
    }

    /// The provinces, first to last.
    pub fn seas(&self) -> &[Province] {
        &self.seas[..self.len as usize]
    }
}

/// What the grammar needs besides the text: the map, and the phase kind when
/// known (it decides whether `D` is a retreat-phase disband or a removal).
#[derive(Copy, Clone)]
pub(crate) struct Ctx<'m> {
    pub map: &'m Map,
    pub phase: Option<PhaseKind>,
}

pub(crate) const HOLD: &[&str] = &["h", "hold", "holds", "stand", "stands"];
pub(crate) const MOVE: &[&str] = &["m", "move", "moves", "to", "retreat", "retreats", "r"];
pub(crate) const SUPPORT: &[&str] = &["s", "support", "supports"];
pub(crate) const CONVOY: &[&str] = &["c", "convoy", "convoys", "t", "transport", "transports"];
pub(crate) const DISBAND: &[&str] = &["d", "disband", "disbands"];
pub(crate) const BUILD: &[&str] = &["b", "build", "builds"];
pub(crate) const REMOVE: &[&str] = &["r", "remove", "removes"];
/// `waived`: results mails list a waiver as `France: Build waived.`
pub(crate) const WAIVE: &[&str] = &["w", "waive", "waives", "waived"];
const ARMY: &[&str] = &["a", "army"];
const FLEET: &[&str] = &["f", "fleet"];

/// Every order keyword, for suggestions.
pub(crate) const KEYWORDS: &[&str] = &[
    "hold",
    "holds",
    "stand",
    "move",
    "moves",
    "support",
    "supports",
    "convoy",
    "convoys",
    "transport",
    "disband",
    "build",
    "remove",
    "waive",
    "retreat",
    "army",
    "fleet",
    "via",
    "maintain",
];

/// Parses one order (with an optional power prefix and Twilight Zone map).
/// `A Mun D` is a retreat-phase disband; use [`parse_order_in`] when the phase is known.
pub fn parse_order(map: &Map, text: &str) -> Result<ParsedOrder, GrammarError> {
    parse_order_in(map, text, None)
}

/// Like [`parse_order`], reading `D`/`DISBAND` by the phase kind: a removal in an
/// adjustment phase, a disband otherwise.
pub fn parse_order_in(
    map: &Map,
    text: &str,
    phase: Option<PhaseKind>,
) -> Result<ParsedOrder, GrammarError> {
    let text = strip_result_marker(text);
    let line = Line::new(text);
    let mut cur = Cursor::new(&line);
    let ctx = Ctx { map, phase };
    let parsed = order_line(&ctx, &mut cur)?;
    cur.eat(Kind::Comma);
    cur.eat(Kind::Semi);
    end_of_order(&cur, "the order")?;
    Ok(parsed)
}

/// A results-mail line ends with a marker such as `(*bounce*)`: everything from
/// `(*` on is not part of the order.
pub(crate) fn strip_result_marker(text: &str) -> &str {
    match super::body::find_pair(text, b'(', b'*') {
        Some(i) => &text[..i],
        None => text,
    }
}

pub(crate) fn end_of_order(cur: &Cursor, what: &str) -> Result<(), GrammarError> {
    if cur.at_end() {
        return Ok(());
    }
    let word = cur.found();
    let sug = cur
        .word()
        .and_then(|w| lexicon::suggest_keyword(w, KEYWORDS));
    Err(GrammarError::new(ErrorKind::Trailing, cur.column(), word, what).with_suggestion(sug))
}

/// `order-line = [power-prefix] order [tz-map]`
pub(crate) fn order_line(ctx: &Ctx, cur: &mut Cursor) -> Result<ParsedOrder, GrammarError> {
    let power = power_prefix(ctx, cur);
    let mut route = None;
    let order = order(ctx, cur, &mut route)?;
    let map = tz_map(ctx, cur)?;
    Ok(ParsedOrder {
        power,
        order,
        map,
        route,
    })
}

/// `power-prefix = power [":"]`, e.g. `France:` or `FRANCE`. A word that is both a
/// power and a province is read as a power only when a colon follows.
pub(crate) fn power_prefix(ctx: &Ctx, cur: &mut Cursor) -> Option<Power> {
    let w = cur.word().filter(|w| w.len() > 2)?;
    let p = lexicon::power(ctx.map, w)?;
    let colon = cur.peek_at(1).is_some_and(|t| t.kind == Kind::Colon);
    // A name that is a power and a province (Masters minors: `Portugal`) is a
    // prefix when a unit type and a place follow: `Portugal A Por S A Spa`.
    let unit_follows = matches!(cur.word_at(1), Some("a" | "f" | "army" | "fleet"))
        && cur.word_at(2).is_some_and(|w| ctx.map.lookup(w).is_some());
    if !colon && !unit_follows && ctx.map.lookup(w).is_some() {
        return None;
    }
    cur.bump();
    cur.eat(Kind::Colon);
    Some(p)
}

/// `tz-map = "(" power "MAP" ")"`
fn tz_map(ctx: &Ctx, cur: &mut Cursor) -> Result<Option<Power>, GrammarError> {
    if !cur.is_kind(Kind::LParen) || cur.word_at(2) != Some("map") {
        return Ok(None);
    }
    cur.bump();
    let p = power_word(ctx, cur)?;
    cur.pos += 2;
    if !cur.eat(Kind::RParen) {
        return Err(cur.expected("\")\""));
    }
    Ok(Some(p))
}

/// A power by name or adjective at the cursor (not consumed).
pub(crate) fn power_word(ctx: &Ctx, cur: &Cursor) -> Result<Power, GrammarError> {
    match cur.word().and_then(|w| lexicon::power(ctx.map, w)) {
        Some(p) => Ok(p),
        None if cur.word().is_some() => {
            let names: Vec<String> = ctx
                .map
                .powers()
                .iter()
                .map(|p| p.name.to_lowercase())
                .collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let sug = lexicon::suggest_keyword(cur.found(), &refs);
            Err(GrammarError::new(
                ErrorKind::UnknownPower,
                cur.column(),
                cur.found(),
                "a power",
            )
            .with_suggestion(sug))
        }
        None => Err(cur.expected("a power")),
    }
}

/// `order = adjustment | results-adjustment | unit-order`; a move's written
/// convoy route goes to `route`.
fn order(
    ctx: &Ctx,
    cur: &mut Cursor,
    route: &mut Option<ConvoyRoute>,
) -> Result<Order, GrammarError> {
    if cur.at_end() {
        return Err(cur.expected("an order"));
    }
    if let Some(o) = adjustment(ctx, cur)? {
        return Ok(o);
    }
    let unit = unit(ctx, cur)?;
    unit_order(ctx, cur, unit, route)
}

/// `unit-type = "A" | "ARMY" | "F" | "FLEET"` (optional wherever a unit is named).
fn unit_kind(cur: &mut Cursor) -> Option<UnitKind> {
    // `F` followed by `:` or nothing is not a unit type (a lone `F` is not an order).
    if cur.eat_word(ARMY) {
        Some(UnitKind::Army)
    } else if cur.eat_word(FLEET) {
        Some(UnitKind::Fleet)
    } else {
        None
    }
}

/// `unit = [unit-type] location`
pub(crate) fn unit(ctx: &Ctx, cur: &mut Cursor) -> Result<UnitSpec, GrammarError> {
    // `an army`, `the fleet` in results-mail prose.
    cur.eat_word(&["an", "the"]);
    let kind = unit_kind(cur);
    let loc = location(ctx.map, cur)?;
    Ok(UnitSpec {
        kind,
        location: loc,
        power: None,
    })
}

/// `foreign-unit = [nationality] unit`, nationality as `FRENCH` or `(French)`.
pub(crate) fn foreign_unit(ctx: &Ctx, cur: &mut Cursor) -> Result<UnitSpec, GrammarError> {
    let power = nationality(ctx, cur)?;
    let mut u = unit(ctx, cur)?;
    u.power = power;
    Ok(u)
}

/// The unit of a condition: `[power] [type] province`, the three in any
/// order (njudge's syntax file: "The power, type and province can be
/// specified in any order"; type and power left out mean any).
pub(crate) fn condition_unit(ctx: &Ctx, cur: &mut Cursor) -> Result<UnitSpec, GrammarError> {
    let (mut power, mut kind, mut at) = (None, None, None);
    for _ in 0..3 {
        if at.is_some()
            && cur
                .word()
                .is_none_or(|w| matches!(w, "and" | "or" | "then"))
        {
            break;
        }
        if kind.is_none()
            && let Some(k) = unit_kind(cur)
        {
            kind = Some(k);
            continue;
        }
        if power.is_none()
            && let Some(p) = nationality(ctx, cur)?
        {
            power = Some(p);
            continue;
        }
        if at.is_none() {
            at = Some(location(ctx.map, cur)?);
            continue;
        }
        break;
    }
    match at {
        Some(location) => Ok(UnitSpec {
            kind,
            location,
            power,
        }),
        None => Err(cur.expected("a province")),
    }
}

fn nationality(ctx: &Ctx, cur: &mut Cursor) -> Result<Option<Power>, GrammarError> {
    if cur.is_kind(Kind::LParen)
        && cur.peek_at(2).is_some_and(|t| t.kind == Kind::RParen)
        && let Some(p) = cur.word_at(1).and_then(|w| lexicon::power(ctx.map, w))
    {
        cur.pos += 3;
        return Ok(Some(p));
    }
    let Some(w) = cur.word() else { return Ok(None) };
    let Some(p) = lexicon::power(ctx.map, w) else {
        return Ok(None);
    };
    // A power word that also names a province is a nationality only before a unit.
    if lexicon::names_province(ctx.map, w)
        && !cur
            .word_at(1)
            .is_some_and(|n| one_of(ARMY, n) || one_of(FLEET, n))
    {
        return Ok(None);
    }
    cur.bump();
    Ok(Some(p))
}

/// Orders written verb first: `BUILD A PAR`, `REMOVE F TRI`, `DISBAND A YRK`,
/// `WAIVE`, and results-mail `Builds an army in Paris.` / `Removes the fleet in Trieste.`
fn adjustment(ctx: &Ctx, cur: &mut Cursor) -> Result<Option<Order>, GrammarError> {
    let Some(w) = cur.word() else { return Ok(None) };
    if one_of(WAIVE, w) {
        cur.bump();
        return Ok(Some(Order::Waive));
    }
    let build = one_of(BUILD, w);
    let remove = one_of(REMOVE, w) || one_of(DISBAND, w);
    if !build && !remove {
        return Ok(None);
    }
    cur.bump();
    if build && cur.eat_word(WAIVE) {
        return Ok(Some(Order::Waive));
    }
    let col = cur.column();
    let mut u = unit_prose(ctx, cur)?;
    if build {
        u = checked_build(ctx, u, col)?;
        return Ok(Some(Order::Build { unit: u }));
    }
    let disband = one_of(DISBAND, w) && ctx.phase == Some(PhaseKind::Retreat);
    Ok(Some(if disband {
        Order::Disband { unit: u }
    } else {
        Order::Remove { unit: u }
    }))
}

/// A unit, also as results mail writes it: `an army in Paris`.
fn unit_prose(ctx: &Ctx, cur: &mut Cursor) -> Result<UnitSpec, GrammarError> {
    cur.eat_word(&["an", "the"]);
    // `a fleet in Trieste`: the article, not an army.
    if cur.word() == Some("a")
        && cur
            .word_at(1)
            .is_some_and(|w| one_of(FLEET, w) || w == "army")
    {
        cur.bump();
    }
    let kind = unit_kind(cur);
    cur.eat_word(&["in", "at"]);
    let loc = location(ctx.map, cur)?;
    Ok(UnitSpec {
        kind,
        location: loc,
        power: None,
    })
}

/// A build names its unit type, and a fleet built in a two-coast province its coast.
fn checked_build(ctx: &Ctx, u: UnitSpec, col: Option<usize>) -> Result<UnitSpec, GrammarError> {
    let map = ctx.map;
    let name = map.name(u.location.province);
    let Some(kind) = u.kind else {
        return Err(GrammarError::new(
            ErrorKind::NeedsUnitType,
            col,
            name,
            "A or F",
        ));
    };
    let coasts = map.coasts(u.location.province);
    if kind == UnitKind::Fleet && u.location.coast.is_none() && !coasts.is_empty() {
        let list = join_or(
            coasts
                .iter()
                .map(|c| map.location_code(Location::new(u.location.province, Some(*c)))),
        );
        return Err(GrammarError::new(ErrorKind::NeedsCoast, col, name, &list));
    }
    Ok(u)
}

/// What follows the unit.
fn unit_order(
    ctx: &Ctx,
    cur: &mut Cursor,
    unit: UnitSpec,
    route: &mut Option<ConvoyRoute>,
) -> Result<Order, GrammarError> {
    // `-S-` and `-C-`, as zines print them (`A Por -S- (Spanish) A Spa`).
    let boxed = |c: &Cursor| c.peek_at(2).is_some_and(|t| t.kind == Kind::Dash);
    if cur.is_kind(Kind::Dash) && matches!(cur.word_at(1), Some("s" | "c")) && boxed(cur) {
        let is_support = cur.word_at(1) == Some("s");
        cur.pos += 3;
        return if is_support {
            support(ctx, cur, unit)
        } else {
            convoy(ctx, cur, unit)
        };
    }
    if cur.is_kind(Kind::Dash) {
        return movement(ctx, cur, unit, route);
    }
    let Some(w) = cur.word() else {
        return Err(verb_expected(cur));
    };
    // `R` after a unit: a retreat when a province follows, else a removal.
    if w == "r" && cur.word_at(1).is_none() && !cur.peek_at(1).is_some_and(|t| t.kind == Kind::Dash)
    {
        cur.bump();
        return Ok(Order::Remove { unit });
    }
    if one_of(HOLD, w) {
        cur.bump();
        return Ok(Order::Hold { unit });
    }
    if one_of(MOVE, w) {
        return movement(ctx, cur, unit, route);
    }
    if one_of(SUPPORT, w) {
        cur.bump();
        return support(ctx, cur, unit);
    }
    if one_of(CONVOY, w) {
        cur.bump();
        return convoy(ctx, cur, unit);
    }
    if one_of(DISBAND, w) {
        cur.bump();
        return Ok(match ctx.phase {
            Some(PhaseKind::Adjustment) => Order::Remove { unit },
            _ => Order::Disband { unit },
        });
    }
    if one_of(BUILD, w) {
        let col = cur.column();
        cur.bump();
        return Ok(Order::Build {
            unit: checked_build(ctx, unit, col)?,
        });
    }
    if one_of(REMOVE, w) {
        cur.bump();
        return Ok(Order::Remove { unit });
    }
    Err(verb_expected(cur))
}

fn verb_expected(cur: &Cursor) -> GrammarError {
    let sug = cur
        .word()
        .and_then(|w| lexicon::suggest_keyword(w, KEYWORDS));
    cur.expected("an order (H, -, S, C or D)")
        .with_suggestion(sug)
}

/// `move-op = "-" | "->" | "=>" | "M" | "MOVE" ["TO"] | "MOVES" ["TO"] | "TO" | "RETREAT" ["TO"]`
fn move_op(cur: &mut Cursor) -> bool {
    if cur.eat(Kind::Dash) {
        return true;
    }
    if cur.eat_word(MOVE) {
        cur.eat_word(&["to"]);
        return true;
    }
    false
}

/// `move = move-op location {move-op location} [via-convoy]`; a written route
/// (`A Lon - Nth - Nwy`) is a move by convoy to its last province, through the
/// provinces between (kept in `route`).
fn movement(
    ctx: &Ctx,
    cur: &mut Cursor,
    unit: UnitSpec,
    route: &mut Option<ConvoyRoute>,
) -> Result<Order, GrammarError> {
    move_op(cur);
    let mut to_col = cur.column();
    let mut to = location(ctx.map, cur)?;
    let mut via_convoy = false;
    let mut seas = Vec::new();
    loop {
        let save = cur.pos;
        if !move_op(cur) {
            break;
        }
        if cur.word().is_none() {
            cur.pos = save;
            break;
        }
        if seas.len() == ConvoyRoute::MAX {
            let what = format!("at most {} provinces on a convoy route", ConvoyRoute::MAX);
            return Err(GrammarError::new(
                ErrorKind::Expected,
                cur.column(),
                cur.found(),
                &what,
            ));
        }
        seas.push(to.province);
        to_col = cur.column();
        to = location(ctx.map, cur)?;
        via_convoy = true;
    }
    *route = ConvoyRoute::new(&seas);
    if via_convoy_words(cur) {
        via_convoy = true;
    }
    let to = infer_coast(ctx, &unit, to, to_col)?;
    Ok(Order::Move {
        unit,
        to,
        via_convoy,
    })
}

/// `via-convoy = ("VIA" | "BY") ("CONVOY" | "C")`
fn via_convoy_words(cur: &mut Cursor) -> bool {
    if cur.is_word(&["via", "by"]) && cur.word_at(1).is_some_and(|w| w == "convoy" || w == "c") {
        cur.pos += 2;
        return true;
    }
    false
}

/// A fleet moving into a two-coast province without a coast: the coast when only
/// one is reachable, an error listing them when several are. An army, or a unit of
/// unknown type, keeps the province as written (the board decides).
fn infer_coast(
    ctx: &Ctx,
    unit: &UnitSpec,
    to: Location,
    col: Option<usize>,
) -> Result<Location, GrammarError> {
    let map = ctx.map;
    if to.coast.is_some() || map.coasts(to.province).is_empty() {
        return Ok(to);
    }
    let from = unit.location;
    let fleet = match unit.kind {
        Some(k) => k == UnitKind::Fleet,
        None => map.terrain(from.province) == Terrain::Sea,
    };
    if !fleet || (from.coast.is_none() && !map.coasts(from.province).is_empty()) {
        return Ok(to);
    }
    let targets = map.fleet_targets(from, to.province);
    match targets.len() {
        0 => Ok(to),
        1 => Ok(targets[0]),
        _ => {
            let list = join_or(targets.iter().map(|l| map.location_code(*l)));
            Err(GrammarError::new(
                ErrorKind::NeedsCoast,
                col,
                map.name(to.province),
                &list,
            ))
        }
    }
}

/// `support = foreign-unit [hold-word | move-op location]`
fn support(ctx: &Ctx, cur: &mut Cursor, unit: UnitSpec) -> Result<Order, GrammarError> {
    let supported = foreign_unit(ctx, cur)?;
    if move_op(cur) {
        let to = location(ctx.map, cur)?;
        return Ok(Order::SupportMove {
            unit,
            supported,
            to,
        });
    }
    cur.eat_word(HOLD);
    Ok(Order::SupportHold { unit, supported })
}

/// `convoy = foreign-unit move-op location`
fn convoy(ctx: &Ctx, cur: &mut Cursor, unit: UnitSpec) -> Result<Order, GrammarError> {
    let army = foreign_unit(ctx, cur)?;
    if !move_op(cur) {
        return Err(cur.expected("\"-\" and the convoy's destination"));
    }
    let to = location(ctx.map, cur)?;
    Ok(Order::Convoy { unit, army, to })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::canonical_parsed;

    fn ok(text: &str) -> String {
        let map = Map::standard();
        match parse_order(map, text) {
            Ok(p) => canonical_parsed(map, &p),
            Err(e) => panic!("{text:?}: {e}"),
        }
    }

    fn err(text: &str) -> String {
        let map = Map::standard();
        match parse_order(map, text) {
            Ok(p) => panic!("{text:?} parsed as {}", canonical_parsed(map, &p)),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_move_spelling() {
        for t in [
            "A Par - Bur",
            "a par-bur",
            "A PAR -> BUR",
            "Army Paris => Burgundy",
            "A Par M Bur",
            "A Par MOVE Bur",
            "A Par MOVES TO Bur",
            "A Par TO Bur",
            "A Par move to Burgundy.",
            "A  Par.  -  Bur.",
            "Par - Burg",
            "A Par — Bur",
        ] {
            let want = if t.starts_with("Par") {
                "PAR - BUR"
            } else {
                "A PAR - BUR"
            };
            assert_eq!(ok(t), want, "{t}");
        }
    }

    #[test]
    fn power_prefix_and_results_lines() {
        assert_eq!(ok("France: A Par - Bur"), "FRANCE: A PAR - BUR");
        assert_eq!(ok("FRANCE A PAR-BUR"), "FRANCE: A PAR - BUR");
        assert_eq!(
            ok("France: Army Paris -> Burgundy.  (*bounce*)"),
            "FRANCE: A PAR - BUR"
        );
        assert_eq!(
            ok("England: Fleet North Sea CONVOY Army London -> Belgium."),
            "ENGLAND: F NTH C A LON - BEL"
        );
        assert_eq!(
            ok("Austria: Builds an army in Vienna."),
            "AUSTRIA: BUILD A VIE"
        );
    }

    #[test]
    fn supports_convoys_and_the_rest() {
        assert_eq!(ok("A Mar S A Par - Bur"), "A MAR S A PAR - BUR");
        assert_eq!(ok("F Lon Supports F Nth"), "F LON S F NTH");
        assert_eq!(ok("F Lon S F Nth H"), "F LON S F NTH");
        assert_eq!(ok("A Mun S FRENCH A Par-Bur"), "A MUN S FRENCH A PAR - BUR");
        assert_eq!(ok("F Nth T A Lon - Bel"), "F NTH C A LON - BEL");
        assert_eq!(ok("A Lon-Nth-Nwy"), "A LON - NTH - NWY");
        assert_eq!(ok("A Lon - Bel by convoy"), "A LON - BEL VIA CONVOY");
        assert_eq!(ok("A Mun D"), "A MUN D");
        assert_eq!(ok("Build F StP/NC"), "BUILD F STP/NC");
        assert_eq!(ok("remove a par"), "REMOVE A PAR");
        assert_eq!(ok("waive"), "WAIVE");
        assert_eq!(ok("France: Build waived."), "FRANCE: WAIVE");
        assert_eq!(ok("A Par Stands"), "A PAR H");
        assert_eq!(ok("A Par - Bur (German Map)"), "A PAR - BUR (GERMANY MAP)");
        assert_eq!(ok("F Mid-Atlantic - Bre"), "F MAO - BRE");
        assert_eq!(
            ok("F St. Petersburg (south coast) -> Gulf of Bothnia"),
            "F STP/SC - BOT"
        );
    }

    #[test]
    fn coasts_are_read_and_inferred() {
        assert_eq!(ok("F StP/nc - Bar"), "F STP/NC - BAR");
        assert_eq!(ok("F Stp nc - Bar"), "F STP/NC - BAR");
        assert_eq!(ok("F Spa(north coast) - Gas"), "F SPA/NC - GAS");
        assert_eq!(ok("F Bot - StP"), "F BOT - STP/SC");
        assert_eq!(ok("F Gas - Spa"), "F GAS - SPA/NC");
        assert_eq!(ok("Lyo - Spa"), "LYO - SPA/SC");
        assert_eq!(ok("Por - Spa"), "POR - SPA");
        assert_eq!(ok("A Gas - Spa"), "A GAS - SPA");
        assert_eq!(
            err("F Mao - Spa"),
            "line 1, col 9: fleet to Spain needs a coast: SPA/NC or SPA/SC"
        );
        assert_eq!(
            err("Build F Stp"),
            "line 1, col 7: fleet to St Petersburg needs a coast: STP/NC or STP/SC"
        );
    }

    #[test]
    fn errors_point_at_the_word() {
        assert_eq!(
            err("A Parris - Bur"),
            "line 1, col 3: unknown province \"Parris\" - did you mean Paris (PAR)?"
        );
        assert!(
            err("A Par SUPORT A Mar").contains("did you mean SUPPORT?"),
            "{}",
            err("A Par SUPORT A Mar")
        );
        assert!(err("A Par").contains("at end of line"));
        assert!(err("A Par - Bur Bur").contains("col 13"));
        assert!(err("Build Par").contains("unit type"));
    }
}
