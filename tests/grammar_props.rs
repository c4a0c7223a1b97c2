//! Properties of the grammar: it never panics, whatever it is given, and the
//! canonical form of any order reads back as the same order.

use legate::grammar::testing::blocks_hold;
use legate::grammar::{
    ConvoyRoute, Entry, ParsedOrder, canonical_parsed, entry_canonical, parse_body, parse_line,
    parse_order,
};
use legate::map::{Location, Map, Power, Province, Terrain, UnitKind};
use legate::orders::{Order, UnitSpec};
use proptest::prelude::*;

fn map() -> &'static Map {
    Map::standard()
}

/// Words and symbols the grammar knows, to make inputs that get deep into it.
const SOUP: &[&str] = &[
    "A",
    "F",
    "Army",
    "Fleet",
    "Par",
    "Bur",
    "Spa",
    "StP",
    "Bul",
    "Nth",
    "Lon",
    "Mid-Atlantic",
    "North",
    "Sea",
    "St",
    "Petersburg",
    "nc",
    "sc",
    "/",
    "(",
    ")",
    "-",
    "->",
    "=>",
    "S",
    "C",
    "H",
    "D",
    "M",
    "T",
    "R",
    "B",
    "W",
    "VIA",
    "CONVOY",
    "BY",
    "TO",
    "MOVE",
    "SUPPORT",
    "HOLD",
    "BUILD",
    "REMOVE",
    "WAIVE",
    "DISBAND",
    "MAINTAIN",
    "France:",
    "FRENCH",
    "(German)",
    "Map)",
    ",",
    ";",
    ":",
    "\\\\",
    "//",
    ">",
    "--",
    "SIGNON",
    "SIGNOFF",
    "SET",
    "DEADLINE",
    "Mon",
    "23:30",
    "Jun",
    "15",
    "2026-12-01",
    "12:00",
    "Europe/Paris",
    "+0100",
    "PRESS",
    "ENDPRESS",
    "TO",
    "ALL",
    "BUT",
    "GREY",
    "IF",
    "ELSE",
    "ENDIF",
    "NOT",
    "AND",
    "OR",
    "PHASE",
    "Spring",
    "1902",
    "Movement",
    "MAP",
    "ENDMAP",
    "PROPOSE",
    "ENDPROPOSAL",
    "REGISTER",
    "END",
    "FOR",
    "ENDFOR",
    "VOTE",
    "PROPOSAL",
    "DEFECT",
    "DECLARE",
    "INDEPENDENCE",
    "\"Gaul\"",
    "\"",
    "HOME",
    "INSURRECTION",
    "NO",
    "ACCEPT",
    "DEFECTION",
    "APPOINT",
    "COMMANDER",
    "REBEL",
    "ANNEX",
    "AID",
    "(*bounce*)",
    "[",
    "]",
    "E[FG]R",
    "PREFERENCE",
    "CLOCK",
    "DAYS",
    "-MTWTF-",
    "?game",
    "Fgame",
    "pw",
    "@",
    "é",
    "→",
    "\n",
    "\r\n",
    "",
    " ",
    "99999999999999999999",
    "-1",
    "0",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SOUP), 0..24).prop_map(|v| v.join(" "))
}

/// A location on the standard map: any province, with one of its coasts if it has any.
fn location() -> impl Strategy<Value = Location> {
    let n = map().province_count() as u8;
    (0..n, any::<prop::sample::Index>()).prop_map(|(p, i)| {
        let p = Province(p);
        let coasts = map().coasts(p);
        let coast = if coasts.is_empty() {
            None
        } else {
            Some(coasts[i.index(coasts.len())])
        };
        Location::new(p, coast)
    })
}

fn kind() -> impl Strategy<Value = Option<UnitKind>> {
    prop_oneof![
        Just(None),
        Just(Some(UnitKind::Army)),
        Just(Some(UnitKind::Fleet))
    ]
}

fn power() -> impl Strategy<Value = Option<Power>> {
    let n = map().powers().len() as u8;
    prop_oneof![Just(None), (0..n).prop_map(|p| Some(Power(p)))]
}

