//! Mail as players' clients really write it, through the judge's real intake
//! path (a Maildir inbox, a SQLite file, `run_once`, a Maildir outbox): what
//! the player meant is what the judge reads.

use crate::hardening_common;

use chrono::Duration;
use hardening_common::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mail")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
        let reply = judge
            .sent_to(france)
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

/// A phone photo (a few hundred kilobytes, base64) attached to a mail of orders.
fn mail_with_photo(from: &str, id: &str, body: &str, photo_bytes: usize) -> String {
    let photo: Vec<u8> = (0..photo_bytes).map(|i| (i * 7 % 251) as u8).collect();
    let encoded = base64_lines(&photo);
    format!(
        "From: {from}\r\nTo: {JUDGE}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\
         --b1\r\nContent-Type: image/jpeg; name=\"IMG_2041.jpg\"\r\n\
         Content-Disposition: attachment; filename=\"IMG_2041.jpg\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{encoded}--b1--\r\n"
    )
}

fn base64_lines(data: &[u8]) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (n, chunk) in data.chunks(3).enumerate() {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ABC[((v >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
        if n % 19 == 18 {
            out.push_str("\r\n");
        }
    }
    out.push_str("\r\n");
    out
}

#[test]
fn orders_with_a_phone_photo_attached_are_read_and_the_photo_ignored() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "photo", now);
    let france = POWERS[2].1;
    let raw = mail_with_photo(
        france,
        "photo@x",
        "SIGNON Fphoto pw-F\nA Par - Bur",
        300_000,
    );
    assert!(raw.len() > 256 * 1024, "larger than the old limit");
    judge.drop_bytes(raw.as_bytes());
    let report = judge.once(now + Duration::minutes(1));
    assert_eq!(report.intake.applied, 1, "{report:?}");
    let reply = judge
        .sent_to(france)
        .into_iter()
        .find(|s| s.text.contains("Signed on as France"))
        .expect("answered");
    assert!(
        reply.text.contains("Accepted: A PAR - BUR"),
        "{}",
        reply.text
    );
    assert!(!reply.subject.contains("Error Flag"), "{}", reply.text);
}

/// The text of the mail to `addr` whose subject contains `subject`, the latest
/// by the order the judge wrote them (Message-IDs sort by time only within a
/// pass, so the test keeps to one such mail per pass).
fn mail_to(judge: &Judge, addr: &str, subject: &str) -> Vec<String> {
    judge
        .sent_to(addr)
        .into_iter()
        .filter(|s| s.subject.contains(subject))
        .map(|s| s.text)
        .collect()
}

#[test]
fn a_refused_retreat_lists_the_retreats_and_results_mark_units_without_orders() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "late", now);
    let (france, germany) = (POWERS[2].1, POWERS[3].1);
    let master = |judge: &mut Judge, id: &str| {
        judge.drop_mail(GM, id, "process", "SIGNON Mlate gm-pw\nPROCESS");
    };
    // Spring: France and Germany order; nobody else does.
    judge.drop_mail(france, "f1@x", "o", "SIGNON Flate pw-F\nA Mar - Bur");
    judge.drop_mail(
        germany,
        "g1@x",
        "o",
        "SIGNON Glate pw-G\nA Mun - Ruh\nA Ber - Mun",
    );
    master(&mut judge, "p1@x");
    judge.once(now + Duration::minutes(1));
    let results = mail_to(&judge, france, "S1901M results");
    assert_eq!(results.len(), 1, "{results:#?}");
    let r = &results[0];
    // England sent nothing: its units are marked and it is named.
    assert!(
        r.contains("England: Fleet London HOLD.  (*no orders*)")
            || r.contains("England: Fleet London Hold.  (*no orders*)")
            || r.lines()
                .any(|l| l.starts_with("England:") && l.contains("(*no orders*)")),
        "{r}"
    );
    assert!(r.contains("No orders were received from"), "{r}");
    let late_line = r
        .lines()
        .skip_while(|l| !l.starts_with("No orders were received from"))
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    for power in ["Austria", "England", "Italy", "Russia", "Turkey"] {
        assert!(late_line.contains(power), "{late_line}");
    }
    assert!(
        !late_line.contains("France") && !late_line.contains("Germany"),
        "{late_line}"
    );
    // France's ordered unit carries no such mark.
    assert!(
        r.lines()
            .any(|l| l.starts_with("France: Army Marseilles") && !l.contains("no orders")),
        "{r}"
    );
    // Fall: Germany dislodges the French army in Burgundy.
    judge.drop_mail(
        germany,
        "g2@x",
        "o",
        "SIGNON Glate pw-G\nA Ruh - Bur\nA Mun S A Ruh - Bur",
    );
    master(&mut judge, "p2@x");
    judge.once(now + Duration::minutes(2));
    // A retreat the rules refuse: the answer lists where the unit can go.
    judge.drop_mail(france, "f3@x", "o", "SIGNON Flate pw-F\nA Bur - Ruh");
    judge.once(now + Duration::minutes(3));
    let answer = judge
        .sent_to(france)
        .into_iter()
        .find(|s| s.text.contains("A Bur - Ruh"))
        .expect("answered")
        .text;
    assert!(
        answer.contains(
            "the unit in Burgundy (BUR) can retreat to Belgium, Gascony, Marseilles, \
             Picardy or disband"
        ),
        "{answer}"
    );
}

