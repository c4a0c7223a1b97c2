//! Orders that only some variants have: Grand Tournament Diplomacy (defection,
//! independence, insurrection, commanders, succession), Masters Rules (rebels,
//! annexation, aid) and the classic `MAINTAIN`. Their rules live with the
//! variants; here they are read and printed.
//!
//! (Twilight Zone's `(<Country> Map)` suffix is part of every ordinary order, see
//! `order`; Agora's proposals are commands, see `command`.)

use std::fmt::Write;

use crate::map::{Map, Power, Province};
use crate::orders::UnitSpec;

use super::canonical::write_unit;
use super::error::{ErrorKind, GrammarError};
use super::lexer::{Cursor, Kind};
use super::lexicon::{self, location};
use super::order::{Ctx, foreign_unit, power_prefix, unit};

/// A country in Grand Tournament Diplomacy: one of the map's powers, or a new one
/// (declared independent, or renamed) known by its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Country {
    Power(Power),
    Named(String),
}

/// An order of a variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VariantOrder {
    /// GTD: `A Par DEFECT TO Germany`
    Defect { unit: UnitSpec, to: Country },
    /// GTD: `ACCEPT DEFECTION A Par`
    AcceptDefection { unit: UnitSpec },
    /// GTD: `A Par, F Bre DECLARE INDEPENDENCE "Occitania" HOME Par Bre Mar`
    DeclareIndependence {
        units: Vec<UnitSpec>,
        name: String,
        home: Vec<Province>,
    },
    /// GTD: `A Par DECLARE INSURRECTION`
    DeclareInsurrection { unit: UnitSpec },
    /// GTD: `A Par DECLARE NO INSURRECTION`
    DeclareNoInsurrection { unit: UnitSpec },
    /// GTD: `VOTE France FOR alice [2]`
    Vote {
        country: Country,
        player: String,
        votes: Option<u32>,
    },
    /// GTD: `BUILD A Par COMMANDER alice`
    BuildCommander { unit: UnitSpec, commander: String },
    /// GTD: `APPOINT alice TO A Par` (redistribution, purge, dead commander)
    AppointToUnit { player: String, unit: UnitSpec },
    /// GTD: `ABDICATE TO alice`
    Abdicate { player: String },
    /// GTD: `ACCEPT SUCCESSION France`
    AcceptSuccession { country: Country },
    /// GTD: `RENAME France "New Gaul"`
    Rename { country: Country, name: String },
    /// GTD (Gamemaster): `APPOINT alice TO France`
    AppointToCountry { player: String, country: Country },
    /// GTD (Gamemaster): `APPROVE carol`: a request to enter is granted (rule 1).
    ApproveEntry { player: String },
    /// GTD (Gamemaster): `REFUSE carol`: a request to enter is turned down.
    RefuseEntry { player: String },
    /// Masters: `BUILD REBEL A Mos`
    BuildRebel { unit: UnitSpec },
    /// Masters: `ANNEX Ser`
    Annex { province: Province },
    /// Masters: `AID France`
    Aid { power: Power },
    /// Masters: `AID REBEL A Arm`
    AidRebel { unit: UnitSpec },
    /// Classic judges: `MAINTAIN A Par` (keep this unit if removals are chosen for you).
    Maintain { unit: UnitSpec },
}

/// Words that make a line a variant order when they begin it.
const FIRST: &[&str] = &[
    "accept", "vote", "appoint", "abdicate", "rename", "annex", "aid", "maintain", "approve",
    "refuse",
];

/// Does this line hold a variant order (after an optional power prefix)?
pub(crate) fn is_variant_line(ctx: &Ctx, cur: &Cursor) -> bool {
    let mut c = Cursor {
        line: cur.line,
        pos: cur.pos,
    };
    power_prefix(ctx, &mut c);
    if c.word().is_some_and(|w| FIRST.contains(&w)) {
        return true;
    }
    let line = c.line;
    line.toks[c.pos..].iter().any(|t| {
        t.kind == Kind::Word
            && matches!(
                line.norm_of(t),
                "defect" | "defects" | "declare" | "declares" | "commander" | "rebel"
            )
    })
}

