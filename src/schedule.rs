//! Deadlines: per-phase-kind schedules in the judge tradition, explicit deadlines,
//! absences, and their display in each recipient's time zone.
//!
//! Every function takes the instant it reasons from as a parameter; nothing here
//! reads the system clock, so tests and `--now` can move time freely.
//!
//! Local times and daylight saving: a schedule's time of day is wall-clock time
//! in the game's zone, so "23:30 Europe/London" stays 23:30 local across a change.
//! A local time that does not exist (the hour skipped in spring) is read with the
//! offset in force just before the gap, i.e. moved forward by the gap's length
//! (01:30 on the London spring-forward day is 02:30 BST). A local time that occurs
//! twice (the hour repeated in autumn) is the earlier of the two instants.

use chrono::{
    DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc,
    Weekday,
};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::phase::PhaseKind;

/// The days of the week on which a deadline may fall (bit 0 = Monday).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weekdays(pub u8);

impl Weekdays {
    pub const ALL: Weekdays = Weekdays(0x7f);

    pub fn allows(self, day: Weekday) -> bool {
        // An empty set would make every deadline impossible: read it as "any day".
        self.0 & 0x7f == 0 || self.0 >> day.num_days_from_monday() & 1 == 1
    }

    /// The judge form: seven characters from Sunday to Saturday, `-` for a day
    /// that is not allowed (`-MTWTF-` is Monday to Friday).
    pub fn parse_judge(text: &str) -> Option<Weekdays> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != 7 {
            return None;
        }
        let mut bits = 0u8;
        for (i, c) in chars.iter().enumerate() {
            if *c == '-' {
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return None;
            }
            // Position 0 is Sunday, which is bit 6.
            let bit = (i + 6) % 7;
            bits |= 1 << bit;
        }
        Some(Weekdays(bits))
    }

    pub fn to_judge(self) -> String {
        const LETTERS: [char; 7] = ['S', 'M', 'T', 'W', 'T', 'F', 'S'];
        (0..7)
            .map(|i| {
                let bit = (i + 6) % 7;
                if self.0 >> bit & 1 == 1 {
                    LETTERS[i]
                } else {
                    '-'
                }
            })
            .collect()
    }
}

impl Default for Weekdays {
    fn default() -> Weekdays {
        Weekdays::ALL
    }
}

/// When deadlines fall for one kind of phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseSchedule {
    /// Wall-clock time of day of the deadline in the game's zone; `None` means
    /// exactly `next_hours` after the phase starts.
    pub deadline_time: Option<NaiveTime>,
    /// The deadline is at least this many hours after the phase starts.
    pub next_hours: u32,
    /// Hours after the deadline before late powers are dealt with.
    pub grace_hours: u32,
    /// Days on which a deadline may fall (in the game's zone).
    pub weekdays: Weekdays,
    /// njudge's `MIN`: minutes at least from the start of the phase before
    /// it is processed early.
    #[serde(default)]
    pub min_minutes: u32,
    /// njudge's `DELAY`: minutes from the last orders in to the processing.
    #[serde(default)]
    pub delay_minutes: u32,
}

impl PhaseSchedule {
    pub fn new(
        deadline_time: Option<NaiveTime>,
        next_hours: u32,
        grace_hours: u32,
    ) -> PhaseSchedule {
        PhaseSchedule {
            deadline_time,
            next_hours,
            grace_hours,
            weekdays: Weekdays::ALL,
            min_minutes: 0,
            delay_minutes: 0,
        }
    }
}

/// A game's schedule: one per phase kind, and the zone its wall-clock times are in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    pub movement: PhaseSchedule,
    pub retreat: PhaseSchedule,
    pub adjustment: PhaseSchedule,
    /// IANA zone name; unknown names are read as UTC.
    pub timezone: String,
}

impl Default for Schedule {
    fn default() -> Schedule {
        let at = NaiveTime::from_hms_opt(23, 30, 0);
        Schedule {
            movement: PhaseSchedule::new(at, 72, 24),
            retreat: PhaseSchedule::new(at, 24, 24),
            adjustment: PhaseSchedule::new(at, 24, 24),
            timezone: "UTC".to_string(),
        }
    }
}

impl Schedule {
    pub fn for_kind(&self, kind: PhaseKind) -> &PhaseSchedule {
        match kind {
            PhaseKind::Movement => &self.movement,
            PhaseKind::Retreat => &self.retreat,
            PhaseKind::Adjustment => &self.adjustment,
        }
    }

    pub fn for_kind_mut(&mut self, kind: PhaseKind) -> &mut PhaseSchedule {
        match kind {
            PhaseKind::Movement => &mut self.movement,
            PhaseKind::Retreat => &mut self.retreat,
            PhaseKind::Adjustment => &mut self.adjustment,
        }
    }

    pub fn tz(&self) -> Tz {
        zone(&self.timezone)
    }
}

