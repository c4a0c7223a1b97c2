//! Dates and times as players write them to njudge: `Mon 23:30`, `Jun 15 23:30`,
//! `15 Jun 2026 11:30pm`, `2026-12-01 12:00`, `+48h`, each with an optional time
//! zone (`Europe/Paris`, `UTC`, `+0100`).
//!
//! Parsing reads no clock: a weekday stays a weekday. [`DateSpec::resolve`] turns
//! a spec into an instant given `now` and the zone to use when none was written.

use std::fmt;

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc, Weekday,
};
use chrono_tz::Tz;
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, tag_no_case, take_while_m_n, take_while1},
    character::complete::{char, digit1, one_of, space0, space1},
    combinator::{map, map_opt, opt},
    sequence::{preceded, terminated},
};

/// A time zone written after a date: an IANA zone or a fixed offset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Zone {
    Named(Tz),
    /// Minutes east of UTC (`+0100` is 60).
    Offset(i32),
}

/// A date as written, not yet tied to a clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DateSpec {
    /// `Mon 23:30`: the next such weekday (today if the time is still ahead).
    Weekday {
        weekday: Weekday,
        time: Option<NaiveTime>,
        zone: Option<Zone>,
    },
    /// `Jun 15 23:30`, `15 Jun 2027`: the year, when missing, is the next one
    /// in which the date is still ahead.
    MonthDay {
        month: u32,
        day: u32,
        year: Option<i32>,
        time: Option<NaiveTime>,
        zone: Option<Zone>,
    },
    /// `+48h`, `+2d`, `+90m`: from now.
    Relative { minutes: i64 },
}

const WEEKDAYS: [(&str, Weekday); 7] = [
    ("mon", Weekday::Mon),
    ("tue", Weekday::Tue),
    ("wed", Weekday::Wed),
    ("thu", Weekday::Thu),
    ("fri", Weekday::Fri),
    ("sat", Weekday::Sat),
    ("sun", Weekday::Sun),
];

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn alpha(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphabetic()).parse(i)
}

/// `Mon`, `monday`, `Tues`: three letters at least, a prefix of the full name.
fn weekday(i: &str) -> IResult<&str, Weekday> {
    map_opt(alpha, |w: &str| {
        let w = w.to_ascii_lowercase();
        let full = [
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
        ];
        WEEKDAYS
            .iter()
            .zip(full)
            .find(|((abbr, _), full)| {
                w.len() >= 3 && w.starts_with(abbr) && full.starts_with(w.as_str())
            })
            .map(|((_, d), _)| *d)
    })
    .parse(i)
}

/// `Jun`, `june`, `Sept`.
fn month(i: &str) -> IResult<&str, u32> {
    map_opt(alpha, |w: &str| {
        let w = w.to_ascii_lowercase();
        let full = [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ];
        (0..12)
            .find(|&m| w.len() >= 3 && w.starts_with(MONTHS[m]) && full[m].starts_with(w.as_str()))
            .or_else(|| (w == "sept").then_some(8))
            .map(|m| m as u32 + 1)
    })
    .parse(i)
}

fn number(i: &str) -> IResult<&str, u32> {
    map_opt(
        digit1,
        |d: &str| if d.len() > 9 { None } else { d.parse().ok() },
    )
    .parse(i)
}

/// `23:30`, `2330`, `23.30`, `11:30pm`, `11pm`, `noon`, `midnight`.
fn time(i: &str) -> IResult<&str, NaiveTime> {
    let named = alt((
        map(tag_no_case("noon"), |_| (12, 0, None)),
        map(tag_no_case("midnight"), |_| (0, 0, None)),
    ));
    let hm = map(
        (
            take_while_m_n(1, 2, |c: char| c.is_ascii_digit()),
            one_of(":."),
            take_while_m_n(2, 2, |c: char| c.is_ascii_digit()),
            opt(preceded(space0, ampm)),
        ),
        |(h, _, m, ap): (&str, char, &str, Option<bool>)| {
            (h.parse().unwrap_or(99), m.parse().unwrap_or(99), ap)
        },
    );
    let compact = map(
        terminated(
            take_while_m_n(4, 4, |c: char| c.is_ascii_digit()),
            nom::combinator::not(digit1),
        ),
        |d: &str| {
            (
                d[..2].parse().unwrap_or(99),
                d[2..].parse().unwrap_or(99),
                None,
            )
        },
    );
    let hour_only = map(
        (
            take_while_m_n(1, 2, |c: char| c.is_ascii_digit()),
            preceded(space0, ampm),
        ),
        |(h, ap): (&str, bool)| (h.parse().unwrap_or(99), 0, Some(ap)),
    );
    map_opt(
        alt((named, hm, hour_only, compact)),
        |(h, m, ap): (u32, u32, Option<bool>)| {
            let h = match ap {
                Some(_) if h == 0 || h > 12 => return None,
                Some(true) if h < 12 => h + 12,
                Some(false) if h == 12 => 0,
                _ => h,
            };
            NaiveTime::from_hms_opt(h, m, 0)
        },
    )
    .parse(i)
}

