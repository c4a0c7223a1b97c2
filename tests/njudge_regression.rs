//! njudge's own regression sequence, replayed: the registrations, the game
//! `dt` a Master creates for four players, their preference lists, observers
//! writing, the Master's broadcast, a wrong Master password, `LIST` from a
//! stranger and from the Master, France resigning, returning, resigning again
//! and being taken over, and a `LIST` of all games. Each mail is a real mail
//! file of `fixtures/njudge/` (its `README.md` says where the sequence comes
//! from), read by the judge's MIME reader and applied through the engine in
//! order; after each, the reply and every mail it caused are checked against
//! the outcome njudge's own run shows. Where Legate answers otherwise on
//! purpose, the ruling is named.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::engine_common;

use chrono::Duration;
use engine_common::*;
use legate::game::Applied;
use legate::mail::ingest::{IngestOptions, ingest};
use legate::store::OutboxMail;

const MASTER: &str = "hedda.lindqvist@example.com";
/// The four players of `dt`, in the order they sign on.
const P1: &str = "ines.ferrand@example.net";
const P2: &str = "tomas.halloran@example.net";
const P3: &str = "priya.natarajan@example.org";
const P4: &str = "olek.brzezinski@example.org";
/// The player who takes France over at the end.
const P5: &str = "kwame.asante@example.com";
const OBS1: &str = "watcher.one@example.net";
const OBS2: &str = "watcher.two@example.net";
const OBS3: &str = "watcher.three@example.net";

/// Each registration: file, address, name, the zone its `Timezone:` line names.
const REGISTRATIONS: [(&str, &str, &str, &str); 12] = [
    (
        "01-register-player-1",
        P1,
        "Ines Ferrand",
        "Etc/GMT-1", // GMT+1
    ),
    (
        "02-register-player-2",
        P2,
        "Tomas Halloran",
        "America/New_York", // Eastern
    ),
    (
        "03-register-player-3",
        P3,
        "Priya Natarajan",
        "Asia/Kolkata",
    ),
    ("04-register-player-4", P4, "Olek Brzezinski", "Etc/GMT-1"),
    ("05-register-player-5", P5, "Kwame Asante", "GMT"),
    (
        "06-register-player-6",
        "lena.vogt@example.com",
        "Lena Vogt",
        "Europe/Berlin",
    ),
    (
        "07-register-player-7",
        "diego.ramos@example.com",
        "Diego Ramos",
        "America/Los_Angeles", // Pacific
    ),
    (
        "08-register-player-8",
        "ayse.kaya@example.net",
        "Ayse Kaya",
        "Etc/GMT-3", // GMT+3
    ),
    (
        "09-register-player-9",
        "sven.aalto@example.net",
        "Sven Aalto",
        "Etc/GMT-2",
    ),
    (
        "10-register-player-10",
        "mara.quinn@example.org",
        "Mara Quinn",
        "America/Chicago", // Central
    ),
    (
        "11-register-master-1",
        MASTER,
        "Hedda Lindqvist",
        "Etc/GMT-1",
    ),
    (
        "12-register-master-2",
        "rafael.ocampo@example.com",
        "Rafael Ocampo",
        "America/Mexico_City",
    ),
];

/// The mails of the game, in njudge's order, after the registrations.
const GAME_MAILS: [&str; 17] = [
    "13-master-creates-dt",
    "14-player-1-joins",
    "15-player-2-joins",
    "16-observer-1-writes-to-master",
    "17-player-3-joins",
    "18-player-4-joins",
    "19-observer-2-broadcasts",
    "20-master-broadcasts",
    "21-observer-3-broadcasts",
    "22-master-wrong-password",
    "23-stranger-lists-dt",
    "24-master-lists-dt",
    "25-france-resigns",
    "26-france-returns",
    "27-france-resigns-again",
    "28-player-5-takes-over-france",
    "29-anyone-lists-games",
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/njudge")
}

/// The judge, empty on njudge's test date, and the mails it has queued so far.
struct Replay {
    table: Table,
    seen: usize,
}