/// A unit as an order names it; `foreign` allows a nationality.
fn unit(foreign: bool) -> impl Strategy<Value = UnitSpec> {
    (kind(), location(), power()).prop_map(move |(kind, location, power)| UnitSpec {
        kind,
        location,
        power: if foreign { power } else { None },
    })
}

/// A province written without a coast, except where the grammar would need one.
fn bare(l: Location) -> Location {
    Location::from(l.province)
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![
        unit(false).prop_map(|unit| Order::Hold { unit }),
        (unit(false), location(), any::<bool>(), any::<bool>()).prop_map(
            |(unit, to, via_convoy, drop_coast)| {
                // A fleet's missing coast would be inferred (or refused): keep it written.
                let fleet_like = unit.kind == Some(UnitKind::Fleet)
                    || (unit.kind.is_none() && map().terrain(unit.province()) == Terrain::Sea);
                let to = if drop_coast && !fleet_like {
                    bare(to)
                } else {
                    to
                };
                Order::Move {
                    unit,
                    to,
                    via_convoy,
                }
            }
        ),
        (unit(false), unit(true))
            .prop_map(|(unit, supported)| Order::SupportHold { unit, supported }),
        (unit(false), unit(true), location()).prop_map(|(unit, supported, to)| {
            Order::SupportMove {
                unit,
                supported,
                to,
            }
        }),
        (unit(false), unit(true), location()).prop_map(|(unit, army, to)| Order::Convoy {
            unit,
            army,
            to
        }),
        unit(false).prop_map(|unit| Order::Disband { unit }),
        (
            prop_oneof![Just(UnitKind::Army), Just(UnitKind::Fleet)],
            location()
        )
            .prop_map(|(k, l)| Order::Build {
                unit: UnitSpec::new(k, l)
            }),
        unit(false).prop_map(|unit| Order::Remove { unit }),
        Just(Order::Waive),
    ]
}

/// A convoy route a move may name (`A LON - NTH - NWG - NWY`), or none.
fn route() -> impl Strategy<Value = Option<ConvoyRoute>> {
    prop_oneof![
        Just(None),
        prop::collection::vec(location(), 1..5).prop_map(|l| {
            let seas: Vec<Province> = l.iter().map(|l| l.province).collect();
            ConvoyRoute::new(&seas)
        })
    ]
}