/// `am` -> false, `pm` -> true.
fn ampm(i: &str) -> IResult<&str, bool> {
    let word = alt((
        map(tag_no_case("am"), |_| false),
        map(tag_no_case("pm"), |_| true),
    ));
    let end = nom::combinator::not(take_while_m_n(1, 1, |c: char| c.is_ascii_alphanumeric()));
    terminated(word, end).parse(i)
}

/// `+0100`, `-05:00`, `UTC+2`.
fn offset(i: &str) -> IResult<&str, Zone> {
    let (rest, (_, sign, h, m)) = (
        opt(alt((tag_no_case("utc"), tag_no_case("gmt")))),
        one_of("+-"),
        take_while_m_n(1, 2, |c: char| c.is_ascii_digit()),
        opt(preceded(
            opt(char(':')),
            take_while_m_n(2, 2, |c: char| c.is_ascii_digit()),
        )),
    )
        .parse(i)?;
    let minutes =
        h.parse::<i32>().unwrap_or(99) * 60 + m.map_or(0, |m: &str| m.parse::<i32>().unwrap_or(99));
    if minutes > 14 * 60 {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        )));
    }
    Ok((
        rest,
        Zone::Offset(if sign == '-' { -minutes } else { minutes }),
    ))
}

/// `Europe/Paris`, `UTC`, `GMT`, `EST`.
fn named_zone(i: &str) -> IResult<&str, Zone> {
    map_opt(
        take_while1(|c: char| c.is_ascii_alphanumeric() || "/_+-".contains(c)),
        |w: &str| parse_zone_name(w).map(Zone::Named),
    )
    .parse(i)
}

fn zone(i: &str) -> IResult<&str, Zone> {
    alt((offset, named_zone)).parse(i)
}

