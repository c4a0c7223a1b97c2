//! The engine side of the `gtd` variant (rules in `crate::variant::gtd`).