/// `variant-line = [power-prefix] variant-order`
pub(crate) fn variant_line(
    ctx: &Ctx,
    cur: &mut Cursor,
) -> Result<(Option<Power>, VariantOrder), GrammarError> {
    let power = power_prefix(ctx, cur);
    let o = variant_order(ctx, cur)?;
    Ok((power, o))
}

fn kw(cur: &mut Cursor, word: &str) -> Result<(), GrammarError> {
    if cur.eat_word(&[word]) {
        Ok(())
    } else {
        Err(cur.expected(&word.to_uppercase()))
    }
}

/// A player: a quoted name or one word as written.
fn player(cur: &mut Cursor) -> Result<String, GrammarError> {
    if cur.is_kind(Kind::Quoted) {
        return quoted(cur);
    }
    let col = cur.peek().map(|t| t.col as usize);
    let word = cur.raw_field().ok_or_else(|| cur.expected("a player"))?;
    // A quote inside a bare word could never be printed back as one name.
    if word.contains(['"', '“', '”']) {
        return Err(GrammarError::new(
            ErrorKind::Expected,
            col,
            word,
            "a player's name in quotes or one word without quotes",
        ));
    }
    Ok(word.to_string())
}

/// A quoted name (`"New Gaul"`).
fn quoted(cur: &mut Cursor) -> Result<String, GrammarError> {
    match cur.peek() {
        Some(t) if t.kind == Kind::Quoted => {
            let s = cur.line.raw_of(t).trim().to_string();
            cur.bump();
            if s.is_empty() {
                return Err(GrammarError::new(
                    ErrorKind::Expected,
                    Some(t.col as usize),
                    "\"\"",
                    "a name in quotes",
                ));
            }
            // A name goes into reports and subjects: no line breaks or other controls.
            if s.chars().any(char::is_control) {
                return Err(GrammarError::new(
                    ErrorKind::Expected,
                    Some(t.col as usize),
                    &s.escape_debug().to_string(),
                    "a name of printable characters",
                ));
            }
            Ok(s)
        }
        _ => Err(cur.expected("a name in quotes")),
    }
}

/// A country: a power's name or adjective, a quoted name, or a single word.
fn country(ctx: &Ctx, cur: &mut Cursor) -> Result<Country, GrammarError> {
    if let Some(p) = cur.word().and_then(|w| lexicon::power(ctx.map, w)) {
        cur.bump();
        return Ok(Country::Power(p));
    }
    if cur.is_kind(Kind::Quoted) {
        return quoted(cur).map(Country::Named);
    }
    match cur.peek() {
        Some(t) if t.kind == Kind::Word => {
            let s = cur.line.raw_of(t).to_string();
            cur.bump();
            Ok(Country::Named(s))
        }
        _ => Err(cur.expected("a country")),
    }
}

