//! Sections 5 and 8: proposals to change the regulations, withdrawal, private
//! votes, and enactment once three votes are in favour.
//!
//! Privacy (section 8: "The Judge SHALL NOT reveal the votes of specific
//! Contestants"): a vote is acknowledged only to the voter, and every public text
//! gives counts alone.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::regulations::{self, Cause, PROTECTED, Regulations};
use super::{Notice, Person, person};

/// Votes in favour that enact a proposal (section 8).
pub const ENACT_AT: usize = 3;

/// What a proposal does to the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    /// The whole new text (it names every section the current text has).
    FullText(String),
    /// Numbered sections that replace or add to the current ones.
    Sections(Vec<(u32, String)>),
    /// Free text with no numbered section: added as a new last section; the GM
    /// carries out what it asks with commands logged against the proposal.
    Free(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Open,
    Withdrawn,
    /// Enacted as this version of the regulations.
    Enacted {
        version: u32,
    },
    /// Could not be enacted when it passed (it would change a protected section).
    Refused {
        reason: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    pub number: u32,
    pub proposer: Person,
    pub text: String,
    pub change: Change,
    pub status: Status,
    /// Voter -> in favour. Private: never printed in a public notice.
    votes: BTreeMap<Person, bool>,
    /// What the Gamemaster did to carry the proposal out, in order.
    pub effects: Vec<String>,
}

impl Proposal {
    /// (for, against) as counted now.
    pub fn counts(&self) -> (usize, usize) {
        let yes = self.votes.values().filter(|v| **v).count();
        (yes, self.votes.len() - yes)
    }

    /// The vote of one voter: for the voter eirself, or the Gamemaster's audit.
    pub fn vote_of(&self, voter: &str) -> Option<bool> {
        self.votes.get(&person(voter)).copied()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProposalError {
    #[error("only a contestant may do that")]
    NotContestant,
    #[error(
        "sections 0 to 5 cannot be amended by proposal (section 5): this proposal changes section {0}"
    )]
    Protected(u32),
    #[error("a proposal needs some text")]
    Empty,
    #[error("there is no proposal {0}")]
    NoSuchProposal(u32),
    #[error("proposal {0} is not open")]
    NotOpen(u32),
    #[error("only the proposer may withdraw proposal {0}")]
    NotProposer(u32),
    #[error("the proposer cannot vote on eir own proposal {0}")]
    OwnProposal(u32),
}

/// Reads a proposal's text: full text, numbered sections or free text.
pub fn classify(current: &str, text: &str) -> Change {
    let given = regulations::sections(text);
    if given.is_empty() {
        return Change::Free(text.trim().to_string());
    }
    let have = regulations::sections(current);
    let full = !have.is_empty() && have.iter().all(|(n, _)| given.iter().any(|(k, _)| k == n));
    if full {
        Change::FullText(text.to_string())
    } else {
        Change::Sections(given)
    }
}

/// The first protected section the change would alter, if any.
pub fn touches_protected(current: &str, change: &Change) -> Option<u32> {
    match change {
        Change::Free(_) => None,
        Change::Sections(s) => s.iter().map(|(n, _)| *n).find(|n| PROTECTED.contains(n)),
        Change::FullText(t) => PROTECTED.clone().find(|&n| {
            let (old, new) = (regulations::section(current, n), regulations::section(t, n));
            match (old, new) {
                (Some(a), Some(b)) => !regulations::same_words(&a, &b),
                (None, None) => false,
                _ => true,
            }
        }),
    }
}

/// The regulations with the change made.
pub fn apply(current: &str, change: &Change) -> String {
    match change {
        Change::FullText(t) => t.clone(),
        Change::Sections(s) => regulations::amend(current, s),
        Change::Free(t) => {
            regulations::amend(current, &[(regulations::next_section(current), t.clone())])
        }
    }
}

/// All proposals of the tournament, numbered from 1.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposals {
    pub items: Vec<Proposal>,
}

impl Proposals {
    pub fn get(&self, n: u32) -> Result<&Proposal, ProposalError> {
        self.items
            .iter()
            .find(|p| p.number == n)
            .ok_or(ProposalError::NoSuchProposal(n))
    }

    fn get_mut(&mut self, n: u32) -> Result<&mut Proposal, ProposalError> {
        self.items
            .iter_mut()
            .find(|p| p.number == n)
            .ok_or(ProposalError::NoSuchProposal(n))
    }

