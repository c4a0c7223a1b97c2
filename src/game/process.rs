//! Processing one phase: the orders given (civil disorder defaults for the
//! rest), the adjudication, the new position, orders stored for the new phase,
//! and the end of the game by a solo.

use serde::{Deserialize, Serialize};

use super::model::{GameState, Outcome, Status};
use super::variants::Variant;
use crate::docs::{
    DocError, OrderDoc, PositionDoc, PowerOrderDoc, order_text, power_by_name, power_name,
};
use crate::judge::{Adjudication, Countries, Edition, Position, Rules, adjudicate};
use crate::map::{Map, Power};
use crate::orders::{Order, PowerOrder};
use crate::phase::Phase;

/// One order's outcome, as stored in the phase history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultLine {
    pub power: String,
    /// Canonical order text (`A PAR - BUR`).
    pub order: String,
    /// `ok`, `bounce`, `dislodged` ...
    pub result: String,
    /// Not given by the player: the default for a unit without a valid order.
    pub defaulted: bool,
}

/// A phase just processed: what is stored, and the adjudication the reports
/// and the board picture are built from.
pub struct Played {
    pub processed: Processed,
    pub before: Position,
    pub adjudication: Adjudication,
    /// The variant's own report of the phase, when it writes one (GTD).
    pub own: Option<Box<dyn super::variants::OwnResults>>,
}

/// Everything stored about one processed phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Processed {
    pub phase: String,
    pub before: PositionDoc,
    pub orders: Vec<PowerOrderDoc>,
    pub results: Vec<ResultLine>,
    pub after: PositionDoc,
}

#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error(transparent)]
    Doc(#[from] DocError),
    #[error("the game has no board yet")]
    NoBoard,
    #[error("unknown variant {0:?}")]
    UnknownVariant(String),
}

/// The board of the variant named `variant`.
pub fn map_for(variant: &str) -> Result<&'static Map, ProcessError> {
    super::variants::named(variant)
        .map(|v| v.board())
        .ok_or_else(|| ProcessError::UnknownVariant(variant.to_string()))
}

pub(crate) fn rules_for(state: &GameState) -> Rules {
    Rules::preset(state.settings.rules.parse::<Edition>().unwrap_or_default())
}

/// Supply centers needed to win: more than half.
pub fn victory_count(map: &Map) -> u32 {
    map.supply_centers().len() / 2 + 1
}

pub(crate) fn position_of(map: &Map, state: &GameState) -> Result<Position, ProcessError> {
    Ok(state
        .position
        .as_ref()
        .ok_or(ProcessError::NoBoard)?
        .to_position(map)?)
}

/// The current orders of one power, decoded.
pub fn orders_of(map: &Map, state: &GameState, power: &str) -> Result<Vec<Order>, DocError> {
    state
        .orders
        .iter()
        .find(|(p, _)| p.eq_ignore_ascii_case(power))
        .map(|(_, list)| list.iter().map(|o| o.to_order(map)).collect())
        .unwrap_or_else(|| Ok(Vec::new()))
}

/// Powers with units or centers.
pub(crate) fn survivors(map: &Map, position: &Position) -> Vec<Power> {
    (0..map.powers().len() as u8)
        .map(Power)
        .filter(|&p| position.unit_count(p) > 0 || !position.centers_of(p).is_empty())
        .collect()
}

