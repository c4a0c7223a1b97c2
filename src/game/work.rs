//! The working set of one transaction: the games loaded and changed, the mail
//! queued, all written through the store's `Tx` when the work is done.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::EngineError;
use super::model::{GameState, Role, Status};
use super::process::ProcessError;
use super::variants::{self, Variant};
use crate::lots::LotSecret;
use crate::map::Map;
use crate::schedule;
use crate::store::{
    Game, GameId, GameStatus, InboundId, NewAttachment, NewEvent, NewMembership, NewOutbox,
    OutboxAttachment, Role as StoreRole, Tx,
};

/// A mail to queue: plain parts; the mail layer renders and threads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub to: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<InboundId>,
    pub game: Option<GameId>,
    /// Files sent along (the board picture of a results mail).
    pub attachments: Vec<OutboxAttachment>,
}

/// A game as loaded for this transaction.
pub struct Loaded {
    pub row: Game,
    pub state: GameState,
    /// The game's variant, resolved from its state when loaded (`variants::of`)
    /// and again when a master's command changes it (`resolve_variant`).
    pub variant: &'static dyn Variant,
    pub secret: Option<LotSecret>,
    pub dirty: bool,
    /// The members as the memberships table held them when loaded (`None`
    /// for a game new in this transaction): unchanged, the table needs no
    /// rewrite at flush.
    synced: Option<Vec<Seat>>,
}

impl Loaded {
    /// The board the game is played on.
    pub(crate) fn map(&self) -> &'static Map {
        self.variant.map(&self.state)
    }

    /// The variant again, after `SET VARIANT`, `SET MASTERS` or the start
    /// changed what the game plays.
    pub(crate) fn resolve_variant(&mut self) {
        self.variant = variants::of(&self.state);
    }

    /// The game's lot secret. A game without one is an error: no draw is ever
    /// made with a stand-in anyone could predict.
    pub(crate) fn lot_secret(&self) -> Result<LotSecret, EngineError> {
        self.secret
            .clone()
            .ok_or_else(|| EngineError::NoLotSecret(self.state.name.clone()))
    }
}

/// 32 bytes from the operating system's random source: every lot secret.
pub(crate) fn os_secret() -> [u8; 32] {
    use rand::RngCore;
    let mut b = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut b);
    b
}

/// What of a member the memberships table holds.
type Seat = (String, Role, Option<String>, Vec<Vec<String>>);

fn seats(state: &GameState) -> Vec<Seat> {
    state
        .members
        .iter()
        .map(|m| {
            (
                m.address.clone(),
                m.role,
                m.power.clone(),
                m.preferences.clone(),
            )
        })
        .collect()
}

pub struct Work<'t, 'c> {
    pub tx: &'t Tx<'c>,
    pub now: DateTime<Utc>,
    pub judge: String,
    /// The judge's own address (empty when not known).
    pub judge_address: String,
    pub inbound: Option<InboundId>,
    /// The zone of an address without an account (the judge's default).
    pub default_zone: chrono_tz::Tz,
    games: BTreeMap<String, Loaded>,
    pub outgoing: Vec<Outgoing>,
}

fn store_status(s: Status) -> GameStatus {
    match s {
        Status::Forming => GameStatus::Forming,
        Status::Active => GameStatus::Active,
        Status::Paused => GameStatus::Paused,
        Status::Finished => GameStatus::Finished,
    }
}

fn store_role(r: Role) -> StoreRole {
    match r {
        Role::Player => StoreRole::Player,
        Role::Observer => StoreRole::Observer,
        Role::Master => StoreRole::Master,
        Role::Standby => StoreRole::Standby,
    }
}

impl<'t, 'c> Work<'t, 'c> {
    pub(crate) fn new(
        tx: &'t Tx<'c>,
        now: DateTime<Utc>,
        judge: &str,
        inbound: Option<InboundId>,
    ) -> Self {
        Work {
            tx,
            now,
            judge: judge.to_string(),
            judge_address: String::new(),
            inbound,
            default_zone: chrono_tz::Tz::UTC,
            games: BTreeMap::new(),
            outgoing: Vec::new(),
        }
    }

