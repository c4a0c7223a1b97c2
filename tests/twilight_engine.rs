//! Twilight Zone through the engine, by mail text into a real SQLite judge:
//! maps submitted and checked, the start held for them, the placement of
//! rule 3, orders naming maps (rule 4), the results with the map used and the
//! years BC, and no mail disclosing a map (rule 4.3).

use crate::engine_common;

use engine_common::*;
use legate::game::model::Status;
use legate::store::OutboxMail;

const NORTH_CHANNEL: &str = include_str!("../config/twilight/north-channel.txt");
const BALTIC_GATE: &str = include_str!("../config/twilight/baltic-gate.txt");
const IONIAN_BRIDGE: &str = include_str!("../config/twilight/ionian-bridge.txt");

/// The design from its `MAP` line on (the files open with a comment).
fn design(text: &str) -> String {
    let at = text.find("MAP\n").expect("MAP line");
    text[at..].to_string()
}

/// The design with two provinces' names exchanged everywhere (a sea for a sea).
fn swap(text: &str, a: &str, b: &str) -> String {
    design(text)
        .lines()
        .map(|line| {
            line.split(' ')
                .map(|w| {
                    let (word, colon) = match w.strip_suffix(':') {
                        Some(x) => (x, ":"),
                        None => (w, ""),
                    };
                    let word = if word == a {
                        b
                    } else if word == b {
                        a
                    } else {
                        word
                    };
                    format!("{word}{colon}")
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The design with one more pair of coastal provinces joined by land only.
fn land_only(text: &str, pair: &str) -> String {
    design(text).replace("LAND ONLY\n", &format!("LAND ONLY\n{pair}\n"))
}

/// Each power's map: England's has the Mid-Atlantic where the North Atlantic
/// was (Edinburgh borders it), Turkey's has it where the Black Sea was
/// (Constantinople borders it), France's has Brest - Picardy by land only,
/// Italy's joins Trieste to Serbia and Rome to Venice.
fn maps() -> Vec<(&'static str, String)> {
    vec![
        ("Austria", design(BALTIC_GATE)),
        ("England", swap(NORTH_CHANNEL, "nao", "mao")),
        ("France", land_only(NORTH_CHANNEL, "bre - pic")),
        ("Germany", design(NORTH_CHANNEL)),
        ("Italy", design(IONIAN_BRIDGE)),
        ("Russia", land_only(NORTH_CHANNEL, "bre - gas")),
        ("Turkey", swap(NORTH_CHANNEL, "bla", "mao")),
    ]
}

fn create(name: &str) -> Table {
    Table::created_by_mail(name, "twilight")
}

/// Joins `power`'s player (asking for that power) and sends their map.
fn join_with_map(table: &mut Table, power: &str, map: &str) -> legate::game::Applied {
    let addr = address(power);
    table.players.insert(power.to_string(), addr.clone());
    let body = format!(
        "SIGNON ?{} {}\nSET PREFERENCE {}\n{map}",
        table.game,
        password(&addr),
        &power[..1]
    );
    table.mail(&addr, &body)
}

/// A started game: every player joined with their map.
fn started(name: &str) -> Table {
    let mut table = create(name);
    for (power, map) in maps() {
        let a = join_with_map(&mut table, power, &map);
        assert_eq!(a.errors, 0, "{power}: {}", a.reply_body);
    }
    assert_eq!(table.state().status, Status::Active);
    table
}

/// Signs on as `power` and sends the lines.
fn orders(table: &mut Table, power: &str, lines: &str) -> legate::game::Applied {
    let addr = table.players[power].clone();
    let body = format!(
        "SIGNON {}{} {}\n{lines}",
        &power[..1],
        table.game,
        password(&addr)
    );
    table.mail(&addr, &body)
}

fn process(table: &mut Table) {
    table.process_by_master();
}

/// The usual placement: England and Turkey with fleets where the scenarios need them.
fn place_all(table: &mut Table) {
    let placement = [
        ("Austria", "BUILD A Vie\nBUILD A Bud\nBUILD A Tri\n"),
        ("England", "BUILD F Edi\nBUILD F Lon\nBUILD A Lvp\n"),
        ("France", "BUILD F Bre\nBUILD A Par\nBUILD F Mar\n"),
        ("Germany", "BUILD A Mun\nBUILD F Kie\nBUILD A Ber\n"),
        ("Italy", "BUILD A Rom\nBUILD A Ven\nBUILD F Nap\n"),
        ("Turkey", "BUILD F Con\nBUILD F Ank\nBUILD A Smy\n"),
    ];
    for (power, lines) in placement {
        let a = orders(table, power, lines);
        assert_eq!(a.errors, 0, "{power}: {}", a.reply_body);
    }
    // Russia places nothing: its centres get armies (rulings).
    process(table);
    assert_eq!(table.phase().to_string(), "S1901M");
}

fn unit_at(table: &mut Table, at: &str) -> Option<(String, String)> {
    let state = table.state();
    state
        .position
        .expect("board")
        .units
        .iter()
        .find(|u| u.at.eq_ignore_ascii_case(at))
        .map(|u| (u.power.clone(), u.kind.clone()))
}

/// A unit as `unit_at` gives it: its power and kind.
fn unit(power: &str, kind: &str) -> Option<(String, String)> {
    Some((power.to_string(), kind.to_string()))
}

/// The results mail of the phase just played, to `to`.
fn results_to(table: &mut Table, to: &str, phase: &str) -> String {
    table
        .mails_to(to, &format!("{phase} results"))
        .pop()
        .map(|m| m.body)
        .unwrap_or_else(|| panic!("no {phase} results to {to}"))
}

/// Rule 4.3: no mail shows anything of a map but to its designer: no line
/// that only one design has reaches anyone else, no mail lists where a unit
/// may go, and map pictures go to their designer alone.
fn assert_no_leak(table: &mut Table, designs: &[(&str, String)]) {
    let unique = |mine: &str| -> Vec<String> {
        mine.lines()
            .filter(|l| l.len() > 4)
            .filter(|l| {
                designs
                    .iter()
                    .filter(|(_, d)| d.lines().any(|x| x == *l))
                    .count()
                    == 1
            })
            .map(str::to_string)
            .collect()
    };
    for m in table.outbox() {
        let text = format!("{}\n{}", m.subject, m.body);
        for w in [
            "can retreat to",
            "is not next to",
            "cannot reach",
            "not adjacent",
        ] {
            assert!(
                !text.contains(w),
                "mail to {:?} says {w:?}:\n{text}",
                m.recipients
            );
        }
        for (power, design) in designs {
            if m.recipients.iter().any(|r| *r == address(power)) {
                continue;
            }
            for line in unique(design) {
                assert!(
                    !text.contains(&line),
                    "mail to {:?} holds {line:?} of {power}'s map:\n{text}",
                    m.recipients
                );
            }
        }
        for a in &m.attachments {
            if a.filename.contains("-map.") {
                assert_eq!(m.recipients.len(), 1, "a map picture goes to one reader");
                assert!(picture_is_senders_own(&m), "{:?}", m.recipients);
            }
        }
    }
}

fn picture_is_senders_own(m: &OutboxMail) -> bool {
    m.subject.ends_with("your Twilight Zone map") && m.body.contains("Only you receive it")
}

// ----- map submission -----

#[test]
fn a_map_is_checked_against_every_rule_and_answered_with_where() {
    let mut table = create("tzmaps");
    // Sevastopol left out and a row cut short: rules 2.1 and 2.7, with where.
    let broken = design(NORTH_CHANNEL)
        .replace("arm sev\n", "arm\n")
        .replace(" sev sev sev sev\n", " bla bla bla bla\n");
    let a = one_error(
        join_with_map(&mut table, "France", &broken),
        "the map is refused",
    );
    assert_says(&a.reply_body, &["rule 2.7", "line"]);
    // Nothing stored, no picture.
    let state = table.state();
    assert!(state.twilight.as_ref().is_none_or(|t| t.designs.is_empty()));

    // Accepted: the reply says so, the picture goes to the player alone.
    let body = format!(
        "SIGNON ?tzmaps {}\n{}",
        password(&address("France")),
        design(NORTH_CHANNEL)
    );
    let a = no_errors(table.mail(&address("France"), &body));
    assert!(a.reply_body.contains("Map accepted"), "{}", a.reply_body);
    let pictures: Vec<OutboxMail> = table
        .outbox()
        .into_iter()
        .filter(|m| m.attachments.iter().any(|f| f.filename.contains("-map.")))
        .collect();
    assert_eq!(pictures.len(), 1);
    assert_eq!(pictures[0].recipients, [address("France")]);
    let kinds: Vec<&str> = pictures[0]
        .attachments
        .iter()
        .map(|f| f.content_type.as_str())
        .collect();
    assert!(kinds.contains(&"image/svg+xml"), "{kinds:?}");

    // Another player's copy of it is refused (rule 2), without saying whose.
    let a = one_error(
        join_with_map(&mut table, "Germany", &design(NORTH_CHANNEL)),
        "rule 2",
    );
    assert!(!a.reply_body.contains("France"), "{}", a.reply_body);
    let body = format!(
        "SIGNON ?tzmaps {}\n{}",
        password(&address("Germany")),
        design(BALTIC_GATE)
    );
    no_errors(table.mail(&address("Germany"), &body));

    // A new map replaces the player's earlier one; the old one is free again.
    let body = format!(
        "SIGNON ?tzmaps {}\n{}",
        password(&address("France")),
        design(IONIAN_BRIDGE)
    );
    no_errors(table.mail(&address("France"), &body));
    let designs = table.state().twilight.expect("twilight").designs;
    assert_eq!(designs.len(), 2);
    let france = designs
        .iter()
        .find(|d| d.address == address("France"))
        .unwrap();
    assert!(france.text.contains("ven tri tri ser"), "{}", france.text);

    // Someone who has not joined may not send a map.
    let a = table.mail("stranger@x.test", &design(NORTH_CHANNEL));
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert_no_leak(
        &mut table,
        &[
            ("France", design(NORTH_CHANNEL)),
            ("France", design(IONIAN_BRIDGE)),
            ("Germany", design(BALTIC_GATE)),
        ],
    );
}

#[test]
fn the_game_waits_for_every_map_then_starts_with_the_placement() {
    let mut table = create("tzwait");
    let all = maps();
    for (power, map) in &all[..6] {
        let a = join_with_map(&mut table, power, map);
        assert_eq!(a.errors, 0, "{power}: {}", a.reply_body);
    }
    // The seventh joins without a map: the game is full but waits.
    let addr = address("Turkey");
    table.players.insert("Turkey".into(), addr.clone());
    no_errors(table.mail(
        &addr,
        &format!("SIGNON ?tzwait {}\nSET PREFERENCE T\n", password(&addr)),
    ));
    assert_eq!(table.state().status, Status::Forming);
    assert!(
        table
            .outbox()
            .iter()
            .any(|m| m.subject.contains("Waiting for maps"))
    );
    // Its map, in a later mail: the game starts, in the placement phase.
    no_errors(table.mail(
        &addr,
        &format!("SIGNON ?tzwait {}\n{}", password(&addr), all[6].1),
    ));
    let state = table.state();
    assert_eq!(state.status, Status::Active);
    assert_eq!(table.phase().to_string(), "W1900A");
    assert_eq!(
        table.state().player_of("Turkey").map(|m| m.address.clone()),
        Some(addr)
    );
    // Maps follow their designers to the powers they were given.
    let tz = table.state().twilight.expect("twilight");
    let turkey = tz.maps.iter().find(|(p, _)| p == "Turkey").unwrap();
    assert!(
        turkey
            .1
            .as_deref()
            .is_some_and(|t| t.contains("bla bla spa mar")),
        "{turkey:?}"
    );
    assert_no_leak(&mut table, &maps());
}

#[test]
fn the_master_may_start_without_maps_and_the_standard_borders_stand_in() {
    let mut table = create("tzforce");
    no_errors(join_with_map(&mut table, "France", &design(NORTH_CHANNEL)));
    let addr = address("Germany");
    table.players.insert("Germany".into(), addr.clone());
    table.mail(
        &addr,
        &format!("SIGNON ?tzforce {}\nSET PREFERENCE G\n", password(&addr)),
    );
    no_errors(table.master_mail("FORCE BEGIN\n"));
    assert_eq!(table.state().status, Status::Active);
    let tz = table.state().twilight.expect("twilight");
    assert_eq!(
        tz.maps
            .iter()
            .find(|(p, _)| p == "Germany")
            .map(|m| m.1.is_none()),
        Some(true)
    );
    // Germany's own map is then the standard one: Kiel - Holland is a border.
    orders(
        &mut table,
        "Germany",
        "BUILD F Kie\nBUILD A Ber\nBUILD A Mun\n",
    );
    orders(
        &mut table,
        "France",
        "BUILD F Bre\nBUILD A Par\nBUILD F Mar\n",
    );
    process(&mut table);
    let a = no_errors(orders(&mut table, "Germany", "F Kie - Hol\n"));
    assert!(a.reply_body.contains("(German Map)"), "{}", a.reply_body);
}

// ----- play -----

#[test]
fn placement_then_moves_on_other_maps_supports_across_maps_and_a_standoff() {
    let mut table = started("tzplay");
    assert_eq!(table.phase().to_string(), "W1900A");
    // Rule 3: fleets only on coasts.
    let a = orders(&mut table, "Germany", "BUILD F Mun\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    place_all(&mut table);
    assert_eq!(unit_at(&mut table, "con"), unit("Turkey", "F"));
    assert_eq!(unit_at(&mut table, "edi"), unit("England", "F"));
    // Russia placed nothing: armies.
    assert_eq!(unit_at(&mut table, "mos"), unit("Russia", "A"));
    assert_eq!(unit_at(&mut table, "war"), unit("Russia", "A"));
    assert_eq!(unit_at(&mut table, "sev"), None);
    let placement = results_to(&mut table, &address("France"), "W1900A");
    assert!(placement.contains("Spring of 1901 BC"), "{placement}");

    // Brest - Picardy is land only on France's own map: refused, in those words only.
    one_error(
        orders(&mut table, "France", "F Bre - Pic\n"),
        "not possible on the French map",
    );
    // On Germany's map it is a coastline: of two lines for the fleet in one
    // mail, each is checked on the map it names.
    let a = one_error(
        orders(
            &mut table,
            "France",
            "F Bre - Pic\nF Bre - Pic (German Map)\nA Par S F Bre - Pic\nF Mar H\n",
        ),
        "F BRE - PIC (German Map)",
    );
    // The orders in force, each with its map.
    let summary = a
        .reply_body
        .split("Current orders")
        .nth(1)
        .expect("summary");
    assert_says(
        summary,
        &[
            "F BRE - PIC (German Map)",
            "A PAR S F BRE - PIC (French Map)",
        ],
    );

    // Trieste - Serbia exists on Italy's map only; the supported move uses Austria's.
    one_error(
        orders(&mut table, "Austria", "A Tri S A Bud - Ser\n"),
        "not possible on the Austrian map",
    );
    no_errors(orders(
        &mut table,
        "Austria",
        "A Tri S A Bud - Ser (Italian Map)\nA Bud - Ser\nA Vie H\n",
    ));

    // Rule 4.4: Constantinople and Edinburgh both reach the Mid-Atlantic, each
    // on its own player's map only: a stand-off.
    one_error(
        orders(&mut table, "Turkey", "F Con - MAO (English Map)\n"),
        "not possible on the English map",
    );
    no_errors(orders(
        &mut table,
        "Turkey",
        "F Con - MAO (Turkish Map)\nF Ank H\nA Smy H\n",
    ));
    let a = no_errors(orders(
        &mut table,
        "England",
        "F Edi - MAO\nF Lon - Eng\nA Lvp H\n",
    ));
    assert!(
        a.reply_body.contains("F EDI - MAO (English Map)"),
        "{}",
        a.reply_body
    );
    // Italy moves Rome to Venice's seat on its own map: legal there only.
    no_errors(orders(&mut table, "Germany", "A Mun H\nF Kie H\nA Ber H\n"));
    no_errors(orders(
        &mut table,
        "Italy",
        "A Ven - Tyr\nA Rom - Ven\nF Nap H\n",
    ));
    no_errors(orders(&mut table, "Russia", "A Mos H\nA War H\nA Stp H\n"));
    // Every order is in: the phase is processed at once.
    assert_eq!(table.phase().to_string(), "F1901M");

    assert_eq!(unit_at(&mut table, "pic"), unit("France", "F"));
    assert_eq!(unit_at(&mut table, "ser"), unit("Austria", "A"));
    assert_eq!(unit_at(&mut table, "ven"), unit("Italy", "A"));
    // The stand-off: both fleets stay home.
    assert_eq!(unit_at(&mut table, "con"), unit("Turkey", "F"));
    assert_eq!(unit_at(&mut table, "edi"), unit("England", "F"));
    assert_eq!(unit_at(&mut table, "mao"), None);

    // Rule 4.2: every order printed with its map; rule 5: the years BC.
    let report = results_to(&mut table, &address("Russia"), "S1901M");
    assert_says(
        &report,
        &[
            "Spring of 1901 BC",
            "Fall of 1901 BC",
            "Fleet Constantinople -> Mid-Atlantic Ocean (Turkish Map)",
            "Fleet Edinburgh -> Mid-Atlantic Ocean (English Map)",
            "Brest -> Picardy (German Map)",
            "(Italian Map)",
            "Rome -> Venice (Italian Map)",
            "bounce",
        ],
    );
    // The failed orders' reasons name the map as well.
    let why = &report[report.find("What happened").expect("a why section")..];
    assert!(
        why.contains("Fleet Constantinople -> Mid-Atlantic Ocean (Turkish Map) bounced"),
        "{why}"
    );
    assert!(!why.contains("Mid-Atlantic Ocean bounced"), "{why}");
    assert_no_leak(&mut table, &maps());
}

#[test]
fn a_dislodged_fleet_retreats_on_a_named_map() {
    let mut table = started("tzretreat");
    place_all(&mut table);
    // Spring: Turkey takes the Mid-Atlantic from Constantinople on its own map.
    orders(
        &mut table,
        "Turkey",
        "F Con - MAO (Turkish Map)\nF Ank H\nA Smy H\n",
    );
    orders(&mut table, "England", "F Edi H\nF Lon - Eng\nA Lvp H\n");
    // Orders kept for a later phase may not name a map: refused, not dropped.
    one_error(
        orders(
            &mut table,
            "England",
            "PHASE F1901M\nF Edi - MAO (English Map)\n",
        ),
        "cannot name a map",
    );
    assert!(table.state().future_orders.is_empty());
    process(&mut table);
    assert_eq!(unit_at(&mut table, "mao"), unit("Turkey", "F"));
    // Fall: England comes in from Edinburgh with the Channel's support.
    no_errors(orders(
        &mut table,
        "England",
        "F Edi - MAO (English Map)\nF Eng S F Edi - MAO (English Map)\nA Lvp H\n",
    ));
    orders(&mut table, "Turkey", "F MAO H\nF Ank H\nA Smy H\n");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "F1901R");
    assert_eq!(unit_at(&mut table, "mao"), unit("England", "F"));
    let report = results_to(&mut table, &address("Turkey"), "F1901M");
    assert!(report.contains("dislodged"), "{report}");
    assert!(!report.contains("can retreat to"), "{report}");

    // Portugal is not on the Mid-Atlantic's coast on Turkey's map, but is on France's.
    one_error(
        orders(&mut table, "Turkey", "F MAO - Por\n"),
        "not possible on the Turkish map",
    );
    no_errors(orders(&mut table, "Turkey", "F MAO - Por (French Map)\n"));
    // The only retreat is ordered: processed at once.
    assert_eq!(unit_at(&mut table, "por"), unit("Turkey", "F"));
    let report = results_to(&mut table, &address("England"), "F1901R");
    assert_says(&report, &["Portugal (French Map)", "1901 BC"]);
    // HISTORY replays each phase with the maps its orders named.
    let a = no_errors(orders(&mut table, "Russia", "HISTORY tzretreat\n"));
    let history = a.reply_body;
    assert_says(
        &history,
        &[
            "Constantinople -> Mid-Atlantic Ocean (Turkish Map)",
            "Portugal (French Map)",
        ],
    );
    assert!(!history.contains("can retreat to"), "{history}");
    // The years count down: after the Winter of 1901 BC comes Spring 1900 BC.
    assert_eq!(table.phase().to_string(), "W1901A");
    process(&mut table);
    assert_eq!(table.phase().to_string(), "S1902M");
    let winter = results_to(&mut table, &address("France"), "W1901A");
    assert_says(&winter, &["Winter of 1901 BC", "Spring of 1900 BC"]);
    assert_no_leak(&mut table, &maps());
}

#[test]
fn seventeen_centres_win() {
    let map = legate::variant::twilight::base();
    assert_eq!(map.supply_centers().len(), 33);
    assert_eq!(legate::game::process::victory_count(map), 17);
    assert_eq!(legate::game::variants::twilight::VICTORY, 17);
}
