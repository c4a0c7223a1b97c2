//! The engine side of the `twilight` variant (rules in `crate::variant::twilight`).
