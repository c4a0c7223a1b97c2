//! Test group `pure`: The pure core: the DATC, the judge, the grammar, the map, the variants' rules, reports and the JSON interface. No database, no mail servers.
//! `tests/groups/README.md` says how the test files are grouped into binaries
//! and why.

// Helpers shared by the files of the group, compiled once.
#[path = "../adjudicate_support/mod.rs"]
mod adjudicate_support;
#[path = "../datc_support/mod.rs"]
mod datc_support;

mod layout;

// The test files.
#[path = "../adjudicate_cli.rs"]
mod adjudicate_cli;
#[path = "../adjudicate_json.rs"]
mod adjudicate_json;
#[path = "../agora.rs"]
mod agora;
#[path = "../clock.rs"]
mod clock;
#[path = "../datc.rs"]
mod datc;
#[path = "../grammar_examples.rs"]
mod grammar_examples;
#[path = "../grammar_props.rs"]
mod grammar_props;
#[path = "../gtd.rs"]
mod gtd;
#[path = "../judge_props.rs"]
mod judge_props;
#[path = "../judge_regressions.rs"]
mod judge_regressions;
#[path = "../lots.rs"]
mod lots;
#[path = "../mail_ingest.rs"]
mod mail_ingest;
#[path = "../map.rs"]
mod map;
#[path = "../masters.rs"]
mod masters;
#[path = "../report_layout.rs"]
mod report_layout;
#[path = "../report_snapshots.rs"]
mod report_snapshots;
#[path = "../twilight_map.rs"]
mod twilight_map;