/// Lines a mail is made of, by block: sign-ons, orders, press, PHASE and IF
/// blocks, as players write them.
fn block_mail() -> impl Strategy<Value = String> {
    let orders = prop::collection::vec(
        prop::sample::select(vec![
            "A Par - Bur",
            "F Bre - Mao",
            "A Mar H",
            "F Lon - Nth",
            "Hello",
        ]),
        0..3,
    );
    let signon = prop::sample::select(vec!["SIGNON Fmygame secret", "SIGN ON Gmygame pw"])
        .prop_map(|s| vec![s.to_string()]);
    let plain = orders
        .clone()
        .prop_map(|o| o.iter().map(|s| s.to_string()).collect());
    let press = (
        prop::sample::select(vec![
            "PRESS TO England",
            "PRESS TO M",
            "BROADCAST",
            "PRESS TO ALL BUT Russia GREY",
        ]),
        orders.clone(),
        prop::sample::select(vec![
            "ENDPRESS",
            "END PRESS",
            "ENDBROADCAST",
            "END BROADCAST",
        ]),
    )
        .prop_map(|(h, body, end)| {
            let mut v = vec![h.to_string()];
            v.extend(body.iter().map(|s| s.to_string()));
            if !end.is_empty() {
                v.push(end.to_string());
            }
            v
        });
    let phase = (
        prop::sample::select(vec![
            "PHASE Fall 1901 Movements",
            "PHASE S1902M",
            "PHASE Winter 1901 Builds",
        ]),
        orders.clone(),
    )
        .prop_map(|(h, body)| {
            let mut v = vec![h.to_string()];
            v.extend(body.iter().map(|s| s.to_string()));
            v
        });
    let cond = (
        prop::sample::select(vec!["IF Par", "IF NOT F Bre AND A Mar"]),
        orders.clone(),
        prop::option::of(orders),
    )
        .prop_map(|(h, yes, no)| {
            let mut v = vec![h.to_string()];
            v.extend(yes.iter().map(|s| s.to_string()));
            if let Some(no) = no {
                v.push("ELSE".into());
                v.extend(no.iter().map(|s| s.to_string()));
            }
            v.push("ENDIF".into());
            v
        });
    let block = prop_oneof![signon.clone(), plain, press.clone(), phase, cond];
    // Press without its closer runs to the end of the mail: only last.
    let last = prop::option::of(press);
    (signon, prop::collection::vec(block, 1..6), last).prop_map(|(first, rest, last)| {
        let mut lines = first;
        for b in rest {
            lines.extend(b);
        }
        if let Some(mut open) = last {
            open.pop();
            lines.extend(open);
        }
        lines.join("\n")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The rule of blocks: corrupting or deleting one header line never makes
    /// a line inside its block act outside it.
    #[test]
    fn a_refused_or_lost_header_never_lets_its_lines_act(mail in block_mail()) {
        prop_assert_eq!(blocks_hold(map(), &mail), Ok(()), "{}", mail);
    }

    /// The same on keyword soup, which makes blocks by chance.
    #[test]
    fn the_rule_of_blocks_holds_on_keyword_soup(s in soup()) {
        prop_assert_eq!(blocks_hold(map(), &s), Ok(()), "{:?}", s);
    }

    #[test]
    fn arbitrary_text_never_panics(s in any::<String>()) {
        let body = parse_body(map(), &s);
        // One entry per line at least: nothing is dropped.
        prop_assert!(body.lines.len() >= s.split('\n').count());
        let _ = parse_order(map(), &s);
        let _ = parse_line(map(), &s, None);
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..200)) {
        let s = String::from_utf8_lossy(&b);
        let _ = parse_body(map(), &s);
        let _ = parse_order(map(), &s);
    }

    #[test]
    fn keyword_soup_never_panics_and_canonical_forms_read_back(s in soup()) {
        let body = parse_body(map(), &s);
        for l in &body.lines {
            if let (Entry::Orders(_), Some(c)) = (&l.entry, entry_canonical(map(), &l.entry)) {
                let again = parse_line(map(), &c, l.phase);
                let back: Vec<_> = again.iter().filter_map(|a| entry_canonical(map(), &a.entry)).collect();
                prop_assert_eq!(back.join(" \\\\ "), c.clone(), "from {:?}", l.text);
            }
        }
        let _ = parse_order(map(), &s);
    }

    #[test]
    fn canonical_orders_read_back_as_the_same_order(o in order(), p in power(), m in power(), r in route()) {
        // Only a move names a route, and a route is a move by convoy.
        let (order, route) = match o {
            Order::Move { unit, to, .. } if r.is_some() => {
                (Order::Move { unit, to, via_convoy: true }, r)
            }
            o => (o, None),
        };
        let parsed = ParsedOrder { power: p, order, map: m, route };
        let text = canonical_parsed(map(), &parsed);
        let back = parse_order(map(), &text);
        prop_assert_eq!(back, Ok(parsed), "{}", text);
    }
}

/// Inputs the fuzzer once failed on (`fixtures/fuzz/parse_body/`), checked as the
/// fuzz target checks them: every order line's canonical form reads again.
#[test]
fn inputs_the_fuzzer_found_read_back() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/fuzz/parse_body");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("fixtures/fuzz/parse_body") {
        let path = entry.expect("entry").path();
        let text = String::from_utf8_lossy(&std::fs::read(&path).expect("read")).into_owned();
        for line in &parse_body(map(), &text).lines {
            if let (Entry::Orders(_), Some(c)) = (&line.entry, entry_canonical(map(), &line.entry))
            {
                let again = parse_line(map(), &c, line.phase);
                assert!(
                    again
                        .iter()
                        .all(|l| !matches!(l.entry, Entry::Error { .. })),
                    "{}: canonical {c:?} of {:?} does not read",
                    path.display(),
                    line.text
                );
            }
        }
        n += 1;
    }
    assert!(n > 0, "no inputs in {dir}");
}
