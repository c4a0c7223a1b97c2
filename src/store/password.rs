//! Password hashes: argon2id with a random salt, stored as PHC strings
//! (`$argon2id$v=19$...`), so the parameters travel with each hash.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use super::StoreError;

/// Hashes `password` with argon2id (default parameters) and a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, StoreError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| StoreError::Password(e.to_string()))
}

/// Whether `password` matches `hash` (a PHC string from [`hash_password`]).
/// A malformed stored hash matches nothing.
pub fn verify_password(password: &str, hash: &str) -> bool {
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
    fn same_password_gets_different_salts() {
        assert_ne!(hash_password("x").unwrap(), hash_password("x").unwrap());
    }
}
