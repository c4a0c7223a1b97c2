//! The Agora Birthday Tournament played by mail through the engine: real
//! SQLite files, mail-shaped text in, the outbox checked per recipient.

use crate::engine_common;

use chrono::Duration;
use engine_common::*;
use legate::docs::PositionDoc;
use legate::game::model::{GameState, Outcome, Role, Status};
use legate::judge::{Position, Unit};
use legate::map::{Location, Map, Power, UnitKind};
use legate::phase::{Phase, PhaseKind, Season};

const GAME: &str = "bday";
const GM: &str = "gm@judge.test";

/// The regulations the Gamemaster publishes in these tests (sections 0-5 are
/// protected; the rest may change by proposal).
const REGS: &str = "\
0. The Gamemaster judges and never plays.
1. Persons enter by announcement while fewer than seven have.
2. The Gamemaster may remove, add and substitute contestants.
3. The last contestant remaining wins, announced with notice.
4. The judge decides matters of this tournament.
5. Sections 0 to 5 cannot be amended by proposal.
6. Powers are assigned by lot.
7. Assistants are announced.
8. Proposals pass with three votes in favour.
9. Three quiet years allow a draw.
";

fn contestant(n: usize) -> String {
    format!("c{n}@players.test")
}

fn pw(address: &str) -> String {
    password(address)
}

struct Tour {
    table: Table,
}

impl Tour {
    /// A tournament created and its regulations published at 2026-03-01 10:00.
    fn new() -> Tour {
        let mut table = Table::empty(t("2026-03-01T10:00:00Z"));
        table.game = GAME.into();
        table.master = GM.into();
        let mut tour = Tour { table };
        let a = tour.mail(GM, &format!("CREATE ?{GAME} gm-pw agora\n"));
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        let a = tour.gm(&format!("AMEND REGULATIONS\n{REGS}ENDREGULATIONS\n"));
        assert!(
            a.reply_body.contains("Entry is open until"),
            "{}",
            a.reply_body
        );
        tour
    }

    fn mail(&mut self, from: &str, body: &str) -> legate::game::Applied {
        let now = self.table.now;
        self.table
            .engine
            .apply_text(from, body, None, now)
            .expect("apply")
    }

    fn gm(&mut self, body: &str) -> legate::game::Applied {
        self.mail(GM, &format!("SIGNON M{GAME} gm-pw\n{body}"))
    }

    fn enter(&mut self, n: usize) -> legate::game::Applied {
        let a = contestant(n);
        self.mail(&a, &format!("ENTER ?{GAME} {}\n", pw(&a)))
    }

    /// `n` contestants enter; with fewer than seven play begins by itself
    /// when entry closes.
    fn started(n: usize) -> Tour {
        let mut tour = Tour::new();
        for i in 1..=n {
            let a = tour.enter(i);
            assert_eq!(a.errors, 0, "{}", a.reply_body);
        }
        if n < 7 {
            tour.table.advance(Duration::days(8));
            let now = tour.table.now;
            tour.table.engine.process_due(now).expect("clock");
        }
        assert_eq!(tour.state().status, Status::Active);
        tour
    }

    /// Mail from a contestant signed on as eir power.
    fn as_contestant(&mut self, n: usize, body: &str) -> legate::game::Applied {
        let a = contestant(n);
        let power = self.power_of(&a);
        self.mail(
            &a,
            &format!("SIGNON {}{GAME} {}\n{body}", &power[..1], pw(&a)),
        )
    }

    fn power_of(&mut self, address: &str) -> String {
        self.state()
            .member(address)
            .and_then(|m| m.power.clone())
            .expect("a power")
    }

    fn state(&mut self) -> GameState {
        self.table.state()
    }

    /// Every mail queued to `to` so far, subject and body.
    fn mails_to(&mut self, to: &str) -> Vec<String> {
        self.table
            .outbox()
            .into_iter()
            .filter(|m| m.recipients.iter().any(|r| r.eq_ignore_ascii_case(to)))
            .map(|m| format!("{}\n{}", m.subject, m.body))
            .collect()
    }

    fn all_mails(&mut self) -> Vec<(String, String)> {
        self.table
            .outbox()
            .into_iter()
            .map(|m| (m.recipients.join(","), m.body))
            .collect()
    }

    /// Puts `position` on the board (the test's own scenario).
    fn set_board(&mut self, position: &Position) {
        let name = GAME.to_string();
        let map = Map::standard();
        self.table
            .engine
            .store()
            .transaction(|tx| {
                let mut row = tx.game_by_name(&name)?.expect("game");
                let mut state: GameState = serde_json::from_str(&row.state).expect("state");
                state.position = Some(PositionDoc::from_position(map, position));
                state.orders.clear();
                row.current_phase = Some(position.phase.to_string());
                row.state = serde_json::to_string(&state).expect("json");
                tx.update_game(&row)
            })
            .expect("board set");
    }