fn variant_order(ctx: &Ctx, cur: &mut Cursor) -> Result<VariantOrder, GrammarError> {
    let Some(w) = cur.word() else {
        return Err(cur.expected("an order"));
    };
    match w {
        "accept" => {
            cur.bump();
            if cur.eat_word(&["defection"]) {
                return Ok(VariantOrder::AcceptDefection {
                    unit: unit(ctx, cur)?,
                });
            }
            kw(cur, "succession")?;
            Ok(VariantOrder::AcceptSuccession {
                country: country(ctx, cur)?,
            })
        }
        "vote" => {
            cur.bump();
            let country = country(ctx, cur)?;
            kw(cur, "for")?;
            let player = player(cur)?;
            let votes = match cur.word().map(str::parse::<u32>) {
                Some(Ok(n)) => {
                    cur.bump();
                    Some(n)
                }
                _ => None,
            };
            Ok(VariantOrder::Vote {
                country,
                player,
                votes,
            })
        }
        "appoint" => {
            cur.bump();
            let player = player(cur)?;
            kw(cur, "to")?;
            if let Some(p) = cur.word().and_then(|w| lexicon::power(ctx.map, w)) {
                cur.bump();
                return Ok(VariantOrder::AppointToCountry {
                    player,
                    country: Country::Power(p),
                });
            }
            if cur.is_kind(Kind::Quoted) {
                return Ok(VariantOrder::AppointToCountry {
                    player,
                    country: Country::Named(quoted(cur)?),
                });
            }
            Ok(VariantOrder::AppointToUnit {
                player,
                unit: unit(ctx, cur)?,
            })
        }
        "approve" => {
            cur.bump();
            Ok(VariantOrder::ApproveEntry {
                player: player(cur)?,
            })
        }
        "refuse" => {
            cur.bump();
            Ok(VariantOrder::RefuseEntry {
                player: player(cur)?,
            })
        }
        "abdicate" => {
            cur.bump();
            kw(cur, "to")?;
            Ok(VariantOrder::Abdicate {
                player: player(cur)?,
            })
        }
        "rename" => {
            cur.bump();
            let country = country(ctx, cur)?;
            cur.eat_word(&["to"]);
            Ok(VariantOrder::Rename {
                country,
                name: quoted(cur)?,
            })
        }
        "annex" => {
            cur.bump();
            Ok(VariantOrder::Annex {
                province: location(ctx.map, cur)?.province,
            })
        }
        "aid" => {
            cur.bump();
            if cur.eat_word(&["rebel", "rebels"]) {
                return Ok(VariantOrder::AidRebel {
                    unit: unit(ctx, cur)?,
                });
            }
            let p = super::order::power_word(ctx, cur)?;
            cur.bump();
            Ok(VariantOrder::Aid { power: p })
        }
        "maintain" => {
            cur.bump();
            Ok(VariantOrder::Maintain {
                unit: unit(ctx, cur)?,
            })
        }
        "build" | "b" if cur.word_at(1) == Some("rebel") => {
            cur.pos += 2;
            Ok(VariantOrder::BuildRebel {
                unit: unit(ctx, cur)?,
            })
        }
        "build" | "b" => {
            cur.bump();
            let u = unit(ctx, cur)?;
            kw(cur, "commander")?;
            Ok(VariantOrder::BuildCommander {
                unit: u,
                commander: player(cur)?,
            })
        }
        _ => unit_first(ctx, cur),
    }
}

/// Orders that begin with units: DEFECT, DECLARE INSURRECTION, DECLARE INDEPENDENCE.
fn unit_first(ctx: &Ctx, cur: &mut Cursor) -> Result<VariantOrder, GrammarError> {
    let mut units = vec![foreign_unit(ctx, cur)?];
    while cur.eat(Kind::Comma) {
        cur.eat_word(&["and"]);
        units.push(foreign_unit(ctx, cur)?);
    }
    if cur.eat_word(&["defect", "defects"]) {
        cur.eat_word(&["to"]);
        let to = country(ctx, cur)?;
        return one(cur, units, |unit| VariantOrder::Defect { unit, to });
    }
    if !cur.eat_word(&["declare", "declares"]) {
        return Err(cur.expected("DEFECT or DECLARE"));
    }
    if cur.eat_word(&["no"]) {
        kw(cur, "insurrection")?;
        return one(cur, units, |unit| VariantOrder::DeclareNoInsurrection {
            unit,
        });
    }
    if cur.eat_word(&["insurrection"]) {
        return one(cur, units, |unit| VariantOrder::DeclareInsurrection {
            unit,
        });
    }
    kw(cur, "independence")?;
    let name = quoted(cur)?;
    kw(cur, "home")?;
    let mut home = Vec::new();
    while cur.word().is_some() {
        home.push(location(ctx.map, cur)?.province);
        cur.eat(Kind::Comma);
    }
    if home.is_empty() {
        return Err(cur.expected("home supply centers"));
    }
    Ok(VariantOrder::DeclareIndependence { units, name, home })
}

fn one(
    cur: &Cursor,
    units: Vec<UnitSpec>,
    f: impl FnOnce(UnitSpec) -> VariantOrder,
) -> Result<VariantOrder, GrammarError> {
    match units.as_slice() {
        [u] => Ok(f(*u)),
        _ => Err(GrammarError::new(
            ErrorKind::Expected,
            Some(1),
            cur.line.src,
            "a single unit for this order",
        )),
    }
}

