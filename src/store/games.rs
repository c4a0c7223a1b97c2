//! Games and memberships (who plays, watches, runs or stands by for a game).

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{
    AccountId, GameId, MembershipId, StoreError, Tx, from_json_list, from_opt_secs, from_secs,
    to_json_list, to_secs,
};

super::text_enum!(
    /// Where a game is in its life.
    GameStatus, "games.status" {
        Forming = "forming",
        Active = "active",
        Paused = "paused",
        Finished = "finished",
    }
);

super::text_enum!(
    /// What a member does in a game.
    Role, "memberships.role" {
        Player = "player",
        Observer = "observer",
        Master = "master",
        Standby = "standby",
    }
);

/// What is needed to create a game; it starts `Forming` with an empty state.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub name: &'a str,
    pub variant: &'a str,
    pub rules_preset: &'a str,
    /// JSON text.
    pub settings: &'a str,
    /// JSON text: the engine's own game model.
    pub state: &'a str,
    /// Hex SHA-256 of the lot secret, announced at start.
    pub lot_commitment: Option<&'a str>,
    /// The secret itself; kept private until `lot_revealed`.
    pub lot_secret: Option<&'a str>,
}

/// A game row. Read it, change the public fields, write it back with
/// [`Tx::update_game`]; `id`, `name`, `variant` and `created_at` never change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub id: GameId,
    /// Unique, compared without regard to case.
    pub name: String,
    pub variant: String,
    pub rules_preset: String,
    /// JSON text.
    pub settings: String,
    pub status: GameStatus,
    /// Phase name (`S1901M`) while the game runs.
    pub current_phase: Option<String>,
    /// When the current phase is next due; indexed for [`Tx::due_games`].
    pub next_deadline: Option<DateTime<Utc>>,
    /// JSON text: the engine's own game model, opaque to the store.
    pub state: String,
    pub lot_commitment: Option<String>,
    pub lot_secret: Option<String>,
    /// Whether the secret has been published (the game is over).
    pub lot_revealed: bool,
    pub created_at: DateTime<Utc>,
}

const GAME_COLUMNS: &str = "id, name, variant, rules_preset, settings, status, current_phase, \
     next_deadline, state, lot_commitment, lot_secret, lot_revealed, created_at";

fn game_from_row(r: &Row<'_>) -> Result<Game, StoreError> {
    Ok(Game {
        id: GameId(r.get(0)?),
        name: r.get(1)?,
        variant: r.get(2)?,
        rules_preset: r.get(3)?,
        settings: r.get(4)?,
        status: GameStatus::parse(&r.get::<_, String>(5)?)?,
        current_phase: r.get(6)?,
        next_deadline: from_opt_secs("games.next_deadline", r.get(7)?)?,
        state: r.get(8)?,
        lot_commitment: r.get(9)?,
        lot_secret: r.get(10)?,
        lot_revealed: r.get(11)?,
        created_at: from_secs("games.created_at", r.get(12)?)?,
    })
}

/// A new membership.
#[derive(Clone, Debug)]
pub struct NewMembership<'a> {
    pub game: GameId,
    pub account: AccountId,
    pub role: Role,
    /// The power held, once assigned (players only).
    pub power: Option<&'a str>,
    /// Powers in order of preference, as given at sign-on.
    pub preferences: &'a [String],
}

/// One person's current or past role in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Membership {
    pub id: MembershipId,
    pub game: GameId,
    pub account: AccountId,
    pub role: Role,
    pub power: Option<String>,
    pub preferences: Vec<String>,
    pub joined_at: DateTime<Utc>,
    /// Set when the person left or was replaced; the row stays as history.
    pub left_at: Option<DateTime<Utc>>,
}

const MEMBER_COLUMNS: &str =
    "id, game_id, account_id, role, power, preferences, joined_at, left_at";

fn membership_from_row(r: &Row<'_>) -> Result<Membership, StoreError> {
    Ok(Membership {
        id: MembershipId(r.get(0)?),
        game: GameId(r.get(1)?),
        account: AccountId(r.get(2)?),
        role: Role::parse(&r.get::<_, String>(3)?)?,
        power: r.get(4)?,
        preferences: from_json_list("memberships.preferences", &r.get::<_, String>(5)?)?,
        joined_at: from_secs("memberships.joined_at", r.get(6)?)?,
        left_at: from_opt_secs("memberships.left_at", r.get(7)?)?,
    })
}