/// What one mail did: the engine's answer and every mail it queued.
struct Step {
    applied: Applied,
    mails: Vec<OutboxMail>,
}

impl Replay {
    fn new() -> Replay {
        let mut table = Table::empty(t("2004-01-01T00:00:00Z"));
        table.game = "dt".into();
        Replay { table, seen: 0 }
    }

    /// Reads `fixtures/njudge/<name>.eml` as the judge reads mail and applies
    /// it a minute after the one before.
    fn mail(&mut self, name: &str) -> Step {
        let path = fixtures().join(format!("{name}.eml"));
        let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let opts = IngestOptions {
            judge_address: "judge@judge.test".into(),
            max_bytes: 1 << 20,
        };
        let envelope = ingest(&raw, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sender = envelope.sender.clone().expect("a sender");
        self.table.advance(Duration::minutes(1));
        let applied = self.table.mail(&sender, &envelope.text());
        let outbox = self.table.outbox();
        let mails = outbox[self.seen..].to_vec();
        self.seen = outbox.len();
        Step { applied, mails }
    }
}

impl Step {
    fn reply(&self) -> &str {
        &self.applied.reply_body
    }

    fn no_errors(&self) -> &Step {
        assert_eq!(self.applied.errors, 0, "{}", self.reply());
        self
    }

    /// Who received a mail whose subject holds `subject`.
    fn to_whom(&self, subject: &str) -> BTreeSet<&str> {
        self.mails
            .iter()
            .filter(|m| m.subject.contains(subject))
            .flat_map(|m| m.recipients.iter().map(String::as_str))
            .collect()
    }

    /// The body of the one mail to `to` whose subject holds `subject`.
    fn body_to(&self, to: &str, subject: &str) -> &str {
        let found: Vec<&OutboxMail> = self
            .mails
            .iter()
            .filter(|m| m.subject.contains(subject) && m.recipients.iter().any(|r| r == to))
            .collect();
        assert_eq!(found.len(), 1, "one {subject:?} mail to {to}");
        &found[0].body
    }

    /// Only the sender's reply went out.
    fn reply_only(&self, sender: &str) {
        let to: Vec<&Vec<String>> = self.mails.iter().map(|m| &m.recipients).collect();
        assert_eq!(to, vec![&vec![sender.to_string()]], "{}", self.reply());
    }
}

/// A line of the Master's notice of preference lists.
fn preference_line(player: &str, list: &str) -> String {
    format!("  {player:<30} {list}")
}

fn set<'a>(addresses: &[&'a str]) -> BTreeSet<&'a str> {
    addresses.iter().copied().collect()
}

#[test]
fn the_fixtures_are_the_sequence_and_nothing_else() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixtures())
        .expect("fixtures/njudge")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".eml").map(str::to_string))
        .collect();
    on_disk.sort();
    let sequence: Vec<String> = REGISTRATIONS
        .iter()
        .map(|r| r.0)
        .chain(GAME_MAILS)
        .map(str::to_string)
        .collect();
    assert_eq!(on_disk, sequence);
}

#[test]
fn njudges_regression_mails_get_njudges_outcomes() {
    let mut r = Replay::new();
    registrations(&mut r);
    forming(&mut r);
    start(&mut r);
    press(&mut r);
    lists(&mut r);
    resign_return_take_over(&mut r);
    // njudge's S001: `LIST` from anyone. njudge's `dt` was unlisted there;
    // here games are listed unless the Master says `SET NOLIST` (docs/rulings.md,
    // "njudge habits: Masters", rule 14), so `dt` is named.
    let s = r.mail("29-anyone-lists-games");
    s.no_errors().reply_only("curious@example.com");
    assert_says(
        s.reply(),
        &["Games on this judge:", "dt ", "standard", "S1901M"],
    );
}