/// The orders stored for `power`, canonical, in the order given.
fn stored(judge: &Judge, power: &str) -> Vec<String> {
    let sql = judge.sql();
    let mut q = sql
        .prepare("SELECT canonical FROM orders WHERE power = ?1 ORDER BY id")
        .expect("query");
    q.query_map([power], |r| r.get(0))
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect()
}

#[test]
fn on_a_line_of_several_orders_each_good_one_applies_and_each_bad_one_is_refused_alone() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "line", now);
    let england = POWERS[1].1;
    judge.drop_mail(
        england,
        "eng@x",
        "orders",
        "SIGNON Eline pw-E\nF Lodon - Eng, F Edi-Nth; A Lvp-Yor",
    );
    judge.once(now + Duration::minutes(1));
    let reply = judge.answer_to(england, "eng@x");
    let text = &reply.text;
    for accepted in ["F EDI - NTH", "A LVP - YOR"] {
        assert!(text.contains(&format!("Accepted: {accepted}")), "{text}");
    }
    assert!(
        text.contains("Error (line 2): col 3: unknown province \"Lodon\"")
            && text.contains("did you mean London (LON)?"),
        "{text}"
    );
    assert!(reply.subject.contains("[Error Flag]"), "{}", reply.subject);
    assert_eq!(stored(&judge, "England"), ["F EDI - NTH", "A LVP - YOR"]);

    // Two bad orders on one line: each has its own error; the good one stands.
    judge.drop_mail(
        england,
        "eng2@x",
        "orders",
        "SIGNON Eline pw-E\nF Lon - Engg; F Edi - Nth, A Lvp - Yorx",
    );
    judge.once(now + Duration::minutes(2));
    let text = judge.answer_to(england, "eng2@x").text;
    assert_eq!(text.matches("Error (line 2)").count(), 2, "{text}");
    assert!(
        text.contains("\"Engg\"") && text.contains("\"Yorx\""),
        "{text}"
    );
    assert!(text.contains("Accepted: F EDI - NTH"), "{text}");
    assert!(text.contains("2 line(s) marked Error"), "{text}");
}

#[test]
fn the_answer_follows_the_lines_of_the_mail() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "order", now);
    let france = POWERS[2].1;
    judge.drop_mail(
        france,
        "fr@x",
        "orders",
        "SIGNON Forder pw-F\nA Par - Bur\nA Mar - Spx\nF Bre - Mao",
    );
    judge.once(now + Duration::minutes(1));
    let text = judge.answer_to(france, "fr@x").text;
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s} in:\n{text}"));
    let (par, mar, bre) = (
        at("Accepted: A PAR - BUR"),
        at("Error (line 3)"),
        at("Accepted: F BRE - MAO"),
    );
    assert!(at("Signed on as France") < par, "{text}");
    assert!(par < mar && mar < bre, "{text}");
}

