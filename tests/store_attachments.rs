//! The board picture of a results mail: drawn once per distinct view, stored
//! once however many members it goes to.

use crate::engine_common;

use engine_common::*;
use legate::game::Request;

#[test]
fn one_board_picture_per_phase_is_stored_for_every_member() {
    let mut table = Table::started("pics", t("2026-02-02T10:00:00Z"));
    let a = table.as_master(vec![Request::Process]);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let results: Vec<_> = table
        .outbox()
        .into_iter()
        .filter(|m| m.subject.contains("S1901M results"))
        .collect();
    assert_eq!(results.len(), 8, "seven players and the master");
    for m in &results {
        let names: Vec<&str> = m.attachments.iter().map(|f| f.filename.as_str()).collect();
        assert_eq!(
            names,
            ["pics-S1901M.png", "pics-S1901M.svg"],
            "{}",
            m.recipients[0]
        );
        assert_eq!(
            m.attachments, results[0].attachments,
            "every member sees the same board"
        );
    }
    let conn = rusqlite::Connection::open(table.dir.path().join("legate.db")).expect("db");
    let files: i64 = conn
        .query_row("SELECT count(*) FROM attachment_files", [], |r| r.get(0))
        .expect("count");
    assert_eq!(files, 2, "one PNG and one SVG, not one per member");
    let stored: i64 = conn
        .query_row("SELECT sum(length(bytes)) FROM attachment_files", [], |r| {
            r.get(0)
        })
        .expect("bytes");
    let one_mail: usize = results[0].attachments.iter().map(|f| f.bytes.len()).sum();
    assert_eq!(stored as usize, one_mail);
}
