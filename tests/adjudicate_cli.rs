//! `legate adjudicate` as other programs use it: JSON on stdin, JSON on stdout.

use std::collections::BTreeSet;

use crate::adjudicate_support::run_adjudicate;

use serde_json::{Value, json};

/// Runs the binary; returns the exit code and stdout.
fn run(args: &[&str], input: &str) -> (i32, String) {
    run_adjudicate(args, input.as_bytes())
}

/// Adjudicates a document that must be accepted.
fn adjudicate(doc: &Value, args: &[&str]) -> Value {
    let (code, out) = run(args, &doc.to_string());
    assert_eq!(code, 0, "exit status for {doc}: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("output is not JSON ({e}): {out}"))
}

/// The strings of a list as a set (list order carries no meaning).
fn set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected a list, got {v}"))
        .iter()
        .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
        .collect()
}

fn strings(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The result word of the order written `order` by `power`.
fn result_of(out: &Value, power: &str, order: &str) -> String {
    let list = out["results"][power]
        .as_array()
        .unwrap_or_else(|| panic!("no results for {power}: {out}"));
    let item = list
        .iter()
        .find(|r| r["order"] == order)
        .unwrap_or_else(|| panic!("no result for {power} {order:?}: {out}"));
    item["result"]
        .as_str()
        .expect("result is a string")
        .to_string()
}

fn spring_1901() -> Value {
    let text = include_str!("../config/examples/spring1901.json");
    serde_json::from_str(text).expect("the example is JSON")
}

#[test]
fn spring_1901_opening() {
    let out = adjudicate(&spring_1901(), &[]);
    assert_eq!(out["phase"], "S1901M");
    assert_eq!(
        out["next_phase"], "F1901M",
        "no dislodgement: the retreat phase is skipped"
    );
    for (power, order, result) in [
        ("AUSTRIA", "A VIE - GAL", "bounce"),
        ("RUSSIA", "A WAR - GAL", "bounce"),
        ("RUSSIA", "F SEV - BLA", "bounce"),
        ("TURKEY", "F ANK - BLA", "bounce"),
        ("TURKEY", "A SMY - CON", "ok"),
        ("TURKEY", "A CON - BUL", "ok"),
        ("GERMANY", "A BER - KIE", "ok"),
        ("GERMANY", "F KIE - DEN", "ok"),
        ("RUSSIA", "F STP/SC - BOT", "ok"),
        ("FRANCE", "A MAR - SPA", "ok"),
        ("ITALY", "A VEN H", "ok"),
    ] {
        assert_eq!(result_of(&out, power, order), result, "{power} {order}");
    }
    let results: usize = out["results"]
        .as_object()
        .unwrap()
        .values()
        .map(|l| l.as_array().unwrap().len())
        .sum();
    assert_eq!(results, 22, "one result per order, no defaults: {out}");
    assert_eq!(
        set(&out["units"]["FRANCE"]),
        strings(&["F MAO", "A SPA", "A BUR"])
    );
    assert_eq!(
        set(&out["units"]["RUSSIA"]),
        strings(&["A UKR", "F SEV", "F BOT", "A WAR"])
    );
    assert_eq!(
        set(&out["units"]["AUSTRIA"]),
        strings(&["A SER", "A VIE", "F ALB"])
    );
    assert_eq!(
        set(&out["units"]["TURKEY"]),
        strings(&["F ANK", "A BUL", "A CON"])
    );
    assert_eq!(out["dislodged"], json!({}));
    assert_eq!(
        set(&out["supply_centers"]["RUSSIA"]),
        strings(&["MOS", "SEV", "STP", "WAR"])
    );
    assert_eq!(
        set(&out["supply_centers"]["FRANCE"]),
        strings(&["BRE", "MAR", "PAR"]),
        "centers change only after Fall"
    );
    assert!(out["supply_centers"].get("NEUTRAL").is_none());
}

#[test]
fn the_example_runs_under_every_edition() {
    for rules in ["2023", "2000", "1971"] {
        let out = adjudicate(&spring_1901(), &["--rules", rules]);
        assert_eq!(out["next_phase"], "F1901M", "{rules}");
    }
}

#[test]
fn bounce_and_void() {
    let doc = json!({
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A PIC"], "GERMANY": ["A MUN"]},
        "supply_centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]},
        "orders": {"FRANCE": ["A PAR - BUR", "A PIC - MUN"], "GERMANY": ["A MUN - BUR"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "FRANCE", "A PAR - BUR"), "bounce");
    assert_eq!(result_of(&out, "GERMANY", "A MUN - BUR"), "bounce");
    assert_eq!(
        result_of(&out, "FRANCE", "A PIC - MUN"),
        "void",
        "Picardy does not border Munich"
    );
    assert_eq!(set(&out["units"]["FRANCE"]), strings(&["A PAR", "A PIC"]));
    assert_eq!(set(&out["units"]["GERMANY"]), strings(&["A MUN"]));
    assert_eq!(out["next_phase"], "F1901M");
}

#[test]
fn unreadable_order_is_void_and_the_unit_holds() {
    let doc = json!({
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR"]},
        "orders": {"FRANCE": ["A PAR - XYZ"]}
    });
    let out = adjudicate(&doc, &[]);
    let list = out["results"]["FRANCE"].as_array().expect("results");
    assert_eq!(list[0]["order"], "A PAR - XYZ");
    assert_eq!(list[0]["result"], "void");
    assert!(
        list[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("XYZ")),
        "{out}"
    );
    assert!(
        list.iter().any(|r| r["default"] == true),
        "the unit's default hold is listed: {out}"
    );
    assert_eq!(set(&out["units"]["FRANCE"]), strings(&["A PAR"]));
}

#[test]
fn dislodgement_lists_retreats() {
    let doc = json!({
        "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
        "supply_centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
        "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A BUR H", "A MUN H"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "FRANCE", "A PAR - BUR"), "ok");
    assert_eq!(result_of(&out, "GERMANY", "A BUR H"), "dislodged");
    assert_eq!(out["next_phase"], "S1901R");
    let dislodged = out["dislodged"]["GERMANY"]
        .as_array()
        .expect("German unit dislodged");
    assert_eq!(dislodged.len(), 1);
    assert_eq!(dislodged[0]["unit"], "A BUR");
    assert_eq!(dislodged[0]["attacker_from"], "PAR");
    assert_eq!(dislodged[0]["via_convoy"], false);
    // Not Paris (the attacker's origin), Marseilles or Munich (occupied), Switzerland.
    assert_eq!(
        set(&dislodged[0]["retreats"]),
        strings(&["BEL", "GAS", "PIC", "RUH"])
    );
    assert_eq!(set(&out["units"]["FRANCE"]), strings(&["A BUR", "A MAR"]));
    assert_eq!(set(&out["units"]["GERMANY"]), strings(&["A MUN"]));
}

/// DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's origin
/// under the 2023 rules, not under the 2000 or 1971 rules.
#[test]
fn retreat_to_a_convoyed_attackers_origin_depends_on_the_edition() {
    let doc = json!({
        "phase": "S1901M",
        "units": {"ENGLAND": ["A BEL"], "GERMANY": ["A HOL", "F NTH", "A RUH"]},
        "orders": {
            "ENGLAND": ["A BEL H"],
            "GERMANY": ["A HOL - BEL VIA CONVOY", "F NTH C A HOL - BEL", "A RUH S A HOL - BEL"]
        }
    });
    let convoyed = adjudicate(&doc, &["--rules", "2023"]);
    let d = &convoyed["dislodged"]["ENGLAND"][0];
    assert_eq!(d["attacker_from"], "HOL", "{convoyed}");
    assert_eq!(d["via_convoy"], true, "{convoyed}");
    assert_eq!(set(&d["retreats"]), strings(&["BUR", "HOL", "PIC"]));
    for rules in ["2000", "1971"] {
        let out = adjudicate(&doc, &["--rules", rules]);
        let d = &out["dislodged"]["ENGLAND"][0];
        assert_eq!(d["attacker_from"], "HOL", "{rules}: {out}");
        assert_eq!(set(&d["retreats"]), strings(&["BUR", "PIC"]), "{rules}");
        assert_eq!(out["next_phase"], "S1901R", "{rules}");
    }
}

#[test]
fn retreat_phase() {
    let doc = json!({
        "phase": "S1901R",
        "units": {"FRANCE": ["A BUR", "A MAR"], "GERMANY": ["A MUN"], "AUSTRIA": ["A BOH"]},
        "supply_centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
        "dislodged": {
            "GERMANY": [{"unit": "A RUH", "attacker_from": "BUR"}],
            "ITALY": [{"unit": "A TYR", "attacker_from": "BOH"}]
        },
        "contested": ["PIC"],
        "orders": {"GERMANY": ["A RUH - HOL"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "GERMANY", "A RUH - HOL"), "ok");
    let italy = out["results"]["ITALY"]
        .as_array()
        .expect("the unordered retreat is reported");
    assert_eq!(italy.len(), 1);
    assert_eq!(italy[0]["result"], "disband");
    assert_eq!(italy[0]["default"], true);
    assert_eq!(set(&out["units"]["GERMANY"]), strings(&["A MUN", "A HOL"]));
    assert!(out["units"].get("ITALY").is_none(), "{out}");
    assert_eq!(out["dislodged"], json!({}));
    assert_eq!(out["next_phase"], "F1901M");
}

#[test]
fn retreat_into_a_standoff_province_fails() {
    let doc = json!({
        "phase": "S1901R",
        "units": {"FRANCE": ["A BUR"]},
        "dislodged": {"GERMANY": [{"unit": "A RUH", "attacker_from": "BUR"}]},
        "contested": ["HOL"],
        "orders": {"GERMANY": ["A RUH - HOL"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_ne!(result_of(&out, "GERMANY", "A RUH - HOL"), "ok");
    assert!(out["units"].get("GERMANY").is_none(), "{out}");
}

#[test]
fn adjustment_with_builds_and_civil_disorder() {
    let doc = json!({
        "phase": "W1901A",
        "units": {"FRANCE": ["A BUR", "F MAO", "A SPA"], "GERMANY": ["A BER", "A MUN", "F KIE", "F NAO"]},
        "supply_centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR"], "GERMANY": ["BER", "MUN", "KIE"]},
        "orders": {"FRANCE": ["BUILD A PAR", "BUILD F MAR"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "FRANCE", "BUILD A PAR"), "ok");
    assert_eq!(result_of(&out, "FRANCE", "BUILD F MAR"), "ok");
    assert_eq!(
        set(&out["units"]["FRANCE"]),
        strings(&["A BUR", "F MAO", "A SPA", "A PAR", "F MAR"])
    );
    // Germany has four units and three centers and ordered nothing: the unit
    // farthest from its centers goes.
    let germany = out["results"]["GERMANY"]
        .as_array()
        .expect("the removal is reported");
    assert_eq!(germany.len(), 1, "{out}");
    assert_eq!(germany[0]["result"], "disband");
    assert_eq!(germany[0]["default"], true);
    assert_eq!(
        set(&out["units"]["GERMANY"]),
        strings(&["A BER", "A MUN", "F KIE"])
    );
    assert_eq!(out["next_phase"], "S1902M");
}

#[test]
fn phases_where_nothing_can_happen_are_skipped() {
    // Bohemia is dislodged with every retreat blocked: no retreat phase.
    let doc = json!({
        "phase": "S1901M",
        "units": {"GERMANY": ["A MUN", "A SIL"], "AUSTRIA": ["A BOH", "A VIE"], "RUSSIA": ["A GAL"], "ITALY": ["A TYR"]},
        "supply_centers": {"GERMANY": ["MUN"], "AUSTRIA": ["VIE"]},
        "orders": {"GERMANY": ["A MUN - BOH", "A SIL S A MUN - BOH"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "GERMANY", "A MUN - BOH"), "ok");
    assert_eq!(out["next_phase"], "F1901M");
    let dislodged = out["dislodged"]["AUSTRIA"]
        .as_array()
        .expect("the dislodgement is still reported");
    assert_eq!(dislodged[0]["unit"], "A BOH");
    assert_eq!(dislodged[0]["retreats"], json!([]));
    assert_eq!(set(&out["units"]["AUSTRIA"]), strings(&["A VIE"]));

    // Fall with nothing to build or remove: no adjustment phase.
    let doc = json!({
        "phase": "F1901M",
        "units": {"FRANCE": ["A PAR"]},
        "supply_centers": {"FRANCE": ["PAR"]},
        "orders": {"FRANCE": ["A PAR H"]}
    });
    assert_eq!(adjudicate(&doc, &[])["next_phase"], "S1902M");

    // Fall where France takes a center: the adjustment phase is played.
    let doc = json!({
        "phase": "F1901M",
        "units": {"FRANCE": ["A PAR", "A GAS"]},
        "supply_centers": {"FRANCE": ["PAR", "MAR"]},
        "orders": {"FRANCE": ["A GAS - SPA"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(out["next_phase"], "W1901A");
    assert_eq!(
        set(&out["supply_centers"]["FRANCE"]),
        strings(&["PAR", "MAR", "SPA"])
    );
}

#[test]
fn batch_mode_answers_line_by_line() {
    let first = spring_1901().to_string();
    let second = json!({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}})
        .to_string();
    let input = format!("{first}\n\n{second}\n");
    let (code, out) = run(&["--batch"], &input);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(
        lines.len(),
        2,
        "one line per position, blank lines skipped: {out}"
    );
    assert_eq!(lines[0]["phase"], "S1901M");
    assert_eq!(set(&lines[1]["units"]["FRANCE"]), strings(&["A BUR"]));

    let bad = r#"{"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}"#;
    let (code, out) = run(
        &["--batch", "--rules", "1971"],
        &format!("{second}\n{bad}\nnot json\n{second}\n"),
    );
    assert_eq!(code, 2, "a malformed line makes the exit status 2");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(lines[1]["line"], 2);
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("units.FRANCE[0]: unknown province \"XYZ\"")
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("document: not valid JSON")
    );
    assert_eq!(
        set(&lines[3]["units"]["FRANCE"]),
        strings(&["A BUR"]),
        "work goes on after an error"
    );
}

#[test]
fn malformed_documents_exit_2_with_one_line_naming_the_field() {
    let cases = [
        ("", "document: not valid JSON"),
        ("{\"phase\": ", "document: not valid JSON"),
        ("[]", "document: expected a JSON object"),
        (r#"{"units": {}}"#, "phase: missing"),
        (r#"{"phase": "X1901M", "units": {}}"#, "phase: not a phase"),
        (r#"{"phase": "S1901M"}"#, "units: missing"),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A XYZ"]}}"#,
            "units.FRANCE[1]: unknown province \"XYZ\"",
        ),
        (
            r#"{"phase": "S1901M", "units": {"ATLANTIS": ["A PAR"]}}"#,
            "units.ATLANTIS: unknown power",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["F MUN"]}}"#,
            "units.FRANCE[0]: F MUN: no fleet",
        ),
        (
            r#"{"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A PAR"]}}"#,
            "units.ITALY[0]: PAR is already occupied",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "supply_centers": {"FRANCE": ["GAS"]}}"#,
            "supply_centers.FRANCE[0]: \"GAS\" is not a supply center",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "orders": {"FRANCE": [42]}}"#,
            "orders.FRANCE[0]: expected a string",
        ),
        (
            r#"{"phase": "S1901R", "units": {}, "dislodged": {"GERMANY": [{"attacker_from": "BUR"}]}}"#,
            "dislodged.GERMANY[0].unit: missing",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "colour": "red"}"#,
            "colour: unknown field",
        ),
        (
            r#"{"phase": "S1901M", "units": {}, "variant": "youngstown"}"#,
            "variant: unknown variant",
        ),
    ];
    for (input, expected) in cases {
        let (code, out) = run(&[], input);
        assert_eq!(code, 2, "{input:?} gave {out}");
        assert_eq!(out.lines().count(), 1, "one line for {input:?}: {out:?}");
        let doc: Value = serde_json::from_str(&out).expect("the error is JSON");
        let error = doc["error"].as_str().expect("an error string");
        assert!(
            error.starts_with(expected),
            "{input:?}: {error:?} should start with {expected:?}"
        );
        assert_eq!(
            doc.as_object().map(|o| o.len()),
            Some(1),
            "only the error field"
        );
    }
}

#[test]
fn unknown_rules_edition_is_refused() {
    let (code, out) = run(&["--rules", "1999"], &spring_1901().to_string());
    assert_eq!(code, 2);
    assert!(out.is_empty(), "nothing adjudicated: {out}");
}

#[test]
fn convoys() {
    let doc = json!({
        "phase": "S1901M",
        "units": {"ENGLAND": ["A LON", "F NTH"]},
        "orders": {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL"]}
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "ENGLAND", "A LON - BEL"), "ok");
    assert_eq!(result_of(&out, "ENGLAND", "F NTH C A LON - BEL"), "ok");
    assert_eq!(set(&out["units"]["ENGLAND"]), strings(&["A BEL", "F NTH"]));

    // A fleet that could have convoyed but was not ordered to.
    let doc = json!({
        "phase": "S1901M",
        "units": {"ENGLAND": ["A LON", "F ENG"]},
        "orders": {"ENGLAND": ["A LON - BEL"]}
    });
    assert_eq!(
        result_of(&adjudicate(&doc, &[]), "ENGLAND", "A LON - BEL"),
        "no convoy"
    );

    // The convoy's army attacks the support that would dislodge the convoying
    // fleet: a paradox, resolved so that the convoy fails and the fleet is dislodged.
    let doc = json!({
        "phase": "S1901M",
        "units": {"ENGLAND": ["A LON", "F ENG"], "FRANCE": ["F BEL", "F MAO"]},
        "orders": {
            "ENGLAND": ["A LON - BEL", "F ENG C A LON - BEL"],
            "FRANCE": ["F MAO - ENG", "F BEL S F MAO - ENG"]
        }
    });
    let out = adjudicate(&doc, &[]);
    assert_eq!(result_of(&out, "ENGLAND", "A LON - BEL"), "disrupted");
    assert_eq!(
        result_of(&out, "ENGLAND", "F ENG C A LON - BEL"),
        "disrupted, dislodged"
    );
    assert_eq!(result_of(&out, "FRANCE", "F MAO - ENG"), "ok");
}

#[test]
fn civil_disorder_follows_the_edition() {
    // Germany holds only foreign centers. 2023 measures from owned centers
    // (Munich is two away from Belgium and Holland); 2000 and 1971 from home
    // centers (Belgium is two away from Kiel).
    let doc = json!({
        "phase": "W1901A",
        "units": {"GERMANY": ["A MUN", "A BEL", "F DEN", "F BAL"]},
        "supply_centers": {"GERMANY": ["HOL", "BEL", "DEN"]}
    });
    for (rules, removed) in [("2023", "A MUN"), ("2000", "A BEL"), ("1971", "A BEL")] {
        let out = adjudicate(&doc, &["--rules", rules]);
        let germany = out["results"]["GERMANY"].as_array().expect("a removal");
        assert_eq!(germany.len(), 1, "{rules}: {out}");
        assert_eq!(germany[0]["order"], format!("REMOVE {removed}"), "{rules}");
        assert_eq!(germany[0]["result"], "disband");
        let mut left = strings(&["A MUN", "A BEL", "F DEN", "F BAL"]);
        left.remove(removed);
        assert_eq!(set(&out["units"]["GERMANY"]), left, "{rules}");
    }
}