    /// Loads a game by name (once per transaction). `Ok(None)` if there is none.
    pub(crate) fn load(&mut self, name: &str) -> Result<Option<String>, EngineError> {
        let key = name.to_lowercase();
        if self.games.contains_key(&key) {
            return Ok(Some(key));
        }
        let Some(row) = self.tx.game_by_name(name)? else {
            return Ok(None);
        };
        self.insert_loaded(row)
    }

    pub(crate) fn load_id(&mut self, id: GameId) -> Result<Option<String>, EngineError> {
        if let Some((k, _)) = self.games.iter().find(|(_, l)| l.row.id == id) {
            return Ok(Some(k.clone()));
        }
        let Some(row) = self.tx.game(id)? else {
            return Ok(None);
        };
        self.insert_loaded(row)
    }

    fn insert_loaded(&mut self, row: Game) -> Result<Option<String>, EngineError> {
        let state: GameState =
            serde_json::from_str(&row.state).map_err(|e| EngineError::State(e.to_string()))?;
        let secret = row.lot_secret.as_deref().and_then(LotSecret::from_hex);
        if variants::named(&state.settings.variant).is_none() {
            return Err(ProcessError::UnknownVariant(state.settings.variant).into());
        }
        let key = row.name.to_lowercase();
        let synced = Some(seats(&state));
        self.games.insert(
            key.clone(),
            Loaded {
                row,
                variant: variants::of(&state),
                state,
                secret,
                dirty: false,
                synced,
            },
        );
        Ok(Some(key))
    }

    /// Adds a freshly inserted game to the working set.
    pub(crate) fn adopt(&mut self, row: Game, state: GameState, secret: LotSecret) -> String {
        let key = row.name.to_lowercase();
        self.games.insert(
            key.clone(),
            Loaded {
                row,
                variant: variants::of(&state),
                state,
                secret: Some(secret),
                dirty: true,
                synced: None,
            },
        );
        key
    }

    pub(crate) fn game(&self, key: &str) -> &Loaded {
        &self.games[key]
    }

    /// The game for changing; it will be written back.
    pub(crate) fn game_mut(&mut self, key: &str) -> &mut Loaded {
        let g = self.games.get_mut(key).expect("loaded game");
        g.dirty = true;
        g
    }

    /// The variant of a loaded game.
    pub(crate) fn variant(&self, key: &str) -> &'static dyn Variant {
        self.games[key].variant
    }

    pub(crate) fn send(
        &mut self,
        to: &str,
        subject: String,
        body: String,
        game: Option<GameId>,
        reply: bool,
    ) {
        self.outgoing.push(Outgoing {
            to: to.to_string(),
            subject,
            body,
            in_reply_to: if reply { self.inbound } else { None },
            game,
            attachments: Vec::new(),
        });
    }

    /// Sends `files` along with the mail queued last.
    pub(crate) fn attach(&mut self, files: Vec<OutboxAttachment>) {
        if let Some(m) = self.outgoing.last_mut() {
            m.attachments.extend(files);
        }
    }

    pub(crate) fn event(
        &self,
        game: Option<GameId>,
        kind: &str,
        detail: serde_json::Value,
    ) -> Result<(), EngineError> {
        self.tx.append_event(&NewEvent {
            at: self.now,
            game,
            account: None,
            inbound: self.inbound,
            kind,
            detail: &detail.to_string(),
        })?;
        Ok(())
    }

    /// The time zone an address reads times in.
    pub(crate) fn zone_of(&self, address: &str) -> chrono_tz::Tz {
        match self.tx.account_by_address(address) {
            Ok(Some(a)) => schedule::zone(&a.time_zone),
            _ => self.default_zone,
        }
    }

    /// Writes every changed game back, with its memberships, then the mail.
    pub(crate) fn flush(&mut self) -> Result<(), EngineError> {
        let keys: Vec<String> = self
            .games
            .iter()
            .filter(|(_, g)| g.dirty)
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let g = self.games.get_mut(&key).expect("loaded game");
            g.row.status = store_status(g.state.status);
            g.row.current_phase = g.state.position.as_ref().map(|p| p.phase.clone());
            g.row.next_deadline = next_action(g.variant, &g.state);
            g.row.rules_preset = g.state.settings.rules.clone();
            g.row.settings = serde_json::to_string(&g.state.settings)
                .map_err(|e| EngineError::State(e.to_string()))?;
            g.row.state =
                serde_json::to_string(&g.state).map_err(|e| EngineError::State(e.to_string()))?;
            g.row.lot_commitment = g.state.lot_commitment.clone();
            g.row.lot_secret = g.secret.as_ref().map(LotSecret::to_hex);
            g.row.lot_revealed = g.state.status == Status::Finished;
            self.tx.update_game(&g.row)?;
            g.dirty = false;
            // Only this function writes memberships, always to agree with the
            // state: members unchanged since loading need no rewrite (an order
            // mail, most mail, changes none).
            let now_seats = seats(&g.state);
            if g.synced.as_ref() != Some(&now_seats) {
                sync_memberships(self.tx, g.row.id, &g.state, self.now, self.default_zone)?;
                g.synced = Some(now_seats);
            }
        }
        for m in std::mem::take(&mut self.outgoing) {
            let recipients = [m.to.clone()];
            let id = self.tx.queue_outbox(
                &NewOutbox {
                    recipients: &recipients,
                    subject: &m.subject,
                    headers: &[],
                    body: &m.body,
                    message: None,
                    in_reply_to: m.in_reply_to,
                    game: m.game,
                },
                self.now,
            )?;
            for f in &m.attachments {
                let file = NewAttachment {
                    filename: &f.filename,
                    content_type: &f.content_type,
                    bytes: &f.bytes,
                };
                self.tx.add_outbox_attachment(id, &file)?;
            }
        }
        Ok(())
    }
}

