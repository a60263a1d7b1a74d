//! CF time coordinates: numbers in `units = "<unit> since <date>"` and a `calendar` decoded into
//! [`CfDateTime`]s, as cftime's `num2date` decodes them: exact integer arithmetic on
//! microseconds (values are rounded to the nearest microsecond), the time-zone offset of the
//! reference date applied, years numbered as cftime numbers them.
//!
//! This is separate from `ncdump -t`'s conversion (`cdl::print::time`), which reproduces
//! netcdf-c's floating-point hours, month units and calendar-name prefix matching exactly.

use crate::error::{fail, Error, ErrorKind, Result};

/// A CF calendar (the `calendar` attribute; `standard` when there is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CfCalendar {
    /// `standard` or `gregorian`: Julian before 1582-10-15, Gregorian from then on.
    Standard,
    /// `proleptic_gregorian`: Gregorian rules for every year.
    ProlepticGregorian,
    /// `julian`: a leap year every four years.
    Julian,
    /// `noleap` or `365_day`.
    NoLeap,
    /// `all_leap` or `366_day`.
    AllLeap,
    /// `360_day`: twelve months of 30 days.
    Day360,
}

impl CfCalendar {
    /// The calendar a `calendar` attribute names (case-insensitive); `None` for an unknown
    /// name and for `none`, which has no dates.
    pub fn from_name(name: &str) -> Option<CfCalendar> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "standard" | "gregorian" => CfCalendar::Standard,
            "proleptic_gregorian" => CfCalendar::ProlepticGregorian,
            "julian" => CfCalendar::Julian,
            "noleap" | "no_leap" | "365_day" => CfCalendar::NoLeap,
            "all_leap" | "366_day" => CfCalendar::AllLeap,
            "360_day" => CfCalendar::Day360,
            _ => return None,
        })
    }

    /// Whether years are numbered through 0 (cftime's default): not for the two calendars of
    /// history, where 1 BC (shown as -1) precedes AD 1.
    fn has_year_zero(self) -> bool {
        !matches!(self, CfCalendar::Standard | CfCalendar::Julian)
    }
}

/// A date and time in a CF calendar, to the microsecond (`nanosecond` is a multiple of 1000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CfDateTime {
    /// The year (for the standard and Julian calendars, -1 is the year before 1).
    pub year: i64,
    /// Month, 1–12.
    pub month: u8,
    /// Day of the month, from 1.
    pub day: u8,
    /// Hour, 0–23.
    pub hour: u8,
    /// Minute, 0–59.
    pub minute: u8,
    /// Second, 0–59.
    pub second: u8,
    /// Nanoseconds within the second.
    pub nanosecond: u32,
    /// The calendar the date is in.
    pub calendar: CfCalendar,
}

impl std::fmt::Display for CfDateTime {
    /// ISO 8601: `2000-01-31T12:00:00`, with `.ffffff` when there are microseconds; years
    /// have at least four digits and a sign when negative.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.year < 0 { "-" } else { "" };
        write!(
            f,
            "{sign}{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year.unsigned_abs(),
            self.month,
            self.day,
            self.hour,
            self.minute,
            self.second
        )?;
        if self.nanosecond != 0 {
            write!(f, ".{:06}", self.nanosecond / 1000)?;
        }
        Ok(())
    }
}

#[cfg(feature = "chrono")]
impl CfDateTime {
    /// The same instant as a chrono date-time, for the calendars chrono's (proleptic
    /// Gregorian) dates can show: proleptic Gregorian, and standard from 1582-10-15 on.
    pub fn to_chrono(&self) -> Option<chrono::NaiveDateTime> {
        let gregorian = match self.calendar {
            CfCalendar::ProlepticGregorian => true,
            CfCalendar::Standard => (self.year, self.month, self.day) >= (1582, 10, 15),
            _ => false,
        };
        if !gregorian {
            return None;
        }
        chrono::NaiveDate::from_ymd_opt(
            i32::try_from(self.year).ok()?,
            self.month.into(),
            self.day.into(),
        )?
        .and_hms_nano_opt(
            self.hour.into(),
            self.minute.into(),
            self.second.into(),
            self.nanosecond,
        )
    }
}

const US_PER_DAY: i128 = 86_400_000_000;
/// Dates further than this from the reference (about 27 million years) are refused.
const MAX_US: f64 = 1e27;

/// Parsed time units: microseconds per unit and the reference instant.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimeUnits {
    us_per_unit: f64,
    /// The reference instant as microseconds since the calendar's day 0.
    origin: i128,
    calendar: CfCalendar,
}

fn bad_units(units: &str, why: &str) -> Error {
    Error::with_detail(
        ErrorKind::Inval,
        format!("units \"{units}\" are not CF time units: {why}"),
    )
}

