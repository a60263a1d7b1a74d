//! CF conventions decoding, opt in: [`Variable::get_decoded`] reads physical values, as xarray
//! decodes them by default (`mask_and_scale`), and netCDF4-python's valid range masking:
//!
//! - values equal to `_FillValue` or to any of `missing_value` become NaN (compared in the
//!   file's packed units; a NaN fill masks NaN);
//! - values outside `valid_range`, or below `valid_min` / above `valid_max`, become NaN (in
//!   packed units, as netCDF4-python masks them; xarray does not);
//! - the rest are unpacked: `value * scale_factor + add_offset` (each only when present).
//!
//! As xarray, a variable without `_FillValue` is not masked by its type's default fill value.
//!
//! Times are decoded on request too: [`Variable::get_datetimes`] turns a variable with CF time
//! units and a calendar into [`CfDateTime`]s, as cftime's `num2date` does (feature `chrono`:
//! `CfDateTime::to_chrono` for the Gregorian calendars). [`Variable::get_char_strings`] reads
//! a char variable as strings, as xarray's character-array decoding does.

mod time;

pub use time::{CfCalendar, CfDateTime};

use crate::error::{fail, Error, ErrorKind, Result};
use crate::file::Variable;
use crate::model::Values;
use crate::selection::Extents;

/// How a variable's values decode, from its CF attributes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CfDecoding {
    /// `scale_factor`.
    pub scale_factor: Option<f64>,
    /// `add_offset`.
    pub add_offset: Option<f64>,
    /// `_FillValue` and `missing_value` values, in packed units.
    pub missing: Vec<f64>,
    /// The smallest valid packed value (`valid_range[0]` or `valid_min`).
    pub valid_min: Option<f64>,
    /// The largest valid packed value (`valid_range[1]` or `valid_max`).
    pub valid_max: Option<f64>,
}

fn first(v: &Values) -> Option<f64> {
    v.get_f64(0)
}

fn all(v: &Values) -> Vec<f64> {
    (0..v.len()).filter_map(|i| v.get_f64(i)).collect()
}

impl CfDecoding {
    /// The decoding the variable's attributes ask for (numeric attributes only; others are
    /// ignored, as xarray ignores what it cannot use).
    pub fn of(var: &Variable<'_>) -> CfDecoding {
        let num = |name: &str| {
            var.attribute_def(name)
                .map(|a| &a.values)
                .filter(|v| v.nc_type().is_numeric() && !v.is_empty())
        };
        let mut missing = Vec::new();
        for name in ["_FillValue", "missing_value"] {
            if let Some(v) = num(name) {
                missing.extend(all(v));
            }
        }
        let (valid_min, valid_max) = match num("valid_range").filter(|v| v.len() == 2) {
            Some(r) => (r.get_f64(0), r.get_f64(1)),
            None => (
                num("valid_min").and_then(first),
                num("valid_max").and_then(first),
            ),
        };
        CfDecoding {
            scale_factor: num("scale_factor").and_then(first),
            add_offset: num("add_offset").and_then(first),
            missing,
            valid_min,
            valid_max,
        }
    }

    /// One packed value decoded: `None` when masked.
    pub fn decode(&self, packed: f64) -> Option<f64> {
        let masked = self
            .missing
            .iter()
            .any(|&m| m == packed || (m.is_nan() && packed.is_nan()))
            || self.valid_min.is_some_and(|lo| packed < lo)
            || self.valid_max.is_some_and(|hi| packed > hi);
        if masked {
            return None;
        }
        let mut x = packed;
        if let Some(s) = self.scale_factor {
            x *= s;
        }
        if let Some(o) = self.add_offset {
            x += o;
        }
        Some(x)
    }
}

