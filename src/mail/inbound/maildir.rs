//! Inbound mail from a local Maildir: new mails are files in `new/`; a committed mail
//! moves to `cur/` with the Seen flag (`:2,S`), as a mail client would do.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{FETCH_BATCH, InboundError, InboundMail, MailKey, Wake, batch_len};
use crate::mail::ingest::header_part;

/// How often `wait` looks into `new/`; the configured poll interval caps the wait.
const LOOK_EVERY: Duration = Duration::from_millis(200);

#[derive(Debug, Clone)]
pub struct MaildirInbound {
    root: PathBuf,
    poll: Duration,
    max_bytes: usize,
}

impl MaildirInbound {
    /// Uses the Maildir at `root`, creating `new/`, `cur/` and `tmp/` if missing.
    pub fn open(root: &Path, poll_seconds: u64, max_bytes: usize) -> Result<Self, InboundError> {
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub)).map_err(|e| err(&root.join(sub), e))?;
        }
        Ok(MaildirInbound {
            root: root.to_path_buf(),
            poll: Duration::from_secs(poll_seconds.max(1)),
            max_bytes,
        })
    }

    /// The mails in `new/` (at most [`FETCH_BATCH`] at a
    /// time), oldest file name first (Maildir names start with the time).
    pub fn fetch(&self) -> Result<Vec<InboundMail>, InboundError> {
        let mut names = self.new_names()?;
        names.sort();
        names.truncate(FETCH_BATCH);
        let sizes = names.iter().map(|name| {
            let size = fs::metadata(self.root.join("new").join(name))
                .map(|m| m.len() as usize)
                .unwrap_or(0);
            // A mail over the limit is read as its header only.
            if size <= self.max_bytes { size } else { 0 }
        });
        let take = batch_len(sizes.collect::<Vec<_>>());
        names.truncate(take);
        let mut mails = Vec::with_capacity(names.len());
        for name in names {
            let path = self.root.join("new").join(&name);
            match self.read(&path) {
                Ok((raw, size)) => mails.push(InboundMail {
                    key: MailKey::Maildir { name },
                    raw,
                    size,
                }),
                // Another reader may have taken it meanwhile.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(err(&path, e)),
            }
        }
        Ok(mails)
    }

    /// Moves the mail from `new/` to `cur/`, flagged seen.
    pub fn commit(&self, key: &MailKey) -> Result<(), InboundError> {
        let MailKey::Maildir { name } = key else {
            return Err(InboundError::Gone(key.clone()));
        };
        if name.contains('/') || name.contains('\\') || name.starts_with('.') {
            return Err(InboundError::Gone(key.clone()));
        }
        let from = self.root.join("new").join(name);
        let to = self.root.join("cur").join(format!("{name}:2,S"));
        match fs::rename(&from, &to) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if to.exists() {
                    Ok(())
                } else {
                    Err(InboundError::Gone(key.clone()))
                }
            }
            Err(e) => Err(err(&from, e)),
        }
    }

    /// Returns when `new/` holds a mail, or after `timeout` (at most the poll interval).
    pub async fn wait(&self, timeout: Duration) -> Result<Wake, InboundError> {
        let limit = tokio::time::Instant::now() + timeout.min(self.poll);
        loop {
            if !self.new_names()?.is_empty() {
                return Ok(Wake::NewMail);
            }
            let now = tokio::time::Instant::now();
            if now >= limit {
                return Ok(Wake::Timeout);
            }
            tokio::time::sleep(LOOK_EVERY.min(limit - now)).await;
        }
    }

    fn new_names(&self) -> Result<Vec<String>, InboundError> {
        let dir = self.root.join("new");
        let entries = fs::read_dir(&dir).map_err(|e| err(&dir, e))?;
        Ok(entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect())
    }

    /// The whole file, or only its header when it is over the limit.
    fn read(&self, path: &Path) -> std::io::Result<(Vec<u8>, usize)> {
        let size = fs::metadata(path)?.len() as usize;
        if size <= self.max_bytes {
            return Ok((fs::read(path)?, size));
        }
        let mut head = Vec::new();
        fs::File::open(path)?
            .take(64 * 1024)
            .read_to_end(&mut head)?;
        let header_len = header_part(&head).len();
        head.truncate(header_len);
        Ok((head, size))
    }
}

