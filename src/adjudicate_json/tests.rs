//! Reading documents: what is accepted and how each defect is named.

use serde_json::Value;

use super::*;
use crate::map::Map;
use crate::orders::{Order, UnitSpec};
use crate::phase::PhaseKind;

/// Reads only `X H` orders, so these tests do not depend on the grammar.
fn holds(map: &Map, _: PhaseKind, text: &str) -> Result<(Option<Power>, Order), String> {
    let place = text.strip_suffix(" H").ok_or("not a hold")?;
    let (_, place) = place.split_once(' ').ok_or("no unit")?;
    let loc = map.lookup(place).ok_or("unknown place")?;
    Ok((
        None,
        Order::Hold {
            unit: UnitSpec::at(loc),
        },
    ))
}

/// The request of a plain document (`plain.rs`), or `None`.
fn read_plain(text: &str) -> Option<Request<'_>> {
    let map = Map::standard();
    super::plain::read(
        map,
        &super::places::Places::new(map),
        text,
        &holds,
        super::read::Spare::default(),
    )
}

/// Reads `text` as a `Value`; when it is also read as a plain document, that
/// reading must give the same request.
fn read(text: &str) -> Result<Request<'static>, InputError> {
    let map = Map::standard();
    let text: &'static str = Box::leak(text.to_string().into_boxed_str());
    let doc: &'static Value = Box::leak(Box::new(
        serde_json::from_str(text).expect("test documents are JSON"),
    ));
    let by_value = read_request(map, doc, &holds);
    if let Some(plain) = read_plain(text) {
        assert_eq!(
            format!("{:?}", Ok::<_, InputError>(plain)),
            format!("{by_value:?}"),
            "{text}"
        );
    }
    by_value
}

fn error_of(text: &str) -> String {
    match read(text) {
        Ok(r) => panic!("accepted {text}: {:?}", r.position),
        Err(e) => e.to_string(),
    }
}

#[test]
fn reads_a_position() {
    let r = read(
        r#"{"variant": "standard", "phase": "F1901R",
            "units": {"FRANCE": ["A BUR", "F STP/NC"], "germany": ["a mun"]},
            "supply_centers": {"FRANCE": ["PAR"]},
            "home_centers": {"FRANCE": ["PAR", "BRE"]},
            "dislodged": {"GERMANY": [{"unit": "A RUH", "attacker_from": "BUR", "via_convoy": true}]},
            "contested": ["BEL"],
            "orders": {"FRANCE": ["A BUR H", "A PAR - XYZ"]}}"#,
    )
    .expect("a valid document");
    let map = Map::standard();
    let p = |s: &str| map.lookup(s).unwrap().province;
    assert_eq!(r.position.phase.to_string(), "F1901R");
    assert_eq!(r.position.units.len(), 3);
    assert_eq!(r.position.units[1].location, map.lookup("stp/nc").unwrap());
    assert_eq!(r.position.owner(p("par")), map.power("france"));
    assert_eq!(r.position.owner(p("bre")), None);
    assert_eq!(r.position.home_of(map.power("france").unwrap()).len(), 2);
    assert_eq!(
        r.position.home_of(map.power("germany").unwrap()).len(),
        3,
        "default homes"
    );
    assert_eq!(r.position.dislodged.len(), 1);
    assert!(r.position.dislodged[0].via_convoy);
    assert_eq!(r.position.dislodged[0].attacker_from, p("bur"));
    assert!(r.position.contested.contains(p("bel")));
    assert_eq!(r.orders.len(), 1);
    let read: Vec<_> = r
        .entries
        .iter()
        .filter_map(|(_, e)| match e {
            Entry::Read { text, .. } => Some(*text),
            Entry::Unread { .. } => None,
        })
        .collect();
    assert_eq!(read, vec!["A BUR H"]);
    let unread: Vec<_> = r.unread().map(|(_, text, _)| text).collect();
    assert_eq!(unread, vec!["A PAR - XYZ"]);
}

