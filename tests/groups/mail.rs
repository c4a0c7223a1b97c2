//! Test group `mail`: The mail layer and whole games against real Dovecot (IMAP) and Postfix (SMTP) started on loopback by scripts/mail-servers.sh.
//! Each file below is also readable on its own; `tests/groups/README.md` says
//! how the test files are grouped into binaries and why.

#[path = "../e2e.rs"]
mod e2e;
#[path = "../faults.rs"]
mod faults;
#[path = "../mail_servers.rs"]
mod mail_servers;