/// njudge's A-Reg01..10 and A-RegM-1/2: "Registration processed", to the
/// sender only. Every field is njudge's own, so none is reported; the
/// `Timezone:` words are read as IANA zones.
fn registrations(r: &mut Replay) {
    for (file, address, name, zone) in REGISTRATIONS {
        let s = r.mail(file);
        s.no_errors().reply_only(address);
        assert_says(
            s.reply(),
            &[&format!(
                "Registered {name} <{address}>; times are shown in {zone}."
            )],
        );
        let account = r
            .table
            .engine
            .store()
            .transaction(|tx| tx.account_by_address(address))
            .expect("read")
            .unwrap_or_else(|| panic!("{address} registered"));
        assert_eq!(account.time_zone, zone, "{file}");
    }
}

/// njudge's Bug91-01..05: the Master creates `dt` for four players; each
/// sign-on is answered with the count, the preference list is recorded, and
/// the Master and everyone already in the game are told; the first observer
/// writes to the Master alone.
fn forming(r: &mut Replay) {
    let s = r.mail("13-master-creates-dt");
    s.no_errors().reply_only(MASTER);
    assert_says(
        s.reply(),
        &[
            "Game dt (standard) created; you are its master",
            "dt starts with 4 players.",
        ],
    );
    assert_eq!(r.table.state().settings.players_needed, 4);

    let s = r.mail("14-player-1-joins");
    s.no_errors();
    assert_says(
        s.reply(),
        &[
            "You have joined dt (1 of 4 players)",
            "Preferences recorded: France, Russia, Italy, Germany, Austria, Turkey, England",
        ],
    );
    assert_eq!(s.to_whom("Notice: sign-on"), set(&[MASTER]));
    assert_says(
        s.body_to(MASTER, "Notice: sign-on"),
        &["ines.ferrand@example.net has signed on to dt (1 of 4 players)."],
    );
    // njudge tells the Master of each preference list, with all the lists.
    assert_eq!(s.to_whom("Notice: preference list"), set(&[MASTER]));
    assert_says(
        s.body_to(MASTER, "Notice: preference list"),
        &[
            "ines.ferrand@example.net changed their preference list",
            &preference_line(
                P1,
                "France, Russia, Italy, Germany, Austria, Turkey, England",
            ),
        ],
    );

    let s = r.mail("15-player-2-joins");
    s.no_errors();
    assert_says(
        s.reply(),
        &[
            "You have joined dt (2 of 4 players)",
            "Preferences recorded: Italy, Germany, Austria, Turkey, England, France, Russia",
        ],
    );
    assert_eq!(s.to_whom("Notice: sign-on"), set(&[MASTER, P1]));
    assert_eq!(s.to_whom("Notice: preference list"), set(&[MASTER]));
    assert_says(
        s.body_to(MASTER, "Notice: preference list"),
        &[
            &preference_line(P1, "France, Russia, Italy"),
            &preference_line(P2, "Italy, Germany, Austria"),
        ],
    );

    // Bug91-04: the observer is announced to the Master and the players, and
    // the press to the Master reaches the Master alone.
    let s = r.mail("16-observer-1-writes-to-master");
    s.no_errors();
    assert_says(
        s.reply(),
        &["You are observing dt.", "Press sent to the master"],
    );
    assert_eq!(s.to_whom("Notice: observer"), set(&[MASTER, P1, P2]));
    assert_says(
        s.body_to(P1, "Notice: observer"),
        &["watcher.one@example.net now observes dt."],
    );
    assert_eq!(s.to_whom("Press from"), set(&[MASTER]));
    assert_says(
        s.body_to(MASTER, "Press from"),
        &[
            "Press from an observer (watcher.one@example.net) to the master:",
            "Hello, I am watching this one from the stands.",
        ],
    );

    // Bug91-05: the observer is told of later sign-ons too.
    let s = r.mail("17-player-3-joins");
    s.no_errors();
    assert_says(
        s.reply(),
        &[
            "You have joined dt (3 of 4 players)",
            "Preferences recorded: Austria, Turkey, England, France, Russia, Italy, Germany",
        ],
    );
    assert_eq!(s.to_whom("Notice: sign-on"), set(&[MASTER, P1, P2, OBS1]));
    assert_eq!(r.table.state().status, legate::game::model::Status::Forming);
}