/// When the engine must next look at a game: the deadline until the late
/// notice went out, then the end of grace; never while it waits for a
/// replacement, is paused, forming or over.
pub(crate) fn next_action(variant: &dyn Variant, state: &GameState) -> Option<DateTime<Utc>> {
    if state.status == Status::Forming {
        return variant.forming_wakeup(state);
    }
    if state.status == Status::Paused {
        return state.next_pause_reminder();
    }
    if state.status != Status::Active {
        return None;
    }
    let c = &state.clock;
    if !c.late_notice_sent {
        return c.deadline;
    }
    if state.members.iter().any(|m| m.abandoned) {
        return None;
    }
    c.grace.or(c.deadline)
}

/// Makes the memberships table agree with the game's member list.
fn sync_memberships(
    tx: &Tx<'_>,
    game: GameId,
    state: &GameState,
    now: DateTime<Utc>,
    zone: chrono_tz::Tz,
) -> Result<(), EngineError> {
    let current = tx.memberships(game)?;
    let mut wanted = Vec::new();
    for m in &state.members {
        let account = match tx.account_by_address(&m.address)? {
            Some(a) => a.id,
            None => tx.insert_account(&m.address, None, zone.name(), now)?,
        };
        let prefs: Vec<String> = m.preferences.iter().map(|g| g.join("=")).collect();
        wanted.push((account, store_role(m.role), m.power.clone(), prefs));
    }
    let matches =
        |c: &crate::store::Membership| wanted.iter().any(|w| w.0 == c.account && w.1 == c.role);
    // Ends first, so that a power handed to someone else is free when they take it.
    for c in current.iter().filter(|c| !matches(c)) {
        tx.end_membership(c.id, now)?;
    }
    for (account, role, power, prefs) in &wanted {
        match current
            .iter()
            .find(|c| c.account == *account && c.role == *role)
        {
            Some(c) if c.power == *power && c.preferences == *prefs => {}
            Some(c) => {
                let mut updated = c.clone();
                updated.power = power.clone();
                updated.preferences = prefs.clone();
                tx.update_membership(&updated)?;
            }
            None => {
                tx.insert_membership(
                    &NewMembership {
                        game,
                        account: *account,
                        role: *role,
                        power: power.as_deref(),
                        preferences: prefs,
                    },
                    now,
                )?;
            }
        }
    }
    Ok(())
}
