//! Per-sender cap on replies, so that the judge and another program that answers
//! every mail (a vacation responder that ignores `Auto-Submitted`) cannot keep
//! mailing each other. Pure: the caller passes the time.

use std::collections::{HashMap, VecDeque};

use chrono::{DateTime, Duration, Utc};

/// The window the cap counts over.
pub const WINDOW: Duration = Duration::hours(1);

/// True when one more reply to a sender is allowed, given the times of the replies
/// already sent to them (any order) and the cap per hour.
pub fn may_reply<I>(sent: I, now: DateTime<Utc>, per_hour: u32) -> bool
where
    I: IntoIterator<Item = DateTime<Utc>>,
{
    let recent = sent
        .into_iter()
        .filter(|t| *t > now - WINDOW && *t <= now)
        .count();
    recent < per_hour as usize
}

/// Remembers the replies sent in the last hour, per sender address (compared without
/// regard to case).
#[derive(Debug, Clone)]
pub struct RateLimiter {
    per_hour: u32,
    sent: HashMap<String, VecDeque<DateTime<Utc>>>,
}

impl RateLimiter {
    pub fn new(per_hour: u32) -> Self {
        Self {
            per_hour,
            sent: HashMap::new(),
        }
    }

    /// Records a reply to `sender` at `now` and returns true if it is within the cap;
    /// returns false (and records nothing) if the cap is reached.
    pub fn try_reply(&mut self, sender: &str, now: DateTime<Utc>) -> bool {
        let times = self.sent.entry(sender.to_ascii_lowercase()).or_default();
        while times.front().is_some_and(|t| *t <= now - WINDOW) {
            times.pop_front();
        }
        if !may_reply(times.iter().copied(), now, self.per_hour) {
            return false;
        }
        times.push_back(now);
        true
    }

    /// Forgets senders with no reply in the window, to bound memory.
    pub fn prune(&mut self, now: DateTime<Utc>) {
        self.sent
            .retain(|_, times| times.back().is_some_and(|t| *t > now - WINDOW));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(minutes: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + minutes * 60, 0).expect("valid")
    }

    #[test]
    fn cap_counts_only_the_last_hour() {
        let sent = [t(0), t(10), t(20)];
        assert!(!may_reply(sent, t(30), 3));
        assert!(may_reply(sent, t(30), 4));
        assert!(
            may_reply(sent, t(61), 3),
            "the reply at t(0) has left the window"
        );
    }

    #[test]
    fn limiter_refuses_then_allows_again() {
        let mut rl = RateLimiter::new(2);
        assert!(rl.try_reply("Bot@x.test", t(0)));
        assert!(rl.try_reply("bot@x.test", t(1)));
        assert!(!rl.try_reply("BOT@X.TEST", t(2)));
        assert!(rl.try_reply("other@x.test", t(2)));
        assert!(rl.try_reply("bot@x.test", t(60)));
        rl.prune(t(200));
        assert!(rl.sent.is_empty());
    }
}
