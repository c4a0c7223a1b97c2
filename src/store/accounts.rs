//! Accounts: one per mail address that ever played, watched or ran a game.

use chrono::{DateTime, Utc};
use rusqlite::{Row, params};

use super::{AccountId, StoreError, Tx, from_secs, to_secs};

/// A person known by their mail address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: AccountId,
    /// Compared without regard to case.
    pub address: String,
    /// An argon2 PHC string from [`super::hash_password`]; `None` if never set.
    pub password_hash: Option<String>,
    /// An IANA zone name (`Europe/Paris`), used to show deadlines.
    pub time_zone: String,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, address, password_hash, time_zone, created_at";

fn from_row(r: &Row<'_>) -> Result<Account, StoreError> {
    Ok(Account {
        id: AccountId(r.get(0)?),
        address: r.get(1)?,
        password_hash: r.get(2)?,
        time_zone: r.get(3)?,
        created_at: from_secs("accounts.created_at", r.get(4)?)?,
    })
}

impl Tx<'_> {
    /// Creates an account. Fails with [`StoreError::Constraint`] if the address
    /// (ignoring case) is taken.
    pub fn insert_account(
        &self,
        address: &str,
        password_hash: Option<&str>,
        time_zone: &str,
        now: DateTime<Utc>,
    ) -> Result<AccountId, StoreError> {
        self.insert(
            "INSERT INTO accounts (address, password_hash, time_zone, created_at)
             VALUES (?1, ?2, ?3, ?4)",
            params![address, password_hash, time_zone, to_secs(now)],
        )
        .map(AccountId)
    }

    pub fn account(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM accounts WHERE id = ?1");
        self.query_opt(&sql, [id.0], from_row)
    }

    /// Looks an account up by address, ignoring case.
    pub fn account_by_address(&self, address: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM accounts WHERE address = ?1");
        self.query_opt(&sql, [address], from_row)
    }

    /// Up to `limit` accounts whose address starts with `prefix` (ignoring
    /// case), by address: njudge's `WHOIS p`.
    pub fn accounts_with_prefix(
        &self,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<Account>, StoreError> {
        let escaped: String = prefix
            .chars()
            .flat_map(|c| match c {
                '%' | '_' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        let sql = format!(
            "SELECT {COLUMNS} FROM accounts WHERE address LIKE ?1 ESCAPE '\\'
             ORDER BY address LIMIT ?2"
        );
        self.query_all(
            &sql,
            params![format!("{escaped}%"), super::inbound::limit_param(limit)],
            from_row,
        )
    }

    /// Writes back the address, password hash and time zone of `account`.
    pub fn update_account(&self, account: &Account) -> Result<(), StoreError> {
        self.execute_one(
            "account",
            account.id.0,
            "UPDATE accounts SET address = ?2, password_hash = ?3, time_zone = ?4 WHERE id = ?1",
            params![
                account.id.0,
                account.address,
                account.password_hash,
                account.time_zone
            ],
        )
    }
}
