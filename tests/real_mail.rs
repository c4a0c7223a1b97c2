//! Mail as players' clients really write it, through the judge's real intake
//! path (a Maildir inbox, a SQLite file, `run_once`, a Maildir outbox): what
//! the player meant is what the judge reads.

mod hardening_common;

use chrono::Duration;
use hardening_common::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mail")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn to(judge: &Judge, addr: &str) -> Vec<Sent> {
    judge
        .sent()
        .into_iter()
        .filter(|s| s.to == vec![addr.to_string()])
        .collect()
}

#[test]
fn html_only_orders_from_every_common_client_are_applied() {
    let france = POWERS[2].1;
    for name in [
        "html-gmail.eml",
        "html-apple-mail.eml",
        "html-outlook.eml",
        "html-thunderbird.eml",
        "html-nested-divs.eml",
        "html-table.eml",
    ] {
        let mut judge = Judge::new("");
        let now = t("2027-03-01T09:00:00Z");
        started_game(&mut judge, "html", now);
        judge.drop_bytes(&fixture(name));
        let report = judge.once(now + Duration::minutes(20));
        assert_eq!(report.intake.applied, 1, "{name}: {report:?}");
        let reply = to(&judge, france)
            .into_iter()
            .find(|s| s.text.contains("Signed on as France"))
            .unwrap_or_else(|| panic!("{name}: answered"));
        for accepted in ["A PAR - BUR", "F BRE - MAO", "A MAR - SPA"] {
            assert!(
                reply.text.contains(&format!("Accepted: {accepted}")),
                "{name}:\n{}",
                reply.text
            );
        }
        assert!(
            !reply.subject.contains("Error Flag"),
            "{name}:\n{}",
            reply.text
        );
        assert_eq!(
            judge.count("SELECT count(*) FROM orders WHERE power = 'France'"),
            3,
            "{name}"
        );
    }
}