/// Splits `s` at the first character not in `ok`.
fn take(s: &str, ok: impl Fn(char) -> bool) -> (&str, &str) {
    let n = s.find(|c: char| !ok(c)).unwrap_or(s.len());
    s.split_at(n)
}

fn num(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 12 {
        return None;
    }
    s.parse().ok()
}

impl TimeUnits {
    /// Parses `<unit> since <date>[ <time>][ <zone>]` for `calendar`.
    pub(crate) fn parse(units: &str, calendar: CfCalendar) -> Result<TimeUnits> {
        let err = |why: &str| bad_units(units, why);
        let mut words = units.trim().splitn(2, char::is_whitespace);
        let unit = words.next().unwrap_or_default().to_ascii_lowercase();
        let rest = words.next().unwrap_or_default().trim_start();
        let Some(date) = rest
            .get(..5)
            .filter(|s| s.eq_ignore_ascii_case("since"))
            .map(|_| rest[5..].trim())
        else {
            return Err(err("no \"since\""));
        };
        let us_per_unit = match unit.as_str() {
            "days" | "day" | "d" => 86_400e6,
            "hours" | "hour" | "hrs" | "hr" | "h" => 3_600e6,
            "minutes" | "minute" | "mins" | "min" => 60e6,
            "seconds" | "second" | "secs" | "sec" | "s" => 1e6,
            "milliseconds" | "millisecond" | "msecs" | "msec" | "ms" => 1e3,
            "microseconds" | "microsecond" | "usecs" | "usec" | "us" => 1.0,
            _ => return Err(err("unknown unit")),
        };
        // Date: [-]Y-M-D.
        let (neg, d) = match date.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, date),
        };
        let (y, d) = take(d, |c| c.is_ascii_digit());
        let (m, d) = take(d.strip_prefix('-').ok_or_else(|| err("no month"))?, |c| {
            c.is_ascii_digit()
        });
        let (dd, mut t) = take(d.strip_prefix('-').ok_or_else(|| err("no day"))?, |c| {
            c.is_ascii_digit()
        });
        let (Some(y), Some(m), Some(dd)) = (num(y), num(m), num(dd)) else {
            return Err(err("bad date"));
        };
        let year = if neg { -y } else { y };
        // Time: [T| ]H:M[:S[.f]].
        t = t.strip_prefix(['T', 't']).unwrap_or(t).trim_start();
        let mut us_of_day: i128 = 0;
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            let (h, r) = take(t, |c| c.is_ascii_digit());
            let (mi, r) = match r.strip_prefix(':') {
                Some(r) => take(r, |c| c.is_ascii_digit()),
                None => ("0", r),
            };
            let (s, r) = match r.strip_prefix(':') {
                Some(r) => take(r, |c| c.is_ascii_digit() || c == '.'),
                None => ("0", r),
            };
            let (Some(h), Some(mi)) = (num(h), num(mi)) else {
                return Err(err("bad time"));
            };
            let s: f64 = s.parse().map_err(|_| err("bad seconds"))?;
            if !(0..24).contains(&h) || !(0..60).contains(&mi) || !(0.0..61.0).contains(&s) {
                return Err(err("time out of range"));
            }
            us_of_day = i128::from(h * 3600 + mi * 60) * 1_000_000 + (s * 1e6).round() as i128;
            t = r.trim_start();
        }
        // Zone: Z, UTC, or ±H[H][[:]MM].
        let zone_min: i64 = match t {
            "" | "Z" | "z" | "UTC" | "utc" | "GMT" => 0,
            z if z.starts_with(['+', '-']) => {
                let sign = if z.starts_with('-') { -1 } else { 1 };
                let z = &z[1..];
                let (h, r) = take(z, |c| c.is_ascii_digit());
                let (h, mi) = match (h.len(), r.strip_prefix(':')) {
                    (3 | 4, _) if r.is_empty() => (&h[..h.len() - 2], &h[h.len() - 2..]),
                    (1 | 2, Some(r)) if r.len() == 2 => (h, r),
                    (1 | 2, None) if r.is_empty() => (h, "0"),
                    _ => return Err(err("bad time zone")),
                };
                let (Some(h), Some(mi)) = (num(h), num(mi)) else {
                    return Err(err("bad time zone"));
                };
                if h > 23 || mi > 59 {
                    return Err(err("bad time zone"));
                }
                sign * (h * 60 + mi)
            }
            _ => return Err(err("unexpected text after the date")),
        };
        let day = days_from_date(calendar, year, m, dd).ok_or_else(|| {
            err(&format!(
                "no date {year}-{m}-{dd} in the {calendar:?} calendar"
            ))
        })?;
        let origin = i128::from(day) * US_PER_DAY + us_of_day - i128::from(zone_min) * 60_000_000;
        Ok(TimeUnits {
            us_per_unit,
            origin,
            calendar,
        })
    }

    /// The date-time `value` units after the reference; `None` for values not finite or too
    /// far away.
    pub(crate) fn date(&self, value: f64) -> Option<CfDateTime> {
        let us = (value * self.us_per_unit).round_ties_even();
        if !us.is_finite() || us.abs() > MAX_US {
            return None;
        }
        let t = self.origin + us as i128;
        let day = i64::try_from(t.div_euclid(US_PER_DAY)).ok()?;
        let r = t.rem_euclid(US_PER_DAY);
        let (year, month, dd) = date_from_days(self.calendar, day);
        let secs = r / 1_000_000;
        Some(CfDateTime {
            year,
            month,
            day: dd,
            hour: (secs / 3600) as u8,
            minute: (secs / 60 % 60) as u8,
            second: (secs % 60) as u8,
            nanosecond: (r % 1_000_000) as u32 * 1000,
            calendar: self.calendar,
        })
    }
}

