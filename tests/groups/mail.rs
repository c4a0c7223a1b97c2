//! Test group `mail`: The mail layer and whole games against real Dovecot (IMAP) and Postfix (SMTP) started on loopback by scripts/mail-servers.sh.
//! `tests/groups/README.md` says how the test files are grouped into binaries
//! and why.

// Helpers shared by the files of the group, compiled once.
#[path = "../hardening_common/mod.rs"]
mod hardening_common;
#[path = "../mail_stack/mod.rs"]
mod mail_stack;

// The test files.
#[path = "../check_config.rs"]
mod check_config;
#[path = "../daemon_sigterm.rs"]
mod daemon_sigterm;
#[path = "../e2e.rs"]
mod e2e;
#[path = "../faults.rs"]
mod faults;
#[path = "../mail_servers.rs"]
mod mail_servers;
