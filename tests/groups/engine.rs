//! Test group `engine`: The engine and the daemon over real SQLite files and Maildir folders: games by mail, every variant, the store, hostile mail, kill -9 trials of the daemon. No mail servers.
//! `tests/groups/README.md` says how the test files are grouped into binaries
//! and why.

// Helpers shared by the files of the group, compiled once.
#[path = "../engine_common/mod.rs"]
mod engine_common;
#[path = "../hardening_common/mod.rs"]
mod hardening_common;

// The test files.
#[path = "../accounts.rs"]
mod accounts;
#[path = "../agora_engine.rs"]
mod agora_engine;
#[path = "../blocks.rs"]
mod blocks;
#[path = "../daemon.rs"]
mod daemon;
#[path = "../daemon_config.rs"]
mod daemon_config;
#[path = "../daemon_crash.rs"]
mod daemon_crash;
#[path = "../draw_ahead.rs"]
mod draw_ahead;
#[path = "../engine.rs"]
mod engine;
#[path = "../engine_text.rs"]
mod engine_text;
#[path = "../forged_mail.rs"]
mod forged_mail;
#[path = "../gtd_engine.rs"]
mod gtd_engine;
#[path = "../hostile_mail.rs"]
mod hostile_mail;
#[path = "../masters_engine.rs"]
mod masters_engine;
#[path = "../njudge_master.rs"]
mod njudge_master;
#[path = "../njudge_players.rs"]
mod njudge_players;
#[path = "../njudge_regression.rs"]
mod njudge_regression;
#[path = "../real_mail.rs"]
mod real_mail;
#[path = "../report_render_cli.rs"]
mod report_render_cli;
#[path = "../results_picture.rs"]
mod results_picture;
#[path = "../secrets.rs"]
mod secrets;
#[path = "../store.rs"]
mod store;
#[path = "../store_attachments.rs"]
mod store_attachments;
#[path = "../twilight_engine.rs"]
mod twilight_engine;