#[test]
fn the_answer_to_the_mail_that_completes_a_phase_shows_its_orders_for_that_phase() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "last", now);
    let orders = [
        ("A", "A Vie - Gal\nA Bud - Ser\nF Tri - Alb"),
        ("E", "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor"),
        ("F", "A Par - Bur\nA Mar - Spa\nF Bre - Mao"),
        ("G", "A Ber - Kie\nA Mun - Ruh\nF Kie - Den"),
        ("I", "A Ven - Pie\nA Rom - Apu\nF Nap - Ion"),
        ("R", "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF Stp/sc - Bot"),
    ];
    for (p, o) in orders {
        let addr = POWERS.iter().find(|(q, _)| *q == p).expect("power").1;
        judge.drop_mail(
            addr,
            &format!("o-{p}@x"),
            "orders",
            &format!("SIGNON {p}last pw-{p}\n{o}"),
        );
    }
    judge.once(now + Duration::minutes(1));
    let turkey = POWERS[6].1;
    judge.drop_mail(
        turkey,
        "o-T@x",
        "orders",
        "SIGNON Tlast pw-T\nF Ank - Bla\nA Con - Bul\nA Smy - Arm",
    );
    judge.once(now + Duration::minutes(2));
    let reply = judge.answer_to(turkey, "o-T@x");
    let text = &reply.text;
    // The phase was processed: the results went out.
    assert_eq!(
        judge.count("SELECT count(*) FROM phases WHERE phase = 'S1901M'"),
        1
    );
    assert!(reply.subject.contains("S1901M"), "{}", reply.subject);
    assert!(
        text.contains("Current orders for Turkey (S1901M):")
            && text.contains("A CON - BUL")
            && text.contains("A SMY - ARM"),
        "{text}"
    );
    assert!(
        text.contains("Every order for S1901M is in: the phase is being processed now")
            && text.contains("results follow"),
        "{text}"
    );
    assert!(
        !text.contains("(none)") && !text.contains("Still missing"),
        "{text}"
    );
}

#[test]
fn a_signature_is_not_read_and_raises_no_error_flag() {
    let mut judge = Judge::new("");
    let now = t("2027-03-01T09:00:00Z");
    started_game(&mut judge, "sig", now);
    let france = POWERS[2].1;
    judge.drop_mail(
        france,
        "sig@x",
        "orders",
        "SIGNON Fsig pw-F\nA Par - Bur\n\nBest\nBob\nSent from my phone\n\"Cheers!\"",
    );
    judge.once(now + Duration::minutes(1));
    let reply = judge.answer_to(france, "sig@x");
    let text = &reply.text.replace("\r\n", "\n");
    assert!(!reply.subject.contains("Error Flag"), "{text}");
    assert!(!text.contains("did you mean"), "{text}");
    assert!(text.contains("Accepted: A PAR - BUR"), "{text}");
    for line in ["Best", "Bob", "Sent from my phone"] {
        assert!(
            text.contains(&format!("> {line}\nNot read: prose after the last order")),
            "{line}:\n{text}"
        );
    }
    assert_eq!(stored(&judge, "France"), ["A PAR - BUR"]);

    // What could be a mistyped order or command still gets its error, even
    // after the last order.
    for (id, line, said) in [
        ("t1@x", "F Bree - Mao", "did you mean Brest"),
        ("t2@x", "Lodon - Eng", "did you mean London"),
        ("t3@x", "Marx S Par - Bur", "Error (line 3)"),
        ("t4@x", "SETT WAIT", "did you mean SET"),
    ] {
        judge.drop_mail(
            france,
            id,
            "orders",
            &format!("SIGNON Fsig pw-F\nA Par - Bur\n{line}\nBob"),
        );
        judge.once(now + Duration::minutes(2));
        let reply = judge.answer_to(france, id);
        let text = reply.text.replace("\r\n", "\n");
        assert!(reply.subject.contains("[Error Flag]"), "{line}:\n{text}");
        assert!(text.contains(said), "{line}:\n{text}");
        assert!(text.contains("> Bob\nNot read"), "{line}:\n{text}");
    }
}
