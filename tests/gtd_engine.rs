//! Grand Tournament Diplomacy through the real engine and its SQLite file:
//! 22 players join by mail, the game's lot comes from a known secret, orders
//! and political orders arrive as mail text, and each deadline is processed by
//! the Gamemaster's PROCESS. Boards the rules need but openings do not give
//! are set up by editing the stored game, as a Gamemaster's adjustment would.

mod engine_common;

use engine_common::*;
use legate::game::model::{GameState, Status};
use legate::game::variants::gtd::GtdGame;
use legate::map::{Map, Power, Province};
use legate::store::OutboxMail;

const GAME: &str = "tourney";

fn players() -> Vec<String> {
    (1..=22).map(|i| format!("p{i:02}")).collect()
}

fn addr(player: &str) -> String {
    format!("{player}@players.test")
}

fn map() -> &'static Map {
    Map::standard()
}

fn prov(at: &str) -> Province {
    map().lookup(at).expect(at).province
}

fn power(name: &str) -> Power {
    map().power(name).expect(name)
}

/// A started 22-player game; p01 and p02 ask for France first, p03 for England.
fn started() -> Table {
    let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
    table.game = GAME.into();
    let a = table
        .engine
        .apply_text("gm@judge.test", &format!("CREATE ?{GAME} gm-pw gtd\n"), None, table.now)
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    for (i, p) in players().iter().enumerate() {
        let pref = match i {
            0 | 1 => "SET PREFERENCE F\n",
            2 => "SET PREFERENCE E\n",
            _ => "",
        };
        let body = format!("SIGNON ?{GAME} pw-{p}\n{pref}");
        let a = table.engine.apply_text(&addr(p), &body, None, table.now).unwrap();
        assert_eq!(a.errors, 0, "{}", a.reply_body);
    }
    assert_eq!(table.state().status, Status::Active);
    table
}

fn gtd(table: &mut Table) -> GtdGame {
    table.state().gtd.expect("a GTD game")
}

fn commander(table: &mut Table, at: &str) -> String {
    gtd(table)
        .state
        .commander_at(prov(at))
        .unwrap_or_else(|| panic!("nobody commands {at}"))
        .to_string()
}

fn head(table: &mut Table, country: &str) -> Option<String> {
    gtd(table).state.country(power(country)).and_then(|c| c.hog.clone())
}

/// Mail from `player`: a sign-on, then `body`.
fn mail(table: &mut Table, player: &str, body: &str) -> legate::game::Applied {
    let text = format!("SIGNON ?{GAME} pw-{player}\n{body}\n");
    table
        .engine
        .apply_text(&addr(player), &text, None, table.now)
        .unwrap()
}

fn ok(table: &mut Table, player: &str, body: &str) -> String {
    let a = mail(table, player, body);
    assert_eq!(a.errors, 0, "{player}: {}", a.reply_body);
    a.reply_body
}

fn process(table: &mut Table) {
    let a = table
        .engine
        .apply_text(
            "gm@judge.test",
            &format!("SIGNON M{GAME} gm-pw\nPROCESS\n"),
            None,
            table.now,
        )
        .unwrap();
    assert_eq!(a.errors, 0, "{}", a.reply_body);
}

/// The newest results mail to `player`.
fn report(table: &mut Table, player: &str) -> String {
    let to = addr(player);
    let mails: Vec<OutboxMail> = table.outbox();
    mails
        .into_iter()
        .filter(|m| m.recipients.contains(&to) && m.subject.contains("results"))
        .next_back()
        .map(|m| m.body)
        .expect("a results mail")
}

/// Changes the stored game as a Gamemaster's adjustment would.
fn edit(table: &mut Table, f: impl FnOnce(&mut GameState)) {
    let name = table.game.clone();
    table
        .engine
        .store()
        .transaction(|tx| {
            let mut row = tx.game_by_name(&name)?.expect("game");
            let mut state: GameState = serde_json::from_str(&row.state).expect("state");
            f(&mut state);
            row.state = serde_json::to_string(&state).expect("json");
            tx.update_game(&row)
        })
        .expect("edit");
}

// ------------------------------------------------------------------ start

#[test]
fn twenty_two_players_join_and_the_lot_gives_countries_units_and_heads() {
    let mut table = started();
    let game = gtd(&mut table);
    assert_eq!(game.seats.len(), 22);
    let s = table.state();
    let position = s.position.clone().unwrap().to_position(map()).unwrap();
    let mut commanders: Vec<String> = position
        .units
        .iter()
        .map(|u| game.state.commander_at(u.province()).unwrap().to_string())
        .collect();
    commanders.sort();
    assert_eq!(commanders, players(), "one unit each");
    for (country, army) in [("England", "lvp"), ("France", "par"), ("Russia", "mos")] {
        assert_eq!(head(&mut table, country), Some(commander(&mut table, army)));
    }
    // Preferences honoured: p01 and p02 in France, p03 in England.
    let france = power("France");
    for p in ["p01", "p02"] {
        assert_eq!(game.state.commanded(&position, france, p).len(), 1, "{p}");
    }
    assert_eq!(game.state.commanded(&position, power("England"), "p03").len(), 1);
    // The lot is auditable against the game's commitment.
    assert!(!s.draws.is_empty());
    assert_eq!(s.settings.rules, "1971");
    let announce = table
        .outbox()
        .into_iter()
        .find(|m| m.recipients.contains(&addr("p05")) && m.subject.contains("starting"))
        .expect("announcement");
    assert!(announce.body.contains("head of government"), "{}", announce.body);
}

#[test]
fn each_player_orders_only_the_units_they_command() {
    let mut table = started();
    let lvp = commander(&mut table, "lvp");
    let edi = commander(&mut table, "edi");
    let reply = ok(&mut table, &lvp, "A LVP - YOR");
    assert!(reply.contains("A LVP - YOR"), "{reply}");
    let a = mail(&mut table, &edi, "A LVP - WAL");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("does not command"), "{}", a.reply_body);
    process(&mut table);
    assert_eq!(table.phase().to_string(), "F1901M");
    let s = table.state();
    let pos = s.position.unwrap().to_position(map()).unwrap();
    assert!(pos.unit_at(prov("yor")).is_some());
    assert_eq!(gtd(&mut table).state.commander_at(prov("yor")), Some(lvp.as_str()));
    let r = report(&mut table, &edi);
    assert!(r.contains("A LVP - YOR"), "{r}");
    assert!(r.contains(&lvp), "{r}");
    assert!(r.contains("You command"), "{r}");
}
