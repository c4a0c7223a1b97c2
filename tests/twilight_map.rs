//! Twilight Zone map designs: the format, every rule with a failing map, the
//! three example maps, the built `Map`, the drawing and distinctness.

use legate::map::{Location, Map, Terrain, UnitKind};
use legate::variant::twilight::{self, DesignError};

const NORTH_CHANNEL: &str = include_str!("../config/twilight/north-channel.txt");
const BALTIC_GATE: &str = include_str!("../config/twilight/baltic-gate.txt");
const IONIAN_BRIDGE: &str = include_str!("../config/twilight/ionian-bridge.txt");

fn errors(text: &str) -> Vec<DesignError> {
    match twilight::parse(text) {
        Err(e) => e,
        Ok(design) => twilight::validate(&design),
    }
}

fn show(errs: &[DesignError]) -> String {
    errs.iter().map(|e| format!("{e}\n")).collect()
}

/// Asserts some error is about `rule` and its message contains every word.
fn expect(text: &str, rule: &str, words: &[&str]) -> DesignError {
    let errs = errors(text);
    errs.iter()
        .find(|e| e.rule() == rule && words.iter().all(|w| e.to_string().contains(w)))
        .cloned()
        .unwrap_or_else(|| panic!("no rule {rule} error with {words:?} in:\n{}", show(&errs)))
}

/// The north-channel design with grid cell (row, col) rewritten.
fn with_cells(edits: &[(usize, usize, &str)]) -> String {
    let mut out = Vec::new();
    let mut row = 0;
    let mut in_grid = false;
    for line in NORTH_CHANNEL.lines() {
        if line.trim() == "GRID" {
            in_grid = true;
        } else if line.trim() == "COASTS" {
            in_grid = false;
        } else if in_grid {
            let mut cells: Vec<&str> = line.split_whitespace().collect();
            for &(r, c, abbr) in edits {
                if r == row {
                    cells[c] = abbr;
                }
            }
            out.push(cells.join(" "));
            row += 1;
            continue;
        }
        out.push(line.to_string());
    }
    out.join("\n")
}

fn replace_line(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the map");
    text.replacen(from, to, 1)
}

fn std_loc(name: &str) -> Location {
    Map::standard().lookup(name).expect(name)
}

// ---- the example maps --------------------------------------------------------

#[test]
fn the_three_example_maps_are_valid() {
    for (name, text) in [
        ("north-channel", NORTH_CHANNEL),
        ("baltic-gate", BALTIC_GATE),
        ("ionian-bridge", IONIAN_BRIDGE),
    ] {
        let errs = errors(text);
        assert!(errs.is_empty(), "{name}:\n{}", show(&errs));
        assert!(twilight::check(text, name).is_ok(), "{name}");
    }
}

#[test]
fn the_three_example_maps_differ_from_each_other() {
    let maps: Vec<Map> = [NORTH_CHANNEL, BALTIC_GATE, IONIAN_BRIDGE]
        .iter()
        .map(|t| twilight::check(t, "x").expect("valid").map)
        .collect();
    for i in 0..maps.len() {
        let others: Vec<&Map> = (0..maps.len())
            .filter(|&j| j != i)
            .map(|j| &maps[j])
            .collect();
        assert!(twilight::distinct(&maps[i], &others).is_ok(), "map {i}");
        assert!(
            !twilight::same_borders(&maps[i], Map::standard()),
            "map {i} is the standard map"
        );
    }
}

#[test]
fn the_grammar_document_example_is_valid() {
    let doc = include_str!("../grammar/twilight-map.md");
    let example = doc
        .find("## A complete example")
        .expect("an example section");
    let start = doc[example..]
        .find("\nMAP\n")
        .expect("an example MAP block")
        + example;
    let end = doc[start..].find("ENDMAP").expect("ENDMAP") + start;
    let errs = errors(&doc[start..end + "ENDMAP".len()]);
    assert!(errs.is_empty(), "{}", show(&errs));
}

// ---- distinctness (rule 2) ---------------------------------------------------

