//! The JSON form of one phase to adjudicate and of its result: the stable machine
//! interface of `legate adjudicate` (see `docs/adjudicate-json.md`).
//!
//! Pure: it turns the text of a document into a `Position` and orders, and an
//! `Adjudication` back into the text of the result. Reading never panics: every
//! defect of the document becomes an `InputError` naming the field, such as
//! `units.FRANCE[1]: unknown province "XYZ"`. An order text the grammar cannot
//! read is not a defect of the document: it is an order that fails (`void`).
//!
//! The way through, as fast as the judge it wraps: a document of the usual
//! shape scanned from its text straight into the request (`plain`), places
//! found by their codes (`places`), orders spelled as the contract spells them
//! read without the grammar (`canonical`), the result written straight into one
//! buffer (`write`). Any other document is read as a `serde_json::Value`
//! (`read`), which names its first defect; both read each item alike.

mod batch;
mod canonical;
mod places;
mod plain;
mod read;
#[cfg(test)]
mod tests;
mod write;

use serde_json::{Value, json};

use crate::judge::Position;
use crate::map::Power;
use crate::orders::PowerOrder;

pub use batch::Batch;
pub use read::{OrderReader, read_request};
pub use write::{order_text, result_text, write_result};

/// A defect of the input document: which field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InputError {
    /// A path into the document: `units.FRANCE[1]`, `phase`, `dislodged.GERMANY[0].unit`.
    pub field: String,
    pub message: String,
}

impl InputError {
    fn new(field: impl Into<String>, message: impl Into<String>) -> InputError {
        InputError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The one-line error document: `{"error": "units.FRANCE[1]: ..."}`.
    pub fn to_json(&self) -> Value {
        json!({ "error": self.to_string() })
    }
}

/// What one order of the document became before adjudication. Plain data,
/// so a list of them is dropped at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry<'a> {
    /// Read as `orders[index]` of the request, from `text`.
    Read { index: usize, text: &'a str },
    /// The grammar could not read it; the text, and why as `reasons[why]`.
    Unread { text: &'a str, why: usize },
}

/// A document, read: the position, the orders that could be read, and for each
/// power the orders as written, in the document's order. It borrows the
/// order texts from the document.
#[derive(Clone)]
pub struct Request<'a> {
    pub position: Position,
    pub orders: Vec<PowerOrder>,
    entries: Vec<(Power, Entry<'a>)>,
    /// Why each order not read was not.
    reasons: Vec<String>,
    /// Read by the scanner: no order text has anything to escape in JSON.
    plain: bool,
    /// The scanner's order texts, kept for their room (`read::Spare`).
    stash: Vec<(Power, &'a str)>,
}

/// What the request says: how its texts were read (`plain`) is left out, so
/// both ways of reading a document print alike.
impl std::fmt::Debug for Request<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("position", &self.position)
            .field("orders", &self.orders)
            .field("entries", &self.entries)
            .field("reasons", &self.reasons)
            .finish()
    }
}

impl Request<'_> {
    /// Orders the grammar could not read: `(power, text, why)`.
    pub fn unread(&self) -> impl Iterator<Item = (Power, &str, &str)> {
        self.entries.iter().filter_map(|(p, e)| match e {
            Entry::Unread { text, why } => Some((*p, *text, self.reasons[*why].as_str())),
            Entry::Read { .. } => None,
        })
    }
}