impl Variable<'_> {
    /// Reads a selection decoded by the CF conventions (see [`crate::cf`]): masked values are
    /// NaN, packed ones unpacked.
    ///
    /// # Errors
    /// As [`Variable::get_values`] (NC_EBADTYPE for a variable that is not numeric).
    pub fn get_decoded<E>(&self, extents: E) -> Result<Vec<f64>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        self.read_decoded(extents, |x| x.unwrap_or(f64::NAN))
    }

    /// As [`Variable::get_decoded`], with masked values as `None`.
    ///
    /// # Errors
    /// As [`Variable::get_decoded`].
    pub fn get_decoded_masked<E>(&self, extents: E) -> Result<Vec<Option<f64>>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        self.read_decoded(extents, |x| x)
    }

    fn read_decoded<E, T>(&self, extents: E, out: impl Fn(Option<f64>) -> T) -> Result<Vec<T>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let d = CfDecoding::of(self);
        let raw = self.get_typed_values(crate::selection::extents(extents)?)?;
        if !raw.nc_type().is_numeric() {
            return fail(
                ErrorKind::BadType,
                format!("{} is not numeric", self.name()),
            );
        }
        Ok((0..raw.len())
            .map(|i| out(raw.get_f64(i).and_then(|x| d.decode(x))))
            .collect())
    }

    /// Reads a selection of a CF time variable as dates: `units = "<unit> since <date>"`
    /// (days, hours, minutes, seconds, milliseconds or microseconds; the date may have a time
    /// and a zone offset) in its `calendar` (see [`CfCalendar`]), as cftime's `num2date`
    /// decodes them, to the microsecond. Values are unpacked and masked first as by
    /// [`Variable::get_decoded_masked`]; masked values and NaN are `None`.
    ///
    /// ```
    /// # let dir = tempfile::tempdir()?;
    /// # let path = dir.path().join("t.nc");
    /// let mut file = purecdf::create(&path)?;
    /// file.add_dimension("time", 3)?;
    /// let mut t = file.add_variable::<f64>("time", &["time"])?;
    /// t.put_attribute("units", "hours since 2000-02-28 12:00")?;
    /// t.put_attribute("calendar", "noleap")?;
    /// t.put_attribute("_FillValue", -1.0)?;
    /// t.put_values(&[0.0, 12.5, -1.0], ..)?;
    /// file.close()?;
    ///
    /// let file = purecdf::open(&path)?;
    /// let dates = file.variable("time").unwrap().get_datetimes(..)?;
    /// let text: Vec<String> = dates.iter().flatten().map(|d| d.to_string()).collect();
    /// assert_eq!(text, ["2000-02-28T12:00:00", "2000-03-01T00:30:00"]);
    /// assert_eq!(dates[2], None);
    /// # Ok::<(), purecdf::Error>(())
    /// ```
    ///
    /// # Errors
    /// NC_ENOTATT without `units`; NC_EINVAL for units that are not CF time units, a
    /// `calendar` of `none` or unknown, a value too far from the reference date (the message
    /// names the variable and the attribute); as [`Variable::get_decoded`] otherwise.
    pub fn get_datetimes<E>(&self, extents: E) -> Result<Vec<Option<CfDateTime>>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let units = time::time_units(self)?;
        self.get_decoded_masked(extents)?
            .into_iter()
            .map(|v| match v {
                Some(x) if !x.is_nan() => units.date(x).map(Some).ok_or_else(|| {
                    Error::with_detail(
                        ErrorKind::Inval,
                        format!("{}: time value {x} is out of range", self.name()),
                    )
                }),
                _ => Ok(None),
            })
            .collect()
    }

    /// Reads a char variable as strings, as xarray decodes character arrays: the last
    /// dimension is the string length, trailing NULs are dropped, and the bytes are decoded
    /// by the `_Encoding` attribute (`utf-8`, `ascii` or `latin-1`/`iso-8859-1`), or as UTF-8
    /// with invalid bytes replaced when there is none (xarray leaves those as bytes). The
    /// selection covers the other dimensions; each string is read whole.
    ///
    /// ```
    /// # let dir = tempfile::tempdir()?;
    /// # let path = dir.path().join("c.nc");
    /// let mut file = purecdf::create(&path)?;
    /// file.add_dimension("station", 2)?;
    /// file.add_dimension("len", 7)?;
    /// file.add_variable_of_type("name", purecdf::NcType::Char, &["station", "len"])?;
    /// let mut v = file.variable_mut("name").unwrap();
    /// v.put_attribute("_Encoding", "utf-8")?;
    /// v.put_values("ZürichBern\0\0\0".as_bytes(), ..)?;
    /// file.close()?;
    ///
    /// let file = purecdf::open(&path)?;
    /// let names = file.variable("name").unwrap().get_char_strings(..)?;
    /// assert_eq!(names, ["Zürich", "Bern"]);
    /// # Ok::<(), purecdf::Error>(())
    /// ```
    ///
    /// # Errors
    /// NC_ECHAR for a variable that is not char; NC_EINVAL for an unknown `_Encoding` or text
    /// that is not in it; as [`Variable::get_values`] for the selection.
    pub fn get_char_strings<E>(&self, extents: E) -> Result<Vec<String>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        if self.nc_type() != crate::NcType::Char {
            return fail(
                ErrorKind::Char,
                format!("{} is not a char variable", self.name()),
            );
        }
        let shape = self.shape();
        let len = shape.last().map_or(1, |&n| n as usize);
        let extents = match crate::selection::extents(extents)? {
            Extents::Extent(mut e) if !shape.is_empty() => {
                e.push(crate::Extent::Slice {
                    start: 0,
                    stride: 1,
                });
                Extents::Extent(e)
            }
            e => e,
        };
        let text = self.get_text(extents)?;
        let encoding = match self.attribute_def("_Encoding").map(|a| &a.values) {
            None => None,
            Some(Values::Char(c)) => Some(String::from_utf8_lossy(c).to_ascii_lowercase()),
            Some(Values::String(s)) if s.len() == 1 => {
                s[0].as_ref().map(|s| s.to_ascii_lowercase())
            }
            Some(_) => {
                return fail(
                    ErrorKind::BadType,
                    format!("{}: attribute _Encoding is not text", self.name()),
                )
            }
        };
        let bad = |why: &str| {
            Error::with_detail(
                ErrorKind::Inval,
                format!("{}: attribute _Encoding: {why}", self.name()),
            )
        };
        if len == 0 {
            return Ok(vec![String::new(); text.len()]);
        }
        text.chunks(len)
            .map(|c| {
                let end = c.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
                let c = &c[..end];
                match encoding.as_deref().map(|e| e.trim_end_matches('\0')) {
                    None => Ok(String::from_utf8_lossy(c).into_owned()),
                    Some("utf-8" | "utf8") => {
                        String::from_utf8(c.to_vec()).map_err(|_| bad("the text is not UTF-8"))
                    }
                    Some("ascii" | "us-ascii") if c.is_ascii() => {
                        Ok(String::from_utf8_lossy(c).into_owned())
                    }
                    Some("ascii" | "us-ascii") => Err(bad("the text is not ASCII")),
                    Some("latin-1" | "latin1" | "iso-8859-1") => {
                        Ok(c.iter().map(|&b| char::from(b)).collect())
                    }
                    Some(e) => Err(bad(&format!("unknown encoding {e}"))),
                }
            })
            .collect()
    }
}