/// njudge's Bug91-06: the fourth sign-on starts the game; the Master, each
/// player and the observer get the start mail, each player told the power
/// the preference lists give and shown the opening position.
///
/// njudge gave the three powers left over to players already seated (France
/// and Russia to the first, Germany and Italy to the second, England and
/// Turkey to the fourth); Legate gives one power each and the others wait
/// for a player (docs/rulings.md, "njudge habits: Masters", rule 11).
fn start(r: &mut Replay) {
    let s = r.mail("18-player-4-joins");
    s.no_errors();
    assert_says(
        s.reply(),
        &[
            "You have joined dt (4 of 4 players)",
            "Preferences recorded: England, France, Russia, Italy, Germany, Austria, Turkey",
        ],
    );
    assert_eq!(
        s.to_whom("Notice: sign-on"),
        set(&[MASTER, P1, P2, P3, OBS1])
    );
    assert_eq!(
        s.to_whom("Game starting"),
        set(&[MASTER, P1, P2, P3, P4, OBS1])
    );
    for (player, power) in [
        (P1, "France"),
        (P2, "Italy"),
        (P3, "Austria"),
        (P4, "England"),
    ] {
        let body = s.body_to(player, "Game starting");
        assert_says(
            body,
            &[
                &format!("You are {power} in dt."),
                "Game dt has started.",
                "The opening position:",
                "France     F BRE, A MAR, A PAR",
                "Russia     A MOS, F SEV, F STP/SC, A WAR",
            ],
        );
    }
    assert!(!s.body_to(MASTER, "Game starting").contains("You are"));
    let state = r.table.state();
    assert_eq!(state.status, legate::game::model::Status::Active);
    for (power, player) in [
        ("France", Some(P1)),
        ("Italy", Some(P2)),
        ("Austria", Some(P3)),
        ("England", Some(P4)),
        ("Germany", None),
        ("Russia", None),
        ("Turkey", None),
    ] {
        assert_eq!(
            state.player_of(power).map(|m| m.address.as_str()),
            player,
            "{power}"
        );
    }
}

/// njudge's Bug91-07..09: two more observers sign on (announced to everyone
/// in the game) and broadcast, and the Master broadcasts.
///
/// njudge sent the observers' broadcasts to everyone; here an observer
/// writes to the Master alone (docs/rulings.md, "njudge habits: players",
/// rule 9), so the broadcast is refused with the form that works and reaches
/// nobody, and the sign-on in the same mail stands.
fn press(r: &mut Replay) {
    let s = r.mail("19-observer-2-broadcasts");
    assert_eq!(s.applied.errors, 1, "{}", s.reply());
    assert_says(
        s.reply(),
        &[
            "You are observing dt.",
            "an observer may write to the master alone, with PRESS TO M",
        ],
    );
    assert_eq!(
        s.to_whom("Notice: observer"),
        set(&[MASTER, P1, P2, P3, P4, OBS1])
    );
    assert!(s.to_whom("Press from").is_empty());

    let s = r.mail("20-master-broadcasts");
    s.no_errors();
    // njudge's Master sign-on reply lists each power's orders.
    assert_says(
        s.reply(),
        &[
            "Signed on as master of dt.",
            "Orders for S1901M:",
            "Press sent to everyone (6 recipient(s))",
        ],
    );
    assert_eq!(
        s.to_whom("Press from the master"),
        set(&[P1, P2, P3, P4, OBS1, OBS2])
    );
    assert_says(
        s.body_to(OBS2, "Press from the master"),
        &[
            "Press from the master to everyone:",
            "Welcome to dt. Orders are due at the deadline.",
        ],
    );

    let s = r.mail("21-observer-3-broadcasts");
    assert_eq!(s.applied.errors, 1, "{}", s.reply());
    assert_says(s.reply(), &["You are observing dt.", "PRESS TO M"]);
    assert_eq!(
        s.to_whom("Notice: observer"),
        set(&[MASTER, P1, P2, P3, P4, OBS1, OBS2])
    );
    assert!(s.to_whom("Press from").is_empty());
}