/// Processes the current phase of `state` and moves it to the next one.
pub(crate) fn process(
    variant: &dyn Variant,
    map: &Map,
    state: &mut GameState,
) -> Result<Played, ProcessError> {
    let position = position_of(map, state)?;
    let rules = rules_for(state);
    let mut given = Vec::new();
    for (power, list) in &state.orders {
        let power = power_by_name(map, power)?;
        for o in list {
            given.push(PowerOrder {
                power,
                order: o.to_order(map)?,
            });
        }
    }
    let adjudication = match variant.adjudicate(map, &rules, state, &position, &mut given) {
        Some(a) => a,
        None => adjudicate(map, &rules, &Countries, &position, &given),
    };
    let results = adjudication
        .resolutions
        .iter()
        .map(|r| ResultLine {
            power: power_name(map, r.power),
            order: order_text(map, &r.order),
            result: r.result_text(),
            defaulted: r.defaulted,
        })
        .collect();
    let processed = Processed {
        phase: position.phase.to_string(),
        before: PositionDoc::from_position(map, &position),
        orders: given
            .iter()
            .map(|o| PowerOrderDoc::from_power_order(map, o))
            .collect(),
        results,
        after: PositionDoc::from_position(map, &adjudication.after),
    };
    enter_phase(variant, map, state, &adjudication.after);
    state.next_seq += 1;
    if let Some(winner) = solo_winner(map, &adjudication.after, state.settings.house.centers)
        && variant.solo_ends_game(state)
    {
        state.outcome = Some(Outcome::Solo {
            power: power_name(map, winner),
        });
        state.status = Status::Finished;
    }
    Ok(Played {
        processed,
        before: position,
        adjudication,
        own: None,
    })
}

/// Puts `position` on the board as the new current phase: clears the orders
/// and per-phase flags, and brings in orders stored for this phase.
pub(crate) fn enter_phase(
    variant: &dyn Variant,
    map: &Map,
    state: &mut GameState,
    position: &Position,
) {
    state.position = Some(PositionDoc::from_position(map, position));
    state.orders.clear();
    state.clock = Default::default();
    for m in &mut state.members {
        m.wait = false;
    }
    let name = position.phase.to_string();
    let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut state.future_orders)
        .into_iter()
        .partition(|f| f.phase == name);
    for f in now {
        state.orders.entry(f.power).or_default().extend(f.orders);
    }
    apply_conditionals(variant, map, state, position);
    // Orders for phases already gone can never apply.
    state.future_orders = later
        .into_iter()
        .filter(|f| f.phase.parse::<Phase>().is_ok_and(|p| p > position.phase))
        .collect();
    variant.entered_phase(map, state, position);
}

/// Conditional orders for the phase now entered: each block's branch chosen by
/// its condition on this board, merged over the power's orders in the order
/// given (a later order for a unit replaces an earlier one).
fn apply_conditionals(
    variant: &dyn Variant,
    map: &Map,
    state: &mut GameState,
    position: &Position,
) {
    let name = position.phase.to_string();
    let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut state.conditional)
        .into_iter()
        .partition(|c| c.phase == name);
    for c in now {
        let Ok(power) = power_by_name(map, &c.power) else {
            continue;
        };
        // A condition naming what this map does not know cannot hold.
        let holds = c.condition.holds(map, position, None).unwrap_or(false);
        let branch = if holds { &c.then } else { &c.otherwise };
        let new: Vec<Order> = branch.iter().filter_map(|o| o.to_order(map).ok()).collect();
        if new.is_empty() {
            continue;
        }
        let existing = orders_of(map, state, &c.power).unwrap_or_default();
        let merged = variant.merge_later(state, position.phase.kind, &existing, &new);
        set_orders(map, state, power, &merged);
    }
    state.conditional = later
        .into_iter()
        .filter(|c| c.phase.parse::<Phase>().is_ok_and(|p| p > position.phase))
        .collect();
}

/// The power that owns the centres that win: `centers` if the Master set
/// them (njudge's `SET CENTERS`), else more than half.
fn solo_winner(map: &Map, position: &Position, centers: Option<u32>) -> Option<Power> {
    let need = centers.unwrap_or_else(|| victory_count(map));
    (0..map.powers().len() as u8)
        .map(Power)
        .find(|&p| position.centers_of(p).len() >= need)
}

/// Stores a power's order set for the current phase.
pub(crate) fn set_orders(map: &Map, state: &mut GameState, power: Power, orders: &[Order]) {
    let list: Vec<OrderDoc> = orders
        .iter()
        .map(|o| OrderDoc::from_order(map, o))
        .collect();
    state.orders.insert(power_name(map, power), list);
}