#[test]
fn dislodged_and_contested_count_only_in_a_retreat_phase() {
    let r = read(
        r#"{"phase": "S1901M", "units": {},
            "dislodged": {"GERMANY": [{"unit": "A RUH", "attacker_from": "BUR"}]}, "contested": ["BEL"]}"#,
    )
    .expect("valid");
    assert!(r.position.dislodged.is_empty() && r.position.contested.is_empty());
}

#[test]
fn every_defect_names_its_field() {
    let cases = [
        (r#"[1, 2]"#, "document: expected a JSON object"),
        (r#"{"units": {}}"#, "phase: missing"),
        (r#"{"phase": "S1901X", "units": {}}"#, "phase: not a phase"),
        (
            r#"{"phase": 1901, "units": {}}"#,
            "phase: expected a string",
        ),
        (r#"{"phase": "S1901M"}"#, "units: missing"),
        (
            r#"{"phase": "S1901M", "units": [], "orders": {}}"#,
            "units: expected an object",
        ),
        (
            r#"{"phase": "S1901M", "units": {"PRUSSIA": []}}"#,
            "units.PRUSSIA: unknown power",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": "A PAR"}}"#,
            "units.FRANCE: expected a list",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A XYZ"]}}"#,
            "units.FRANCE[1]: unknown province \"XYZ\"",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", 7]}}"#,
            "units.FRANCE[1]: expected a string",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["PAR"]}}"#,
            "units.FRANCE[0]: \"PAR\": expected a unit",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["X PAR"]}}"#,
            "units.FRANCE[0]: \"X PAR\": the unit type",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A NTH"]}}"#,
            "units.FRANCE[0]: A NTH: no army",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}}"#,
            "units.FRANCE[0]: F PAR: no fleet",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["F SPA"]}}"#,
            "units.FRANCE[0]: a fleet in SPA must name its coast",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A SPA/NC"]}}"#,
            "units.FRANCE[0]: an army stands in a province",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A SWI"]}}"#,
            "units.FRANCE[0]: A SWI: no army",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}"#,
            "units.GERMANY[0]: PAR is already occupied by a France unit",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "variant": "chaos"}"#,
            "variant: unknown variant",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "order": {}}"#,
            "order: unknown field",
        ),
        (
            r#"{"phase": "W1901A", "units": {}}"#,
            "supply_centers: missing",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "supply_centers": {"FRANCE": ["BUR"]}}"#,
            "supply_centers.FRANCE[0]: \"BUR\" is not a supply center",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "supply_centers": {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}}"#,
            "supply_centers.GERMANY[0]: \"PAR\" is also owned by France",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "home_centers": {"FRANCE": ["STP/NC"]}}"#,
            "home_centers.FRANCE[0]: \"STP/NC\": expected a province",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "contested": "BEL"}"#,
            "contested: expected a list",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "contested": ["BEL", "QQQ"]}"#,
            "contested[1]: unknown province \"QQQ\"",
        ),
        (
            r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": ["A MUN"]}}"#,
            "dislodged.GERMANY[0]: expected {",
        ),
        (
            r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": [{"unit": "A MUN"}]}}"#,
            "dislodged.GERMANY[0].attacker_from: missing",
        ),
        (
            r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR", "via_convoy": "no"}]}}"#,
            "dislodged.GERMANY[0].via_convoy: expected true or false",
        ),
        (
            r#"{"phase": "F1901R", "units": {}, "dislodged": {"GERMANY": [{"unit": "A MUN", "from": "BUR"}]}}"#,
            "dislodged.GERMANY[0].from: unknown field",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "orders": {"FRANCE": [["A PAR H"]]}}"#,
            "orders.FRANCE[0]: expected a string",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "orders": {"ATLANTIS": []}}"#,
            "orders.ATLANTIS: unknown power",
        ),
    ];
    for (doc, expected) in cases {
        let error = error_of(doc);
        assert!(
            error.starts_with(expected),
            "{doc}\n  gave {error:?}\n  expected {expected:?}"
        );
        assert!(!error.contains('\n'), "one line: {error:?}");
    }
}

