//! Shared helpers for the engine tests: a game table with a master and seven
//! players, a test clock, and a small order reader for scripted games.
#![allow(dead_code)]

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use legate::game::model::GameState;
use legate::game::{Applied, Engine, EngineConfig, Line, Request};
use legate::judge::Position;
use legate::map::{Location, Map, UnitKind};
use legate::orders::{Order, UnitSpec};
use legate::phase::Phase;
use legate::store::{Game, OutboxMail, PhaseRecord};

pub const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

pub fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect("test time")
        .with_timezone(&Utc)
}

pub fn cmd(request: Request) -> Line {
    Line::Command {
        line: 1,
        text: format!("{request:?}"),
        request,
    }
}

fn loc(map: &Map, text: &str) -> Location {
    map.lookup(text)
        .unwrap_or_else(|| panic!("unknown place {text:?}"))
}

fn spec(map: &Map, kind: &str, at: &str) -> UnitSpec {
    let kind = match kind.to_ascii_uppercase().as_str() {
        "A" => UnitKind::Army,
        "F" => UnitKind::Fleet,
        other => panic!("unit type {other:?}"),
    };
    UnitSpec::new(kind, loc(map, at))
}

/// Reads the few order forms the scripts use: `A PAR - BUR`, `A PAR H`,
/// `F LON S A YOR`, `F LON S A YOR - NTH`, `F NTH C A LON - BEL`, `A MUN D`,
/// `BUILD A PAR`, `REMOVE F TRI`, `WAIVE`.
pub fn order(map: &Map, text: &str) -> Order {
    let w: Vec<&str> = text.split_whitespace().collect();
    let up: Vec<String> = w.iter().map(|s| s.to_ascii_uppercase()).collect();
    let up: Vec<&str> = up.iter().map(String::as_str).collect();
    match up.as_slice() {
        ["WAIVE"] => Order::Waive,
        ["BUILD", k, at] => Order::Build {
            unit: spec(map, k, at),
        },
        ["REMOVE", k, at] => Order::Remove {
            unit: spec(map, k, at),
        },
        [k, at, "H"] => Order::Hold {
            unit: spec(map, k, at),
        },
        [k, at, "D"] => Order::Disband {
            unit: spec(map, k, at),
        },
        [k, at, "-", to] => Order::Move {
            unit: spec(map, k, at),
            to: loc(map, to),
            via_convoy: false,
        },
        [k, at, "S", k2, at2] => Order::SupportHold {
            unit: spec(map, k, at),
            supported: spec(map, k2, at2),
        },
        [k, at, "S", k2, at2, "-", to] => Order::SupportMove {
            unit: spec(map, k, at),
            supported: spec(map, k2, at2),
            to: loc(map, to),
        },
        [k, at, "C", k2, at2, "-", to] => Order::Convoy {
            unit: spec(map, k, at),
            army: spec(map, k2, at2),
            to: loc(map, to),
        },
        _ => panic!("test order {text:?} not understood"),
    }
}

pub fn ord(map: &Map, text: &str) -> Line {
    Line::Order {
        line: 2,
        text: text.to_string(),
        order: order(map, text),
        route: None,
    }
}

/// A database, a master and seven players in one game, and a clock.
pub struct Table {
    pub engine: Engine,
    pub dir: tempfile::TempDir,
    pub now: DateTime<Utc>,
    pub game: String,
    pub master: String,
    /// Power -> address.
    pub players: BTreeMap<String, String>,
}

pub fn address(power: &str) -> String {
    format!("{}@players.test", power.to_lowercase())
}

pub fn password(address: &str) -> String {
    format!("pw-{}", address.split('@').next().unwrap_or(""))
}

impl Table {
    /// An empty judge at `now`.
    pub fn empty(now: DateTime<Utc>) -> Table {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut engine =
            Engine::open(dir.path().join("legate.db"), EngineConfig::default()).expect("engine");
        let mut n = 0u8;
        engine.set_secret_source(move || {
            n = n.wrapping_add(1);
            [n; 32]
        });
        Table {
            engine,
            dir,
            now,
            game: String::new(),
            master: "gm@judge.test".into(),
            players: BTreeMap::new(),
        }
    }