/// njudge's Bug91-10..12: a wrong Master password is refused and shows
/// nothing of the Master's; `LIST dt` from a stranger shows the settings,
/// the members and the board; the Master's sign-on and `LIST` add who has
/// ordered.
fn lists(r: &mut Replay) {
    let s = r.mail("22-master-wrong-password");
    assert_eq!(s.applied.errors, 1, "{}", s.reply());
    s.reply_only(MASTER);
    assert_says(s.reply(), &["wrong password for the master of dt"]);
    assert!(!s.reply().contains("Orders for"), "{}", s.reply());
    assert!(!s.reply().contains("Signed on"), "{}", s.reply());

    let members = [
        "master     hedda.lindqvist@example.com",
        "France     ines.ferrand@example.net",
        "Italy      tomas.halloran@example.net",
        "Austria    priya.natarajan@example.org",
        "England    olek.brzezinski@example.org",
        "observer   watcher.one@example.net",
        "observer   watcher.two@example.net",
        "observer   watcher.three@example.net",
    ];
    let s = r.mail("23-stranger-lists-dt");
    s.no_errors().reply_only("passer.by@example.com");
    assert_says(s.reply(), &["Game dt: standard", "Active", "Members:"]);
    assert_says(s.reply(), &members);
    assert_says(
        s.reply(),
        &[
            "Units:",
            "Turkey     F ANK, A CON, A SMY",
            "Supply centers:",
        ],
    );
    assert!(!s.reply().contains("Orders for"), "{}", s.reply());

    let s = r.mail("24-master-lists-dt");
    s.no_errors().reply_only(MASTER);
    assert_says(s.reply(), &members);
    assert_says(
        s.reply(),
        &[
            "Orders for S1901M:",
            "France     no orders              ines.ferrand@example.net",
            "Russia     no orders              no player",
        ],
    );
}

/// njudge's Bug91-13..16: France resigns (everyone is told), the same player
/// returns (told as a return), resigns again, and another player takes the
/// power over (everyone is told). On njudge the first player also held
/// Russia, and the notices named both powers (rule 11 above: one power each).
fn resign_return_take_over(r: &mut Replay) {
    let everyone_but_france = set(&[MASTER, P2, P3, P4, OBS1, OBS2, OBS3]);
    for file in ["25-france-resigns", "27-france-resigns-again"] {
        let s = r.mail(file);
        s.no_errors();
        assert_says(
            s.reply(),
            &["You have resigned France in dt; the power is now without a player."],
        );
        assert_eq!(s.to_whom("France resigned"), everyone_but_france);
        assert_says(
            s.body_to(OBS3, "France resigned"),
            &["The player of France has resigned from dt. Anyone may take it over with SIGNON Fdt"],
        );
        assert_eq!(r.table.state().player_of("France"), None);
        if file == "25-france-resigns" {
            let s = r.mail("26-france-returns");
            s.no_errors();
            assert_says(s.reply(), &["You have returned as France in dt"]);
            assert_eq!(s.to_whom("France player returned"), everyone_but_france);
            assert!(s.to_whom("taken over").is_empty());
            assert_says(
                s.body_to(MASTER, "France player returned"),
                &["ines.ferrand@example.net, who resigned France, has signed on again"],
            );
            let state = r.table.state();
            assert_eq!(
                state.player_of("France").map(|m| m.address.as_str()),
                Some(P1)
            );
        }
    }

    let s = r.mail("28-player-5-takes-over-france");
    s.no_errors();
    assert_says(
        s.reply(),
        &["France in dt had no player: you have taken it over"],
    );
    assert_eq!(s.to_whom("France taken over"), everyone_but_france);
    assert_says(
        s.body_to(P2, "France taken over"),
        &["France was without a player; kwame.asante@example.com has signed on and now plays it."],
    );
    // The player who resigned is in the game no longer: nothing goes to her.
    assert!(
        s.mails
            .iter()
            .all(|m| !m.recipients.iter().any(|a| a == P1))
    );
    let state = r.table.state();
    assert_eq!(
        state.player_of("France").map(|m| m.address.as_str()),
        Some(P5)
    );
}
