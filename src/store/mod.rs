//! The durable store: one SQLite file holding accounts, games, phases, orders,
//! the raw mail received, the outbox and an append-only event log.
//!
//! Every change goes through [`Store::transaction`], which runs a closure over a
//! [`Tx`] inside one `BEGIN IMMEDIATE` transaction: it commits when the closure
//! returns `Ok` and rolls back when it returns `Err` (or panics). A command and
//! the replies it causes are written in the same transaction, so after a crash
//! either both are there or neither is.
//!
//! Conventions:
//! - Times are `DateTime<Utc>` in the API and unix seconds (UTC) in the file;
//!   sub-second parts are dropped. The store never reads the clock: callers
//!   pass `now`.
//! - JSON documents (game state, settings, positions, results) are passed as
//!   JSON text; the store checks they are valid JSON and otherwise treats them
//!   as opaque.
//! - Ids are small newtypes over the SQLite row id.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, ErrorCode, OpenFlags, TransactionBehavior};

mod accounts;
mod events;
mod games;
mod inbound;
mod orders;
mod outbox;
mod password;
mod phases;
mod press;
mod schema;
mod votes;

pub use accounts::Account;
pub use events::{Event, NewEvent};
pub use games::{Game, GameStatus, Membership, NewGame, NewMembership, Role};
pub use inbound::{InboundInsert, InboundMail, InboundStatus, synthetic_message_id};
pub use orders::{NewOrder, OrderRecord};
pub use outbox::{NewAttachment, NewOutbox, OutboxAttachment, OutboxMail, OutboxStatus};
pub use password::{argon2_runs, hash_password, verify_password, verify_seat_password};
pub use phases::{NewPhase, PhaseRecord};
pub use press::{NewPress, Press};
pub use schema::LATEST_VERSION;
pub use votes::Vote;

/// How long a writer waits for another process holding the write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Enough prepared statements to keep every query of the API cached.
const STATEMENT_CACHE: usize = 128;

/// Everything that can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open database {path}: {source}")]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error(
        "database {path} is damaged ({detail}); refusing to use it: restore it from a backup \
         or repair it with the sqlite3 `.recover` command"
    )]
    Damaged { path: PathBuf, detail: String },
    #[error(
        "database {path} has schema version {found}, newer than this program knows \
         ({supported}); use a newer legate"
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    #[error("migration to schema version {version} failed: {source}")]
    Migration {
        version: i64,
        #[source]
        source: rusqlite::Error,
    },
    /// A uniqueness, foreign-key, check or trigger rule refused the change.
    #[error("refused by the database: {0}")]
    Constraint(String),
    #[error("no {what} with id {id}")]
    NotFound { what: &'static str, id: i64 },
    #[error("unexpected value {value:?} in {column}")]
    BadValue { column: &'static str, value: String },
    #[error("password hashing failed: {0}")]
    Password(String),
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(ErrorCode::ConstraintViolation) => {
                let detail = match &e {
                    rusqlite::Error::SqliteFailure(_, Some(msg)) => msg.clone(),
                    other => other.to_string(),
                };
                StoreError::Constraint(detail)
            }
            _ => StoreError::Sqlite(e),
        }
    }
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub i64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// Row id of an account.
    AccountId
);
id_type!(
    /// Row id of a game.
    GameId
);
id_type!(
    /// Row id of a membership (one person's role in one game).
    MembershipId
);
id_type!(
    /// Row id of a processed phase.
    PhaseId
);
id_type!(
    /// Row id of a submitted order line.
    OrderId
);
id_type!(
    /// Row id of a received mail.
    InboundId
);
id_type!(
    /// Row id of an outgoing mail.
    OutboxId
);
id_type!(
    /// Row id of a press message.
    PressId
);
id_type!(
    /// Row id of an event.
    EventId
);

/// Unix seconds as stored in the file.
pub(crate) fn to_secs(t: DateTime<Utc>) -> i64 {
    t.timestamp()
}

pub(crate) fn from_secs(column: &'static str, secs: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp(secs, 0).ok_or(StoreError::BadValue {
        column,
        value: secs.to_string(),
    })
}

pub(crate) fn from_opt_secs(
    column: &'static str,
    secs: Option<i64>,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    secs.map(|s| from_secs(column, s)).transpose()
}

/// Strings stored as JSON arrays (recipients, preference lists).
pub(crate) fn to_json_list(items: &[String]) -> String {
    serde_json::Value::from(items.to_vec()).to_string()
}

pub(crate) fn from_json_list(column: &'static str, text: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(text).map_err(|_| StoreError::BadValue {
        column,
        value: text.to_string(),
    })
}

/// An open database. Not shared between threads; open one per task.
pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
    /// Schema version found at open, before migrating.
    opened_at_version: i64,
    /// Transactions committed through [`Store::transaction`] (each a sync to disk
    /// when it wrote anything, unless syncs are grouped).
    commits: u64,
    /// Commits are not synced one by one; [`Store::sync`] makes them durable.
    grouped: bool,
}

