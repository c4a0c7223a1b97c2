//! The clock: schedules, time zones, daylight saving and absences.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, TimeZone, Timelike, Utc, Weekday};
use chrono_tz::Tz;
use legate::schedule::{
    Absence, PhaseSchedule, Weekdays, align, format_in, format_remaining, grace_end, next_deadline,
    push_past_absences, resolve_local,
};

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
}

fn at(h: u32, m: u32) -> Option<NaiveTime> {
    NaiveTime::from_hms_opt(h, m, 0)
}

const LONDON: Tz = chrono_tz::Europe::London;

#[test]
fn deadline_is_next_hours_then_the_time_of_day() {
    let s = PhaseSchedule::new(at(23, 30), 48, 24);
    // Start Monday 10:00 UTC in winter (London = UTC): +48h = Wed 10:00, then 23:30.
    let d = next_deadline(&s, LONDON, utc(2026, 1, 5, 10, 0), &[]);
    assert_eq!(d, utc(2026, 1, 7, 23, 30));
    // Started after 23:30 minus 48h: the same day's 23:30 is gone, next day's.
    let d = next_deadline(&s, LONDON, utc(2026, 1, 5, 23, 45), &[]);
    assert_eq!(d, utc(2026, 1, 8, 23, 30));
}

#[test]
fn without_time_of_day_deadline_is_exactly_next_hours() {
    let s = PhaseSchedule::new(None, 36, 0);
    let d = next_deadline(&s, LONDON, utc(2026, 1, 5, 10, 17), &[]);
    assert_eq!(d, utc(2026, 1, 6, 22, 17));
}

#[test]
fn london_deadline_stays_2330_local_across_the_autumn_change() {
    // Clocks go back on Sunday 25 Oct 2026 (BST -> GMT).
    let s = PhaseSchedule::new(at(23, 30), 24, 0);
    let before = next_deadline(&s, LONDON, utc(2026, 10, 23, 12, 0), &[]);
    assert_eq!(before, utc(2026, 10, 24, 22, 30)); // 23:30 BST
    let after = next_deadline(&s, LONDON, before, &[]);
    assert_eq!(after, utc(2026, 10, 25, 23, 30)); // 23:30 GMT
    for d in [before, after] {
        let local = d.with_timezone(&LONDON);
        assert_eq!((local.hour(), local.minute()), (23, 30));
    }
    // 25 hours between them, not 24.
    assert_eq!((after - before).num_hours(), 25);
}

#[test]
fn london_deadline_stays_2330_local_across_the_spring_change() {
    // Clocks go forward on Sunday 29 Mar 2026 (GMT -> BST).
    let s = PhaseSchedule::new(at(23, 30), 24, 0);
    let before = next_deadline(&s, LONDON, utc(2026, 3, 27, 12, 0), &[]);
    assert_eq!(before, utc(2026, 3, 28, 23, 30));
    let after = next_deadline(&s, LONDON, before, &[]);
    assert_eq!(after, utc(2026, 3, 29, 22, 30));
    assert_eq!((after - before).num_hours(), 23);
}

#[test]
fn a_nonexistent_local_time_moves_forward_by_the_gap() {
    let gap = NaiveDate::from_ymd_opt(2026, 3, 29)
        .unwrap()
        .and_hms_opt(1, 30, 0)
        .unwrap();
    let t = resolve_local(LONDON, gap);
    assert_eq!(t, utc(2026, 3, 29, 1, 30));
    let local = t.with_timezone(&LONDON);
    assert_eq!((local.hour(), local.minute()), (2, 30));
}

#[test]
fn an_ambiguous_local_time_is_the_earlier_instant() {
    let twice = NaiveDate::from_ymd_opt(2026, 10, 25)
        .unwrap()
        .and_hms_opt(1, 30, 0)
        .unwrap();
    // 01:30 BST = 00:30 UTC comes before 01:30 GMT.
    assert_eq!(resolve_local(LONDON, twice), utc(2026, 10, 25, 0, 30));
}

#[test]
fn new_york_and_tokyo_times_of_day() {
    let s = PhaseSchedule::new(at(12, 0), 0, 0);
    let ny: Tz = chrono_tz::America::New_York;
    assert_eq!(align(&s, ny, utc(2026, 7, 1, 0, 0)), utc(2026, 7, 1, 16, 0));
    assert_eq!(
        align(&s, ny, utc(2026, 12, 1, 0, 0)),
        utc(2026, 12, 1, 17, 0)
    );
    let tokyo: Tz = chrono_tz::Asia::Tokyo;
    assert_eq!(
        align(&s, tokyo, utc(2026, 7, 1, 0, 0)),
        utc(2026, 7, 1, 3, 0)
    );
}

#[test]
fn weekdays_skip_the_weekend() {
    let mut s = PhaseSchedule::new(at(20, 0), 24, 0);
    s.weekdays = Weekdays::parse_judge("-MTWTF-").unwrap();
    assert_eq!(s.weekdays.to_judge(), "-MTWTF-");
    // Thursday 1 Oct 2026 start: +24h = Friday, allowed.
    let fri = next_deadline(&s, Tz::UTC, utc(2026, 10, 1, 19, 0), &[]);
    assert_eq!(fri.weekday(), Weekday::Fri);
    // From Friday: Saturday and Sunday are skipped.
    let mon = next_deadline(&s, Tz::UTC, fri, &[]);
    assert_eq!(mon, utc(2026, 10, 5, 20, 0));
    assert_eq!(mon.weekday(), Weekday::Mon);
    assert!(Weekdays::parse_judge("MTWTF").is_none());
}

#[test]
fn an_absence_pushes_the_deadline_past_its_end() {
    let s = PhaseSchedule::new(at(23, 30), 48, 24);
    let start = utc(2026, 1, 5, 10, 0);
    let plain = next_deadline(&s, Tz::UTC, start, &[]);
    let away = Absence {
        from: utc(2026, 1, 7, 0, 0),
        to: utc(2026, 1, 10, 12, 0),
    };
    let pushed = next_deadline(&s, Tz::UTC, start, std::slice::from_ref(&away));
    assert_eq!(plain, utc(2026, 1, 7, 23, 30));
    assert_eq!(pushed, utc(2026, 1, 10, 23, 30));
    // An absence that does not cover the deadline changes nothing.
    let earlier = Absence {
        from: utc(2026, 1, 1, 0, 0),
        to: utc(2026, 1, 6, 0, 0),
    };
    assert_eq!(next_deadline(&s, Tz::UTC, start, &[earlier]), plain);
    // Overlapping absences chain.
    let second = Absence {
        from: utc(2026, 1, 10, 20, 0),
        to: utc(2026, 1, 12, 1, 0),
    };
    assert_eq!(
        push_past_absences(&s, Tz::UTC, plain, &[away, second]),
        utc(2026, 1, 12, 23, 30)
    );
}

#[test]
fn grace_and_display() {
    let s = PhaseSchedule::new(at(23, 30), 48, 24);
    let d = utc(2026, 7, 7, 22, 30);
    assert_eq!(grace_end(&s, d), utc(2026, 7, 8, 22, 30));
    assert_eq!(format_in(d, LONDON), "Tue Jul 07 2026 23:30 BST");
    assert_eq!(
        format_in(d, chrono_tz::America::New_York),
        "Tue Jul 07 2026 18:30 EDT"
    );
    assert_eq!(
        format_remaining(utc(2026, 7, 5, 21, 20), d),
        "2 days, 1 hour, 10 minutes"
    );
    assert_eq!(format_remaining(d, d), "passed");
}
