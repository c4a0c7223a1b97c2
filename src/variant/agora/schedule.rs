//! Section 15: each turn is two UTC days. The first is for negotiation
//! (00:00-24:00); orders may be sent from its start until 12:00 the next day;
//! results are due by 24:00 that day, when the next turn begins. Orders may be
//! sent and changed whenever orders are open, negotiation included.
//!
//! Pure functions of the instant given: nothing here reads a clock.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};

use crate::schedule::{PhaseSchedule, Schedule};

/// Length of one turn.
pub const TURN_HOURS: i64 = 48;
/// Orders close this long after the turn begins (12:00 UTC on its second day).
pub const ORDERS_CLOSE_HOURS: i64 = 36;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Period {
    /// Before the first turn.
    NotStarted,
    /// First day: negotiation, orders accepted.
    Negotiation,
    /// Second day until 12:00: orders accepted.
    Orders,
    /// Second day after 12:00: the Gamemaster resolves; no orders.
    Resolution,
}

/// Where `now` falls in the turn sequence that began at `first` (a UTC midnight).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TurnClock {
    /// 0 for the first turn (Spring of the first year), 1 for its Fall, ...
    pub turn: u32,
    pub period: Period,
    pub starts: DateTime<Utc>,
    pub negotiation_ends: DateTime<Utc>,
    pub orders_close: DateTime<Utc>,
    pub results_due: DateTime<Utc>,
}

impl TurnClock {
    pub fn orders_open(&self) -> bool {
        matches!(self.period, Period::Negotiation | Period::Orders)
    }
}

/// The first UTC midnight at or after `t`: turns begin at 0 UTC (section 15).
pub fn next_midnight(t: DateTime<Utc>) -> DateTime<Utc> {
    let day = t.date_naive().and_time(NaiveTime::MIN);
    let midnight = Utc.from_utc_datetime(&day);
    if midnight == t {
        t
    } else {
        midnight + Duration::days(1)
    }
}

/// The times of turn `n` counted from `first`.
pub fn turn_times(first: DateTime<Utc>, n: u32) -> TurnClock {
    let starts = first + Duration::hours(TURN_HOURS * n as i64);
    TurnClock {
        turn: n,
        period: Period::Negotiation,
        starts,
        negotiation_ends: starts + Duration::hours(24),
        orders_close: starts + Duration::hours(ORDERS_CLOSE_HOURS),
        results_due: starts + Duration::hours(TURN_HOURS),
    }
}

/// The turn and period at `now` for a game whose first turn began at `first`.
pub fn at(first: DateTime<Utc>, now: DateTime<Utc>) -> TurnClock {
    if now < first {
        return TurnClock {
            period: Period::NotStarted,
            ..turn_times(first, 0)
        };
    }
    let n = ((now - first).num_seconds() / (TURN_HOURS * 3600)) as u32;
    let t = turn_times(first, n);
    let period = if now < t.negotiation_ends {
        Period::Negotiation
    } else if now < t.orders_close {
        Period::Orders
    } else {
        Period::Resolution
    };
    TurnClock { period, ..t }
}

/// The variant's default schedule for the engine: the movement deadline at
/// 12:00 UTC, 36 hours at least after the previous results (results between
/// 12:00 and 24:00 of a turn's second day give the next turn's 12:00 deadline),
/// no grace (section 15 has none). Retreats and adjustments have no deadlines of
/// their own: they are resolved with the movement (see `turn`).
pub fn default_schedule() -> Schedule {
    let noon = NaiveTime::from_hms_opt(12, 0, 0);
    Schedule {
        movement: PhaseSchedule::new(noon, ORDERS_CLOSE_HOURS as u32, 0),
        retreat: PhaseSchedule::new(None, 0, 0),
        adjustment: PhaseSchedule::new(None, 0, 0),
        timezone: "UTC".to_string(),
    }
}
