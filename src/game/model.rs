//! The game model: everything the engine knows about one game, as one
//! serialisable document (the `state` column of the games table).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::docs::{OrderDoc, PositionDoc};
use crate::lots::Draw;
use crate::schedule::{Absence, Schedule};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Forming,
    Active,
    Paused,
    Finished,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Player,
    Observer,
    Master,
    Standby,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PressKind {
    White,
    Grey,
    None,
}

/// How the game is played; changed by its master.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub variant: String,
    /// `2023`, `2000` or `1971`.
    pub rules: String,
    pub press: PressKind,
    /// NMR: late powers go into civil disorder at the end of grace. Without it
    /// (the default) the game waits and the late power is marked abandoned.
    pub nmr: bool,
    /// Whether a player may `SET WAIT` to hold back early processing.
    pub wait_allowed: bool,
    /// Whether partial draws (not every survivor) may be proposed (njudge's
    /// `SET NODIAS`).
    pub partial: bool,
    /// Press to some powers only is refused: broadcasts and press to the
    /// master only (njudge's `SET NO PARTIAL`).
    #[serde(default)]
    pub broadcast_only: bool,
    pub schedule: Schedule,
    /// Players needed to start.
    pub players_needed: usize,
    /// njudge's Master settings: listing, comment, moderation, start by hand...
    #[serde(default)]
    pub house: super::house::HouseSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            variant: "standard".to_string(),
            rules: "2023".to_string(),
            press: PressKind::White,
            nmr: false,
            wait_allowed: true,
            partial: false,
            broadcast_only: false,
            schedule: Schedule::default(),
            players_needed: 7,
            house: Default::default(),
        }
    }
}

/// One person's part in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub address: String,
    pub role: Role,
    /// The power played (players only, once assigned).
    #[serde(default)]
    pub power: Option<String>,
    /// Argon2 hash of the password given when joining.
    pub password_hash: String,
    /// Preference list: groups of powers, most wanted first; a group holds
    /// powers liked equally.
    #[serde(default)]
    pub preferences: Vec<Vec<String>>,
    /// `SET PREFERENCE *`: any power, drawn by lot before the lists are read.
    #[serde(default)]
    pub any_power: bool,
    #[serde(default)]
    pub wait: bool,
    /// `Some(list)`: votes for a draw among `list` (empty = every survivor).
    #[serde(default)]
    pub draw: Option<Vec<String>>,
    #[serde(default)]
    pub concede: Option<String>,
    #[serde(default)]
    pub absences: Vec<Absence>,
    /// Missed a deadline in a game without NMR: the game waits for a replacement.
    #[serde(default)]
    pub abandoned: bool,
}

impl Member {
    /// A newcomer in `role` with nothing chosen yet.
    pub fn new(address: &str, role: Role, password_hash: String) -> Member {
        Member {
            address: address.to_string(),
            role,
            power: None,
            password_hash,
            preferences: Vec::new(),
            any_power: false,
            wait: false,
            draw: None,
            concede: None,
            absences: Vec::new(),
            abandoned: false,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    Solo { power: String },
    Draw { powers: Vec<String> },
    Concession { power: String },
    Terminated,
}

/// Orders given for a phase that has not come yet (`PHASE` blocks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FutureOrders {
    pub phase: String,
    pub power: String,
    pub orders: Vec<OrderDoc>,
}

/// A private note (`DIARY`), given back to its author when the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiaryEntry {
    pub author: String,
    #[serde(default)]
    pub power: Option<String>,
    #[serde(default)]
    pub phase: Option<String>,
    pub at: DateTime<Utc>,
    pub text: String,
}

/// Where the clock of the current phase stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseClock {
    pub deadline: Option<DateTime<Utc>>,
    /// The end of grace; late powers are dealt with then.
    pub grace: Option<DateTime<Utc>>,
    /// The late notice for this phase went out.
    #[serde(default)]
    pub late_notice_sent: bool,
    /// Powers whose abandonment this phase was announced (once per phase, even
    /// if the player comes back with incomplete orders and is late again).
    #[serde(default)]
    pub abandon_announced: Vec<String>,
    /// The master set the deadline by hand.
    #[serde(default)]
    pub explicit: bool,
    /// When the phase began (its clock was set): njudge's `MIN` counts from it.
    #[serde(default)]
    pub started: Option<DateTime<Utc>>,
    /// The deadline the phase had before `MIN`/`DELAY` brought it forward
    /// (changed orders restart `DELAY`, never past it).
    #[serde(default)]
    pub held_from: Option<DateTime<Utc>>,
    /// A paused game's next reminder (`game::pause`).
    #[serde(default)]
    pub pause_reminder: Option<DateTime<Utc>>,
}