#[test]
fn the_same_design_twice_is_not_distinct() {
    let a = twilight::check(NORTH_CHANNEL, "a").expect("valid").map;
    let b = twilight::check(NORTH_CHANNEL, "b").expect("valid").map;
    let err = twilight::distinct(&a, &[&b]).expect_err("same borders");
    assert_eq!(err, DesignError::NotDistinct);
    assert_eq!(err.rule(), "2");
    assert!(
        !err.to_string().contains("North"),
        "the message names no other map"
    );
}

#[test]
fn a_mirrored_grid_gives_the_same_map() {
    // Mirroring left to right keeps every border, so it is not a different map.
    let mirrored: String = {
        let mut in_grid = false;
        let mut out = Vec::new();
        for line in NORTH_CHANNEL.lines() {
            match line.trim() {
                "GRID" => in_grid = true,
                "COASTS" => in_grid = false,
                _ if in_grid => {
                    let mut cells: Vec<&str> = line.split_whitespace().collect();
                    cells.reverse();
                    out.push(cells.join(" "));
                    continue;
                }
                _ => {}
            }
            out.push(line.to_string());
        }
        out.join("\n")
    };
    let a = twilight::check(NORTH_CHANNEL, "a").expect("valid").map;
    let b = twilight::check(&mirrored, "b")
        .expect("mirror is valid")
        .map;
    assert!(twilight::same_borders(&a, &b));
    let c = twilight::check(&replace_line(NORTH_CHANNEL, "wal - lon", ""), "c")
        .expect("valid")
        .map;
    assert!(!twilight::same_borders(&a, &c), "one fleet border differs");
}

// ---- 2.1 ---------------------------------------------------------------------

#[test]
fn rule_2_1_missing_province() {
    expect(
        &with_cells(&[(9, 15, "smy")]),
        "2.1",
        &["Syria (SYR)", "missing"],
    );
}

#[test]
fn rule_2_1_unknown_province_names_line_and_column() {
    let err = expect(&with_cells(&[(0, 1, "atl")]), "2.1", &["\"atl\""]);
    // MAP on line 2, GRID on 3: the first grid row is line 4; cell 2 is column 5.
    assert!(err.to_string().contains("line 4, column 5"), "{err}");
}

#[test]
fn rule_2_1_province_in_two_places() {
    expect(
        &with_cells(&[(0, 0, "mao")]),
        "2.1",
        &["Mid-Atlantic Ocean", "two separate"],
    );
}

#[test]
fn rule_2_1_switzerland_may_be_drawn() {
    // Switzerland is impassable: drawing it is allowed and borders nothing.
    let text = with_cells(&[(3, 15, "swi")]);
    let errs = errors(&text);
    assert!(errs.iter().all(|e| e.rule() != "2.1"), "{}", show(&errs));
}

// ---- 2.2 ---------------------------------------------------------------------

#[test]
fn rule_2_2_inland_touching_the_sea() {
    expect(
        &with_cells(&[(1, 12, "mos")]),
        "2.2",
        &["Moscow", "inland", "Barents Sea"],
    );
}

#[test]
fn rule_2_2_coastal_without_a_sea() {
    expect("par pic\nbur mar\n", "2.2", &["Picardy", "coastal"]);
}

#[test]
fn rule_2_2_multi_coast_keeps_its_coasts() {
    let text = replace_line(NORTH_CHANNEL, "stp/sc: bot fin\n", "");
    expect(&text, "2.2", &["St Petersburg (south coast)", "COASTS"]);
}

#[test]
fn rule_2_2_each_coast_touches_a_sea() {
    let text = replace_line(NORTH_CHANNEL, "stp/sc: bot fin", "stp/sc: fin");
    expect(&text, "2.2", &["St Petersburg (south coast)", "no sea"]);
}

#[test]
fn rule_2_2_only_three_provinces_have_coasts() {
    let text = replace_line(NORTH_CHANNEL, "LAND ONLY", "gas/nc: mao\nLAND ONLY");
    expect(&text, "2.2", &["Gascony", "no separate coasts"]);
}