impl Tx<'_> {
    /// Creates a game in the `Forming` state. Fails with
    /// [`StoreError::Constraint`] if the name is taken or a JSON text is invalid.
    pub fn insert_game(
        &self,
        game: &NewGame<'_>,
        now: DateTime<Utc>,
    ) -> Result<GameId, StoreError> {
        self.insert(
            "INSERT INTO games (name, variant, rules_preset, settings, state,
                                lot_commitment, lot_secret, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game.name,
                game.variant,
                game.rules_preset,
                game.settings,
                game.state,
                game.lot_commitment,
                game.lot_secret,
                to_secs(now)
            ],
        )
        .map(GameId)
    }

    pub fn game(&self, id: GameId) -> Result<Option<Game>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
        self.query_opt(&sql, [id.0], game_from_row)
    }

    /// Looks a game up by name, ignoring case.
    pub fn game_by_name(&self, name: &str) -> Result<Option<Game>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE name = ?1");
        self.query_opt(&sql, [name], game_from_row)
    }

    /// Every game, or only those with `status`, by name.
    pub fn games(&self, status: Option<GameStatus>) -> Result<Vec<Game>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ?1 IS NULL OR status = ?1 ORDER BY name"
        );
        self.query_all(&sql, [status.map(GameStatus::as_str)], game_from_row)
    }

    /// Active games whose deadline is at or before `now`, earliest first, and
    /// forming games whose wake-up is (a variant's, e.g. the close of entry).
    pub fn due_games(&self, now: DateTime<Utc>) -> Result<Vec<GameId>, StoreError> {
        self.query_all(
            "SELECT id FROM games
             WHERE status IN ('active', 'forming', 'paused') AND next_deadline IS NOT NULL
               AND next_deadline <= ?1
             ORDER BY next_deadline, id",
            [to_secs(now)],
            |r| Ok(GameId(r.get(0)?)),
        )
    }

    /// The earliest deadline of any active game (or wake-up of a forming
    /// one), for the daemon's alarm.
    pub fn next_deadline(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let secs: Option<Option<i64>> = self.query_opt(
            "SELECT MIN(next_deadline) FROM games WHERE status IN ('active', 'forming', 'paused')",
            [],
            |r| Ok(r.get(0)?),
        )?;
        from_opt_secs("games.next_deadline", secs.flatten())
    }

    /// Writes back every changeable field of `game` (all but id, name, variant,
    /// created_at).
    pub fn update_game(&self, game: &Game) -> Result<(), StoreError> {
        self.execute_one(
            "game",
            game.id.0,
            "UPDATE games SET rules_preset = ?2, settings = ?3, status = ?4, current_phase = ?5,
                 next_deadline = ?6, state = ?7, lot_commitment = ?8, lot_secret = ?9,
                 lot_revealed = ?10
             WHERE id = ?1",
            params![
                game.id.0,
                game.rules_preset,
                game.settings,
                game.status.as_str(),
                game.current_phase,
                game.next_deadline.map(to_secs),
                game.state,
                game.lot_commitment,
                game.lot_secret,
                game.lot_revealed
            ],
        )
    }

    /// Adds a member. Fails with [`StoreError::Constraint`] if the person
    /// already has this role in the game, or another current player holds `power`.
    pub fn insert_membership(
        &self,
        m: &NewMembership<'_>,
        now: DateTime<Utc>,
    ) -> Result<MembershipId, StoreError> {
        self.insert(
            "INSERT INTO memberships (game_id, account_id, role, power, preferences, joined_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                m.game.0,
                m.account.0,
                m.role.as_str(),
                m.power,
                to_json_list(m.preferences),
                to_secs(now)
            ],
        )
        .map(MembershipId)
    }

    pub fn membership(&self, id: MembershipId) -> Result<Option<Membership>, StoreError> {
        let sql = format!("SELECT {MEMBER_COLUMNS} FROM memberships WHERE id = ?1");
        self.query_opt(&sql, [id.0], membership_from_row)
    }

    /// The current members of a game (not those who left), in joining order.
    pub fn memberships(&self, game: GameId) -> Result<Vec<Membership>, StoreError> {
        let sql = format!(
            "SELECT {MEMBER_COLUMNS} FROM memberships
             WHERE game_id = ?1 AND left_at IS NULL ORDER BY id"
        );
        self.query_all(&sql, [game.0], membership_from_row)
    }

    /// Every membership a game ever had, including those who left, in joining order.
    pub fn membership_history(&self, game: GameId) -> Result<Vec<Membership>, StoreError> {
        let sql =
            format!("SELECT {MEMBER_COLUMNS} FROM memberships WHERE game_id = ?1 ORDER BY id");
        self.query_all(&sql, [game.0], membership_from_row)
    }

    /// The current memberships of one account across all games.
    pub fn memberships_of(&self, account: AccountId) -> Result<Vec<Membership>, StoreError> {
        let sql = format!(
            "SELECT {MEMBER_COLUMNS} FROM memberships
             WHERE account_id = ?1 AND left_at IS NULL ORDER BY id"
        );
        self.query_all(&sql, [account.0], membership_from_row)
    }

    /// Writes back role, power, preferences and left_at of `m`.
    pub fn update_membership(&self, m: &Membership) -> Result<(), StoreError> {
        self.execute_one(
            "membership",
            m.id.0,
            "UPDATE memberships SET role = ?2, power = ?3, preferences = ?4, left_at = ?5
             WHERE id = ?1",
            params![
                m.id.0,
                m.role.as_str(),
                m.power,
                to_json_list(&m.preferences),
                m.left_at.map(to_secs)
            ],
        )
    }

    /// Ends a membership at `now`; the row stays as history.
    pub fn end_membership(&self, id: MembershipId, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.execute_one(
            "current membership",
            id.0,
            "UPDATE memberships SET left_at = ?2 WHERE id = ?1 AND left_at IS NULL",
            params![id.0, to_secs(now)],
        )
    }
}
