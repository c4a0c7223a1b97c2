//! Numbered migrations, embedded in the binary and applied in order. The file's
//! `PRAGMA user_version` is the number of the last one applied.

use std::path::Path;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::StoreError;

/// `(version, sql)`: applying `sql` to a version `version - 1` file gives `version`.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_initial.sql")),
    (2, include_str!("migrations/0002_mail_by_address.sql")),
    (3, include_str!("migrations/0003_outbox_attachments.sql")),
    (4, include_str!("migrations/0004_attachment_files.sql")),
    (5, include_str!("migrations/0005_signed_mail.sql")),
];

/// The schema version this program writes.
pub const LATEST_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// Applies every missing migration, each in its own IMMEDIATE transaction so
/// that two processes starting together cannot both apply one. Returns the
/// version found before migrating.
pub(super) fn migrate(conn: &Connection, path: &Path) -> Result<i64, StoreError> {
    let found =
        user_version(conn).map_err(|source| StoreError::Migration { version: 0, source })?;
    if found > LATEST_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found,
            supported: LATEST_VERSION,
        });
    }
    for &(version, sql) in MIGRATIONS {
        apply(conn, version, sql).map_err(|source| StoreError::Migration { version, source })?;
    }
    Ok(found)
}

fn apply(conn: &Connection, version: i64, sql: &str) -> rusqlite::Result<()> {
    // Nothing else runs on this connection during open, so the unchecked
    // (non-`&mut`) transaction cannot nest.
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
    if user_version(&tx)? >= version {
        return Ok(());
    }
    tx.execute_batch(sql)?;
    tx.pragma_update(None, "user_version", version)?;
    tx.commit()
}