/// Julian Day Number of the proleptic Gregorian date (astronomical year).
fn jdn_gregorian(y: i64, m: i64, d: i64) -> i64 {
    let a = (14 - m).div_euclid(12);
    let y2 = y + 4800 - a;
    let m2 = m + 12 * a - 3;
    d + (153 * m2 + 2).div_euclid(5) + 365 * y2 + y2.div_euclid(4) - y2.div_euclid(100)
        + y2.div_euclid(400)
        - 32045
}

/// Julian Day Number of the Julian-calendar date (astronomical year).
fn jdn_julian(y: i64, m: i64, d: i64) -> i64 {
    let a = (14 - m).div_euclid(12);
    let y2 = y + 4800 - a;
    let m2 = m + 12 * a - 3;
    d + (153 * m2 + 2).div_euclid(5) + 365 * y2 + y2.div_euclid(4) - 32083
}

fn from_jdn(j: i64, gregorian: bool) -> (i64, u8, u8) {
    let (b, c) = if gregorian {
        let a = j + 32044;
        let b = (4 * a + 3).div_euclid(146_097);
        (b, a - (146_097 * b).div_euclid(4))
    } else {
        (0, j + 32082)
    };
    let d = (4 * c + 3).div_euclid(1461);
    let e = c - (1461 * d).div_euclid(4);
    let m = (5 * e + 2).div_euclid(153);
    let day = e - (153 * m + 2).div_euclid(5) + 1;
    let month = m + 3 - 12 * m.div_euclid(10);
    (
        100 * b + d - 4800 + m.div_euclid(10),
        month as u8,
        day as u8,
    )
}

/// The JDN of 1582-10-15, the first Gregorian day of the standard calendar.
const GREGORIAN_START: i64 = 2_299_161;

const CUM_365: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
const CUM_366: [i64; 12] = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335];

fn month_len(cum: &[i64; 12], year_len: i64, m: usize) -> i64 {
    cum.get(m + 1).copied().unwrap_or(year_len) - cum[m]
}

/// Day number of a date (astronomical year for the Gregorian/Julian calendars, as written for
/// the others); `None` when the date does not exist in the calendar.
fn days_from_date(cal: CfCalendar, year: i64, m: i64, d: i64) -> Option<i64> {
    if !(1..=12).contains(&m) || d < 1 || year.abs() > 100_000_000 {
        return None;
    }
    let mi = (m - 1) as usize;
    let year = if cal.has_year_zero() {
        year
    } else if year == 0 {
        return None;
    } else if year < 0 {
        year + 1
    } else {
        year
    };
    let fixed = |cum: &[i64; 12], len: i64| {
        (d <= month_len(cum, len, mi)).then(|| year * len + cum[mi] + d - 1)
    };
    let roundtrip = |jdn: i64, greg: bool| {
        let (y2, m2, d2) = from_jdn(jdn, greg);
        ((y2, i64::from(m2), i64::from(d2)) == (year, m, d)).then_some(jdn)
    };
    match cal {
        CfCalendar::NoLeap => fixed(&CUM_365, 365),
        CfCalendar::AllLeap => fixed(&CUM_366, 366),
        CfCalendar::Day360 => (d <= 30).then(|| year * 360 + (m - 1) * 30 + d - 1),
        CfCalendar::ProlepticGregorian => roundtrip(jdn_gregorian(year, m, d), true),
        CfCalendar::Julian => roundtrip(jdn_julian(year, m, d), false),
        CfCalendar::Standard => {
            if (year, m, d) >= (1582, 10, 15) {
                roundtrip(jdn_gregorian(year, m, d), true)
            } else if (year, m, d) < (1582, 10, 5) {
                roundtrip(jdn_julian(year, m, d), false)
            } else {
                None
            }
        }
    }
}

