//! One document in, one result out, line after line (`legate adjudicate`,
//! with or without `--batch`).

use std::cell::{Cell, RefCell};

use serde_json::Value;

use super::InputError;
use super::places::Places;
use super::read::{OrderReader, Spare, read};
use super::write::{Keys, Scratch, Writer};
use super::{Request, plain};
use crate::judge::{Countries, Rules, adjudicate};
use crate::map::Map;

/// What stays the same from one document to the next: the map, its places, the
/// rules, how orders are read.
pub struct Batch<'m> {
    map: &'m Map,
    rules: Rules,
    places: Places,
    keys: Keys,
    parse: OrderReader<'m>,
    /// The writer's lists, kept from one document to the next.
    scratch: RefCell<Scratch>,
    /// The last request's lists, for the next document to be read into.
    spare: Cell<Spare>,
}

impl<'m> Batch<'m> {
    /// `parse` reads an order text the contract's own spelling does not cover
    /// (the order grammar).
    pub fn new(map: &'m Map, rules: Rules, parse: OrderReader<'m>) -> Batch<'m> {
        Batch {
            map,
            rules,
            places: Places::new(map),
            keys: Keys::new(map),
            parse,
            scratch: RefCell::default(),
            spare: Cell::default(),
        }
    }

    /// Adjudicates the document `text` and appends its result, as one line of
    /// JSON without the newline, to `out`. On an error `out` is as it was.
    pub fn adjudicate(&self, text: &str, out: &mut Vec<u8>) -> Result<(), InputError> {
        let spare = self.spare.take();
        if let Some(request) = plain::read(self.map, &self.places, text, self.parse, spare) {
            self.write(&request, out);
            self.spare.set(Spare::of(request));
            return Ok(());
        }
        // Not a plain document: the `Value` reader reads it or names its
        // defect.
        let value: Value = serde_json::from_str(text).map_err(|e| InputError {
            field: "document".into(),
            message: format!("not valid JSON: {e}"),
        })?;
        let request = read(self.map, &self.places, &value, self.parse)?;
        self.write(&request, out);
        Ok(())
    }

    /// Adjudicates `request` and appends its result to `out`.
    fn write(&self, request: &Request, out: &mut Vec<u8>) {
        let done = adjudicate(
            self.map,
            &self.rules,
            &Countries,
            &request.position,
            &request.orders,
        );
        let writer = Writer {
            map: self.map,
            places: &self.places,
            keys: &self.keys,
        };
        match self.scratch.try_borrow_mut() {
            Ok(mut scratch) => writer.result(out, &mut scratch, &self.rules, request, &done),
            Err(_) => writer.result(out, &mut Scratch::default(), &self.rules, request, &done),
        }
    }
}
