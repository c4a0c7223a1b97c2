//! The movement phase: validation (`legality`, `board`), the resolver, and the
//! outcome (`outcome`: verdicts, reasons and the position after).

mod board;
mod legality;
mod outcome;
mod resolver;

pub(super) use legality::step_target;
#[cfg(test)]
mod tests;

use std::cell::RefCell;

use super::{Adjudication, Allegiance, OrderMaps, Position, Rules};
use crate::map::Map;
use crate::orders::PowerOrder;

pub(super) fn adjudicate<A: Allegiance + ?Sized>(
    map: &Map,
    maps: Option<&OrderMaps<'_>>,
    rules: &Rules,
    allegiance: &A,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    with_board(|board| {
        board.load(position);
        // Order statuses live on the stack for any ordinary order set.
        let mut inline = [board::Status::UNSET; 64];
        let mut heap = Vec::new();
        let status: &mut [board::Status] = if orders.len() <= inline.len() {
            &mut inline[..orders.len()]
        } else {
            heap.resize(orders.len(), board::Status::UNSET);
            &mut heap
        };
        board.assign(map, maps, rules, allegiance, orders, status);
        let mut resolver = resolver::Resolver::new(map, rules, allegiance, &*board);
        resolver.run();
        outcome::build(&mut resolver, position, orders, status)
    })
}

/// A board kept per thread and emptied after each phase, so that a phase
/// neither allocates nor zeroes one. It holds nothing between phases: the
/// result depends only on the arguments.
struct Scratch {
    board: Box<board::Board>,
    /// The last phase ran to the end and emptied the board.
    clean: bool,
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

fn with_board<R>(run: impl FnOnce(&mut board::Board) -> R) -> R {
    SCRATCH.with(|cell| {
        let Ok(mut scratch) = cell.try_borrow_mut() else {
            // Called again from inside a phase (an `Allegiance` that adjudicates):
            // a board of its own.
            return run(&mut board::Board::boxed());
        };
        let scratch = scratch.get_or_insert_with(|| Scratch {
            board: board::Board::boxed(),
            clean: true,
        });
        if !scratch.clean {
            scratch.board.wipe();
        }
        scratch.clean = false;
        let out = run(&mut scratch.board);
        scratch.board.clear();
        debug_assert!(scratch.board.is_empty(), "a phase left entries behind");
        scratch.clean = true;
        out
    })
}