/// The date of a day number (years as cftime numbers them).
fn date_from_days(cal: CfCalendar, day: i64) -> (i64, u8, u8) {
    let fixed = |cum: &[i64; 12], len: i64| {
        let y = day.div_euclid(len);
        let r = day.rem_euclid(len);
        let m = cum.iter().rposition(|&c| c <= r).unwrap_or(0);
        (y, m as u8 + 1, (r - cum[m] + 1) as u8)
    };
    let (y, m, d) = match cal {
        CfCalendar::NoLeap => fixed(&CUM_365, 365),
        CfCalendar::AllLeap => fixed(&CUM_366, 366),
        CfCalendar::Day360 => {
            let r = day.rem_euclid(360);
            (day.div_euclid(360), (r / 30 + 1) as u8, (r % 30 + 1) as u8)
        }
        CfCalendar::ProlepticGregorian => from_jdn(day, true),
        CfCalendar::Julian => from_jdn(day, false),
        CfCalendar::Standard => from_jdn(day, day >= GREGORIAN_START),
    };
    if !cal.has_year_zero() && y <= 0 {
        (y - 1, m, d)
    } else {
        (y, m, d)
    }
}

/// The units and calendar of a variable, with errors that name it and the attribute.
pub(crate) fn time_units(var: &crate::Variable<'_>) -> Result<TimeUnits> {
    let text = |name: &str| -> Result<Option<String>> {
        match var.attribute(name) {
            None => Ok(None),
            Some(a) => match &a.values {
                crate::Values::Char(c) => Ok(Some(String::from_utf8_lossy(c).into_owned())),
                crate::Values::String(s) if s.len() == 1 => Ok(s[0].clone()),
                _ => fail(
                    ErrorKind::BadType,
                    format!("{}: attribute {name} is not text", var.name()),
                ),
            },
        }
    };
    let calendar = match text("calendar")? {
        None => CfCalendar::Standard,
        Some(c) => CfCalendar::from_name(c.trim_end_matches('\0')).ok_or_else(|| {
            Error::with_detail(
                ErrorKind::Inval,
                format!(
                    "{}: attribute calendar = \"{c}\" names no calendar with dates",
                    var.name()
                ),
            )
        })?,
    };
    let Some(units) = text("units")? else {
        return fail(
            ErrorKind::NotAtt,
            format!("{} has no units attribute", var.name()),
        );
    };
    TimeUnits::parse(units.trim_end_matches('\0'), calendar).map_err(|e| {
        Error::with_detail(
            e.kind(),
            format!(
                "{}: attribute units: {}",
                var.name(),
                e.context().detail.clone().unwrap_or_default()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(units: &str, cal: CfCalendar, v: f64) -> String {
        TimeUnits::parse(units, cal)
            .unwrap()
            .date(v)
            .unwrap()
            .to_string()
    }

    #[test]
    fn calendars() {
        use CfCalendar::*;
        assert_eq!(
            d("days since 1582-10-04", Standard, 1.0),
            "1582-10-15T00:00:00"
        );
        assert_eq!(
            d("days since 2000-01-01", NoLeap, 59.0),
            "2000-03-01T00:00:00"
        );
        assert_eq!(
            d("days since 2000-01-01", AllLeap, 59.0),
            "2000-02-29T00:00:00"
        );
        assert_eq!(
            d("days since 2000-01-01", Day360, 59.5),
            "2000-02-30T12:00:00"
        );
        assert_eq!(
            d("days since 1900-02-28", Julian, 1.0),
            "1900-02-29T00:00:00"
        );
        assert_eq!(
            d("days since 0001-01-01", Standard, -1.0),
            "-0001-12-31T00:00:00"
        );
        assert_eq!(
            d("days since 0001-01-01", ProlepticGregorian, -1.0),
            "0000-12-31T00:00:00"
        );
        assert_eq!(
            d("hours since 2000-01-01 00:00:00 -06:00", Standard, 0.0),
            "2000-01-01T06:00:00"
        );
        assert_eq!(
            d("msec since 2000-1-1T1:2:3.5Z", Julian, 1.0004),
            "2000-01-01T01:02:03.501000"
        );
        for bad in [
            "days",
            "days since",
            "fortnights since 2000-01-01",
            "days since 2000-13-01",
        ] {
            assert!(TimeUnits::parse(bad, Standard).is_err(), "{bad}");
        }
        assert!(TimeUnits::parse("days since 1582-10-10", Standard).is_err());
        assert!(TimeUnits::parse("days since 2000-01-01", Standard)
            .unwrap()
            .date(1e300)
            .is_none());
    }
}