fn country_str(map: &Map, c: &Country) -> String {
    match c {
        Country::Power(p) => lexicon::power_name(map, *p),
        // Bare only when it reads back as the one word it was.
        Country::Named(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric()) => {
            n.clone()
        }
        Country::Named(n) => format!("\"{n}\""),
    }
}

fn player_str(p: &str) -> String {
    if p.is_empty() || p.contains(char::is_whitespace) {
        format!("\"{p}\"")
    } else {
        p.to_string()
    }
}

/// The canonical form of a variant order.
pub fn variant_canonical(map: &Map, o: &VariantOrder) -> String {
    let mut s = String::new();
    let u = |s: &mut String, unit: &UnitSpec| write_unit(map, s, unit);
    match o {
        VariantOrder::Defect { unit, to } => {
            u(&mut s, unit);
            let _ = write!(s, " DEFECT TO {}", country_str(map, to));
        }
        VariantOrder::AcceptDefection { unit } => {
            s.push_str("ACCEPT DEFECTION ");
            u(&mut s, unit);
        }
        VariantOrder::DeclareIndependence { units, name, home } => {
            for (i, unit) in units.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                u(&mut s, unit);
            }
            let _ = write!(s, " DECLARE INDEPENDENCE \"{name}\" HOME");
            for p in home {
                s.push(' ');
                s.push_str(&map.abbr(*p).to_uppercase());
            }
        }
        VariantOrder::DeclareInsurrection { unit } => {
            u(&mut s, unit);
            s.push_str(" DECLARE INSURRECTION");
        }
        VariantOrder::DeclareNoInsurrection { unit } => {
            u(&mut s, unit);
            s.push_str(" DECLARE NO INSURRECTION");
        }
        VariantOrder::Vote {
            country,
            player,
            votes,
        } => {
            let _ = write!(
                s,
                "VOTE {} FOR {}",
                country_str(map, country),
                player_str(player)
            );
            if let Some(n) = votes {
                let _ = write!(s, " {n}");
            }
        }
        VariantOrder::BuildCommander { unit, commander } => {
            s.push_str("BUILD ");
            u(&mut s, unit);
            let _ = write!(s, " COMMANDER {}", player_str(commander));
        }
        VariantOrder::AppointToUnit { player, unit } => {
            let _ = write!(s, "APPOINT {} TO ", player_str(player));
            u(&mut s, unit);
        }
        VariantOrder::Abdicate { player } => {
            let _ = write!(s, "ABDICATE TO {}", player_str(player));
        }
        VariantOrder::AcceptSuccession { country } => {
            let _ = write!(s, "ACCEPT SUCCESSION {}", country_str(map, country));
        }
        VariantOrder::Rename { country, name } => {
            let _ = write!(s, "RENAME {} \"{name}\"", country_str(map, country));
        }
        VariantOrder::AppointToCountry { player, country } => {
            let c = match country {
                Country::Named(n) => format!("\"{n}\""),
                c => country_str(map, c),
            };
            let _ = write!(s, "APPOINT {} TO {c}", player_str(player));
        }
        VariantOrder::ApproveEntry { player } => {
            let _ = write!(s, "APPROVE {}", player_str(player));
        }
        VariantOrder::RefuseEntry { player } => {
            let _ = write!(s, "REFUSE {}", player_str(player));
        }
        VariantOrder::BuildRebel { unit } => {
            s.push_str("BUILD REBEL ");
            u(&mut s, unit);
        }
        VariantOrder::Annex { province } => {
            let _ = write!(s, "ANNEX {}", map.abbr(*province).to_uppercase());
        }
        VariantOrder::Aid { power } => {
            let _ = write!(s, "AID {}", lexicon::power_name(map, *power));
        }
        VariantOrder::AidRebel { unit } => {
            s.push_str("AID REBEL ");
            u(&mut s, unit);
        }
        VariantOrder::Maintain { unit } => {
            s.push_str("MAINTAIN ");
            u(&mut s, unit);
        }
    }
    s
}
