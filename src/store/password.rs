//! Password hashes: argon2id with a random salt, stored as PHC strings
//! (`$argon2id$v=19$...`), so the parameters travel with each hash.
//!
//! A check costs tens of milliseconds of argon2 on purpose, and every order mail
//! signs on. Successful checks are remembered for the life of the process (see
//! [`Verified`]), so a player's later mails cost no argon2; a wrong password is
//! never remembered and always pays the full price.

use std::cell::Cell;
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

use super::StoreError;

/// Hashes `password` with argon2id (default parameters) and a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, StoreError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| StoreError::Password(e.to_string()))
}

/// Successful checks of this process. An entry is HMAC-SHA256, under a key drawn
/// at random when the process starts and never stored, of the seat's address and
/// game, the stored hash and the password: neither the password nor anything that
/// can be checked against it outside this process is kept. A changed password has
/// a new hash (with its own random salt), so the old entries never match again.
struct Verified {
    key: [u8; 32],
    seen: HashSet<[u8; 32]>,
}

/// Entries kept at most; when full the set starts again (a later mail then pays
/// argon2 once more). 4,096 entries are 128 KiB.
const REMEMBERED: usize = 4096;

fn verified() -> &'static Mutex<Verified> {
    static CELL: OnceLock<Mutex<Verified>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut key = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut key);
        Mutex::new(Verified {
            key,
            seen: HashSet::new(),
        })
    })
}

impl Verified {
    fn tag(&self, seat: [&str; 2], password: &str, hash: &str) -> [u8; 32] {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        // Each part length-prefixed, so that no two different tuples run together.
        for part in [
            seat[0].to_lowercase(),
            seat[1].to_lowercase(),
            hash.to_string(),
        ] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part.as_bytes());
        }
        mac.update(password.as_bytes());
        mac.finalize().into_bytes().into()
    }
}

thread_local! {
    static ARGON2_RUNS: Cell<u64> = const { Cell::new(0) };
}

/// How many full argon2 checks this thread has run (for tests and `legate bench`).
pub fn argon2_runs() -> u64 {
    ARGON2_RUNS.with(Cell::get)
}

/// Whether `password` matches `hash` (a PHC string from [`hash_password`]).
/// A malformed stored hash matches nothing.
pub fn verify_password(password: &str, hash: &str) -> bool {
    verify_seat_password("", "", password, hash)
}

/// Like [`verify_password`], for the seat of `address` in `game`: what is
/// remembered is bound to that seat.
pub fn verify_seat_password(address: &str, game: &str, password: &str, hash: &str) -> bool {
    let tag = {
        let cache = verified().lock().unwrap_or_else(|e| e.into_inner());
        let tag = cache.tag([address, game], password, hash);
        if cache.seen.contains(&tag) {
            return true;
        }
        tag
    };
    // The lock is not held during argon2: other threads' checks go on.
    let ok = argon2_verify(password, hash);
    if ok {
        let mut cache = verified().lock().unwrap_or_else(|e| e.into_inner());
        if cache.seen.len() >= REMEMBERED {
            cache.seen.clear();
        }
        cache.seen.insert(tag);
    }
    ok
}

fn argon2_verify(password: &str, hash: &str) -> bool {
    ARGON2_RUNS.with(|n| n.set(n.get() + 1));
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn right_password_verifies_and_wrong_does_not() {
        let hash = hash_password("s3cret").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("s3cret", &hash));
        assert!(!verify_password("S3cret", &hash));
        assert!(!verify_password("s3cret", "not a hash"));
    }

    #[test]
    fn a_right_password_is_checked_by_argon2_once_and_a_wrong_one_every_time() {
        let hash = hash_password("again-and-again").unwrap();
        let runs = argon2_runs();
        assert!(verify_password("again-and-again", &hash));
        assert!(verify_password("again-and-again", &hash));
        assert!(verify_password("again-and-again", &hash));
        assert_eq!(argon2_runs() - runs, 1, "remembered after the first check");
        let runs = argon2_runs();
        assert!(!verify_password("again-and-agaiN", &hash));
        assert!(!verify_password("again-and-agaiN", &hash));
        assert_eq!(argon2_runs() - runs, 2, "a wrong password always pays");
        // A changed password (a new hash, even of the same text) is checked afresh.
        let changed = hash_password("again-and-again").unwrap();
        let runs = argon2_runs();
        assert!(verify_password("again-and-again", &changed));
        assert_eq!(argon2_runs() - runs, 1);
        // Bound to the seat: the same hash and password for another seat is
        // checked afresh (copied hashes, as in `legate bench`, gain nothing).
        let runs = argon2_runs();
        assert!(verify_seat_password("a@x", "g1", "again-and-again", &hash));
        assert!(verify_seat_password("A@X", "G1", "again-and-again", &hash));
        assert!(verify_seat_password("b@x", "g1", "again-and-again", &hash));
        assert_eq!(argon2_runs() - runs, 2);
        // What is remembered says nothing about the password itself.
        let cache = verified().lock().unwrap();
        let tag = cache.tag(["", ""], "again-and-again", &hash);
        assert!(cache.seen.contains(&tag));
        assert!(!tag.windows(5).any(|w| w == b"again"));
    }

    #[test]
    fn same_password_gets_different_salts() {
        assert_ne!(hash_password("x").unwrap(), hash_password("x").unwrap());
    }
}