impl Store {
    /// Opens (creating if needed) the database at `path`: WAL journal, foreign keys,
    /// full fsync on commit, a busy timeout, `PRAGMA quick_check`, then migration to
    /// [`LATEST_VERSION`]. A damaged file gives [`StoreError::Damaged`] and is left alone.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        create_private(&path).map_err(|e| StoreError::Open {
            path: path.clone(),
            source: rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                Some(e.to_string()),
            ),
        })?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags).map_err(|e| open_error(&path, e))?;
        let mut store = Store {
            conn,
            path: Some(path.clone()),
            opened_at_version: 0,
            commits: 0,
            grouped: false,
        };
        store.configure().map_err(|e| open_error(&path, e))?;
        store.check_integrity(&path)?;
        store.opened_at_version = schema::migrate(&store.conn, &path)?;
        Ok(store)
    }

    /// A second connection to a database another connection of this process
    /// has opened (and checked and migrated), for reading only: no check, no
    /// migration. Reads go through [`Store::read`].
    pub fn open_reader(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags).map_err(|e| open_error(&path, e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| open_error(&path, e))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let opened_at_version = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| open_error(&path, e))?;
        Ok(Store {
            conn,
            path: Some(path),
            opened_at_version,
            commits: 0,
            grouped: false,
        })
    }

    /// A fresh private database in memory, migrated. For unit tests.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| open_error(&path, e))?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(|e| open_error(&path, e))?;
        let opened_at_version = schema::migrate(&conn, &path)?;
        Ok(Store {
            conn,
            path: None,
            opened_at_version,
            commits: 0,
            grouped: false,
        })
    }

    fn configure(&self) -> rusqlite::Result<()> {
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        self.conn
            .set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        // WAL keeps readers off the writer's back; FULL syncs the log on every
        // commit so a committed command survives power loss, not only a crash.
        let mode: String = self
            .conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                Some(format!("could not switch to WAL journal (got {mode})")),
            ));
        }
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        self.conn.pragma_update(None, "foreign_keys", true)?;
        Ok(())
    }

    fn check_integrity(&self, path: &Path) -> Result<(), StoreError> {
        // quick_check reports problems as rows, but on a badly broken page it
        // may also stop with SQLITE_CORRUPT after a few rows: keep both.
        let mut findings = Vec::new();
        let mut stmt = self
            .conn
            .prepare("PRAGMA quick_check")
            .map_err(|e| open_error(path, e))?;
        let mut rows = stmt.query([]).map_err(|e| open_error(path, e))?;
        loop {
            match rows.next() {
                Ok(Some(row)) => findings.push(row.get::<_, String>(0).unwrap_or_default()),
                Ok(None) => break,
                Err(e) => match open_error(path, e) {
                    StoreError::Damaged { detail, .. } => {
                        findings.push(detail);
                        break;
                    }
                    other => return Err(other),
                },
            }
        }
        if findings.len() == 1 && findings[0] == "ok" {
            return Ok(());
        }
        let shown = findings.len().min(5);
        let mut detail = findings[..shown].join("; ");
        if findings.len() > shown {
            detail.push_str(&format!("; and {} more", findings.len() - shown));
        }
        if detail.is_empty() {
            detail = "quick_check gave no answer".to_string();
        }
        Err(StoreError::Damaged {
            path: path.to_path_buf(),
            detail,
        })
    }

    /// The file this store was opened from (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The schema version of the open file (`PRAGMA user_version`).
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Writes a consistent, compacted copy of the database to `dest`, which
    /// must not exist yet (`VACUUM INTO`). Safe while other processes write.
    pub fn backup_to(&self, dest: impl AsRef<Path>) -> Result<(), StoreError> {
        let dest = dest.as_ref();
        let text = dest.to_str().ok_or_else(|| StoreError::BadValue {
            column: "backup path",
            value: dest.display().to_string(),
        })?;
        if dest.exists() {
            return Err(StoreError::Constraint(format!(
                "backup target {} already exists",
                dest.display()
            )));
        }
        self.conn.execute("VACUUM INTO ?1", [text])?;
        Ok(())
    }

    /// Runs `f` in one IMMEDIATE transaction: commits if it returns `Ok`, rolls
    /// back if it returns `Err` or panics. Transactions do not nest: `&mut self`
    /// makes that a compile error.
    pub fn transaction<T, E>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let value = f(&Tx { conn: &tx })?;
        tx.commit().map_err(StoreError::from)?;
        self.commits += 1;
        Ok(value)
    }

    /// Runs `f` in one read transaction (a consistent snapshot; other
    /// connections may write meanwhile). For connections from
    /// [`Store::open_reader`], which cannot start a writing transaction.
    pub fn read<T, E>(&mut self, f: impl FnOnce(&Tx<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Deferred)
            .map_err(StoreError::from)?;
        let value = f(&Tx { conn: &tx })?;
        tx.finish().map_err(StoreError::from)?;
        Ok(value)
    }

    /// How many transactions this connection has committed.
    pub fn commits(&self) -> u64 {
        self.commits
    }

    /// Groups syncs to disk: from now on a commit of this connection is written
    /// to the log (`synchronous = NORMAL`) but not synced; [`Store::sync`] syncs
    /// every commit so far at once. A commit not yet synced survives the process
    /// being killed (the operating system holds the write) but not a power cut,
    /// so whoever groups syncs calls [`Store::sync`] before anything that
    /// depends on a commit leaves the process (a mail sent, a mail marked done
    /// on the server). See docs/hardening.md.
    pub fn group_syncs(&mut self) -> Result<(), StoreError> {
        if self.path.is_some() {
            self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        }
        self.grouped = true;
        Ok(())
    }

    /// Are syncs grouped on this connection (see [`Store::group_syncs`])?
    pub fn syncs_grouped(&self) -> bool {
        self.grouped
    }

    /// Puts every commit so far, of any connection to this file, on disk: the
    /// write-ahead log, the database and their directory are synced (`fsync`
    /// works on the file, whichever descriptor wrote). What a checkpoint moved
    /// from the log into the database was synced by the checkpoint itself.
    /// Nothing to do in memory.
    pub fn sync(&self) -> Result<(), StoreError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let io = |e: std::io::Error| {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR),
                Some(format!("syncing {}: {e}", path.display())),
            ))
        };
        let mut wal = path.clone().into_os_string();
        wal.push("-wal");
        for file in [PathBuf::from(wal), path.clone()] {
            match std::fs::File::open(&file) {
                Ok(f) => f.sync_all().map_err(io)?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io(e)),
            }
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Ok(d) = std::fs::File::open(&dir) {
            // Some file systems refuse to sync a directory; the files are synced.
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Creates a missing database file readable by its owner only: it holds
/// password hashes and players' mail. SQLite gives the journal files the
/// same permissions.
fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Maps open-time failures, telling a damaged file apart from other trouble.
fn open_error(path: &Path, e: rusqlite::Error) -> StoreError {
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) | Some(ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
        _ => StoreError::Open {
            path: path.to_path_buf(),
            source: e,
        },
    }
}

