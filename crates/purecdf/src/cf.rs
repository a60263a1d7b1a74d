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
//! Time units and calendars are not decoded yet (see `ncdump -t` in purecdf-cli for the rules).

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
            var.attribute(name)
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
        let raw = self.get_raw_values(crate::selection::extents(extents)?)?;
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
}