    /// Moves the clock to the current deadline and lets the clock act.
    fn run_clock(&mut self) -> usize {
        let d = self.table.deadline();
        if d > self.table.now {
            self.table.now = d;
        }
        let now = self.table.now;
        self.table.engine.process_due(now).expect("clock")
    }
}

fn power_index(name: &str) -> Power {
    Map::standard().power(name).expect("power")
}

#[test]
fn entry_window_and_the_cap_of_seven() {
    let mut tour = Tour::new();
    // The Gamemaster never plays (section 0).
    let a = tour.mail(GM, &format!("ENTER ?{GAME} other\n"));
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body
            .contains("Gamemaster cannot become a contestant")
    );
    for i in 1..=6 {
        let a = tour.enter(i);
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        assert!(
            a.reply_body.contains(&format!("({i} of at most 7)")),
            "{}",
            a.reply_body
        );
    }
    // Entering twice is refused; each entry was published to the others.
    let a = tour.enter(3);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        tour.mails_to(&contestant(1))
            .iter()
            .any(|m| m.contains("c6@players.test enters the tournament."))
    );
    assert_eq!(tour.state().status, Status::Forming);
    // Before entry closes the Gamemaster may not begin with six.
    let a = tour.gm("FORCE BEGIN\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("entry is open until"),
        "{}",
        a.reply_body
    );
    // The seventh fills the tournament: powers by lot, play begins.
    let a = tour.enter(7);
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = tour.state();
    assert_eq!(s.status, Status::Active);
    assert_eq!(s.players().count(), 7);
    let mut powers: Vec<String> = s.players().filter_map(|m| m.power.clone()).collect();
    powers.sort();
    assert_eq!(powers, POWERS.to_vec());
    assert!(s.draws.len() >= 6, "the lot is recorded: {:?}", s.draws);
    assert!(
        s.member(GM)
            .is_some_and(|m| m.role == Role::Master && m.power.is_none())
    );
    // An eighth is refused.
    let a = tour.enter(8);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("begun"), "{}", a.reply_body);
    // Section 15: the first orders are due at 12:00 UTC after a whole day of negotiation.
    assert_eq!(tour.table.deadline(), t("2026-03-03T12:00:00Z"));
}

#[test]
fn entry_closes_seven_days_after_publication() {
    let mut tour = Tour::new();
    assert_eq!(tour.enter(1).errors, 0);
    tour.table.advance(Duration::days(7));
    let a = tour.enter(2);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("entry closed at 2026-03-08"),
        "{}",
        a.reply_body
    );
}