/// The handle a transaction closure works through. Its methods are grouped by
/// table in the `store` submodules.
pub struct Tx<'a> {
    conn: &'a Connection,
}

impl Tx<'_> {
    /// Runs `f` inside a savepoint of this transaction: what it changed is kept
    /// when it returns `Ok((value, true))` and undone when it returns
    /// `Ok((value, false))` or an error. For a mail that is read only to learn
    /// whether it may be applied at all.
    pub fn attempt<T, E>(
        &self,
        f: impl FnOnce(&Tx<'_>) -> Result<(T, bool), E>,
    ) -> Result<(T, bool), E>
    where
        E: From<StoreError>,
    {
        self.conn
            .execute_batch("SAVEPOINT attempt")
            .map_err(StoreError::from)?;
        let result = f(self);
        let sql = match &result {
            Ok((_, true)) => "RELEASE attempt",
            _ => "ROLLBACK TO attempt; RELEASE attempt",
        };
        self.conn.execute_batch(sql).map_err(StoreError::from)?;
        result
    }

    /// Runs a query and converts every row with `f`.
    fn query_all<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        f: impl Fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql)?;
        let mut rows = stmt.query(params)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            out.push(f(row)?);
        }
        Ok(out)
    }

    /// Runs a query expected to give at most one row.
    fn query_opt<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        f: impl Fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql)?;
        let mut rows = stmt.query(params)?;
        match rows.next()? {
            Some(row) => Ok(Some(f(row)?)),
            None => Ok(None),
        }
    }

    /// Runs a statement that must change exactly one row of `what`.
    fn execute_one(
        &self,
        what: &'static str,
        id: i64,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<(), StoreError> {
        match self.conn.prepare_cached(sql)?.execute(params)? {
            0 => Err(StoreError::NotFound { what, id }),
            _ => Ok(()),
        }
    }

    /// Runs an INSERT and returns the new row id.
    fn insert(&self, sql: &str, params: impl rusqlite::Params) -> Result<i64, StoreError> {
        self.conn.prepare_cached(sql)?.execute(params)?;
        Ok(self.conn.last_insert_rowid())
    }
}

/// A Rust enum stored as a short lower-case word in a CHECK-ed TEXT column.
macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident, $column:literal { $($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// The word stored in the database.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub(crate) fn parse(text: &str) -> Result<Self, $crate::store::StoreError> {
                match text {
                    $($text => Ok($name::$variant),)+
                    other => Err($crate::store::StoreError::BadValue {
                        column: $column,
                        value: other.to_string(),
                    }),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use text_enum;

/// Creates the database at `path` if needed and brings it to the latest schema.
/// Returns the schema version before and after.
pub fn migrate(path: impl AsRef<Path>) -> Result<(i64, i64), StoreError> {
    let store = Store::open(path)?;
    Ok((store.opened_at_version, store.schema_version()?))
}
