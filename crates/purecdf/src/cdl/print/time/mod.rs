//! `ncdump -t` / `-i`: numeric times with CF-style units (`<unit> since <date>`) printed as ISO
//! date-time strings (ncdump-conventions.md §4; netcdf-c `ncdump/nctime0.c` and
//! `libdispatch/nctime.c`, the CDMS calendar code). Supported calendars: mixed Gregorian/Julian
//! (`gregorian`, `standard`, the default), `proleptic_gregorian`, `noleap`/`365_day`,
//! `all_leap`/`366_day`, `360_day`, `julian` and `none` (climatological).
//!
//! The arithmetic reproduces netcdf-c's, including its quirks (month units land on day 1, the
//! Julian/Gregorian switch at 1582-10-05/15). Year loops are bounded: whole 400-year cycles are
//! skipped arithmetically, so hostile values can't make the printer spin.

// Calendar bits (nctime.h).
mod scan;

pub(crate) use scan::is_valid_time_unit;
use scan::{char2comp, parse_unit, scan_units};

const CD_CHRON_CAL: u32 = 0x1;
const CD_BASE_1970: u32 = 0x10;
const CD_HAS_LEAP: u32 = 0x100;
const CD_366: u32 = 0x2000;
const CD_365: u32 = 0x1000;
const CD_JULIAN_TYPE: u32 = 0x10000;

const CD_CHRON: u32 = CD_CHRON_CAL | CD_BASE_1970 | CD_HAS_LEAP | CD_365;
const CD_JULIAN_CAL: u32 = CD_CHRON_CAL | CD_BASE_1970 | CD_HAS_LEAP | CD_365 | CD_JULIAN_TYPE;
const CD_CHRON_NOLEAP: u32 = CD_CHRON_CAL | CD_BASE_1970 | CD_365;
const CD_CHRON_360: u32 = CD_CHRON_CAL | CD_BASE_1970;
const CD_CHRON_366: u32 = CD_CHRON_CAL | CD_BASE_1970 | CD_366;
const CD_CLIM: u32 = CD_365;
const CD_CLIM_LEAP: u32 = CD_HAS_LEAP | CD_365;

const STANDARD_CAL: u32 = 0x11;
const HAS_LEAP: u32 = 0x100;
const DAYS_366: u32 = 0x2000;
const DAYS_365: u32 = 0x1000;
const JULIAN_CAL: u32 = 0x10000;
const MIXED_CAL: u32 = 0x20000;

/// A calendar (`cdCalenType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Calendar(u32);

impl Calendar {
    /// Proleptic Gregorian.
    pub(crate) const STANDARD: Calendar = Calendar(STANDARD_CAL | HAS_LEAP | DAYS_365);
    /// Julian.
    pub(crate) const JULIAN: Calendar = Calendar(STANDARD_CAL | HAS_LEAP | DAYS_365 | JULIAN_CAL);
    /// 365-day years.
    pub(crate) const NO_LEAP: Calendar = Calendar(STANDARD_CAL | DAYS_365);
    /// 360-day years of twelve 30-day months.
    pub(crate) const DAY_360: Calendar = Calendar(STANDARD_CAL);
    /// 366-day years.
    pub(crate) const DAY_366: Calendar = Calendar(STANDARD_CAL | DAYS_366);
    /// Climatological (no year).
    pub(crate) const CLIM: Calendar = Calendar(DAYS_365);
    /// Mixed Julian/Gregorian, the default.
    pub(crate) const MIXED: Calendar = Calendar(STANDARD_CAL | HAS_LEAP | DAYS_365 | MIXED_CAL);

    fn is_standard(self) -> bool {
        self.0 & STANDARD_CAL != 0
    }