    /// A started standard game: each player asks for a different power first.
    pub fn started(name: &str, now: DateTime<Utc>) -> Table {
        let mut table = Table::empty(now);
        table.game = name.to_string();
        let master = table.master.clone();
        let a = table.send(
            &master,
            vec![cmd(Request::Create {
                game: name.into(),
                password: "gm-pw".into(),
                variant: None,
            })],
        );
        assert_eq!(a.errors, 0, "{}", a.reply_body);
        for power in POWERS {
            let addr = address(power);
            let a = table.send(
                &addr,
                vec![
                    cmd(Request::SignOn {
                        power: None,
                        game: name.into(),
                        password: password(&addr),
                    }),
                    cmd(Request::SetPreference(vec![vec![power.to_string()]])),
                ],
            );
            assert_eq!(a.errors, 0, "{}", a.reply_body);
            table.players.insert(power.to_string(), addr);
        }
        let s = table.state();
        assert_eq!(s.status, legate::game::model::Status::Active);
        for (power, addr) in &table.players {
            assert_eq!(
                s.player_of(power).map(|m| m.address.as_str()),
                Some(addr.as_str())
            );
        }
        table
    }

    pub fn map(&self) -> &'static Map {
        Map::standard()
    }

    pub fn send(&mut self, from: &str, lines: Vec<Line>) -> Applied {
        self.engine
            .apply(from, &lines, None, self.now)
            .expect("apply")
    }

    pub fn signon(&self, power: &str) -> Line {
        let addr = &self.players[power];
        cmd(Request::SignOn {
            power: Some(power.to_string()),
            game: self.game.clone(),
            password: password(addr),
        })
    }

    /// Signs on as `power` and gives the orders.
    pub fn orders(&mut self, power: &str, orders: &[&str]) -> Applied {
        let mut lines = vec![self.signon(power)];
        let map = self.map();
        lines.extend(orders.iter().map(|o| ord(map, o)));
        let from = self.players[power].clone();
        self.send(&from, lines)
    }

    pub fn as_master(&mut self, requests: Vec<Request>) -> Applied {
        let mut lines = vec![cmd(Request::SignOn {
            power: Some("M".into()),
            game: self.game.clone(),
            password: "gm-pw".into(),
        })];
        lines.extend(requests.into_iter().map(cmd));
        let from = self.master.clone();
        self.send(&from, lines)
    }

    pub fn state(&mut self) -> GameState {
        let name = self.game.clone();
        let row = self
            .engine
            .store()
            .transaction(|tx| tx.game_by_name(&name))
            .expect("read")
            .expect("game exists");
        serde_json::from_str(&row.state).expect("state")
    }

    pub fn raw_state(&mut self) -> String {
        let name = self.game.clone();
        self.engine
            .store()
            .transaction(|tx| tx.game_by_name(&name))
            .expect("read")
            .expect("game")
            .state
    }

    pub fn phase(&mut self) -> Phase {
        self.state()
            .phase_name()
            .expect("phase")
            .parse()
            .expect("phase name")
    }

    pub fn phases(&mut self) -> Vec<PhaseRecord> {
        let name = self.game.clone();
        self.engine
            .store()
            .transaction(|tx| {
                let g = tx.game_by_name(&name)?.expect("game");
                tx.phases(g.id)
            })
            .expect("phases")
    }

    pub fn outbox(&mut self) -> Vec<OutboxMail> {
        self.engine
            .store()
            .transaction(|tx| tx.queued_outbox(t("2999-01-01T00:00:00Z"), 1_000_000))
            .expect("outbox")
    }

    pub fn advance(&mut self, d: Duration) {
        self.now += d;
    }

    pub fn deadline(&mut self) -> DateTime<Utc> {
        self.state().clock.deadline.expect("deadline")
    }

    /// An empty judge on 2 March 2026 with game `name` created by the
    /// master's mail `CREATE ?name gm-pw <words>`.
    pub fn created_by_mail(name: &str, words: &str) -> Table {
        let mut table = Table::empty(t("2026-03-02T10:00:00Z"));
        table.game = name.to_string();
        let master = table.master.clone();
        let body = format!("{}\n", format!("CREATE ?{name} gm-pw {words}").trim_end());
        no_errors(table.mail(&master, &body));
        table
    }

    /// A mail body from `from`, read as the judge reads mail text.
    pub fn mail(&mut self, from: &str, body: &str) -> Applied {
        self.engine
            .apply_text(from, body, None, self.now)
            .expect("apply")
    }

    /// A mail from the player of `power`, signed on: `SIGNON <initial><game> pw`,
    /// then the lines of `body`.
    pub fn player_mail(&mut self, power: &str, body: &str) -> Applied {
        let addr = self.players[power].clone();
        let text = format!(
            "SIGNON {}{} {}\n{body}\n",
            &power[..1],
            self.game,
            password(&addr)
        );
        self.mail(&addr, &text)
    }

    /// A mail from the master: `SIGNON M<game> gm-pw`, then the lines of `body`.
    pub fn master_mail(&mut self, body: &str) -> Applied {
        let end = if body.ends_with('\n') { "" } else { "\n" };
        let text = format!("SIGNON M{} gm-pw\n{body}{end}", self.game);
        let from = self.master.clone();
        self.mail(&from, &text)
    }

    /// The master's PROCESS, answered without error.
    pub fn process_by_master(&mut self) {
        no_errors(self.master_mail("PROCESS\n"));
    }

    /// The queued mails to `to` whose subject holds `subject`, oldest first.
    pub fn mails_to(&mut self, to: &str, subject: &str) -> Vec<OutboxMail> {
        self.outbox()
            .into_iter()
            .filter(|m| m.recipients.iter().any(|r| r == to) && m.subject.contains(subject))
            .collect()
    }

    /// The body of the newest results mail to `to`.
    pub fn last_results_to(&mut self, to: &str) -> String {
        self.mails_to(to, "results")
            .pop()
            .map(|m| m.body)
            .unwrap_or_else(|| panic!("no results mail to {to}"))
    }

    /// Rewrites the stored game, as a master's adjustment would: `f` changes
    /// the state and may change the row.
    pub fn edit_game(&mut self, f: impl FnOnce(&mut GameState, &mut Game)) {
        let name = self.game.clone();
        self.engine
            .store()
            .transaction(|tx| {
                let mut row = tx.game_by_name(&name)?.expect("game");
                let mut state: GameState = serde_json::from_str(&row.state).expect("state");
                f(&mut state, &mut row);
                row.state = serde_json::to_string(&state).expect("json");
                tx.update_game(&row)
            })
            .expect("edit");
    }

    /// Rewrites the stored game state, as a master's adjustment would.
    pub fn edit_state(&mut self, f: impl FnOnce(&mut GameState)) {
        self.edit_game(|state, _| f(state));
    }

    /// The board on the game's own map.
    pub fn position(&mut self) -> Position {
        let state = self.state();
        state
            .position
            .as_ref()
            .expect("board")
            .to_position(map_of(&state))
            .expect("position")
    }

    pub fn centers(&mut self, power: &str) -> usize {
        self.state()
            .position
            .expect("board")
            .owners
            .values()
            .filter(|p| *p == power)
            .count()
    }
}