#[test]
fn gamemaster_substitutes_and_removes_by_mail() {
    let mut tour = Tour::started(3);
    let old = contestant(2);
    let power = tour.power_of(&old);
    // Only the Gamemaster may.
    let a = tour.as_contestant(1, "SUBSTITUTE c2@players.test BY zed@players.test zpw\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    let a = tour.gm("SUBSTITUTE c2@players.test BY zed@players.test zpw\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = tour.state();
    assert_eq!(s.player_of(&power).unwrap().address, "zed@players.test");
    let agora = s.agora.as_ref().unwrap();
    assert!(agora.tournament.is_contestant("zed@players.test"));
    assert!(!agora.tournament.is_contestant(&old));
    assert!(
        agora
            .tournament
            .log
            .iter()
            .any(|r| r.text.contains("substitutes zed"))
    );
    // Announced to everyone, the newcomer told eir place.
    assert!(
        tour.mails_to(&contestant(1))
            .iter()
            .any(|m| m.contains("The Gamemaster substitutes zed@players.test for c2@players.test"))
    );
    assert!(
        tour.mails_to("zed@players.test")
            .iter()
            .any(|m| m.contains("you now hold eir place"))
    );
    // The newcomer orders for the power; the old contestant no longer can.
    let a = tour.mail(
        "zed@players.test",
        &format!("SIGNON {}{GAME} zpw\n", &power[..1]),
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let a = tour.mail(
        &old,
        &format!("SIGNON {}{GAME} {}\n", &power[..1], pw(&old)),
    );
    assert_eq!(a.errors, 1, "{}", a.reply_body);

    // Removal: the power is left to civil disorder.
    let a = tour.gm("REMOVE CONTESTANT zed@players.test\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(tour.state().player_of(&power).is_none());
    let a = tour.gm("REMOVE CONTESTANT nobody@players.test\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("is not a contestant"),
        "{}",
        a.reply_body
    );
}

#[test]
fn a_proposal_voted_secretly_and_enacted() {
    let mut tour = Tour::started(5);
    // Sections 0-5 cannot be amended by proposal.
    let a = tour.as_contestant(1, "PROPOSE\n3. Everyone wins.\nENDPROPOSAL\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("sections 0 to 5 cannot be amended"),
        "{}",
        a.reply_body
    );

    let a = tour.as_contestant(
        1,
        "PROPOSE\n8. Proposals pass with two votes in favour.\nENDPROPOSAL\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(a.reply_body.contains("number 1"), "{}", a.reply_body);
    // A second proposal, withdrawn: it takes no more votes.
    let a = tour.as_contestant(2, "PROPOSE\n7. No assistants.\nENDPROPOSAL\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let a = tour.as_contestant(2, "WITHDRAW PROPOSAL 2\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let a = tour.as_contestant(3, "VOTE FOR PROPOSAL 2\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("not open"), "{}", a.reply_body);

    // The proposer may not vote; the others vote privately.
    let a = tour.as_contestant(1, "VOTE FOR PROPOSAL 1\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    for (n, side) in [(5, "AGAINST"), (2, "FOR"), (3, "FOR")] {
        let a = tour.as_contestant(n, &format!("VOTE {side} PROPOSAL 1\n"));
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        assert!(a.reply_body.contains("Your vote"), "{}", a.reply_body);
    }
    assert_eq!(tour.state().agora.unwrap().regulations.current().number, 2);
    let a = tour.as_contestant(4, "VOTE FOR PROPOSAL 1\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = tour.state();
    let regs = &s.agora.as_ref().unwrap().regulations;
    assert_eq!(regs.current().number, 3);
    assert!(
        regs.current()
            .text
            .contains("8. Proposals pass with two votes in favour.")
    );

    // Published with the counts, to everyone.
    for n in 1..=5 {
        assert!(
            tour.mails_to(&contestant(n))
                .iter()
                .any(|m| m.contains("Proposal 1 is enacted with 3 votes in favour and 1 against")),
            "c{n} was told of the enactment"
        );
    }
    // Nobody's vote reaches anyone else: the only mails naming a vote are the
    // voters' own replies, and no mail to another names a voter with a vote.
    for (to, body) in tour.all_mails() {
        for n in 2..=5 {
            let voter = contestant(n);
            if to != voter && body.contains(&voter) {
                assert!(
                    !body.contains("Your vote") && !body.contains("voted"),
                    "{voter}'s vote shown to {to}: {body}"
                );
            }
        }
    }
    let acks: Vec<(String, String)> = tour
        .all_mails()
        .into_iter()
        .filter(|(_, b)| b.contains("Your vote"))
        .collect();
    assert_eq!(acks.len(), 4, "one acknowledgement per vote, to its voter");
    for (to, _) in &acks {
        assert!([2, 3, 4, 5].iter().any(|n| *to == contestant(*n)), "{to}");
    }

    // Every version by mail.
    let a = tour.as_contestant(5, "GET REGULATIONS 2\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body
            .contains("8. Proposals pass with three votes in favour.")
    );
    let a = tour.as_contestant(5, "GET REGULATIONS\n");
    assert!(
        a.reply_body.contains("version 3 (enacted proposal 1"),
        "{}",
        a.reply_body
    );
    let a = tour.as_contestant(5, "GET REGULATIONS 9\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("no version 9"), "{}", a.reply_body);

    // The Gamemaster logs what e did for a proposal.
    let a = tour.gm("EFFECT PROPOSAL 1 read the new section 8 to the contestants\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = tour.state();
    let p = s.agora.as_ref().unwrap().proposals.get(1).unwrap().clone();
    assert_eq!(
        p.effects,
        vec!["read the new section 8 to the contestants".to_string()]
    );
}

#[test]
fn an_assistants_order_is_reported_to_the_contestant() {
    let mut tour = Tour::started(3);
    let owner = contestant(1);
    let power = tour.power_of(&owner);
    let aide = "aide@friends.test";
    let signon = format!("SIGNON {}{GAME} {}\n", &power[..1], pw(&owner));
    // Not announced yet: the password alone does not let em order.
    let a = tour.mail(aide, &signon);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("section 7"), "{}", a.reply_body);
    // An assistant must say what e does.
    let a = tour.as_contestant(1, &format!("ASSISTANT {aide}\n"));
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    let a = tour.as_contestant(
        1,
        &format!("ASSISTANT {aide} ORDERS drafts and sends my orders\n"),
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        tour.mails_to(&contestant(2))
            .iter()
            .any(|m| m.contains(&format!(
                "{owner} is assisted by {aide}: drafts and sends my orders and may submit orders."
            )))
    );
    // The assistant orders; the contestant is told what and by whom.
    let map = Map::standard();
    let p = power_index(&power);
    let unit = Position::initial(map)
        .units
        .into_iter()
        .find(|u| u.power == p)
        .unwrap();
    let order = format!(
        "{} {} H",
        if unit.kind == UnitKind::Army {
            "A"
        } else {
            "F"
        },
        map.location_code(unit.location)
    );
    let a = tour.mail(aide, &format!("{signon}{order}\n"));
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let told: Vec<String> = tour
        .mails_to(&owner)
        .into_iter()
        .filter(|m| m.contains("Orders submitted for your country"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].contains(&format!("(submitted by {aide})")),
        "{}",
        told[0]
    );
    let s = tour.state();
    let log = &s.agora.as_ref().unwrap().assistants.orders;
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].submitted_by, aide);
    // The contestant's own orders are logged too, with no notice to emself.
    let a = tour.as_contestant(1, &format!("{order}\n"));
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(tour.state().agora.unwrap().assistants.orders.len(), 2);
    let told = tour
        .mails_to(&owner)
        .into_iter()
        .filter(|m| m.contains("Orders submitted for your country"))
        .count();
    assert_eq!(told, 1);
}

#[test]
fn one_set_of_orders_resolves_the_whole_turn_at_the_deadline() {
    let mut tour = Tour::started(7);
    let s = tour.state();
    let france = s.player_of("France").unwrap().address.clone();
    let n: usize = france[1..france.find('@').unwrap()].parse().unwrap();
    // Orders for the movement and, in the same mail, the Winter build with a condition.
    let a = tour.as_contestant(
        n,
        "A Par - Bur\nA Mar - Spa\nF Bre - Mao\nPHASE W1901A\nIF A Spa\nBUILD A Mar\nENDIF\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // Complete orders do not move the game before the deadline (section 15).
    assert_eq!(tour.table.phase().to_string(), "S1901M");
    tour.run_clock();
    assert_eq!(tour.table.phase().to_string(), "F1901M");
    // Orders open at once; the next deadline is two days later at 12:00.
    assert_eq!(tour.table.deadline(), t("2026-03-05T12:00:00Z"));
    let a = tour.as_contestant(n, "A Spa H\nA Bur - Bel\nF Mao - Por\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    tour.run_clock();
    // The Fall, its adjustments (the conditional build) and the next Spring, at once.
    assert_eq!(tour.table.phase().to_string(), "S1902M");
    let board = tour.state().position.unwrap();
    assert!(
        board
            .units
            .iter()
            .any(|u| u.at == "MAR" && u.power == "France"),
        "{:?}",
        board.units
    );
    let phases: Vec<String> = tour
        .table
        .phases()
        .iter()
        .map(|p| p.phase.clone())
        .collect();
    assert!(phases.contains(&"W1901A".to_string()), "{phases:?}");
}

#[test]
fn civil_disorder_removes_the_farthest_unit_first() {
    let mut tour = Tour::started(2);
    let s = tour.state();
    let played: Vec<String> = s.players().filter_map(|m| m.power.clone()).collect();
    // A power nobody plays, with three units and two centres in Winter.
    let idle = POWERS
        .iter()
        .find(|p| !played.contains(&p.to_string()))
        .unwrap();
    let map = Map::standard();
    let p = power_index(idle);
    let mut board = Position::initial(map);
    board.phase = Phase::new(Season::Winter, 1901, PhaseKind::Adjustment);
    let homes: Vec<_> = board.homes[p.0 as usize].iter().collect();
    board.units.retain(|u| u.power != p);
    for h in &homes[..2] {
        board.units.push(Unit {
            power: p,
            kind: UnitKind::Army,
            location: Location::from(*h),
        });
    }
    // Far away: an army in Syria (or Portugal for Turkey).
    let far = if *idle == "Turkey" { "por" } else { "syr" };
    let far_p = map.lookup(far).unwrap().province;
    board.units.retain(|u| u.location.province != far_p);
    board.units.push(Unit {
        power: p,
        kind: UnitKind::Army,
        location: Location::from(far_p),
    });
    board.owners[homes[2].0 as usize] = None;
    tour.set_board(&board);
    let a = tour.gm("PROCESS\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let after = tour.state().position.unwrap();
    let left: Vec<&str> = after
        .units
        .iter()
        .filter(|u| u.power == *idle)
        .map(|u| u.at.as_str())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!left.contains(&far.to_uppercase().as_str()), "{left:?}");
}

#[test]
fn the_draw_clock_lets_the_gamemaster_declare_a_draw() {
    let mut tour = Tour::started(2);
    let a = tour.gm("DECLARE DRAW\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(
        a.reply_body
            .contains("may be declared after the Fall of 1903"),
        "{}",
        a.reply_body
    );
    // Contestants do not vote draws: only the Gamemaster declares one.
    let a = tour.as_contestant(1, "SET DRAW\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("section 9"), "{}", a.reply_body);
    // Nobody orders: three years pass with every centre where it was.
    let mut guard = 0;
    while tour.table.phase().to_string() != "S1904M" {
        tour.run_clock();
        guard += 1;
        assert!(guard < 20, "stuck at {}", tour.table.phase());
    }
    assert!(
        tour.mails_to(GM)
            .iter()
            .any(|m| m.contains("you may declare a draw (section 9)"))
    );
    // The report of the Fall that completes the third quiet year says so too.
    let fall: Vec<String> = tour
        .mails_to(&contestant(2))
        .into_iter()
        .filter(|m| m.contains("F1903M results"))
        .collect();
    assert_eq!(fall.len(), 1, "{fall:?}");
    assert!(
        fall[0].contains("the Gamemaster may declare a draw"),
        "{}",
        fall[0]
    );
    let contestants: Vec<String> = tour.state().players().map(|m| m.address.clone()).collect();
    let a = tour.gm("DECLARE DRAW\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        tour.mails_to(&contestants[0])
            .iter()
            .any(|m| m.contains("declares the game a draw"))
    );
    // Nothing happens until two days have passed; then all remaining win.
    let declared = tour.table.now;
    assert_eq!(tour.table.deadline(), declared + Duration::days(2));
    tour.table.now = declared + Duration::hours(47);
    tour.table.engine.process_due(tour.table.now).unwrap();
    assert_eq!(tour.state().status, Status::Active);
    tour.run_clock();
    let s = tour.state();
    assert_eq!(s.status, Status::Finished);
    assert!(matches!(s.outcome, Some(Outcome::Draw { ref powers }) if powers.len() == 2));
    let last = tour.mails_to(&contestants[1]).join("\n");
    assert!(last.contains("The game is drawn (section 9)."));
    assert!(last.contains("announces the winners of the tournament"));
}

/// `power` holds 18 centres with an army on each; each other power one army on
/// one of the rest.
fn dominant_board(power: Power) -> Position {
    let map = Map::standard();
    let mut board = Position::initial(map);
    board.phase = Phase::new(Season::Fall, 1901, PhaseKind::Movement);
    board.units.clear();
    for o in board.owners.iter_mut() {
        *o = None;
    }
    let centres: Vec<_> = map.supply_centers().iter().collect();
    let mut others = (0..7u8).map(Power).filter(|p| *p != power);
    for (i, c) in centres.iter().enumerate() {
        let owner = if i < 18 { Some(power) } else { others.next() };
        if let Some(o) = owner {
            board.units.push(Unit {
                power: o,
                kind: UnitKind::Army,
                location: Location::from(*c),
            });
            board.owners[c.0 as usize] = Some(o);
        }
    }
    board
}

#[test]
fn eighteen_centres_end_every_other_contestancy_and_winners_come_two_days_later() {
    let mut tour = Tour::started(3);
    let winner = contestant(1);
    let power = tour.power_of(&winner);
    tour.set_board(&dominant_board(power_index(&power)));
    let before = tour.table.now;
    let a = tour.gm("PROCESS\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = tour.state();
    // Not over yet: the winner is announced with two days' notice.
    assert_eq!(s.status, Status::Active);
    let agora = s.agora.as_ref().unwrap();
    assert_eq!(agora.tournament.contestants.len(), 1);
    assert!(
        s.member(&contestant(2))
            .is_some_and(|m| m.role == Role::Observer)
    );
    let notice = tour.mails_to(&contestant(2)).join("\n");
    assert!(
        notice.contains("c2@players.test is no longer a contestant."),
        "{notice}"
    );
    assert!(notice.contains("With two days' notice"), "{notice}");
    // The report of that Fall shows the tournament as the turn left it.
    let report = notice
        .split("\n")
        .find(|l| l.starts_with("Contestants:"))
        .expect("the contestants in the report")
        .to_string();
    assert_eq!(report, format!("Contestants: {winner} ({power})."));
    // The judge may name more than one winner before the announcement.
    let a = tour.gm(&format!("SET WINNERS {winner}, {}\n", contestant(3)));
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // No turn is played meanwhile.
    tour.table.now = before + Duration::hours(47);
    tour.table.engine.process_due(tour.table.now).unwrap();
    assert_eq!(tour.state().status, Status::Active);
    tour.table.now = before + Duration::days(2);
    tour.table.engine.process_due(tour.table.now).unwrap();
    let s = tour.state();
    assert_eq!(s.status, Status::Finished);
    let all = tour.mails_to(&contestant(3)).join("\n");
    assert!(
        all.contains(&format!(
            "The judge announces the winners of the tournament: {winner}, {}.",
            contestant(3)
        )),
        "{all}"
    );
}

#[test]
fn orders_from_a_removed_contestant_give_way_to_civil_disorder() {
    let mut tour = Tour::started(2);
    let gone = contestant(2);
    let power = tour.power_of(&gone);
    let p = power_index(&power);
    let map = Map::standard();
    let unit = Position::initial(map)
        .units
        .into_iter()
        .find(|u| u.power == p && u.kind == UnitKind::Army)
        .unwrap();
    let code = map.location_code(unit.location);
    let target = map
        .army_neighbours(unit.location.province)
        .iter()
        .next()
        .map(|q| map.location_code(q.into()))
        .unwrap();
    let a = tour.as_contestant(2, &format!("A {code} - {target}\n"));
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let a = tour.gm("REMOVE CONTESTANT c2@players.test\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(!tour.state().orders.contains_key(&power));
    tour.run_clock();
    let after = tour.state().position.unwrap();
    assert!(
        after.units.iter().any(|u| u.power == power && u.at == code),
        "the army held: {:?}",
        after.units
    );
}

#[test]
fn a_dislodged_unit_retreats_as_its_turn_orders_said() {
    let mut tour = Tour::started(7);
    let s = tour.state();
    let addr = |p: &str| s.player_of(p).unwrap().address.clone();
    let (france, germany) = (addr("France"), addr("Germany"));
    let n = |a: &str| -> usize { a[1..a.find('@').unwrap()].parse().unwrap() };
    let map = Map::standard();
    let mut board = Position::initial(map);
    board.phase = Phase::new(Season::Fall, 1901, PhaseKind::Movement);
    let (fr, de) = (power_index("France"), power_index("Germany"));
    let at = |c: &str| Location::from(map.lookup(c).unwrap().province);
    board.units.retain(|u| u.power != fr && u.power != de);
    for (p, c) in [
        (fr, "bur"),
        (fr, "par"),
        (de, "mun"),
        (de, "ruh"),
        (de, "kie"),
    ] {
        board.units.push(Unit {
            power: p,
            kind: UnitKind::Army,
            location: at(c),
        });
    }
    tour.set_board(&board);
    // France's whole turn: hold; if dislodged, retreat to Munich, else Gascony,
    // else Picardy (the first possible counts); a build only if Paris is held.
    let a = tour.as_contestant(
        n(&france),
        "A Bur H\nA Par H\nPHASE F1901R\nA Bur - Mun\nA Bur - Gas\nA Bur - Pic\nPHASE W1901A\nIF A Par\nBUILD A Mar\nENDIF\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let a = tour.as_contestant(n(&germany), "A Mun - Bur\nA Ruh S A Mun - Bur\nA Kie H\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    tour.run_clock();
    // Movement, retreat and adjustments from the one set, then the next Spring.
    assert_eq!(tour.table.phase().to_string(), "S1902M");
    let phases: Vec<String> = tour
        .table
        .phases()
        .iter()
        .map(|p| p.phase.clone())
        .collect();
    assert!(
        phases.ends_with(&["F1901M".into(), "F1901R".into(), "W1901A".into()]),
        "{phases:?}"
    );
    let units = tour.state().position.unwrap().units;
    let french: Vec<&str> = units
        .iter()
        .filter(|u| u.power == "France")
        .map(|u| u.at.as_str())
        .collect();
    assert!(french.contains(&"GAS"), "{french:?}");
    assert!(french.contains(&"MAR"), "{french:?}");
    assert!(units.iter().any(|u| u.power == "Germany" && u.at == "BUR"));
}

#[test]
fn the_gamemaster_adds_a_consenting_person_in_play_and_may_end_a_small_tournament() {
    let mut tour = Tour::started(2);
    let a = tour.gm("ADD CONTESTANT new@players.test npw\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("consent"), "{}", a.reply_body);
    let a = tour.gm("ADD CONTESTANT new@players.test npw CONSENTED\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(a.reply_body.contains("drawn by lot"), "{}", a.reply_body);
    let s = tour.state();
    let power = s
        .member("new@players.test")
        .and_then(|m| m.power.clone())
        .unwrap();
    assert!(
        s.draws
            .iter()
            .any(|d| d.purpose.contains("new@players.test"))
    );
    let a = tour.mail(
        "new@players.test",
        &format!("SIGNON {}{GAME} npw\n", &power[..1]),
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // Three have become contestants, fewer than seven: the GM may end it.
    let a = tour.gm("END TOURNAMENT\n0. A game of FRC instead.\nENDREGULATIONS\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    let s = tour.state();
    assert_eq!(s.status, Status::Finished);
    assert!(s.agora.unwrap().regulations.current().text.contains("FRC"));
}

#[test]
fn each_results_mail_shows_only_its_readers_own_votes() {
    let mut tour = Tour::started(4);
    let a = tour.as_contestant(1, "PROPOSE\n9. No draws.\nENDPROPOSAL\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(tour.as_contestant(2, "VOTE AGAINST PROPOSAL 1\n").errors, 0);
    assert_eq!(tour.as_contestant(3, "VOTE FOR PROPOSAL 1\n").errors, 0);
    tour.run_clock();
    let results = |tour: &mut Tour, n: usize| -> String {
        tour.mails_to(&contestant(n))
            .into_iter()
            .filter(|m| m.contains("S1901M results"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let r2 = results(&mut tour, 2);
    assert!(
        r2.contains("Your votes on open proposals (shown to you only): proposal 1: against."),
        "{r2}"
    );
    let r3 = results(&mut tour, 3);
    assert!(r3.contains("proposal 1: for."), "{r3}");
    assert!(!r3.contains("against"), "{r3}");
    for n in [1, 4] {
        let r = results(&mut tour, n);
        assert!(r.contains("Open proposals: 1 (by c1@players.test)."), "{r}");
        assert!(!r.contains("Your votes"), "{r}");
    }
    let gm = tour
        .mails_to(GM)
        .into_iter()
        .filter(|m| m.contains("S1901M results"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!gm.contains("Your votes"), "{gm}");
}

/// England's board for the convoy scenarios: an army in London, fleets in the
/// North Sea and the English Channel.
fn english_convoy_board() -> Position {
    let map = Map::standard();
    let mut board = Position::initial(map);
    let en = power_index("England");
    board.units.retain(|u| u.power != en);
    for (kind, c) in [
        (UnitKind::Army, "lon"),
        (UnitKind::Fleet, "nth"),
        (UnitKind::Fleet, "eng"),
    ] {
        board.units.push(Unit {
            power: en,
            kind,
            location: Location::from(map.lookup(c).unwrap().province),
        });
    }
    board
}

#[test]
fn a_convoyed_move_names_its_path_and_only_the_named_fleets_carry_it() {
    let mut tour = Tour::started(7);
    let england = tour.state().player_of("England").unwrap().address.clone();
    let n: usize = england[1..england.find('@').unwrap()].parse().unwrap();
    tour.set_board(&english_convoy_board());
    // Section 17: a move by convoy without its path is refused, with the line,
    // the section and an example; so is a path that is not a chain of seas.
    let a = tour.as_contestant(
        n,
        "A Lon - Bel\nA Lon - Bel via convoy\nA Lon - Nwy - Bel\n",
    );
    assert_eq!(a.errors, 3, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Error (line 2)")
            && a.reply_body.contains("section 17")
            && a.reply_body.contains("e.g. A LON - ENG - BEL"),
        "{}",
        a.reply_body
    );
    assert!(a.reply_body.contains("Error (line 3)"), "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Norway is not a sea"),
        "{}",
        a.reply_body
    );
    // A land move needs no path.
    let a = tour.as_contestant(n, "A Lon - Wal\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // The path through the North Sea, whose fleet holds; the Channel's fleet
    // convoys, but it is not on the path, so the army does not move.
    let a = tour.as_contestant(n, "A Lon - Nth - Bel\nF Nth H\nF Eng C A Lon - Bel\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("Accepted: A LON - NTH - BEL"),
        "{}",
        a.reply_body
    );
    // The summary of current orders shows the path too.
    assert!(
        a.reply_body
            .contains("Current orders for England (S1901M):\n  A LON - NTH - BEL\n"),
        "{}",
        a.reply_body
    );
    tour.run_clock();
    assert_eq!(tour.table.phase().to_string(), "F1901M");
    let units = tour.state().position.unwrap().units;
    assert!(
        units.iter().any(|u| u.power == "England" && u.at == "LON"),
        "{units:?}"
    );
    // The report shows the Channel's order as written, void: not on the path.
    let report = tour.mails_to(&england).pop().expect("the season report");
    assert!(
        report.contains("Fleet English Channel CONVOY Army London -> Belgium.  (*void*)"),
        "{report}"
    );
    assert!(
        report.contains("Army London -> Belgium via convoy.  (*no convoy*)"),
        "{report}"
    );
    let why = report.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        why.contains("Army London named its convoy path, and this fleet is not on it"),
        "{report}"
    );
    // Named through the Channel, the same convoy carries it.
    let a = tour.as_contestant(n, "A Lon - Eng - Bel\nF Eng C A Lon - Bel\nF Nth H\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    tour.run_clock();
    let units = tour.state().position.unwrap().units;
    assert!(
        units.iter().any(|u| u.power == "England" && u.at == "BEL"),
        "{units:?}"
    );
}

#[test]
fn conditional_paths_for_a_later_turn_are_kept_with_their_if_blocks() {
    let mut tour = Tour::started(7);
    let england = tour.state().player_of("England").unwrap().address.clone();
    let n: usize = england[1..england.find('@').unwrap()].parse().unwrap();
    tour.set_board(&english_convoy_board());
    // This turn the fleets stand; for the next, the path is chosen by the
    // board then: through the North Sea while the Channel is England's, else
    // through the Channel. The Channel's fleet convoys either way.
    let a = tour.as_contestant(
        n,
        "A Lon H\nF Nth H\nF Eng H\nPHASE F1901M\nF Eng C A Lon - Bel\nF Nth H\n\
         IF F Eng\nA Lon - Nth - Bel\nELSE\nA Lon - Eng - Bel\nENDIF\n",
    );
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // Without a path, even in an IF block, the move is refused.
    let a = tour.as_contestant(n, "PHASE F1901M\nIF F Nth\nA Lon - Bel\nENDIF\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("section 17"), "{}", a.reply_body);
    tour.run_clock();
    assert_eq!(tour.table.phase().to_string(), "F1901M");
    // The Channel is England's: the North Sea path is the one chosen, and the
    // Channel's convoy, off it, does not carry the army (the ELSE path does
    // not count).
    let a = tour.as_contestant(n, "");
    assert!(
        a.reply_body.contains("A LON - NTH - BEL"),
        "{}",
        a.reply_body
    );
    tour.run_clock();
    let units = tour.state().position.unwrap().units;
    assert!(
        units.iter().any(|u| u.power == "England" && u.at == "LON"),
        "{units:?}"
    );
}

#[test]
fn play_begins_by_itself_when_entry_closes() {
    let mut tour = Tour::new();
    for i in 1..=3 {
        assert_eq!(tour.enter(i).errors, 0);
    }
    // The clock's alarm is the close of entry, seven days after publication.
    let closes = t("2026-03-08T10:00:00Z");
    assert_eq!(
        tour.table.engine.next_wakeup().expect("wakeup"),
        Some(closes)
    );
    tour.table
        .engine
        .process_due(closes - Duration::minutes(1))
        .expect("clock");
    assert_eq!(tour.state().status, Status::Forming);
    tour.table.now = closes;
    tour.table.engine.process_due(closes).expect("clock");
    let s = tour.state();
    assert_eq!(s.status, Status::Active);
    assert_eq!(s.players().filter(|m| m.power.is_some()).count(), 3);
    assert!(
        tour.mails_to(&contestant(2))
            .iter()
            .any(|m| m
                .contains("Entry closed at 2026-03-08 10:00 UTC with 3 contestants: play begins")),
        "{:?}",
        tour.mails_to(&contestant(2))
    );
    // Fewer than seven entered: the Gamemaster alone is reminded of section 2.
    let reminder = |m: &String| m.contains("you may still replace the regulations");
    assert!(tour.mails_to(GM).iter().any(reminder));
    assert!(!tour.mails_to(&contestant(1)).iter().any(reminder));
    // Entry is over: a late comer is refused.
    let a = tour.enter(4);
    assert_eq!(a.errors, 1, "{}", a.reply_body);
}

#[test]
fn entry_closing_with_one_contestant_waits_for_the_gamemaster() {
    let mut tour = Tour::new();
    assert_eq!(tour.enter(1).errors, 0);
    let closes = t("2026-03-08T10:00:00Z");
    tour.table.now = closes;
    tour.table.engine.process_due(closes).expect("clock");
    assert_eq!(tour.state().status, Status::Forming);
    let told = |tour: &mut Tour| {
        tour.mails_to(GM)
            .iter()
            .filter(|m| m.contains("play does not begin by itself"))
            .count()
    };
    assert_eq!(told(&mut tour), 1);
    assert!(
        tour.mails_to(&contestant(1))
            .iter()
            .any(|m| m.contains("too few to play")),
    );
    // Told once: the clock has nothing more to do for this game.
    assert_eq!(tour.table.engine.next_wakeup().expect("wakeup"), None);
    tour.table
        .engine
        .process_due(closes + Duration::days(1))
        .expect("clock");
    assert_eq!(told(&mut tour), 1);
    // The Gamemaster adds a consenting person and begins.
    tour.table.advance(Duration::days(1));
    let a = tour.gm("ADD CONTESTANT new@players.test npw CONSENTED\nFORCE BEGIN\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(tour.state().status, Status::Active);
    assert_eq!(tour.state().players().count(), 2);
}

#[test]
fn the_gamemaster_runs_commands_for_an_enacted_proposal_each_logged_against_it() {
    let mut tour = Tour::started(4);
    let a = tour.as_contestant(1, "PROPOSE\nThe game pauses for a holiday.\nENDPROPOSAL\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    // Not yet enacted: no command is run for it.
    let a = tour.gm("EFFECT PROPOSAL 1 PAUSE\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains("not enacted"), "{}", a.reply_body);
    assert_eq!(tour.state().status, Status::Active);
    for n in 2..=4 {
        let a = tour.as_contestant(n, "VOTE FOR PROPOSAL 1\n");
        assert_eq!(a.errors, 0, "{}", a.reply_body);
    }
    // A contestant cannot run the Gamemaster's commands this way.
    let a = tour.as_contestant(2, "EFFECT PROPOSAL 1 PAUSE\n");
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert_eq!(tour.state().status, Status::Active);
    // The Gamemaster carries it out: the command runs and is logged.
    let a = tour.gm("EFFECT PROPOSAL 1 PAUSE\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(tour.state().status, Status::Paused);
    // A refused command is not logged; a note still is.
    let a = tour.gm("EFFECT PROPOSAL 1 PAUSE\n");
    assert_eq!(a.errors, 2, "{}", a.reply_body);
    assert!(
        a.reply_body.contains("not logged against proposal 1"),
        "{}",
        a.reply_body
    );
    let a = tour.gm("EFFECT 1 RESUME\nEFFECT PROPOSAL 1 told everyone to enjoy the holiday\n");
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    assert_eq!(tour.state().status, Status::Active);
    let s = tour.state();
    let p = s.agora.as_ref().unwrap().proposals.get(1).unwrap().clone();
    assert_eq!(
        p.effects,
        vec![
            "ran PAUSE".to_string(),
            "ran RESUME".to_string(),
            "told everyone to enjoy the holiday".to_string()
        ]
    );
    // Each is announced to the tournament, and listed with the regulations.
    assert!(
        tour.mails_to(&contestant(3))
            .iter()
            .any(|m| m.contains("For proposal 1, the Gamemaster: ran PAUSE"))
    );
    let a = tour.as_contestant(3, "GET REGULATIONS\n");
    assert!(
        a.reply_body.contains(
            "Carried out for proposal 1 by the Gamemaster:\n  - ran PAUSE\n  - ran RESUME\n  - told everyone"
        ),
        "{}",
        a.reply_body
    );
}