/// An IANA zone name in any letter case (`europe/paris`).
pub fn parse_zone_name(w: &str) -> Option<Tz> {
    if let Ok(tz) = w.parse::<Tz>() {
        return Some(tz);
    }
    let upper = w.to_ascii_uppercase();
    if let Ok(tz) = upper.parse::<Tz>() {
        return Some(tz);
    }
    // `america/new_york` -> `America/New_York`
    let mut s = String::with_capacity(w.len());
    let mut start = true;
    for c in w.chars() {
        s.push(if start {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
        start = matches!(c, '/' | '_' | '-');
    }
    s.parse::<Tz>().ok()
}

fn opt_time_zone(i: &str) -> IResult<&str, (Option<NaiveTime>, Option<Zone>)> {
    let (i, t) = opt(preceded(space1, time)).parse(i)?;
    let (i, z) = opt(preceded(space1, zone)).parse(i)?;
    Ok((i, (t, z)))
}

/// `2026-12-01 [12:00] [zone]`, also `2026/12/01`.
fn iso(i: &str) -> IResult<&str, DateSpec> {
    let (i, (y, _, m, _, d)) = (number, one_of("-/"), number, one_of("-/"), number).parse(i)?;
    let (i, t) = opt(preceded(alt((space1, tag("T"), tag("t"))), time)).parse(i)?;
    let (i, z) = opt(preceded(space0, zone)).parse(i)?;
    match i32::try_from(y) {
        Ok(y) if y >= 1000 => Ok((
            i,
            DateSpec::MonthDay {
                month: m,
                day: d,
                year: Some(y),
                time: t,
                zone: z,
            },
        )),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

/// `[weekday] (month day | day month) [year] [time] [zone]`
fn month_day(i: &str) -> IResult<&str, DateSpec> {
    let (i, _) = opt(terminated(weekday, (opt(char(',')), space1))).parse(i)?;
    let md = map((month, space1, number), |(m, _, d)| (m, d));
    let dm = map((number, space1, month), |(d, _, m)| (m, d));
    let (i, (m, d)) = alt((md, dm)).parse(i)?;
    let (i, _) = opt(char(',')).parse(i)?;
    let (i, year) = opt(preceded(
        space1,
        terminated(number, nom::combinator::not(one_of(":.0123456789"))),
    ))
    .parse(i)?;
    let year = year.filter(|y| *y >= 1000).map(|y| y as i32);
    let (i, (time, zone)) = opt_time_zone(i)?;
    Ok((
        i,
        DateSpec::MonthDay {
            month: m,
            day: d,
            year,
            time,
            zone,
        },
    ))
}

/// `weekday [time] [zone]`
fn week_day(i: &str) -> IResult<&str, DateSpec> {
    let (i, w) = weekday(i)?;
    let (i, (time, zone)) = opt_time_zone(i)?;
    Ok((
        i,
        DateSpec::Weekday {
            weekday: w,
            time,
            zone,
        },
    ))
}

/// `+48h`, `+2d`, `+90m`, `+2 days`
fn relative(i: &str) -> IResult<&str, DateSpec> {
    let unit = alt((
        map(
            alt((tag_no_case("days"), tag_no_case("day"), tag_no_case("d"))),
            |_| 1440i64,
        ),
        map(
            alt((tag_no_case("hours"), tag_no_case("hour"), tag_no_case("h"))),
            |_| 60,
        ),
        map(
            alt((tag_no_case("minutes"), tag_no_case("min"), tag_no_case("m"))),
            |_| 1,
        ),
    ));
    map((char('+'), number, space0, unit), |(_, n, _, u)| {
        DateSpec::Relative {
            minutes: n as i64 * u,
        }
    })
    .parse(i)
}

/// `date = iso-date | month-day | weekday-date | relative`. Returns the spec and
/// the number of bytes of `text` it used.
pub fn parse_date(text: &str) -> Option<(DateSpec, usize)> {
    let i = text.trim_start();
    let skipped = text.len() - i.len();
    let (rest, spec) = alt((iso, month_day, week_day, relative)).parse(i).ok()?;
    if let DateSpec::MonthDay {
        month, day, year, ..
    } = spec
    {
        let y = year.unwrap_or(2000); // a leap year, so Feb 29 is allowed without one
        NaiveDate::from_ymd_opt(y, month, day)?;
    }
    // A date must end at a word boundary.
    if rest.chars().next().is_some_and(|c| c.is_alphanumeric()) {
        return None;
    }
    Some((spec, skipped + i.len() - rest.len()))
}

fn local_to_utc(local: NaiveDateTime, zone: Zone) -> Option<DateTime<Utc>> {
    match zone {
        // In a DST gap there is no such local time; in an overlap take the earlier.
        Zone::Named(tz) => tz
            .from_local_datetime(&local)
            .earliest()
            .map(|d| d.with_timezone(&Utc)),
        Zone::Offset(m) => Some(Utc.from_utc_datetime(&(local - Duration::minutes(m as i64)))),
    }
}

fn local_now(now: DateTime<Utc>, zone: Zone) -> NaiveDateTime {
    match zone {
        Zone::Named(tz) => now.with_timezone(&tz).naive_local(),
        Zone::Offset(m) => now.naive_utc() + Duration::minutes(m as i64),
    }
}

impl DateSpec {
    /// The instant this spec names, seen at `now`, reading local times in the
    /// written zone or else `default_zone`. A missing time of day is midnight.
    /// `None` for dates that do not exist (a local time skipped by a DST change).
    pub fn resolve(&self, now: DateTime<Utc>, default_zone: Tz) -> Option<DateTime<Utc>> {
        self.resolve_at(now, default_zone, NaiveTime::MIN)
    }

    /// Does the date name a time of day (`Tue 23:30`), or a day only (`Tue`)?
    pub fn has_time(&self) -> bool {
        match self {
            DateSpec::Weekday { time, .. } | DateSpec::MonthDay { time, .. } => time.is_some(),
            DateSpec::Relative { .. } => true,
        }
    }

    /// As `resolve`, a date without a time of day falling at `time_of_day`
    /// (a new deadline `SET DEADLINE Tue` keeps the phase's time of day).
    pub fn resolve_at(
        &self,
        now: DateTime<Utc>,
        default_zone: Tz,
        time_of_day: NaiveTime,
    ) -> Option<DateTime<Utc>> {
        match *self {
            DateSpec::Relative { minutes } => {
                now.checked_add_signed(Duration::try_minutes(minutes)?)
            }
            DateSpec::Weekday {
                weekday,
                time,
                zone,
            } => {
                let zone = zone.unwrap_or(Zone::Named(default_zone));
                let today = local_now(now, zone).date();
                let ahead = (weekday.num_days_from_monday() + 7
                    - today.weekday().num_days_from_monday())
                    % 7;
                for extra in [0, 7] {
                    let day = today.checked_add_signed(Duration::days((ahead + extra) as i64))?;
                    let t = local_to_utc(day.and_time(time.unwrap_or(time_of_day)), zone)?;
                    if t > now {
                        return Some(t);
                    }
                }
                None
            }
            DateSpec::MonthDay {
                month,
                day,
                year,
                time,
                zone,
            } => {
                let zone = zone.unwrap_or(Zone::Named(default_zone));
                let t = time.unwrap_or(time_of_day);
                if let Some(y) = year {
                    return local_to_utc(NaiveDate::from_ymd_opt(y, month, day)?.and_time(t), zone);
                }
                let this_year = local_now(now, zone).year();
                (this_year..this_year + 8).find_map(|y| {
                    let d = NaiveDate::from_ymd_opt(y, month, day)?;
                    local_to_utc(d.and_time(t), zone).filter(|at| *at > now)
                })
            }
        }
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Zone::Named(tz) => write!(f, "{}", tz.name()),
            Zone::Offset(m) => {
                let sign = if *m < 0 { '-' } else { '+' };
                write!(f, "{sign}{:02}{:02}", m.abs() / 60, m.abs() % 60)
            }
        }
    }
}

fn write_time_zone(
    f: &mut fmt::Formatter<'_>,
    time: Option<NaiveTime>,
    zone: Option<Zone>,
) -> fmt::Result {
    if let Some(t) = time {
        write!(f, " {}", t.format("%H:%M"))?;
    }
    if let Some(z) = zone {
        write!(f, " {z}")?;
    }
    Ok(())
}

/// Canonical forms: `MON 23:30`, `JUN 15 23:30 Europe/Paris`, `2026-12-01 12:00`, `+2880M`.
impl fmt::Display for DateSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DateSpec::Relative { minutes } => write!(f, "+{minutes}M"),
            DateSpec::Weekday {
                weekday,
                time,
                zone,
            } => {
                write!(f, "{}", weekday.to_string().to_uppercase())?;
                write_time_zone(f, time, zone)
            }
            DateSpec::MonthDay {
                month,
                day,
                year: Some(y),
                time,
                zone,
            } => {
                write!(f, "{y:04}-{month:02}-{day:02}")?;
                write_time_zone(f, time, zone)
            }
            DateSpec::MonthDay {
                month,
                day,
                year: None,
                time,
                zone,
            } => {
                let m = (month as usize)
                    .checked_sub(1)
                    .and_then(|i| MONTHS.get(i))
                    .copied()
                    .unwrap_or("???");
                write!(f, "{} {day}", m.to_uppercase())?;
                write_time_zone(f, time, zone)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        match parse_date(s) {
            Some((d, n)) => format!("{d} [{n}]"),
            None => "none".into(),
        }
    }

    #[test]
    fn every_written_form() {
        assert_eq!(p("Mon 23:30"), "MON 23:30 [9]");
        assert_eq!(p("monday 11:30pm"), "MON 23:30 [14]");
        assert_eq!(p("Jun 15 23:30"), "JUN 15 23:30 [12]");
        assert_eq!(p("15 June 2027 2330 UTC"), "2027-06-15 23:30 UTC [21]");
        assert_eq!(p("Sat, Jun 16 2001 23:30"), "2001-06-16 23:30 [22]");
        assert_eq!(p("2026-12-01 12:00"), "2026-12-01 12:00 [16]");
        assert_eq!(
            p("2026-12-01 12:00 Europe/Paris"),
            "2026-12-01 12:00 Europe/Paris [29]"
        );
        assert_eq!(p("2026-12-01T12:00+0100"), "2026-12-01 12:00 +0100 [21]");
        assert_eq!(
            p("Fri 9pm america/new_york"),
            "FRI 21:00 America/New_York [24]"
        );
        assert_eq!(p("+48h"), "+2880M [4]");
        assert_eq!(
            p("Fri 21:00 America/New_York"),
            "FRI 21:00 America/New_York [26]"
        );
        assert_eq!(p("Jun 15 TO Jun 20"), "JUN 15 [6]");
        assert_eq!(p("Mon 25:00x"), "MON [3]");
        for bad in ["Foo 23:30", "2026-13-01", "Feb 30", "Monx", ""] {
            assert_eq!(p(bad), "none", "{bad}");
        }
    }

    #[test]
    fn resolution_is_relative_to_now() {
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 18, 0, 0).unwrap(); // a Monday
        let r = |s: &str| {
            parse_date(s)
                .unwrap()
                .0
                .resolve(now, chrono_tz::UTC)
                .unwrap()
                .to_rfc3339()
        };
        assert_eq!(r("Mon 23:30"), "2026-11-23T23:30:00+00:00");
        assert_eq!(r("Mon 12:00"), "2026-11-30T12:00:00+00:00");
        assert_eq!(r("Wed 12:00 Europe/Paris"), "2026-11-25T11:00:00+00:00");
        assert_eq!(r("Jan 5 10:00"), "2027-01-05T10:00:00+00:00");
        assert_eq!(r("Dec 5 10:00"), "2026-12-05T10:00:00+00:00");
        assert_eq!(r("2026-12-01 12:00 -0500"), "2026-12-01T17:00:00+00:00");
        assert_eq!(r("+2d"), "2026-11-25T18:00:00+00:00");
    }
}
