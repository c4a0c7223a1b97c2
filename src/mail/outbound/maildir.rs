//! Outbound "delivery" into a local Maildir: every mail becomes one file in `new/`,
//! readable with any mail client (`mutt -f path`). Used by the default configuration
//! and the demo, where no mail server exists.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::SendError;
use crate::mail::compose::RenderedMail;

#[derive(Debug, Clone)]
pub struct MaildirOutbound {
    root: PathBuf,
}

impl MaildirOutbound {
    /// Uses the Maildir at `root`, creating `new/`, `cur/` and `tmp/` if missing.
    pub fn open(root: &Path) -> std::io::Result<Self> {
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(MaildirOutbound {
            root: root.to_path_buf(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Writes `mail` to `new/` and returns its path. The file name derives from the
    /// Message-ID, so handing over the same mail twice leaves one file.
    pub fn send(&self, mail: &RenderedMail) -> Result<PathBuf, SendError> {
        let name = file_name(&mail.message_id);
        let target = self.root.join("new").join(&name);
        if target.exists() || self.in_cur(&name) {
            return Ok(target);
        }
        // Maildir protocol: write to tmp/, then rename into new/ so readers never see a
        // half-written file.
        let tmp = self.root.join("tmp").join(&name);
        let write = || -> std::io::Result<()> {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(&mail.bytes)?;
            f.sync_all()?;
            fs::rename(&tmp, &target)
        };
        write().map_err(|e| SendError::Transient(format!("{}: {e}", target.display())))?;
        Ok(target)
    }

    /// A reader may already have moved the file to cur/ (adding ":2,<flags>").
    fn in_cur(&self, name: &str) -> bool {
        fs::read_dir(self.root.join("cur"))
            .map(|entries| {
                entries.flatten().any(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|n| n.split(':').next() == Some(name))
                })
            })
            .unwrap_or(false)
    }
}

fn file_name(message_id: &str) -> String {
    let digest = hex::encode(Sha256::digest(message_id.as_bytes()));
    format!("{}.legate", &digest[..24])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(id: &str) -> RenderedMail {
        RenderedMail {
            message_id: id.into(),
            from: "judge@judge.test".into(),
            to: vec!["a@example.test".into()],
            bytes: format!("Message-ID: <{id}>\r\n\r\nhello\r\n").into_bytes(),
        }
    }

    #[test]
    fn each_mail_once_in_new() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = MaildirOutbound::open(dir.path()).expect("open");
        let p1 = out.send(&mail("a@x")).expect("sent");
        let p2 = out.send(&mail("a@x")).expect("sent again");
        assert_eq!(p1, p2);
        out.send(&mail("b@x")).expect("sent");
        let files = fs::read_dir(dir.path().join("new")).expect("new/").count();
        assert_eq!(files, 2);
        assert_eq!(fs::read(&p1).expect("read"), mail("a@x").bytes);
        assert_eq!(
            fs::read_dir(dir.path().join("tmp")).expect("tmp/").count(),
            0
        );
    }
}
