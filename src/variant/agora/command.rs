//! The tournament's mail commands, as read from a mail (`grammar`): the
//! regulations, proposals and votes, assistants, the Gamemaster's acts.

/// One tournament command, as the grammar read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgoraCommand {
    GetRegulations(Option<u32>),
    Propose(String),
    Withdraw(u32),
    Vote {
        proposal: u32,
        in_favour: bool,
    },
    Assistant {
        address: String,
        orders: bool,
        role: String,
    },
    Remove(String),
    Add {
        address: String,
        password: String,
        consented: bool,
    },
    Substitute {
        from: String,
        to: String,
        password: String,
    },
    Amend(String),
    End(String),
    Effect {
        proposal: u32,
        text: String,
    },
    DeclareDraw,
    SetWinners(Vec<String>),
}

impl AgoraCommand {
    /// The Gamemaster's commands (section 2 and the judge's duties).
    pub fn for_gamemaster(&self) -> bool {
        use AgoraCommand::*;
        matches!(
            self,
            Remove(_)
                | Add { .. }
                | Substitute { .. }
                | Amend(_)
                | End(_)
                | Effect { .. }
                | DeclareDraw
                | SetWinners(_)
        )
    }
}
