//! The regulations: a living text, kept as numbered versions (section 8 changes
//! it by proposal, section 2 by the Gamemaster), and read as numbered sections
//! so that the protected ones (section 5) can be recognised.

use serde::{Deserialize, Serialize};

/// Sections 0 through 5 cannot be amended by proposal (section 5).
pub const PROTECTED: std::ops::RangeInclusive<u32> = 0..=5;

/// Why a text became a version of the regulations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// The text the Gamemaster gave when the tournament was created.
    Initial,
    /// Enacted proposal number n (section 8).
    Proposal(u32),
    /// Amended or replaced by the Gamemaster (section 2).
    Gamemaster,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// 1 for the initial text, then one more per change.
    pub number: u32,
    pub text: String,
    pub cause: Cause,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegulationsError {
    #[error("there is no version {0} of the regulations (the latest is {1})")]
    NoSuchVersion(u32, u32),
}

/// Every version the regulations have had, oldest first (never empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Regulations {
    versions: Vec<Version>,
}

impl Regulations {
    pub fn new(text: &str) -> Regulations {
        let first = Version {
            number: 1,
            text: text.to_string(),
            cause: Cause::Initial,
        };
        Regulations {
            versions: vec![first],
        }
    }

    pub fn current(&self) -> &Version {
        // `new` puts one version in and nothing takes one out.
        &self.versions[self.versions.len() - 1]
    }

    pub fn versions(&self) -> &[Version] {
        &self.versions
    }

    /// `GET REGULATIONS n`: a past version; `None` asks for the current one.
    pub fn get(&self, number: Option<u32>) -> Result<&Version, RegulationsError> {
        let latest = self.current().number;
        match number {
            None => Ok(self.current()),
            Some(n) => self
                .versions
                .iter()
                .find(|v| v.number == n)
                .ok_or(RegulationsError::NoSuchVersion(n, latest)),
        }
    }

    /// Makes `text` the new current version; returns its number.
    pub fn replace(&mut self, text: String, cause: Cause) -> u32 {
        let number = self.current().number + 1;
        self.versions.push(Version {
            number,
            text,
            cause,
        });
        number
    }
}

/// The numbered sections of a text: a line beginning `N.` opens section N, and
/// the section runs to the next such line. Text before the first is not a section.
pub fn sections(text: &str) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = Vec::new();
    for line in text.lines() {
        if let Some((n, rest)) = section_start(line) {
            out.push((n, rest.to_string()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push('\n');
            body.push_str(line);
        }
    }
    out
}

/// `12. Text` gives (12, "Text").
fn section_start(line: &str) -> Option<(u32, &str)> {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 4 {
        return None;
    }
    let rest = t[digits..].strip_prefix('.')?;
    let n = t[..digits].parse().ok()?;
    Some((n, rest.trim_start()))
}

/// Two section texts are the same if they differ only in spacing and line breaks:
/// reflowing a paragraph is not amending it.
pub fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// The text of section `n`, if the text has it.
pub fn section(text: &str, n: u32) -> Option<String> {
    sections(text)
        .into_iter()
        .find(|(k, _)| *k == n)
        .map(|(_, s)| s)
}

/// Replaces or adds the given sections; new ones go at the end in the order given.
pub fn amend(text: &str, changes: &[(u32, String)]) -> String {
    let mut all = sections(text);
    let preamble: String = text
        .lines()
        .take_while(|l| section_start(l).is_none())
        .map(|l| format!("{l}\n"))
        .collect();
    for (n, body) in changes {
        match all.iter_mut().find(|(k, _)| k == n) {
            Some(slot) => slot.1 = body.clone(),
            None => all.push((*n, body.clone())),
        }
    }
    let mut out = preamble;
    for (n, body) in all {
        out.push_str(&format!("{n}. {}\n", body.trim_end()));
    }
    out
}

/// The number after the highest section of the text.
pub fn next_section(text: &str) -> u32 {
    sections(text).iter().map(|(n, _)| n + 1).max().unwrap_or(0)
}