#[test]
fn an_order_for_another_power_is_not_read() {
    let named = |map: &Map, _: PhaseKind, _: &str| Ok((map.power("england"), Order::Waive));
    let doc: Value = serde_json::from_str(r#"{"phase": "W1901A", "units": {}, "supply_centers": {}, "orders": {"FRANCE": ["England: WAIVE"]}}"#).unwrap();
    let r = read_request(Map::standard(), &doc, &named).expect("valid");
    assert!(r.orders.is_empty());
    let why: Vec<_> = r.unread().map(|(_, _, why)| why.to_string()).collect();
    assert_eq!(why, vec!["the order is for ENGLAND"]);
}

#[test]
fn error_document_is_one_json_line() {
    let e = InputError::new("units.FRANCE[1]", "unknown province \"XYZ\"");
    let line = e.to_json().to_string();
    assert_eq!(
        line,
        r#"{"error":"units.FRANCE[1]: unknown province \"XYZ\""}"#
    );
}

proptest::proptest! {
    /// Random field values never make the reader panic, and a rejection is one line.
    #[test]
    fn reading_never_panics(
        phase in "[SFWX]?[0-9]{0,4}[MRAB]?",
        unit in "[AFX]? ?[A-Za-z/() ]{0,9}",
        power in "[A-Z]{0,8}",
        order in "\\PC{0,20}",
        place in "[A-Za-z/]{0,7}",
    ) {
        let doc = serde_json::json!({
            "phase": phase,
            "units": {power.clone(): [unit.clone()], "FRANCE": [unit]},
            "supply_centers": {power.clone(): [place.clone()]},
            "dislodged": {power.clone(): [{"unit": "A MUN", "attacker_from": place.clone()}]},
            "contested": [place],
            "orders": {power: [order]},
        });
        match read_request(Map::standard(), &doc, &holds) {
            Ok(r) => proptest::prop_assert!(r.position.units.len() <= 2),
            Err(e) => proptest::prop_assert!(!e.to_string().contains('\n')),
        }
    }

    /// A line read as a plain document gives what the `Value` reading gives,
    /// and every valid line of the plain shape is read so.
    #[test]
    fn plain_and_value_readings_agree(
        phase in "(S1901M|F1901R|W1901A|[SFWX]?[0-9]{0,4}[MRAB]?)",
        unit in "(A PAR|f bre|Army Paris|[AFaf]? ?[A-Za-z/() ]{0,9})",
        power in "(FRANCE|France|french|[A-Z]{0,8})",
        order in "(A PAR H|[AFSCH -]{0,4}[A-Za-z/ -]{0,12})",
        place in "(BEL|bel|Belgium|[A-Za-z/]{0,7})",
        via in proptest::option::of(proptest::bool::ANY),
        first in proptest::bool::ANY,
    ) {
        // Written by hand: keys in the order given, not sorted as a `Value`
        // would print them.
        let q = |t: &str| serde_json::to_string(t).unwrap_or_default();
        let pair = |a: String, b: String| if first { format!("{a}, {b}") } else { format!("{b}, {a}") };
        let via = via.map_or("null".to_string(), |b| b.to_string());
        let text = format!(
            "{{\"phase\": {}, \"units\": {{{}}}, \"supply_centers\": {{{}: [{}]}}, \"home_centers\": {{\"ITALY\": [{}]}}, \"dislodged\": {{{}: [{{\"unit\": \"A MUN\", \"attacker_from\": {}, \"via_convoy\": {via}}}]}}, \"contested\": [{}], \"orders\": {{{}}}}}",
            q(&phase),
            pair(format!("{}: [{}]", q(&power), q(&unit)), "\"GERMANY\": [\"A BER\"]".to_string()),
            q(&power),
            q(&place),
            q(&place),
            q(&power),
            q(&place),
            q(&place),
            pair(format!("{}: [{}]", q(&power), q(&order)), "\"ENGLAND\": [\"F LON H\"]".to_string()),
        );
        let doc: Value = serde_json::from_str(&text).expect("JSON");
        let by_value = read_request(Map::standard(), &doc, &holds);
        match read_plain(&text) {
            Some(plain) => proptest::prop_assert_eq!(
                format!("{:?}", Ok::<_, InputError>(plain)),
                format!("{by_value:?}")
            ),
            None => proptest::prop_assert!(
                // Nothing here is escaped: only a key given twice is left to
                // the `Value` reader.
                by_value.is_err() || power == "GERMANY" || power == "ENGLAND",
                "a valid plain document left to the Value reader: {}",
                text
            ),
        }
    }
}

/// The contract's own spelling read without the grammar gives what the grammar
/// gives, for every code of the map in every place of every form; and the
/// forms programs write are read that way.
#[test]
fn orders_read_without_the_grammar_are_read_as_the_grammar_reads_them() {
    use crate::grammar::parse_order_in;
    let map = Map::standard();
    let places = super::places::Places::new(map);
    let mut codes: Vec<String> = Vec::new();
    for p in map.provinces() {
        codes.push(map.location_code(p.into()));
        for &c in map.coasts(p) {
            codes.push(map.location_code(crate::map::Location::new(p, Some(c))));
        }
    }
    let mut texts: Vec<String> = Vec::new();
    for x in &codes {
        for k in ["A", "F"] {
            let u = format!("{k} {x}");
            for form in [
                format!("{u} H"),
                format!("{u} D"),
                format!("BUILD {u}"),
                format!("REMOVE {u}"),
                format!("{u} S A PAR"),
                format!("{u} S F NTH - BEL"),
                format!("{u} C A LON - BEL"),
                format!("A PAR S {u}"),
                format!("A PAR S {u} H"),
                format!("A PAR S {u} - BUR"),
                format!("F NTH C {u} - BEL"),
                format!("{u} - BUR VIA CONVOY"),
            ] {
                texts.push(form);
            }
            for y in &codes {
                texts.push(format!("{u} - {y}"));
            }
        }
        for form in [
            format!("A PAR S A BUR - {x}"),
            format!("F NTH C A LON - {x}"),
            format!("A LON - {x} VIA CONVOY"),
            format!("F LON - {x} VIA CONVOY"),
            format!("A {x}"),
            format!("{x} H"),
            format!("{x} - BUR"),
        ] {
            texts.push(form);
        }
    }
    for odd in [
        "WAIVE",
        "WAIVE H",
        "BUILD WAIVE",
        "A PAR - BUR VIA",
        "A PAR - BUR VIA C",
        "A PAR - BUR - PIC",
        "A PAR  - BUR",
        " A PAR - BUR",
        "A PAR - BUR ",
        "A PAR -BUR",
        "A PAR S A BUR -",
        "A PAR S",
        "F NTH C A LON",
        "A PAR X",
        "",
        "A",
        "A PAR - BUR (*bounce*)",
        "FRANCE: A PAR - BUR",
        "a par - bur",
        "A Par - Bur",
    ] {
        texts.push(odd.to_string());
    }
    // The grammar ignores letter case, and so must the reading without it.
    let lower: Vec<String> = texts.iter().map(|t| t.to_lowercase()).collect();
    let mixed: Vec<String> = texts
        .iter()
        .step_by(7)
        .map(|t| {
            t.chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect();
    texts.extend(lower);
    texts.extend(mixed);
    let (mut fast, mut checked) = (0, 0);
    for text in &texts {
        for kind in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            let Some(order) = super::canonical::read(map, &places, kind, text) else {
                continue;
            };
            fast += 1;
            let grammar = parse_order_in(map, text, Some(kind));
            checked += 1;
            match grammar {
                Ok(parsed) => {
                    assert_eq!(parsed.power, None, "{text:?}");
                    assert_eq!(parsed.order, order, "{text:?} in a {kind:?} phase");
                }
                Err(e) => {
                    panic!("{text:?} in a {kind:?} phase: read as {order:?}, the grammar says {e}")
                }
            }
        }
    }
    assert_eq!(fast, checked);
    for plain in [
        "A PAR - BUR",
        "F STP/SC - BOT",
        "F MAO - SPA/NC",
        "A LON - BEL VIA CONVOY",
        "F NTH C A LON - BEL",
        "A MAR S A PAR - BUR",
        "F MAO S F GAS - SPA",
        "A PAR S A MAR",
        "A PAR H",
        "A MUN D",
        "BUILD F STP/NC",
        "BUILD A PAR",
        "REMOVE F TRI",
        "WAIVE",
    ] {
        assert!(
            super::canonical::read(map, &places, PhaseKind::Movement, plain).is_some(),
            "{plain:?} is read without the grammar"
        );
    }
    assert!(fast > 60_000, "{fast} orders read without the grammar");
}

/// Places and powers found without the spelling table are what the map reads.
#[test]
fn places_and_powers_read_fast_are_read_as_the_map_reads_them() {
    let map = Map::standard();
    let places = super::places::Places::new(map);
    let mut texts: Vec<String> = map.spellings().iter().map(|(s, _)| s.clone()).collect();
    for p in map.provinces() {
        texts.push(map.location_code(p.into()));
        texts.push(map.name(p).to_string());
        for &c in map.coasts(p) {
            texts.push(map.location_code(crate::map::Location::new(p, Some(c))));
        }
    }
    texts.extend(["PA", "PARX", "PAR/", "PAR/NC", "STP/XC", "STP/N", "", "P4R"].map(String::from));
    let variants: Vec<String> = texts
        .iter()
        .flat_map(|t| {
            [
                t.to_uppercase(),
                t.to_lowercase(),
                format!("{t} "),
                t.clone(),
            ]
        })
        .collect();
    let mut by_code = 0;
    for text in &variants {
        assert_eq!(places.lookup(map, text), map.lookup(text), "{text:?}");
        by_code += usize::from(places.code(text).is_some());
    }
    assert!(by_code > 300, "{by_code} places found by their codes");
    for info in map.powers() {
        for name in [
            info.name.clone(),
            info.adjective.clone(),
            info.name.to_uppercase(),
            info.adjective.to_lowercase(),
            format!(" {} ", info.name),
            "Prussia".to_string(),
            String::new(),
            format!("{}X", info.name.to_uppercase()),
            info.name.to_uppercase()[1..].to_string(),
            info.name.to_uppercase()[..info.name.len() - 1].to_string(),
            format!("{}{}", info.name.to_uppercase(), "A".repeat(16)),
        ] {
            assert_eq!(places.power(map, &name), map.power(&name), "{name:?}");
        }
    }
}

/// The scanner takes the document's plain shape, in any white space, and
/// leaves everything else to the `Value` reader (which names the defect or
/// reads what the scanner does not: escapes, a key given twice).
#[test]
fn the_scanner_takes_the_plain_shape_and_leaves_the_rest() {
    let taken = [
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}}"#,
        "{\"phase\":\"S1901M\",\r\n\t\"units\":{\"FRANCE\":[\"A PAR\" ] } }\n",
        r#"{"units": {"FRANCE": ["A PAR"], "GERMANY": []}, "phase": "F1901R", "contested": [],
            "dislodged": {"FRANCE": [{"unit": "A BUR", "attacker_from": "MUN", "via_convoy": null}]},
            "orders": {}, "supply_centers": {}, "home_centers": {}, "variant": "standard"}"#,
        // Powers out of order.
        r#"{"phase": "S1901M", "units": {"GERMANY": ["A MUN"], "FRANCE": ["A PAR"]}}"#,
        // Orders before the phase, as a program that sorts its keys writes them.
        r#"{"orders": {"FRANCE": ["A PAR H"]}, "phase": "S1901M", "units": {"FRANCE": ["A PAR"]}}"#,
        // Spellings besides the contract's, read as the `Value` reader reads them.
        r#"{"phase": "s1901m", "units": {"France": ["Army Paris"]}, "supply_centers": {"FRANCE": ["par"]}}"#,
    ];
    for text in taken {
        assert!(read_plain(text).is_some(), "refused {text}");
        read(text).expect("a valid document");
    }
    let left = [
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A \u0050AR"]}}"#,
        r#"{"phase": "S1901M", "phase": "S1901M", "units": {}}"#,
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "FRANCE": ["A MAR"]}}"#,
        r#"{"phase": "S1901M", "units": {"GERMANY": [], "FRANCE": ["A PAR"], "GERMANY": []}}"#,
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}} x"#,
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR",]}}"#,
        r#"{"phase": "S1901M", "units": {"FRANCE": "A PAR"}}"#,
        r#"{"phase": 1901, "units": {}}"#,
        r#"{"phase": "S1901M", "units": {}, "dislodged": {"FRANCE": [{"unit": "A PAR"}]}}"#,
        r#"{"phase": "S1901M", "units": {}, "extra": 1}"#,
        r#"["phase"]"#,
        r#"{"phase": "S1901M", "units": {}"#,
        // A key seen before, then no colon.
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "supply_centers": {"FRANCE" "ENGLAND": ["LON"]}}"#,
        // Well formed, but a defect for the `Value` reader to name.
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A PAR"]}}"#,
        r#"{"phase": "W1901A", "units": {}}"#,
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}"#,
    ];
    for text in left {
        assert!(read_plain(text).is_none(), "took {text}");
    }
    // Read by the `Value` reader instead, as before.
    let escaped = read(left[0]).expect("an escaped code reads");
    assert_eq!(escaped.position.units.len(), 1);
    let twice = read(left[3]).expect("a key given twice reads");
    assert_eq!(twice.position.units.len(), 1);
}