fn err(path: &Path, e: std::io::Error) -> InboundError {
    InboundError::Maildir {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drop_mail(root: &Path, name: &str, body: &str) {
        fs::write(
            root.join("new").join(name),
            format!("From: a@example.test\r\nSubject: s\r\n\r\n{body}"),
        )
        .expect("write");
    }

    #[test]
    fn fetch_then_commit_moves_to_cur() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inbox = MaildirInbound::open(dir.path(), 1, 1000).expect("open");
        drop_mail(dir.path(), "2.b", "second");
        drop_mail(dir.path(), "1.a", "first");
        let mails = inbox.fetch().expect("fetch");
        assert_eq!(mails.len(), 2);
        assert_eq!(mails[0].key, MailKey::Maildir { name: "1.a".into() });
        assert!(mails[0].raw.ends_with(b"first"));
        inbox.commit(&mails[0].key).expect("commit");
        inbox
            .commit(&mails[0].key)
            .expect("second commit is harmless");
        assert!(dir.path().join("cur/1.a:2,S").exists());
        let left = inbox.fetch().expect("fetch");
        assert_eq!(left.len(), 1, "the uncommitted mail stays");
        assert!(matches!(
            inbox.commit(&MailKey::Maildir {
                name: "../x".into()
            }),
            Err(InboundError::Gone(_))
        ));
    }

    #[test]
    fn a_full_folder_comes_in_batches() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inbox = MaildirInbound::open(dir.path(), 1, 1000).expect("open");
        for i in 0..FETCH_BATCH + 5 {
            drop_mail(dir.path(), &format!("{i:04}.m"), "x");
        }
        let first = inbox.fetch().expect("fetch");
        assert_eq!(first.len(), FETCH_BATCH);
        for mail in &first {
            inbox.commit(&mail.key).expect("commit");
        }
        let rest = inbox.fetch().expect("fetch");
        assert_eq!(rest.len(), 5);
        assert_eq!(
            rest[0].key,
            MailKey::Maildir {
                name: format!("{FETCH_BATCH:04}.m")
            }
        );
    }

    #[test]
    fn large_mails_come_as_many_as_fit_in_the_byte_budget() {
        let dir = tempfile::tempdir().expect("tempdir");
        let limit = 25 * 1024 * 1024;
        let inbox = MaildirInbound::open(dir.path(), 1, limit).expect("open");
        let big = "x".repeat(20 * 1024 * 1024);
        for i in 0..4 {
            drop_mail(dir.path(), &format!("{i}.m"), &big);
        }
        // Over the limit: only a header is read, so it costs the batch nothing.
        drop_mail(dir.path(), "0.huge", &"y".repeat(limit + 1));
        let first = inbox.fetch().expect("fetch");
        let names: Vec<String> = first
            .iter()
            .map(|m| match &m.key {
                MailKey::Maildir { name } => name.clone(),
                MailKey::Imap { .. } => String::new(),
            })
            .collect();
        assert_eq!(names, ["0.huge", "0.m", "1.m", "2.m"], "{names:?}");
        let bytes: usize = first.iter().map(|m| m.raw.len()).sum();
        assert!(bytes <= super::super::FETCH_BYTES, "{bytes}");
        // A single mail larger than the budget still comes, alone.
        assert_eq!(super::super::batch_len([70 << 20, 1]), 1);
        assert_eq!(super::super::batch_len([]), 0);
    }

    #[test]
    fn oversize_file_yields_only_its_header() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inbox = MaildirInbound::open(dir.path(), 1, 100).expect("open");
        drop_mail(dir.path(), "1.big", &"A Par - Bur\r\n".repeat(50));
        let mails = inbox.fetch().expect("fetch");
        assert!(mails[0].size > 100);
        assert_eq!(mails[0].raw, b"From: a@example.test\r\nSubject: s\r\n\r\n");
    }

    #[tokio::test]
    async fn wait_wakes_on_a_new_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inbox = MaildirInbound::open(dir.path(), 1, 1000).expect("open");
        assert_eq!(
            inbox.wait(Duration::from_millis(50)).await.expect("wait"),
            Wake::Timeout
        );
        drop_mail(dir.path(), "1.a", "x");
        assert_eq!(
            inbox.wait(Duration::from_secs(5)).await.expect("wait"),
            Wake::NewMail
        );
    }
}
