//! Section 7: contestants' assistants, announced with what they do; an assistant
//! allowed to submit orders may; every order is logged with its submitter, and
//! each contestant is told which orders were submitted for eir country and by whom.

use super::{Notice, Person, person};
use crate::map::Power;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assistant {
    pub contestant: Person,
    pub address: Person,
    /// `ASSISTANT <address> ORDERS`: may submit orders for the contestant's country.
    pub may_order: bool,
    /// What the assistant does, as the contestant announced it.
    pub role: String,
}

/// One order as received: for which country, in which turn, from whom.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderEntry {
    /// The turn, as the engine names it (`S1901M`).
    pub turn: String,
    #[serde(with = "super::power_serde")]
    pub power: Power,
    pub order: String,
    pub submitted_by: Person,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssistantError {
    #[error("only a contestant may announce an assistant")]
    NotContestant,
    #[error("an assistant must not be a contestant (section 7)")]
    IsContestant,
    #[error("the Gamemaster judges the game and cannot assist a contestant")]
    IsGamemaster,
    #[error("{0} may not submit orders for this country")]
    NotAllowed(Person),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assistants {
    pub list: Vec<Assistant>,
    pub orders: Vec<OrderEntry>,
}

impl Assistants {
    /// `ASSISTANT <address> [ORDERS]`: announced publicly (section 7: "publicly
    /// announce the identities ... and what assistance they will provide"). A
    /// second announcement of the same assistant replaces the first.
    pub fn announce(
        &mut self,
        contestant: &str,
        is_contestant: impl Fn(&str) -> bool,
        gamemaster: &str,
        assistant: Assistant,
    ) -> Result<Notice, AssistantError> {
        let contestant = person(contestant);
        let address = person(&assistant.address);
        if !is_contestant(&contestant) {
            return Err(AssistantError::NotContestant);
        }
        if is_contestant(&address) {
            return Err(AssistantError::IsContestant);
        }
        if address == person(gamemaster) {
            return Err(AssistantError::IsGamemaster);
        }
        self.list
            .retain(|a| !(a.contestant == contestant && a.address == address));
        let orders = if assistant.may_order {
            " and may submit orders"
        } else {
            ""
        };
        let text = format!(
            "{contestant} is assisted by {address}: {}{orders}.",
            assistant.role.trim()
        );
        self.list.push(Assistant {
            contestant,
            address,
            ..assistant
        });
        Ok(Notice::public(text))
    }

    /// The contestant for whom `submitter` may submit orders, if any.
    pub fn orders_for(&self, submitter: &str) -> Option<&Person> {
        let s = person(submitter);
        self.list
            .iter()
            .find(|a| a.address == s && a.may_order)
            .map(|a| &a.contestant)
    }

    /// Logs an order. `owner` is the contestant of `power`; the submitter must be
    /// the owner or an assistant of eirs allowed to order.
    pub fn log_order(
        &mut self,
        owner: &str,
        submitter: &str,
        entry: OrderEntry,
    ) -> Result<(), AssistantError> {
        let (owner, by) = (person(owner), person(submitter));
        let allowed = by == owner || self.orders_for(&by) == Some(&owner);
        if !allowed {
            return Err(AssistantError::NotAllowed(by));
        }
        self.orders.push(OrderEntry {
            submitted_by: by,
            ..entry
        });
        Ok(())
    }

    /// The private notice to `owner`: every order submitted for eir country in
    /// `turn`, with who submitted it.
    pub fn notice(&self, owner: &str, power: Power, turn: &str) -> Notice {
        let mut text = format!("Orders submitted for your country in {turn}:\n");
        let mine: Vec<&OrderEntry> = self
            .orders
            .iter()
            .filter(|e| e.power == power && e.turn == turn)
            .collect();
        if mine.is_empty() {
            text.push_str("  (none)\n");
        }
        for e in mine {
            text.push_str(&format!(
                "  {}  (submitted by {})\n",
                e.order, e.submitted_by
            ));
        }
        Notice::private(owner, text)
    }

    pub fn substitute(&mut self, from: &str, to: &str) {
        let (from, to) = (person(from), person(to));
        for a in self.list.iter_mut().filter(|a| a.contestant == from) {
            a.contestant = to.clone();
        }
    }

    /// A former contestant's assistants assist no one.
    pub fn drop_contestant(&mut self, who: &str) {
        let who = person(who);
        self.list.retain(|a| a.contestant != who);
    }
}
