//! The engine side of the `masters` variant (rules in `crate::variant::masters`).