/// The phases the speed of the batch path is measured on are all read as
/// plain documents.
#[test]
fn the_benchmarks_phases_are_plain_documents() {
    let games = include_str!("../../fixtures/adjudicate-json/games.jsonl");
    let mut count = 0;
    for line in games.lines() {
        assert!(read_plain(line).is_some(), "refused {line}");
        count += 1;
    }
    assert!(count > 300, "{count}");
}

#[test]
fn phases_read_fast_are_read_as_phase_names_read() {
    use crate::phase::Phase;
    let mut texts: Vec<String> = Vec::new();
    for season in ["S", "F", "W", "s", "X", ""] {
        for year in [
            "0000", "0001", "1901", "2026", "9999", "65535", "190", "19x1", "+901", "",
        ] {
            for kind in ["M", "R", "A", "B", "m", "X", ""] {
                texts.push(format!("{season}{year}{kind}"));
            }
        }
    }
    let mut fast = 0;
    for text in &texts {
        if let Some(phase) = super::read::plain_phase(text) {
            fast += 1;
            assert_eq!(Ok(phase), text.parse::<Phase>(), "{text:?}");
        }
    }
    assert!(fast >= 15, "{fast}");
    for text in ["S1901M", "S1901R", "F2026M", "F1901R", "W9999A"] {
        assert!(super::read::plain_phase(text).is_some(), "{text}");
    }
    assert_eq!(super::read::plain_phase("W1901M"), None);
}

