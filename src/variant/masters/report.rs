//! What reports print of Masters phases: the orders each controlled unit received,
//! with counts (as the rule text's example shows), and the adjustment's lists of
//! rebels raised, annexations, aid and voluntary disbands.

use std::fmt::Write;

use crate::grammar::canonical;
use crate::judge::Position;
use crate::map::{Map, Power, Province};
use crate::orders::UnitSpec;

use super::adjustment::AdjustmentResult;
use super::control::{Decision, Tally};
use super::outcome::{AdjustmentOrder, Reason, Verdict};
use super::roster::MastersState;

/// `Portugal: A POR S A SPA (3: Germany 1, Italy 2) - carried out` and one line per
/// other order received; a tie says the unit had no order.
pub fn tally_lines(
    map: &Map,
    state: &MastersState,
    position: &Position,
    tally: &Tally,
) -> Vec<String> {
    let owner = state.name(map, position, tally.unit.power);
    tally
        .candidates
        .iter()
        .map(|c| {
            let mut line = format!("{owner}: {} ({}:", canonical(map, &c.order), c.votes);
            for (i, (w, n)) in c.writers.iter().enumerate() {
                let sep = if i == 0 { " " } else { ", " };
                let _ = write!(line, "{sep}{} {n}", state.name(map, position, *w));
            }
            line.push(')');
            let result = match tally.decision {
                Decision::Ordered(o) if o == c.order => " - carried out",
                Decision::Ordered(_) => " - out-voted",
                Decision::Tied => " - tied: no order",
            };
            line + result
        })
        .collect()
}

/// The adjustment's Masters events, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// (raised by, the new rebel power, where): one entry per rebel unit, with
    /// every power whose build raised it (MR3 c: two builds, one unit).
    pub rebels_raised: Vec<(Vec<Power>, Power, Province)>,
    /// (power, center)
    pub annexed: Vec<(Power, Province)>,
    /// (donor, recipient)
    pub aid: Vec<(Power, Power)>,
    /// (power, unit)
    pub voluntary_disbands: Vec<(Power, UnitSpec)>,
}

pub fn summary(result: &AdjustmentResult) -> Summary {
    let mut s = Summary::default();
    for o in result
        .outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Done)
    {
        let Some(writer) = o.writer else { continue };
        match (o.order, o.reason) {
            (AdjustmentOrder::BuildRebel(spec), Reason::Raised { rebel }) => {
                match s.rebels_raised.iter_mut().find(|(_, r, _)| *r == rebel) {
                    Some((by, _, _)) => by.push(writer),
                    None => s.rebels_raised.push((vec![writer], rebel, spec.province())),
                }
            }
            (AdjustmentOrder::Annex(at), _) => s.annexed.push((writer, at)),
            (_, Reason::AidGiven { to }) => s.aid.push((writer, to)),
            (AdjustmentOrder::Remove(spec), Reason::Voluntary) => {
                s.voluntary_disbands.push((writer, spec))
            }
            _ => {}
        }
    }
    s
}
