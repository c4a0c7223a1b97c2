//! What the daemon's configuration changes in the judge it runs.

use crate::hardening_common;

use hardening_common::*;

#[test]
fn the_judges_time_zone_is_where_new_accounts_start() {
    let mut judge = Judge::new("timezone = \"Europe/Paris\"\n");
    judge.drop_mail("gm@example.test", "tz1@x", "new", "CREATE ?zoned gm-pw");
    judge.drop_mail("p1@example.test", "tz2@x", "join", "SIGNON ?zoned pw-p1");
    judge.drop_mail(
        "p2@example.test",
        "tz3@x",
        "join",
        "SET TIMEZONE Asia/Tokyo\nSIGNON ?zoned pw-p2",
    );
    let report = judge.once(t("2027-03-01T09:00:00Z"));
    assert_eq!(report.intake.applied, 3, "{report:?}");
    let zone = |address: &str| -> String {
        judge
            .sql()
            .query_row(
                "SELECT time_zone FROM accounts WHERE address = ?1",
                [address],
                |r| r.get(0),
            )
            .expect("account")
    };
    assert_eq!(zone("gm@example.test"), "Europe/Paris");
    assert_eq!(zone("p1@example.test"), "Europe/Paris");
    assert_eq!(
        zone("p2@example.test"),
        "Asia/Tokyo",
        "a zone of one's own wins"
    );
    // The game's clock runs on its creator's zone, the judge's default here.
    let game_zone: String = judge
        .sql()
        .query_row(
            "SELECT json_extract(state, '$.settings.schedule.timezone') FROM games WHERE name = 'zoned'",
            [],
            |r| r.get(0),
        )
        .expect("game");
    assert_eq!(game_zone, "Europe/Paris");
}

#[test]
fn without_a_time_zone_the_judge_uses_utc() {
    let mut judge = Judge::new("");
    judge.drop_mail("gm@example.test", "tz1@x", "new", "CREATE ?plain gm-pw");
    judge.once(t("2027-03-01T09:00:00Z"));
    let zone: String = judge
        .sql()
        .query_row(
            "SELECT time_zone FROM accounts WHERE address = 'gm@example.test'",
            [],
            |r| r.get(0),
        )
        .expect("account");
    assert_eq!(zone, "UTC");
}