/// A power the map does not know (a position built in code, never one read
/// from a document) gets its key in key order, wherever its items are.
#[test]
fn a_power_the_map_does_not_know_gets_its_key_in_its_place() {
    use crate::judge::{Countries, Rules, Unit, adjudicate};
    use crate::map::{Location, UnitKind};
    let map = Map::standard();
    let mut request = read(
        r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A ROM"]},
            "orders": {"FRANCE": ["A PAR H"]}}"#,
    )
    .expect("a valid document");
    let stranger = Power(map.powers().len() as u8);
    let bur = map.lookup("bur").expect("Burgundy");
    request.position.units.push(Unit {
        power: stranger,
        kind: UnitKind::Army,
        location: Location::from(bur.province),
    });
    let rules = Rules::default();
    let done = adjudicate(map, &rules, &Countries, &request.position, &request.orders);
    let result = write_result(map, &rules, &request, &done);
    let keys = |field: &str| -> Vec<String> {
        result[field]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    let name = format!("POWER{}", stranger.0);
    assert_eq!(keys("units"), ["FRANCE", "ITALY", name.as_str()]);
    assert_eq!(result["units"][name.as_str()], serde_json::json!(["A BUR"]));
    assert_eq!(keys("results"), ["FRANCE", "ITALY", name.as_str()]);
    // Written straight, key by key: the same text as the `Value` prints.
    let mut out = Vec::new();
    let writer = super::write::Writer {
        map,
        places: &super::places::Places::new(map),
        keys: &super::write::Keys::new(map),
    };
    writer.result(&mut out, &mut Default::default(), &rules, &request, &done);
    assert_eq!(String::from_utf8_lossy(&out), result.to_string());
}

