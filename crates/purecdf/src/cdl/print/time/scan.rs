//! Parsing for `ncdump -t`: the `sscanf` patterns netcdf-c applies to a `units` attribute
//! (`<unit> since <base>`, with a blank or ISO `T` separator) and to the base time
//! (netcdf-c `nctime0.c` `is_valid_time_unit`, `nctime.c` `cdParseRelunits`, `cdChar2Comp`;
//! ncdump-conventions.md §4).

use super::{Calendar, Comp, Unit};

/// A tiny `sscanf` cursor.
struct Scan<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn skip_ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }
    /// `%s`.
    fn word(&mut self) -> Option<&'a [u8]> {
        self.skip_ws();
        let st = self.i;
        while self.s.get(self.i).is_some_and(|c| !c.is_ascii_whitespace()) {
            self.i += 1;
        }
        (self.i > st).then(|| &self.s[st..self.i])
    }
    /// A literal (whitespace in `lit` matches any run of whitespace).
    fn lit(&mut self, lit: &[u8]) -> bool {
        for &c in lit {
            if c == b' ' {
                self.skip_ws();
            } else if self.s.get(self.i) == Some(&c) {
                self.i += 1;
            } else {
                return false;
            }
        }
        true
    }
    /// `%[^T]`.
    fn until_t(&mut self) -> Option<&'a [u8]> {
        let st = self.i;
        while self.s.get(self.i).is_some_and(|&c| c != b'T') {
            self.i += 1;
        }
        (self.i > st).then(|| &self.s[st..self.i])
    }
    /// `%d`-style integer.
    fn int(&mut self) -> Option<i64> {
        self.skip_ws();
        let st = self.i;
        if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
            self.i += 1;
        }
        let ds = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        if self.i == ds {
            self.i = st;
            return None;
        }
        let t = std::str::from_utf8(&self.s[st..self.i]).ok()?;
        Some(t.parse::<i64>().unwrap_or(if t.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        }))
    }
    /// `%lf`.
    fn float(&mut self) -> Option<f64> {
        self.skip_ws();
        let st = self.i;
        let mut end = st;
        let mut best = None;
        while end < self.s.len() && end - st < 64 {
            end += 1;
            if let Some(v) = std::str::from_utf8(&self.s[st..end])
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
            {
                best = Some((v, end));
            }
        }
        let (v, e) = best?;
        self.i = e;
        Some(v)
    }
}

/// `sscanf(units, "%s since %s %s")` and the `T` variant: unit word, base parts, count.
/// What `sscanf` matched: unit word, first and second base-time parts, conversion count.
type Scanned<'a> = (Option<&'a [u8]>, Option<&'a [u8]>, Option<&'a [u8]>, i32);

pub(super) fn scan_units(units: &[u8], t_form: bool) -> Scanned<'_> {
    let mut sc = Scan { s: units, i: 0 };
    let Some(u) = sc.word() else {
        return (None, None, None, -1);
    };
    if !sc.lit(b" since ") {
        return (Some(u), None, None, 1);
    }
    let b1 = if t_form { sc.until_t() } else { sc.word() };
    let Some(b1) = b1 else {
        return (Some(u), None, None, 1);
    };
    if t_form && !sc.lit(b"T") {
        return (Some(u), Some(b1), None, 2);
    }
    match sc.word() {
        Some(b2) => (Some(u), Some(b1), Some(b2), 3),
        None => (Some(u), Some(b1), None, 2),
    }
}

fn starts_ci(s: &[u8], p: &str) -> bool {
    s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p.as_bytes())
}

pub(super) fn parse_unit(w: &[u8]) -> Option<Unit> {
    let eq = |p: &str| w.eq_ignore_ascii_case(p.as_bytes());
    Some(if starts_ci(w, "sec") || eq("s") {
        Unit::Second
    } else if starts_ci(w, "min") || eq("mn") {
        Unit::Minute
    } else if starts_ci(w, "hour") || eq("hr") {
        Unit::Hour
    } else if starts_ci(w, "day") || eq("dy") {
        Unit::Day
    } else if starts_ci(w, "week") || eq("wk") {
        Unit::Week
    } else if starts_ci(w, "month") || eq("mo") {
        Unit::Month
    } else if starts_ci(w, "season") {
        Unit::Season
    } else if starts_ci(w, "year") || eq("yr") {
        Unit::Year
    } else {
        return None;
    })
}

/// `is_valid_time_unit`: `<unit> since <base>` with a unit cdtime knows.
pub(crate) fn is_valid_time_unit(units: &[u8]) -> bool {
    let (u1, _, _, n1) = scan_units(units, true);
    let (_, _, _, n2) = scan_units(units, false);
    if !(n1 > 1 || n2 > 1) {
        return false;
    }
    u1.and_then(parse_unit).is_some()
}

/// `cdChar2Comp`: the component time of a base-time string, and the CDMS error messages
/// netcdf-c reports while converting it (range errors stop the conversion; otherwise the result
/// is validated).
pub(super) fn char2comp(cal: Calendar, text: &[u8]) -> (Comp, Vec<String>) {
    let mut c = Comp {
        year: 0,
        month: 1,
        day: 1,
        hour: 0.0,
    };
    let mut msgs = Vec::new();
    let mut sc = Scan { s: text, i: 0 };
    // sscanf("%ld-%hd-%hd %d:%d:%lf") (or "%hd-%hd %d:%d:%lf"): conversions up to the first miss.
    let mut ints: Vec<i64> = Vec::new();
    let mut sec = None;
    let date_fields = if cal.is_standard() { 3 } else { 2 };
    'scan: {
        for k in 0..date_fields {
            if k > 0 && !sc.lit(b"-") {
                break 'scan;
            }
            match sc.int() {
                Some(v) => ints.push(v),
                None => break 'scan,
            }
        }
        match sc.int() {
            Some(v) => ints.push(v),
            None => break 'scan,
        }
        if !sc.lit(b":") {
            break 'scan;
        }
        match sc.int() {
            Some(v) => ints.push(v),
            None => break 'scan,
        }
        if !sc.lit(b":") {
            break 'scan;
        }
        sec = sc.float();
    }
    if ints.is_empty() {
        let text = String::from_utf8_lossy(text);
        msgs.push(if cal.is_standard() {
            format!("Error on character time conversion, string = {text}\n")
        } else {
            format!("Error on character time conversion, string = {text}")
        });
        return (c, msgs);
    }
    let mut it = ints.iter().copied();
    if cal.is_standard() {
        c.year = it.next().unwrap_or(0);
    }
    if let Some(m) = it.next() {
        c.month = m as i16;
    }
    if let Some(d) = it.next() {
        c.day = d as i16;
    }
    if let Some(h) = it.next() {
        let h = h as i32;
        if !(0..=23).contains(&h) {
            msgs.push(format!(
                "Error on character time conversion: invalid hour = {h}\n"
            ));
            return (c, msgs);
        }
        c.hour = f64::from(h);
    }
    if let Some(m) = it.next() {
        let m = m as i32;
        if !(0..=59).contains(&m) {
            msgs.push(format!(
                "Error on character time conversion: invalid minute = {m}\n"
            ));
            return (c, msgs);
        }
        c.hour += f64::from(m) / 60.0;
    }
    if let Some(s) = sec {
        if !(0.0..=60.0).contains(&s) {
            msgs.push(format!(
                "Error on character time conversion: invalid second = {s:.6}\n"
            ));
            return (c, msgs);
        }
        c.hour += s / 3600.0;
    }
    super::validate(&c, &mut msgs);
    (c, msgs)
}
