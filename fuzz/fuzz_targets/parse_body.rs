//! Any bytes, read as a mail body, must never panic the grammar; whatever parses
//! must print a canonical form that parses again; and the rule of blocks holds:
//! no line inside a block whose header is refused (or lost) is applied.
#![no_main]

use legate::grammar::testing::blocks_hold;
use legate::grammar::{Entry, entry_canonical, parse_body, parse_line};
use legate::map::Map;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let map = Map::standard();
    let body = parse_body(map, &text);
    for line in &body.lines {
        if let Entry::Orders(_) = &line.entry {
            if let Some(c) = entry_canonical(map, &line.entry) {
                let again = parse_line(map, &c, line.phase);
                assert!(
                    again.iter().all(|l| !matches!(l.entry, Entry::Error { .. })),
                    "canonical {c:?} of {:?} does not parse",
                    line.text
                );
            }
        }
    }
    if let Err(why) = blocks_hold(map, &text) {
        panic!("the rule of blocks fails: {why}");
    }
});
