//! The movement phase: validation (`legality`, `board`), the resolver, and the
//! outcome (`outcome`: verdicts, reasons and the position after).

mod board;
mod legality;
mod outcome;
mod resolver;
#[cfg(test)]
mod tests;

use super::{Adjudication, Allegiance, OrderMaps, Position, Rules};
use crate::map::Map;
use crate::orders::PowerOrder;

pub(super) fn adjudicate(
    map: &Map,
    maps: Option<&OrderMaps<'_>>,
    rules: &Rules,
    allegiance: &dyn Allegiance,
    position: &Position,
    orders: &[PowerOrder],
) -> Adjudication {
    let mut board = board::Board::new();
    board.load(position);
    // Order statuses live on the stack for any ordinary order set.
    let mut inline = [None; 64];
    let mut heap = Vec::new();
    let status: &mut [board::Status] = if orders.len() <= inline.len() {
        &mut inline[..orders.len()]
    } else {
        heap.resize(orders.len(), None);
        &mut heap
    };
    board.assign(map, maps, rules, allegiance, orders, status);
    let mut resolver = resolver::Resolver::new(map, rules, allegiance, &board);
    resolver.run();
    outcome::build(&mut resolver, position, orders, status)
}
