//! The engine side of the `agora` variant (rules in `crate::variant::agora`).