// ---- 2.3 and 2.8 -------------------------------------------------------------

const CENTRES: &str = "ank bel ber bre bud bul con den edi gre hol kie lon lvp mar mos mun \
                       nap nwy par por rom rum ser smy spa stp swe tri tun ven vie war";

fn with_centres(list: &str) -> String {
    replace_line(NORTH_CHANNEL, "ENDMAP", &format!("CENTRES\n{list}\nENDMAP"))
}

#[test]
fn rule_2_3_the_thirty_three_centres_are_accepted() {
    let errs = errors(&with_centres(CENTRES));
    assert!(errs.is_empty(), "{}", show(&errs));
}

#[test]
fn rule_2_3_an_extra_centre() {
    expect(
        &with_centres(&format!("{CENTRES} pic")),
        "2.3",
        &["Picardy", "not a supply centre"],
    );
}

#[test]
fn rule_2_3_a_missing_centre() {
    let list = CENTRES.replace(" par ", " ");
    expect(&with_centres(&list), "2.3", &["Paris", "leaves out"]);
}

#[test]
fn rule_2_8_sevastopol_is_no_centre() {
    expect(
        &with_centres(&format!("{CENTRES} sev")),
        "2.8",
        &["Sevastopol", "Turkish"],
    );
}

#[test]
fn rule_2_8_russia_and_turkey_home_centres() {
    let names = |c: &str| -> Vec<String> {
        let mut v: Vec<String> = twilight::home_centres(c)
            .iter()
            .map(|&p| Map::standard().abbr(p).to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names("Russia"), ["mos", "stp", "war"]);
    assert_eq!(names("Turkey"), ["ank", "con", "smy"]);
    let sev = std_loc("sev").province;
    assert!(!twilight::is_supply_centre(sev));
    let turkey = twilight::COUNTRY_SPACES
        .iter()
        .find(|c| c.0 == "Turkey")
        .expect("Turkey");
    assert!(turkey.1.contains(&"sev"));
}

// ---- 2.4 to 2.7 --------------------------------------------------------------

#[test]
fn rule_2_4_land_needs_two_land_neighbours() {
    // Portugal keeps only Spain once North Africa's top cell turns to sea.
    expect(
        &with_cells(&[(9, 1, "wes")]),
        "2.4",
        &["Portugal", "borders 1"],
    );
}

#[test]
fn rule_2_5_sea_needs_two_seas() {
    // The Tyrrhenian Sea keeps only the Gulf of Lyon.
    expect(
        &with_cells(&[(10, 2, "naf")]),
        "2.5",
        &["Tyrrhenian Sea", "borders 1"],
    );
}

#[test]
fn rule_2_5_sea_needs_a_coast() {
    expect(
        "nao nwg bar\nmao iri nth\n",
        "2.5",
        &["Irish Sea", "no coastal"],
    );
}

#[test]
fn rule_2_6_country_spaces_are_continuous() {
    // Smyrna moves off to sea, cut off from the rest of Turkey.
    let text = with_cells(&[(9, 14, "eas"), (10, 14, "smy")]);
    expect(&text, "2.6", &["Turkey", "Smyrna"]);
}

#[test]
fn rule_2_7_rows_of_different_lengths() {
    let text = replace_line(
        NORTH_CHANNEL,
        "eas eas eas eas\nCOASTS",
        "eas eas eas\nCOASTS",
    );
    expect(&text, "2.7", &["line 15", "15 cells", "16"]);
}

#[test]
fn rule_2_7_two_sides_only_in_a_corner() {
    expect(
        "nao nth bar\nmao nth bla\n",
        "2.7",
        &["North Sea", "not in a corner"],
    );
}

#[test]
fn rule_2_7_never_three_sides() {
    expect(
        "nao nth bar\nnao nao bla\n",
        "2.7",
        &["North Atlantic Ocean", "3 sides"],
    );
    expect(
        "nao nth bar\nnao nao nao\n",
        "2.7",
        &["North Atlantic Ocean", "4 sides"],
    );
}

// ---- consistency ---------------------------------------------------------------

#[test]
fn coast_lists_a_place_it_does_not_border() {
    let text = replace_line(
        NORTH_CHANNEL,
        "spa/nc: mao gas por",
        "spa/nc: mao gas por bre",
    );
    expect(&text, "consistency", &["Brest", "does not border Spain"]);
}

#[test]
fn coast_lists_an_inland_place() {
    let text = replace_line(
        NORTH_CHANNEL,
        "spa/nc: mao gas por",
        "spa/nc: mao gas por par",
    );
    expect(&text, "consistency", &["Paris", "not on the sea"]);
}

#[test]
fn coast_needs_a_common_sea_with_a_coastal_neighbour() {
    let text = replace_line(
        NORTH_CHANNEL,
        "spa/nc: mao gas por",
        "spa/nc: mao gas por mar",
    );
    expect(&text, "consistency", &["Marseilles", "no common sea"]);
}

#[test]
fn every_sea_a_multi_coast_province_touches_is_on_a_coast() {
    let text = replace_line(NORTH_CHANNEL, "spa/sc: lyo wes mar", "spa/sc: lyo mar");
    expect(&text, "consistency", &["Western Mediterranean", "Spain"]);
}

#[test]
fn land_only_pairs_must_be_a_coastline() {
    let text = replace_line(NORTH_CHANNEL, "wal - lon", "gas - mar");
    expect(
        &text,
        "consistency",
        &["Gascony", "Marseilles", "do not border"],
    );
    let text = replace_line(NORTH_CHANNEL, "wal - lon", "lvn - stp");
    expect(&text, "consistency", &["St Petersburg", "COASTS"]);
}

#[test]
fn format_errors_say_where() {
    let text = replace_line(NORTH_CHANNEL, "spa/nc: mao gas por", "spa: mao gas por");
    expect(&text, "format", &["spa/nc or spa/sc"]);
    let text = replace_line(NORTH_CHANNEL, "stp/nc: bar", "stp/nc bar");
    expect(&text, "format", &["line"]);
    assert_eq!(errors("# nothing\n"), vec![DesignError::NoGrid]);
}

#[test]
fn every_fault_is_reported_at_once() {
    let text = replace_line(&with_cells(&[(1, 12, "mos")]), "stp/sc: bot fin\n", "");
    let rules: Vec<&str> = errors(&text).iter().map(|e| e.rule()).collect();
    for rule in ["2.1", "2.2"] {
        assert!(rules.contains(&rule), "{rules:?}");
    }
}

// ---- the game's maps: the base and the union ---------------------------------

#[test]
fn the_base_map_has_the_standard_borders_and_the_twilight_centres() {
    let (base, std) = (twilight::base(), Map::standard());
    assert_eq!(base.supply_centers().len(), 33);
    assert!(!base.is_supply_center(std_loc("sev").province));
    let sorted = |mut v: Vec<_>| {
        v.sort();
        v
    };
    assert_eq!(sorted(base.army_borders()), sorted(std.army_borders()));
    assert!(base.powers().iter().all(|p| p.starting_units.is_empty()));
}

#[test]
fn the_union_has_every_border_of_every_map() {
    let a = north_channel();
    let b = twilight::check(IONIAN_BRIDGE, "ib").expect("valid").map;
    let u = twilight::union(&[&a, &b]).expect("builds");
    for m in [&a, &b] {
        for (x, y) in m.army_borders() {
            assert!(u.army_adjacent(x, y), "{x:?}-{y:?}");
        }
        for (x, y) in m.fleet_borders() {
            assert!(u.fleet_adjacent(x, y), "{x:?}-{y:?}");
        }
    }
    // Trieste - Serbia is on the Ionian Bridge only, and so on the union.
    let (tri, ser) = (std_loc("tri").province, std_loc("ser").province);
    assert!(!a.army_adjacent(tri, ser) && b.army_adjacent(tri, ser));
    assert!(u.army_adjacent(tri, ser));
    // Nothing that no map has.
    let (lon, mos) = (std_loc("lon").province, std_loc("mos").province);
    assert!(!u.army_adjacent(lon, mos));
}

// ---- the built map -----------------------------------------------------------

fn north_channel() -> Map {
    twilight::check(NORTH_CHANNEL, "Twilight: north channel")
        .expect("valid")
        .map
}

#[test]
fn built_map_keeps_the_standard_provinces_in_order() {
    let (map, std) = (north_channel(), Map::standard());
    assert_eq!(map.province_count(), std.province_count());
    for p in std.provinces() {
        assert_eq!(map.abbr(p), std.abbr(p));
        assert_eq!(map.name(p), std.name(p));
        assert_eq!(map.terrain(p), std.terrain(p));
        assert_eq!(map.coasts(p), std.coasts(p));
    }
    assert_eq!(
        map.lookup("bul/nc"),
        std.lookup("bul/nc"),
        "coast spellings kept"
    );
    assert_eq!(map.title(), "Twilight: north channel");
}

#[test]
fn built_map_has_thirty_three_centres_and_twilight_homes() {
    let map = north_channel();
    assert_eq!(map.supply_centers().len(), 33);
    let sev = std_loc("sev").province;
    assert!(!map.is_supply_center(sev));
    assert_eq!(map.home_power(sev), None);
    let russia = map.power("Russia").expect("Russia");
    assert_eq!(map.power_info(russia).home_centers.len(), 3);
    assert!(
        map.powers().iter().all(|p| p.starting_units.is_empty()),
        "rule 3: players place"
    );
}

#[test]
fn built_map_borders_follow_the_grid() {
    let map = north_channel();
    let army = |a: &str, b: &str| map.army_adjacent(std_loc(a).province, std_loc(b).province);
    let fleet = |a: &str, b: &str| map.fleet_adjacent(std_loc(a), std_loc(b));
    assert!(army("wal", "lon") && !fleet("wal", "lon"), "LAND ONLY");
    assert!(army("edi", "yor") && !fleet("edi", "yor"), "no common sea");
    assert!(
        fleet("lon", "yor") && army("lon", "yor"),
        "both on the North Sea"
    );
    assert!(fleet("stp/sc", "bot") && !fleet("stp/nc", "bot"));
    assert!(fleet("stp/nc", "bar") && !fleet("stp/sc", "bar"));
    assert!(fleet("spa/sc", "mar") && !fleet("spa/nc", "mar"));
    assert!(fleet("bul/ec", "bla") && fleet("bul/sc", "aeg") && !fleet("bul/sc", "bla"));
    assert!(
        army("por", "naf") && fleet("bla", "aeg"),
        "borders the standard map lacks"
    );
    assert!(!army("par", "bur"), "Paris and Burgundy do not meet here");
    assert!(!map.can_move(UnitKind::Fleet, std_loc("tun"), std_loc("ion")));
    assert!(map.can_move(UnitKind::Fleet, std_loc("nap"), std_loc("ion")));
}

#[test]
fn built_map_is_symmetric_and_matches_the_cells() {
    let map = north_channel();
    let design = twilight::parse(NORTH_CHANNEL).expect("parses");
    let grid = &design.grid;
    let mut touching = std::collections::BTreeSet::new();
    for (r, c, p) in grid.cells() {
        for (r2, c2) in [(r + 1, c), (r, c + 1)] {
            if r2 < grid.height() && c2 < grid.width() && grid.at(r2, c2) != p {
                let q = grid.at(r2, c2);
                touching.insert((p.min(q), p.max(q)));
            }
        }
    }
    for a in map.provinces() {
        for b in map.provinces() {
            assert_eq!(map.army_adjacent(a, b), map.army_adjacent(b, a));
            let land = |p| matches!(map.terrain(p), Terrain::Inland | Terrain::Coastal);
            let meets = touching.contains(&(a.min(b), a.max(b)));
            assert_eq!(
                map.army_adjacent(a, b),
                meets && land(a) && land(b),
                "{a} {b}"
            );
        }
    }
    for (x, y) in map.fleet_borders() {
        assert!(map.fleet_adjacent(y, x));
        let (a, b) = (x.province, y.province);
        assert!(
            touching.contains(&(a.min(b), a.max(b))),
            "fleet border off the grid"
        );
    }
}

// ---- drawing -----------------------------------------------------------------

#[test]
fn drawing_shows_every_province_and_cell() {
    let design = twilight::parse(NORTH_CHANNEL).expect("parses");
    let svg = twilight::draw(&design, "North <Channel>");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("North &lt;Channel&gt;"), "title escaped");
    for p in design.grid.present().iter() {
        let code = Map::standard().location_code(p.into());
        assert!(svg.contains(&format!(">{code}</text>")), "{code}");
    }
    let cells = design.grid.width() * design.grid.height();
    assert_eq!(
        svg.matches("<rect").count(),
        cells + 2,
        "a square a cell, background, frame"
    );
    assert_eq!(svg.matches("<circle").count(), 33, "a dot a supply centre");
    assert!(svg.contains("stroke-dasharray"), "land-only borders dashed");
    assert!(
        svg.contains(">sc</text>") && svg.contains(">ec</text>"),
        "coast tags"
    );
}