    /// The calendar a `calendar` attribute value names (`calendar_type`): a case-insensitive
    /// match on the attribute's length, first table entry wins; unknown names give the default.
    pub(crate) fn from_attribute(text: &[u8]) -> Calendar {
        const MAP: [(&str, Calendar); 12] = [
            ("gregorian", Calendar::MIXED),
            ("standard", Calendar::MIXED),
            ("proleptic_gregorian", Calendar::STANDARD),
            ("noleap", Calendar::NO_LEAP),
            ("no_leap", Calendar::NO_LEAP),
            ("365_day", Calendar::NO_LEAP),
            ("allleap", Calendar::DAY_366),
            ("all_leap", Calendar::DAY_366),
            ("366_day", Calendar::DAY_366),
            ("360_day", Calendar::DAY_360),
            ("julian", Calendar::JULIAN),
            ("none", Calendar::CLIM),
        ];
        let n = text.len();
        let s1 = &text[..text.iter().position(|&c| c == 0).unwrap_or(n)];
        for (name, cal) in MAP {
            let s2 = &name.as_bytes()[..name.len().min(n)];
            if s1.eq_ignore_ascii_case(s2) {
                return cal;
            }
        }
        Calendar::MIXED
    }

    fn old_type(self) -> Option<u32> {
        Some(match self {
            Calendar::STANDARD => CD_CHRON,
            Calendar::JULIAN => CD_JULIAN_CAL,
            Calendar::NO_LEAP => CD_CHRON_NOLEAP,
            Calendar::DAY_360 => CD_CHRON_360,
            Calendar::DAY_366 => CD_CHRON_366,
            Calendar::CLIM => CD_CLIM,
            Calendar(c) if c == HAS_LEAP | DAYS_365 => CD_CLIM_LEAP,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Season,
    Year,
}

/// A component time (`cdCompTime`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Comp {
    year: i64,
    month: i16,
    day: i16,
    hour: f64,
}

/// A "human" time (`CdTime`).
#[derive(Debug, Clone, Copy)]
struct HTime {
    year: i64,
    month: i16,
    day: i16,
    hour: f64,
    base_year: i64,
    tt: u32,
}

const ZA: Comp = Comp {
    year: 1582,
    month: 10,
    day: 5,
    hour: 0.0,
};
const ZB: Comp = Comp {
    year: 1582,
    month: 10,
    day: 15,
    hour: 0.0,
};

/// The parsed time units of a variable: unit, origin and calendar.
#[derive(Debug, Clone)]
pub(crate) struct TimeUnits {
    cal: Calendar,
    unit: Unit,
    origin: Comp,
    /// CDMS messages from converting the base time, repeated for every value.
    base_msgs: Vec<String>,
}

fn is_leap(year: i64, tt: u32) -> bool {
    (tt & CD_366 != 0)
        || ((tt & CD_HAS_LEAP != 0)
            && year % 4 == 0
            && ((tt & CD_JULIAN_TYPE != 0) || year % 100 != 0 || year % 400 == 0))
}

const MON_NORMAL: [i32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MON_LEAP: [i32; 12] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAYS_SUM: [i32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

fn year_for(h: &HTime) -> i64 {
    if h.tt & CD_CHRON_CAL == 0 {
        0
    } else if h.tt & CD_BASE_1970 == 0 {
        h.base_year + h.year
    } else {
        h.year
    }
}

fn month_day(doy: i32, h: &mut HTime) {
    if doy < 1 {
        h.month = 0;
        h.day = 0;
        return;
    }
    let cnt = if is_leap(year_for(h), h.tt) {
        &MON_LEAP
    } else {
        &MON_NORMAL
    };
    let mut idoy = doy;
    h.month = 0;
    for _ in 0..12 {
        h.month += 1;
        h.day = idoy as i16;
        let delta = if h.tt & (CD_365 | CD_366) != 0 {
            cnt[(h.month - 1) as usize]
        } else {
            30
        };
        idoy -= delta;
        if idoy <= 0 {
            return;
        }
    }
}

fn day_of_year(h: &HTime, d: &mut Vec<String>) -> i32 {
    let month = if (1..=12).contains(&h.month) {
        h.month
    } else {
        d.push(format!("Day-of-year error; month: {}\n", h.month));
        1
    };
    let leap_add = i32::from(is_leap(year_for(h), h.tt) && month > 2);
    if h.tt & (CD_365 | CD_366) != 0 {
        DAYS_SUM[(month - 1) as usize] + i32::from(h.day) + leap_add
    } else {
        30 * i32::from(month - 1) + i32::from(h.day) + leap_add
    }
}

fn year_lengths(tt: u32) -> (i64, i64) {
    if tt & CD_366 != 0 {
        (366, 366)
    } else if tt & CD_365 != 0 {
        (366, 365)
    } else {
        (360, 360)
    }
}

fn year_len(y: i64, tt: u32) -> i64 {
    let (leap, normal) = year_lengths(tt);
    if is_leap(y, tt) {
        leap
    } else {
        normal
    }
}

/// Days in the 400 years starting at any year (leap rules repeat every 400 years).
fn cycle_days(tt: u32) -> i64 {
    (0..400).map(|y| year_len(y, tt)).sum()
}

/// `Cde2h`: hours since 1970 (or since the base year) to a human time.
fn e2h(etime: f64, tt: u32, base_year: i64) -> HTime {
    let fl = (etime / 24.0).floor();
    // C converts with (int); out-of-range values become INT_MIN on x86-64.
    let mut doy: i64 = if (-2147483648.0..2147483648.0).contains(&fl) {
        fl as i64
    } else {
        i64::from(i32::MIN)
    };
    doy = i64::from((doy as i32).wrapping_add(1));
    let mut hour = etime - (doy - 1) as f64 * 24.0;
    if hour >= 24.0 {
        doy += 1;
        hour -= 24.0;
    }
    let mut h = HTime {
        year: 0,
        month: 0,
        day: 0,
        hour,
        base_year: if tt & CD_BASE_1970 != 0 {
            1970
        } else {
            base_year
        },
        tt,
    };
    if tt & CD_CHRON_CAL == 0 {
        h.base_year = 0;
    }
    let cyc = cycle_days(tt);
    let mut ytemp;
    if doy > 0 {
        ytemp = h.base_year;
        if doy > cyc {
            let k = (doy - 1) / cyc;
            ytemp += 400 * k;
            doy -= k * cyc;
        }
        loop {
            let n = year_len(ytemp, tt);
            if doy <= n {
                break;
            }
            doy -= n;
            ytemp += 1;
        }
    } else {
        ytemp = h.base_year - 1;
        if -doy > cyc {
            let k = (-doy) / cyc;
            ytemp -= 400 * k;
            doy += k * cyc;
        }
        loop {
            doy += year_len(ytemp, tt);
            if doy > 0 {
                break;
            }
            ytemp -= 1;
        }
    }
    h.year = if tt & CD_BASE_1970 != 0 {
        ytemp
    } else {
        ytemp - h.base_year
    };
    if tt & CD_CHRON_CAL == 0 {
        h.year = 0;
    }
    month_day(doy as i32, &mut h);
    h
}

/// Days from the start of year `a` to the start of year `b` (a <= b).
fn days_between(a: i64, b: i64, tt: u32) -> i64 {
    let span = b - a;
    let cyc = cycle_days(tt);
    let whole = span / 400;
    let mut d = whole * cyc;
    let mut y = a + whole * 400;
    while y < b {
        d += year_len(y, tt);
        y += 1;
    }
    d
}

/// `Cdh2e`: human time to hours since 1970 (or since the base year).
fn h2e(h: &HTime, d: &mut Vec<String>) -> f64 {
    let doy = day_of_year(h, d);
    let mut base = if h.tt & CD_BASE_1970 != 0 {
        1970
    } else {
        h.base_year
    };
    let mut year = if h.tt & CD_BASE_1970 != 0 {
        h.year
    } else {
        h.year + h.base_year
    };
    if h.tt & CD_CHRON_CAL == 0 {
        base = 0;
        year = 0;
    }
    let day_cnt: i64 = match year.cmp(&base) {
        std::cmp::Ordering::Greater => days_between(base, year, h.tt),
        std::cmp::Ordering::Less => -days_between(year, base, h.tt),
        std::cmp::Ordering::Equal => 0,
    };
    // C accumulates in an int.
    let day_cnt = day_cnt as i32;
    f64::from(day_cnt.wrapping_add(doy).wrapping_sub(1)) * 24.0 + h.hour
}

/// `cdValidateTime`: false (with the CDMS message) for an impossible component time.
fn validate(c: &Comp, d: &mut Vec<String>) -> bool {
    let msg = if !(1..=12).contains(&c.month) {
        format!("Error on time conversion: invalid month = {}\n", c.month)
    } else if !(1..=31).contains(&c.day) {
        format!("Error on time conversion: invalid day = {}\n", c.day)
    } else if !(0.0..=24.0).contains(&c.hour) {
        format!("Error on time conversion: invalid hour = {:.6}\n", c.hour)
    } else {
        return true;
    };
    d.push(msg);
    false
}

impl TimeUnits {
    /// `cdParseRelunits`: parses `<unit> since <base>` for a calendar; `None` when not usable.
    pub(crate) fn parse(cal: Calendar, units: &[u8]) -> Option<TimeUnits> {
        let (mut u, mut b1, mut b2, mut n) = scan_units(units, false);
        if n >= 2 && b1.is_some_and(|b| b.contains(&b'T')) {
            (u, b1, b2, n) = scan_units(units, true);
        }
        if n <= 0 {
            return None;
        }
        let unit = parse_unit(u?)?;
        if unit == Unit::Year && !cal.is_standard() {
            return None;
        }
        let base: Vec<u8> = match (n, b1, b2) {
            (1, _, _) if cal.is_standard() => b"1979".to_vec(),
            (1, _, _) => b"1".to_vec(),
            (2, Some(b1), _) => trim_ws(b1).to_vec(),
            (_, Some(b1), Some(b2)) => [trim_ws(b1), b" ", trim_ws(b2)].concat(),
            _ => return None,
        };
        let (origin, base_msgs) = char2comp(cal, &base);
        Some(TimeUnits {
            cal,
            unit,
            origin,
            base_msgs,
        })
    }

    /// `cdRel2Iso`: the ISO string of `value` in these units, `sep` between date and time.
    /// Returns `None` when the result is not a valid time (netcdf-c prints garbage then).
    ///
    /// netcdf-c re-parses the units and reports CDMS errors for every value it converts; those
    /// messages (without the `CDMS error: ` prefix) are appended to `diag`.
    pub(crate) fn to_iso(&self, value: f64, sep: u8, diag: &mut Vec<String>) -> Option<String> {
        diag.extend(self.base_msgs.iter().cloned());
        let c = rel2comp(self.cal, self.unit, self.origin, value, diag);
        comp2iso(self.cal, sep, &c, diag)
    }
}

fn trim_ws(s: &[u8]) -> &[u8] {
    let n = s
        .iter()
        .position(|c| c.is_ascii_whitespace())
        .unwrap_or(s.len());
    &s[..n]
}

/// `cdComp2Rel` with units "hours" (base 1979-01-01) for a non-mixed calendar.
fn comp2hours(cal: Calendar, c: Comp, d: &mut Vec<String>) -> f64 {
    let tt = cal.old_type().unwrap_or(CD_CHRON);
    let base = HTime {
        year: 1979,
        month: 1,
        day: 1,
        hour: 0.0,
        base_year: 1970,
        tt,
    };
    let h = HTime {
        year: c.year,
        month: c.month,
        day: c.day,
        hour: c.hour,
        base_year: 1970,
        tt,
    };
    let x = h2e(&h, d);
    x - h2e(&base, d)
}

/// `cdRel2Comp` with units "hours" (base 1979-01-01) for a non-mixed calendar.
fn hours2comp(cal: Calendar, hours: f64, d: &mut Vec<String>) -> Comp {
    rel2comp(
        cal,
        Unit::Hour,
        Comp {
            year: 1979,
            month: 1,
            day: 1,
            hour: 0.0,
        },
        hours,
        d,
    )
}

fn comp_add(c: Comp, hours: f64, cal: Calendar, d: &mut Vec<String>) -> Comp {
    let h = comp2hours(cal, c, d) + hours;
    hours2comp(cal, h, d)
}

fn cmp_comp(a: &Comp, b: &Comp) -> std::cmp::Ordering {
    a.year
        .cmp(&b.year)
        .then(a.month.cmp(&b.month))
        .then(a.day.cmp(&b.day))
        .then(
            a.hour
                .partial_cmp(&b.hour)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
}

fn comp_add_mixed(ct: Comp, value: f64, d: &mut Vec<String>) -> Comp {
    let diff = |cal: Calendar, a: Comp, b: Comp, d: &mut Vec<String>| {
        let x = comp2hours(cal, a, d);
        x - comp2hours(cal, b, d)
    };
    if cmp_comp(&ct, &ZB).is_lt() {
        let xj = diff(Calendar::JULIAN, ZA, ct, d);
        if value <= xj {
            comp_add(ct, value, Calendar::JULIAN, d)
        } else {
            comp_add(ZB, value - xj, Calendar::STANDARD, d)
        }
    } else {
        let xg = diff(Calendar::STANDARD, ZB, ct, d);
        if value > xg {
            comp_add(ct, value, Calendar::STANDARD, d)
        } else {
            comp_add(ZA, value - xg, Calendar::JULIAN, d)
        }
    }
}

fn rel2comp(mut cal: Calendar, unit: Unit, base: Comp, reltime: f64, d: &mut Vec<String>) -> Comp {
    let to_hours = |v: f64| match unit {
        Unit::Second => Some(v / 3600.0),
        Unit::Minute => Some(v / 60.0),
        Unit::Hour => Some(v),
        Unit::Day => Some(24.0 * v),
        Unit::Week => Some(168.0 * v),
        _ => None,
    };
    if cal == Calendar::MIXED {
        if let Some(h) = to_hours(reltime) {
            return comp_add_mixed(base, h, d);
        }
        cal = Calendar::STANDARD;
    }
    let Some(tt) = cal.old_type() else {
        return base;
    };
    let bias = if reltime < 0.0 { -1e-10 } else { 1e-10 };
    let idelta: Option<i64> = match unit {
        Unit::Month => Some((reltime + bias) as i64),
        Unit::Season => Some((3.0 * reltime + bias) as i64),
        Unit::Year => Some((12.0 * reltime + bias) as i64),
        _ => None,
    };
    let mut h = HTime {
        year: base.year,
        month: base.month,
        day: base.day,
        hour: base.hour,
        base_year: 1970,
        tt,
    };
    let base_etm = h2e(&h, d);
    match idelta {
        Some(nd) => {
            if reltime != 0.0 {
                let b = e2h(base_etm, tt, 1970);
                let del_months = nd.saturating_add(i64::from(b.month) - 1);
                let del_years = if del_months >= 0 {
                    del_months / 12
                } else {
                    (del_months + 1) / 12 - 1
                };
                let e = HTime {
                    year: b.year.saturating_add(del_years),
                    month: (del_months - 12 * del_years + 1) as i16,
                    day: 1,
                    hour: 0.0,
                    // netcdf-c: 0 for climatological, else 1970 (the base it was given).
                    base_year: if tt & CD_CHRON_CAL == 0 { 0 } else { 1970 },
                    tt,
                };
                h = e2h(h2e(&e, d), tt, 1970);
            }
        }
        None => {
            let delta = to_hours(reltime).unwrap_or(0.0);
            h = e2h(base_etm + delta, tt, 1970);
        }
    }
    Comp {
        year: h.year,
        month: h.month,
        day: h.day,
        hour: h.hour,
    }
}

/// `cdComp2Iso`: trailing zero time fields are dropped.
fn comp2iso(cal: Calendar, sep: u8, c: &Comp, d: &mut Vec<String>) -> Option<String> {
    if !validate(c, d) {
        return None;
    }
    let epssec = 0.5e-6;
    let epsmin = epssec / 60.0;
    let epshr = epsmin / 60.0;
    let ihr = (c.hour + epshr) as i32;
    let dtmp = 60.0 * (c.hour - f64::from(ihr));
    let imin = (dtmp + epsmin) as i32;
    let sec = 60.0 * (dtmp - f64::from(imin));
    let isec = (sec + epssec) as i32;
    let nskip = if sec - f64::from(isec) < epssec {
        if isec == 0 {
            if imin == 0 {
                if ihr == 0 {
                    4
                } else {
                    3
                }
            } else {
                2
            }
        } else {
            1
        }
    } else {
        0
    };
    let sep = sep as char;
    let date = if cal.is_standard() {
        let y = if c.year < 0 {
            format!("-{:04}", c.year.unsigned_abs())
        } else {
            format!("{:04}", c.year)
        };
        format!("{y}-{:02}-{:02}", c.month, c.day)
    } else {
        format!("{:02}-{:02}", c.month, c.day)
    };
    Some(match nskip {
        0 => format!("{date}{sep}{ihr:02}:{imin:02}:{sec:.6}"),
        1 => format!("{date}{sep}{ihr:02}:{imin:02}:{isec:02}"),
        2 => format!("{date}{sep}{ihr:02}:{imin:02}"),
        3 => format!("{date}{sep}{ihr:02}"),
        _ => date,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(cal: Calendar, units: &str, v: f64) -> String {
        TimeUnits::parse(cal, units.as_bytes())
            .unwrap()
            .to_iso(v, b' ', &mut Vec::new())
            .unwrap()
    }

    #[test]
    fn gregorian_and_friends() {
        let m = Calendar::MIXED;
        assert_eq!(iso(m, "days since 2000-01-01", 0.0), "2000-01-01");
        assert_eq!(iso(m, "days since 2000-01-01", 1.5), "2000-01-02 12");
        assert_eq!(
            iso(m, "hours since 2000-01-01 00:00:00", 36.5),
            "2000-01-02 12:30"
        );
        assert_eq!(
            iso(m, "seconds since 1970-01-01", 1.0),
            "1970-01-01 00:00:01"
        );
        // netcdf-c switches calendars at 1582-10-05 (Julian) / 10-15, so this lands on the 5th.
        assert_eq!(iso(m, "days since 1582-10-04", 1.0), "1582-10-05");
        assert_eq!(iso(m, "days since 1582-10-04", 2.0), "1582-10-16");
        assert_eq!(iso(m, "days since 2000-01-01", 366.0), "2001-01-01");
        assert_eq!(
            iso(Calendar::NO_LEAP, "days since 2000-01-01", 365.0),
            "2001-01-01"
        );
        assert_eq!(
            iso(Calendar::DAY_360, "days since 2000-01-01", 30.0),
            "2000-02-01"
        );
        assert_eq!(
            iso(Calendar::DAY_366, "days since 2001-01-01", 365.0),
            "2001-12-31"
        );
        assert_eq!(
            iso(Calendar::JULIAN, "days since 1900-02-28", 1.0),
            "1900-02-29"
        );
        assert_eq!(iso(m, "months since 2000-01-15", 1.0), "2000-02-01");
        assert_eq!(
            iso(m, "days since 2000-01-01T06:00:00", 0.0),
            "2000-01-01 06"
        );
        assert_eq!(Calendar::from_attribute(b"NOLEAP"), Calendar::NO_LEAP);
        assert_eq!(Calendar::from_attribute(b"xyz"), Calendar::MIXED);
        assert!(is_valid_time_unit(b"days since 2000-01-01"));
        assert!(!is_valid_time_unit(b"meters"));
        assert!(!is_valid_time_unit(b"furlongs since 2000-01-01"));
        // Huge values end quickly instead of looping for ages.
        let _ = TimeUnits::parse(m, b"days since 2000-01-01")
            .unwrap()
            .to_iso(1e300, b' ', &mut Vec::new());
    }
}
