//! Legate: an email judge for Diplomacy and its variants.
//!
//! The crate is layered (see ARCHITECTURE.md). Below the line, the pure core:
//! `map`, `phase`, `orders`, `judge`, `grammar`, `report`, `variant`, `lots`
//! (auditable draws) and `schedule` (deadline arithmetic). They do no I/O, read no clock
//! and know nothing of mail or SQL. Above it: `store` (SQLite), `game` (the
//! engine), `mail` (IMAP/SMTP/Maildir) and `cli`.

#![forbid(unsafe_code)]

pub mod adjudicate_json;
pub mod cli;
pub mod config;
pub mod daemon;
pub mod docs;
pub mod game;
pub mod grammar;
pub mod judge;
pub mod lots;
pub mod mail;
pub mod map;
pub mod orders;
pub mod phase;
pub mod report;
pub mod schedule;
pub mod store;
pub mod variant;