// ---- no input panics ---------------------------------------------------------

proptest::proptest! {
    #[test]
    fn any_text_is_answered_without_panic(text in "[a-z/ :,#\\-\\n]{0,300}") {
        if let Ok(design) = twilight::parse(&text) {
            let _ = twilight::validate(&design);
            let _ = twilight::draw(&design, &text);
            let _ = twilight::build(&design, "x");
        }
    }

    #[test]
    fn any_cell_changed_is_answered_without_panic(
        row in 0usize..12, col in 0usize..16, pick in 0usize..76,
    ) {
        let abbr = Map::standard().abbr(legate::map::Province(pick as u8)).to_string();
        let text = with_cells(&[(row, col, abbr.as_str())]);
        let design = twilight::parse(&text).expect("still a grid of provinces");
        let errs = twilight::validate(&design);
        let _ = twilight::draw(&design, "x");
        if errs.is_empty() {
            proptest::prop_assert!(twilight::build(&design, "x").is_ok());
        }
    }
}

#[test]
fn format_variants_read_the_same() {
    // No MAP/ENDMAP (an attachment), no GRID keyword, upper case, comments,
    // `bul/nc` for the east coast, keywords with colons, pairs on one line.
    let text = NORTH_CHANNEL
        .replace("MAP\nGRID\n", "")
        .replace("ENDMAP", "")
        .replace(
            "bul/ec: bla rum",
            "BUL/NC: BLA, RUM  // the Black Sea coast",
        )
        .replace(
            "LAND ONLY\nwal - lon",
            "Land only:\nwal-lon, lon-yor # two pairs",
        );
    let design = twilight::parse(&text).expect("parses");
    assert!(twilight::validate(&design).is_empty());
    assert_eq!(design.land_only.len(), 2);
    let bul = design.coasts.iter().find(|l| l.coast == std_loc("bul/ec"));
    assert_eq!(bul.map(|l| l.touches.len()), Some(2));
    let plain = twilight::parse(NORTH_CHANNEL).expect("parses");
    assert_eq!(design.grid.width(), plain.grid.width());
    assert_eq!(design.grid.height(), plain.grid.height());
}

#[test]
fn the_standard_board_itself_breaks_rules_2_4_and_2_5() {
    // Why every design must differ from the standard board: Portugal borders
    // one land space, the Black Sea no sea (see docs/rulings.md#twilight).
    let map = Map::standard();
    let por = std_loc("por").province;
    let land = |p| matches!(map.terrain(p), Terrain::Inland | Terrain::Coastal);
    assert_eq!(
        map.army_neighbours(por).iter().filter(|&q| land(q)).count(),
        1
    );
    let bla = std_loc("bla");
    let seas = map
        .fleet_neighbours(bla)
        .iter()
        .filter(|&q| map.terrain(q) == Terrain::Sea)
        .count();
    assert_eq!(seas, 0);
}
