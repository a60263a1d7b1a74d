//! The public entry points of the CDL reader: [`parse`] and [`parse_with`] (ncgen's `main.c`
//! steps between reading the input and writing: BOM check, parse, format choice, semantics;
//! `ncgen-features.md` §1, §6).

use super::ast::{CdlDataset, CdlError, ErrorStyle};
use super::lexer::ScanKind;
use super::parser::Parser;
use super::semantics::{analyse, choose_format};
use crate::backend::Format;

/// Options that change how CDL is read, as ncgen's command line does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The input name used in messages (`ncgen: NAME line N: ...`).
    pub file_name: String,
    /// The requested output kind (`-k`); it changes which keywords and constants are legal.
    pub kind: Option<Format>,
    /// Dataset name override (`-N`).
    pub dataset_name: Option<String>,
}

/// The format named by a `-k` value or a `_Format` attribute (ncgen's `legalkinds` table).
pub fn format_from_kind_name(name: &str) -> Option<Format> {
    Some(match name {
        "classic" | "nc3" | "1" => Format::Classic,
        "64-bit offset" | "nc6" | "2" | "64-bit-offset" => Format::Offset64,
        "netCDF-4" | "nc4" | "3" | "netCDF4" | "hdf5" | "enhanced" | "netcdf-4" | "netcdf4" => {
            Format::Netcdf4
        }
        "netCDF-4 classic model"
        | "nc7"
        | "4"
        | "netCDF-4-classic"
        | "netCDF-4_classic"
        | "netCDF4_classic"
        | "hdf5-nc3"
        | "enhanced-nc3" => Format::Netcdf4Classic,
        "5" | "64-bit-data" | "64-bit data" | "nc5" | "cdf5" | "cdf-5" => Format::Cdf5,
        _ => return None,
    })
}

/// Parses CDL text into a dataset with default options (no `-k`; messages name the input `-`).
///
/// Never panics, and allocates in proportion to the input only: data are expanded on request
/// ([`CdlDataset::var_values`]).
///
/// # Errors
/// NC_EINVAL with ncgen's message (file, line, text) for any syntax or semantic error.
pub fn parse(src: &[u8]) -> crate::Result<CdlDataset> {
    let ds = parse_with(
        src,
        &ParseOptions {
            file_name: "-".into(),
            ..ParseOptions::default()
        },
    )?;
    ds.check()?;
    Ok(ds)
}

/// Parses CDL text with options, returning ncgen's exact diagnostics on failure. Attribute
/// values that cannot be made are not an error here but in [`CdlDataset::deferred_errors`],
/// because ncgen reports them only when it writes the attribute ([`CdlDataset::check`]).
///
/// # Errors
/// A [`CdlError`] whose [`CdlError::ncgen_line`] is the first line netcdf-c's ncgen prints.
pub fn parse_with(src: &[u8], opts: &ParseOptions) -> Result<CdlDataset, CdlError> {
    let src = skip_bom(src, &opts.file_name)?;
    let scan = scan_kind(opts.kind);
    let mut parsed = Parser::new(src, &opts.file_name, scan).parse()?;
    if let Some(n) = &opts.dataset_name {
        parsed.name.clone_from(n);
    }
    let format = choose_format(opts.kind, &parsed, &opts.file_name)?;
    let mut ds = analyse(parsed, format, &opts.file_name)?;
    ds.schema.groups[0].name = "/".into();
    Ok(ds)
}

/// The text after ncgen's byte-order-mark check: a UTF-8 BOM is skipped, the start of a
/// UTF-16/32 one is refused. ncgen reads two bytes to look, and rewinds only when it got both.
///
/// # Errors
/// ncgen's message for a BOM of another encoding, naming `file`.
pub(crate) fn skip_bom<'a>(src: &'a [u8], file: &str) -> Result<&'a [u8], CdlError> {
    match src {
        [_] => Ok(&[]),
        [0x00 | 0xFF | 0xFE, _, ..] => Err(CdlError {
            message: "Input file contains a BOM indicating a non-UTF8 encoding".into(),
            style: ErrorStyle::Plain,
            file: file.to_string(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
            preamble: String::new(),
        }),
        [0xEF, _, ..] => Ok(&src[3.min(src.len())..]),
        _ => Ok(src),
    }
}

/// The scanner's mode for a `-k` choice: which keywords and constants it accepts.
pub(crate) fn scan_kind(kind: Option<Format>) -> ScanKind {
    match kind {
        None => ScanKind::Unset,
        Some(Format::Classic | Format::Offset64 | Format::Netcdf4Classic) => ScanKind::ClassicModel,
        Some(Format::Cdf5) => ScanKind::Cdf5,
        Some(Format::Netcdf4) => ScanKind::Netcdf4,
    }
}