/// A zone by IANA name, UTC when the name is unknown.
pub fn zone(name: &str) -> Tz {
    name.parse::<Tz>().unwrap_or(Tz::UTC)
}

/// A period during which a player is away; a deadline never falls inside one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

impl Absence {
    fn covers(&self, t: DateTime<Utc>) -> bool {
        self.from <= t && t < self.to
    }
}

/// The instant a local wall-clock time names, made unique (see the module notes).
pub fn resolve_local(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    match tz.from_local_datetime(&local) {
        LocalResult::Single(t) => t.with_timezone(&Utc),
        LocalResult::Ambiguous(a, b) => a.min(b).with_timezone(&Utc),
        LocalResult::None => {
            // Inside a gap: use the offset in force a day earlier, which is the
            // offset before the gap (zones never change twice within a day).
            let before = local - Duration::days(1);
            let offset = match tz.from_local_datetime(&before) {
                LocalResult::Single(t) => *t.offset(),
                LocalResult::Ambiguous(a, _) => *a.offset(),
                LocalResult::None => return Utc.from_utc_datetime(&local),
            };
            use chrono::Offset;
            let secs = offset.fix().local_minus_utc() as i64;
            Utc.from_utc_datetime(&(local - Duration::seconds(secs)))
        }
    }
}

fn local_date(tz: Tz, t: DateTime<Utc>) -> NaiveDate {
    t.with_timezone(&tz).date_naive()
}

/// The first instant at or after `earliest` that the schedule allows: at its time
/// of day (if it has one) on an allowed weekday, in `tz`.
pub fn align(schedule: &PhaseSchedule, tz: Tz, earliest: DateTime<Utc>) -> DateTime<Utc> {
    let mut day = local_date(tz, earliest);
    let time = schedule
        .deadline_time
        .unwrap_or_else(|| earliest.with_timezone(&tz).time());
    // Eight days always reach an allowed weekday; one more covers the case where
    // today's time of day has already passed.
    for _ in 0..9 {
        if schedule.weekdays.allows(day.weekday()) {
            let candidate = resolve_local(tz, day.and_time(time));
            if candidate >= earliest {
                return candidate;
            }
        }
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    earliest
}

/// The deadline of a phase that starts at `start`: at least `next_hours` later,
/// aligned to the schedule, and pushed past every absence it would fall inside.
///
/// The hours are counted on the wall clock of the game's zone, so that "24 hours
/// at 23:30" means tomorrow 23:30 also on the 23-hour day of a spring change.
pub fn next_deadline(
    schedule: &PhaseSchedule,
    tz: Tz,
    start: DateTime<Utc>,
    absences: &[Absence],
) -> DateTime<Utc> {
    let local = start.with_timezone(&tz).naive_local();
    let earliest = resolve_local(tz, local + Duration::hours(schedule.next_hours as i64));
    push_past_absences(schedule, tz, align(schedule, tz, earliest), absences)
}

/// Moves a deadline out of every absence it falls inside, realigning each time.
pub fn push_past_absences(
    schedule: &PhaseSchedule,
    tz: Tz,
    mut deadline: DateTime<Utc>,
    absences: &[Absence],
) -> DateTime<Utc> {
    // Each push moves strictly later; the bound only guards against absurd data.
    for _ in 0..64 {
        match absences
            .iter()
            .filter(|a| a.covers(deadline))
            .map(|a| a.to)
            .max()
        {
            Some(end) => deadline = align(schedule, tz, end),
            None => break,
        }
    }
    deadline
}

/// When late powers are dealt with: the deadline plus the grace hours.
pub fn grace_end(schedule: &PhaseSchedule, deadline: DateTime<Utc>) -> DateTime<Utc> {
    deadline + Duration::hours(schedule.grace_hours as i64)
}

/// `Mon Nov 23 2026 23:30 GMT`: an instant as a recipient in `tz` reads it.
pub fn format_in(t: DateTime<Utc>, tz: Tz) -> String {
    t.with_timezone(&tz)
        .format("%a %b %d %Y %H:%M %Z")
        .to_string()
}

/// `2 days, 3 hours, 10 minutes`: how long until `deadline` (or `passed`).
pub fn format_remaining(now: DateTime<Utc>, deadline: DateTime<Utc>) -> String {
    if deadline <= now {
        return "passed".to_string();
    }
    let total = (deadline - now).num_minutes();
    let (days, hours, minutes) = (total / 1440, total / 60 % 24, total % 60);
    let mut parts = Vec::new();
    let mut push = |n: i64, unit: &str| {
        if n > 0 {
            parts.push(format!("{n} {unit}{}", if n == 1 { "" } else { "s" }));
        }
    };
    push(days, "day");
    push(hours, "hour");
    push(minutes, "minute");
    if parts.is_empty() {
        "less than a minute".to_string()
    } else {
        parts.join(", ")
    }
}