/// The map of the game's variant.
pub fn map_of(state: &GameState) -> &'static Map {
    legate::game::process::map_for(&state.settings.variant).expect("map")
}

/// `a`, after checking that it was answered without error.
pub fn no_errors(a: Applied) -> Applied {
    assert_eq!(a.errors, 0, "{}", a.reply_body);
    a
}

/// `a`, after checking that it was refused with one error that says `says`.
pub fn one_error(a: Applied, says: &str) -> Applied {
    assert_eq!(a.errors, 1, "{}", a.reply_body);
    assert!(a.reply_body.contains(says), "{}", a.reply_body);
    a
}

/// Checks that `text` says each of `parts`.
pub fn assert_says(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
}

/// Each phase of a script, with each power's orders.
pub type Script = Vec<(Phase, Vec<(String, Vec<String>)>)>;

/// A scripted game: phase headers (`S1901M`) each followed by lines
/// `Power: order; order`. Blank lines and `#` comments are skipped.
pub fn read_script(text: &str) -> Script {
    let mut out: Script = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Ok(p) = line.parse::<Phase>() {
            out.push((p, Vec::new()));
            continue;
        }
        let (power, orders) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("script line {line:?}"));
        let orders = orders
            .split(';')
            .map(|o| o.trim().to_string())
            .filter(|o| !o.is_empty())
            .collect();
        out.last_mut()
            .expect("a phase header first")
            .1
            .push((power.trim().to_string(), orders));
    }
    out
}