    /// `PROPOSE ... ENDPROPOSAL` by a contestant. Refused at once if it would
    /// change sections 0-5. Published to all.
    pub fn submit(
        &mut self,
        regs: &Regulations,
        proposer: &str,
        is_contestant: bool,
        text: &str,
    ) -> Result<(u32, Notice), ProposalError> {
        if !is_contestant {
            return Err(ProposalError::NotContestant);
        }
        if text.trim().is_empty() {
            return Err(ProposalError::Empty);
        }
        let change = classify(&regs.current().text, text);
        if let Some(n) = touches_protected(&regs.current().text, &change) {
            return Err(ProposalError::Protected(n));
        }
        let number = self.items.iter().map(|p| p.number).max().unwrap_or(0) + 1;
        let proposer = person(proposer);
        let notice = Notice::public(format!(
            "Proposal {number} submitted by {proposer}:\n{}\nContestants other than the proposer may vote privately: VOTE FOR|AGAINST PROPOSAL {number}.",
            text.trim_end()
        ));
        self.items.push(Proposal {
            number,
            proposer,
            text: text.to_string(),
            change,
            status: Status::Open,
            votes: BTreeMap::new(),
            effects: Vec::new(),
        });
        Ok((number, notice))
    }

    /// `WITHDRAW PROPOSAL n` by its proposer.
    pub fn withdraw(&mut self, who: &str, n: u32) -> Result<Notice, ProposalError> {
        let p = self.get_mut(n)?;
        if p.proposer != person(who) {
            return Err(ProposalError::NotProposer(n));
        }
        if p.status != Status::Open {
            return Err(ProposalError::NotOpen(n));
        }
        p.status = Status::Withdrawn;
        Ok(Notice::public(format!(
            "Proposal {n} is withdrawn by its proposer."
        )))
    }

    /// `VOTE FOR|AGAINST PROPOSAL n`: a later vote replaces the voter's earlier one.
    /// The first notice is the private acknowledgement; when the vote makes three
    /// in favour, the proposal is enacted and a public notice follows.
    pub fn vote(
        &mut self,
        regs: &mut Regulations,
        voter: &str,
        is_contestant: bool,
        n: u32,
        in_favour: bool,
    ) -> Result<Vec<Notice>, ProposalError> {
        if !is_contestant {
            return Err(ProposalError::NotContestant);
        }
        let p = self.get_mut(n)?;
        if p.status != Status::Open {
            return Err(ProposalError::NotOpen(n));
        }
        let voter = person(voter);
        if p.proposer == voter {
            return Err(ProposalError::OwnProposal(n));
        }
        p.votes.insert(voter.clone(), in_favour);
        let side = if in_favour { "for" } else { "against" };
        let mut out = vec![Notice::private(
            &voter,
            format!("Your vote {side} proposal {n} is recorded."),
        )];
        if p.counts().0 >= ENACT_AT {
            out.push(enact(p, regs));
        }
        Ok(out)
    }

    /// A voter who is no longer a contestant has no vote (section 8 counts
    /// contestants' votes).
    pub fn drop_voter(&mut self, who: &str) {
        let who = person(who);
        for p in self.items.iter_mut().filter(|p| p.status == Status::Open) {
            p.votes.remove(&who);
        }
    }

    /// Puts `to` where `from` was: as proposer and as voter.
    pub fn substitute(&mut self, from: &str, to: &str) {
        let (from, to) = (person(from), person(to));
        for p in &mut self.items {
            if p.proposer == from {
                p.proposer = to.clone();
            }
            if let Some(v) = p.votes.remove(&from) {
                p.votes.insert(to.clone(), v);
            }
        }
    }

    /// Logs a Gamemaster command carried out for an enacted proposal.
    pub fn log_effect(&mut self, n: u32, what: &str) -> Result<Notice, ProposalError> {
        let p = self.get_mut(n)?;
        p.effects.push(what.to_string());
        Ok(Notice::public(format!(
            "For proposal {n}, the Gamemaster: {what}"
        )))
    }
}

/// Enacts a passed proposal: a new version of the text, published with the
/// counts only. Checked again for protected sections: the Gamemaster may have
/// changed them since it was submitted, and a full text would undo that.
fn enact(p: &mut Proposal, regs: &mut Regulations) -> Notice {
    let (yes, no) = p.counts();
    let current = regs.current().text.clone();
    if let Some(s) = touches_protected(&current, &p.change) {
        let reason = format!("it would change protected section {s}");
        p.status = Status::Refused {
            reason: reason.clone(),
        };
        return Notice::public(format!(
            "Proposal {} received {yes} votes in favour and {no} against, but cannot be enacted: {reason} (section 5).",
            p.number
        ));
    }
    let text = apply(&current, &p.change);
    let version = regs.replace(text.clone(), Cause::Proposal(p.number));
    p.status = Status::Enacted { version };
    Notice::public(format!(
        "Proposal {} is enacted with {yes} votes in favour and {no} against.\nThe regulations, version {version}:\n{text}",
        p.number
    ))
}