/// Orders under two keys of one power come apart in key order (`FRANCE`,
/// `ITALY`, `french`): each power's results are still its orders in key
/// order, then the judge's defaults.
#[test]
fn a_powers_results_keep_their_order_when_its_keys_are_apart() {
    use crate::judge::{Countries, Rules, adjudicate};
    let map = Map::standard();
    let request = read(
        r#"{"phase": "S1901M",
            "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "ITALY": ["A ROM"], "TURKEY": ["F ANK"]},
            "orders": {"FRANCE": ["A PAR H"], "ITALY": ["A ROM H"], "french": ["A MAR H"]}}"#,
    )
    .expect("a valid document");
    let rules = Rules::default();
    let done = adjudicate(map, &rules, &Countries, &request.position, &request.orders);
    let result = write_result(map, &rules, &request, &done);
    let orders = |power: &str| -> Vec<String> {
        result["results"][power]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|i| i["order"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(orders("FRANCE"), ["A PAR H", "A MAR H", "F BRE H"]);
    assert_eq!(result["results"]["FRANCE"][2]["default"], true);
    assert_eq!(orders("ITALY"), ["A ROM H"]);
    assert_eq!(orders("TURKEY"), ["F ANK H"]);
}

/// A map whose names need escaping in JSON (`Munich "the Bavarian"`): its
/// explanations are escaped, where the standard map's are copied as they are.
#[test]
fn names_that_need_escaping_are_escaped_in_explanations() {
    let text = include_str!("../../config/maps/standard.toml")
        .replace(r#"name = "Munich""#, r#"name = "Munich \"the Bavarian\"""#);
    let map = Map::from_toml(&text).expect("the standard map, one name changed");
    assert!(!super::places::Places::new(&map).plain_names);
    assert!(super::places::Places::new(Map::standard()).plain_names);
    let doc = r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}"#;
    let batch = Batch::new(&map, crate::judge::Rules::default(), &holds);
    let mut out = Vec::new();
    batch.adjudicate(doc, &mut out).expect("a valid document");
    let result: Value = serde_json::from_slice(&out).expect("the result is JSON");
    assert_eq!(
        result["results"]["FRANCE"][0]["reason"],
        r#"A PAR - BUR bounced: 1 against 1 (Army Munich "the Bavarian")"#
    );
}

/// `Name::starting` gives each field by the first letter of its name.
#[test]
fn each_field_starts_with_a_letter_of_its_own() {
    use super::read::Name;
    for name in Name::ALL {
        let key = name.key();
        assert_eq!(Name::of(key), Some(name));
        assert_eq!(Name::starting(key.as_bytes()[0]), Some(name), "{key}");
    }
    let initials: Vec<u8> = Name::ALL.iter().map(|n| n.key().as_bytes()[0]).collect();
    for letter in 0..=u8::MAX {
        if !initials.contains(&letter) {
            assert_eq!(Name::starting(letter), None, "{}", letter as char);
        }
    }
}