/// The whole state of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pub name: String,
    pub status: Status,
    /// Paused games remember what they were.
    #[serde(default)]
    pub paused_from: Option<Status>,
    pub settings: Settings,
    pub members: Vec<Member>,
    /// The board now (absent while forming).
    #[serde(default)]
    pub position: Option<PositionDoc>,
    /// Orders for the current phase, per power, in the order they apply.
    #[serde(default)]
    pub orders: BTreeMap<String, Vec<OrderDoc>>,
    #[serde(default)]
    pub future_orders: Vec<FutureOrders>,
    /// Conditional orders (`IF ... ELSE ... ENDIF`) waiting for their phase.
    #[serde(default)]
    pub conditional: Vec<super::conditions::ConditionalOrders>,
    #[serde(default)]
    pub diary: Vec<DiaryEntry>,
    #[serde(default)]
    pub clock: PhaseClock,
    /// The published SHA-256 of the lot secret (the secret itself is kept in
    /// its own column until the game ends).
    #[serde(default)]
    pub lot_commitment: Option<String>,
    #[serde(default)]
    pub draws: Vec<Draw>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// Count of phases processed (the store's phase sequence number of the next one).
    #[serde(default)]
    pub next_seq: i64,
    /// Grand Tournament Diplomacy: countries, commanders, heads of government.
    #[serde(default)]
    pub gtd: Option<crate::variant::gtd::game::GtdGame>,
    /// Twilight Zone: the players' maps and the map each order names.
    #[serde(default)]
    pub twilight: Option<crate::variant::twilight::game::TwilightGame>,
    /// Masters Rules: the rules chosen, minors and rebels, orders kept until
    /// the deadline.
    #[serde(default)]
    pub masters: Option<crate::variant::masters::game::MastersGame>,
    /// The Agora Birthday Tournament: contestants, the living regulations,
    /// proposals and votes, assistants, the draw clock, the winners.
    #[serde(default)]
    pub agora: Option<crate::variant::agora::state::Agora>,
}

impl GameState {
    pub fn new(name: &str, settings: Settings) -> GameState {
        GameState {
            name: name.to_string(),
            status: Status::Forming,
            paused_from: None,
            settings,
            members: Vec::new(),
            position: None,
            orders: BTreeMap::new(),
            future_orders: Vec::new(),
            conditional: Vec::new(),
            diary: Vec::new(),
            clock: PhaseClock::default(),
            lot_commitment: None,
            draws: Vec::new(),
            outcome: None,
            next_seq: 0,
            gtd: None,
            twilight: None,
            masters: None,
            agora: None,
        }
    }

    pub fn member(&self, address: &str) -> Option<&Member> {
        self.members
            .iter()
            .find(|m| m.address.eq_ignore_ascii_case(address))
    }

    /// The player of a power.
    pub fn player_of(&self, power: &str) -> Option<&Member> {
        self.members.iter().find(|m| {
            m.role == Role::Player
                && m.power
                    .as_deref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(power))
        })
    }

    pub fn player_of_mut(&mut self, power: &str) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| {
            m.role == Role::Player
                && m.power
                    .as_deref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(power))
        })
    }

    pub fn players(&self) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(|m| m.role == Role::Player)
    }

    pub fn masters(&self) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(|m| m.role == Role::Master)
    }

    /// Every address that receives the game's results: players, observers, masters.
    pub fn audience(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for m in &self.members {
            if m.role != Role::Standby && !out.iter().any(|a| a.eq_ignore_ascii_case(&m.address)) {
                out.push(m.address.clone());
            }
        }
        out
    }

    /// When a paused game next reminds its members (`game::pause`).
    pub fn next_pause_reminder(&self) -> Option<DateTime<Utc>> {
        (self.status == Status::Paused)
            .then_some(self.clock.pause_reminder)
            .flatten()
    }

    pub fn phase_name(&self) -> Option<&str> {
        self.position.as_ref().map(|p| p.phase.as_str())
    }
}
