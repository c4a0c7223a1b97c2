//! The daemon's sense of time: the system clock, or a time fixed by `--now` so a
//! single pass can be run "as if" at a given moment (tests, replaying a deadline).

use std::time::Duration;

use chrono::{DateTime, Utc};

/// Where `now` comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    System,
    /// Every reading gives this time.
    Fixed(DateTime<Utc>),
}

impl Clock {
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => *t,
        }
    }
}

/// Reads `--now`: RFC 3339, e.g. `2026-12-01T12:00:00Z`.
pub fn parse_now(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| format!("--now {text:?}: {e} (expected RFC 3339, e.g. 2026-12-01T12:00:00Z)"))
}

/// How long to sleep before the next look: until the next deadline, but never longer
/// than the poll interval (new mail may come without a wake-up call) and never less
/// than a moment (a deadline already past is handled on the next pass anyway).
pub fn sleep_for(
    now: DateTime<Utc>,
    next_deadline: Option<DateTime<Utc>>,
    poll: Duration,
) -> Duration {
    const MIN: Duration = Duration::from_millis(200);
    let until_deadline = next_deadline
        .map(|d| (d - now).to_std().unwrap_or(Duration::ZERO))
        .unwrap_or(poll);
    until_deadline.min(poll).max(MIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        parse_now(s).expect("time")
    }

    #[test]
    fn fixed_clock_does_not_move() {
        let clock = Clock::Fixed(t("2026-12-01T12:00:00Z"));
        assert_eq!(clock.now(), clock.now());
        assert_eq!(clock.now(), t("2026-12-01T13:00:00+01:00"));
    }

    #[test]
    fn bad_now_names_the_option() {
        let err = parse_now("tomorrow").expect_err("not a time");
        assert!(err.contains("--now"), "{err}");
    }

    #[test]
    fn wakes_at_the_deadline_or_the_poll() {
        let now = t("2026-12-01T12:00:00Z");
        let poll = Duration::from_secs(60);
        assert_eq!(sleep_for(now, None, poll), poll);
        assert_eq!(
            sleep_for(now, Some(t("2026-12-01T12:00:10Z")), poll),
            Duration::from_secs(10)
        );
        assert_eq!(sleep_for(now, Some(t("2026-12-02T12:00:00Z")), poll), poll);
        assert_eq!(
            sleep_for(now, Some(t("2026-11-30T12:00:00Z")), poll),
            Duration::from_millis(200)
        );
    }
}
