//! Program generation from CDL: `ncgen -l c` writes a C program that creates the dataset
//! through the netCDF C API, byte for byte as netcdf-c 4.9's ncgen writes it
//! (`ncgen-features.md` §6; netcdf-c `ncgen/genc.c`, `cdata.c`, `generate.c`).
//!
//! The pieces every target language shares live here: the fully qualified names ncgen derives
//! its identifiers from, the escaping of names into identifiers, and ncgen's re-punctuation of
//! generated value lists (`commify`).
pub mod c;

use crate::backend::Format;
use crate::cdl::CdlDataset;
use crate::model::{DimId, GroupId, NcType, TypeId, VarId};

/// What a generator needs besides the dataset: the settings of ncgen's command line.
#[derive(Debug, Clone)]
pub struct CodegenOptions {
    /// The file name the generated program creates (ncgen's output file name: `-o`, else the
    /// input's base name, else the dataset name, with `.nc`).
    pub file_name: String,
    /// The name of the generated main function (`-M`; `main` by default).
    pub main_name: String,
    /// Leave the data out (`-H`).
    pub header_only: bool,
    /// Make the program switch fill mode off (`-x`).
    pub no_fill: bool,
    /// Variables of at most this many elements, and no unlimited dimension, are written in
    /// one call (`-W`; 1024 by default). Others are written a row at a time.
    pub whole_var_size: u64,
    /// A netCDF log level the program sets first (`-L`), if any.
    pub log_level: Option<i32>,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions {
            file_name: String::new(),
            main_name: "main".into(),
            header_only: false,
            no_fill: false,
            whole_var_size: 1024,
            log_level: None,
        }
    }
}

/// A generated program and what ncgen would print beside it.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    /// The program text (standard output). Not always UTF-8: character data passes through.
    pub code: Vec<u8>,
    /// Diagnostics ncgen prints on standard error without failing.
    pub messages: String,
    /// The error that stopped generation, if any; `code` then holds what was made before it.
    pub error: Option<crate::cdl::CdlError>,
}

/// The replacement ncgen's `codify` makes of each punctuation character in a name.
const PUNCTUATION: [(u8, &str); 32] = [
    (b' ', "_SPACE_"),
    (b'!', "_EXCLAMATION_"),
    (b'"', "_QUOTATION_"),
    (b'#', "_HASH_"),
    (b'$', "_DOLLAR_"),
    (b'%', "_PERCENT_"),
    (b'&', "_AMPERSAND_"),
    (b'\'', "_APOSTROPHE_"),
    (b'(', "_LEFTPAREN_"),
    (b')', "_RIGHTPAREN_"),
    (b'*', "_ASTERISK_"),
    (b'+', "_PLUS_"),
    (b',', "_COMMA_"),
    (b'-', "_MINUS_"),
    (b'.', "_PERIOD_"),
    (b':', "_COLON_"),
    (b';', "_SEMICOLON_"),
    (b'<', "_LESSTHAN_"),
    (b'=', "_EQUALS_"),
    (b'>', "_GREATERTHAN_"),
    (b'?', "_QUESTION_"),
    (b'@', "_ATSIGN_"),
    (b'[', "_LEFTBRACKET_"),
    (b'\\', "_BACKSLASH_"),
    (b']', "_RIGHTBRACKET_"),
    (b'^', "_CIRCUMFLEX_"),
    (b'`', "_BACKQUOTE_"),
    (b'{', "_LEFTCURLY_"),
    (b'|', "_VERTICALBAR_"),
    (b'}', "_RIGHTCURLY_"),
    (b'~', "_TILDE_"),
    (b'/', "_SLASH_"),
];

/// A C identifier made from a name or fully qualified name (ncgen's `codify` for C): a rooting
/// `/` dropped, a leading digit spelled `DIGIT_n_`, punctuation spelled out, bytes above 127 as
/// `_XHH`, then one leading `_` removed.
pub(crate) fn c_identifier(name: &str) -> String {
    let bytes = name.as_bytes();
    let bytes = bytes.strip_prefix(b"/").unwrap_or(bytes);
    let mut out = String::with_capacity(bytes.len() + 8);
    let mut rest = bytes;
    if let Some((&first, tail)) = bytes.split_first() {
        if first.is_ascii_digit() {
            out.push_str("DIGIT_");
            out.push(first as char);
            out.push('_');
            rest = tail;
        }
    }
    for &b in rest {
        if b >= 0x80 {
            out.push_str(&format!("_X{b:02X}"));
        } else if let Some((_, r)) = PUNCTUATION.iter().find(|(c, _)| *c == b) {
            out.push_str(r);
        } else {
            out.push(b as char);
        }
    }
    if out.starts_with('_') {
        out.remove(0);
    }
    out
}

/// A name made safe inside a fully qualified name (ncgen's `fqnescape`).
fn fqn_escape(name: &str) -> String {
    name.replace('/', "_SLASH_").replace('.', "_DOT_")
}

/// The fully qualified names ncgen gives every object, from which identifiers are made.
///
/// In the classic model every object's name is its own name; otherwise groups, dimensions,
/// variables and types are `/`-joined paths below an empty root, fields and enum members hang
/// off their type with `.`, and attributes off their group with `_`.
pub(crate) struct Fqns {
    classic: bool,
    root_name: String,
    groups: Vec<String>,
}

impl Fqns {
    pub(crate) fn new(ds: &CdlDataset) -> Self {
        let classic = ds.format.is_classic_model();
        let s = &ds.schema;
        let mut groups = Vec::with_capacity(s.groups.len());
        for g in &s.groups {
            let fqn = match g.parent {
                // The classic model has no paths: each group is known by its own name.
                None if classic => ds.name.clone(),
                Some(_) if classic => g.name.clone(),
                None => String::new(),
                // Groups come in preorder: a parent before its children.
                Some(p) => format!("{}/{}", groups[p.0], fqn_escape(&g.name)),
            };
            groups.push(fqn);
        }
        Fqns {
            classic,
            root_name: ds.name.clone(),
            groups,
        }
    }

    fn member(&self, g: GroupId, name: &str) -> String {
        if self.classic {
            name.to_string()
        } else {
            format!("{}/{}", self.groups[g.0], fqn_escape(name))
        }
    }

    /// A group's identifier stem (the root's is the dataset name).
    pub(crate) fn group(&self, g: GroupId) -> String {
        if g.0 == 0 {
            c_identifier(&self.root_name)
        } else {
            c_identifier(&self.groups[g.0])
        }
    }

    pub(crate) fn dim(&self, ds: &CdlDataset, d: DimId) -> String {
        let dim = ds.schema.dim(d);
        c_identifier(&self.member(dim.group, &dim.name))
    }

    pub(crate) fn var(&self, ds: &CdlDataset, v: VarId) -> String {
        let var = ds.schema.var(v);
        c_identifier(&self.member(var.group, &var.name))
    }

    fn type_fqn(&self, ds: &CdlDataset, t: TypeId) -> String {
        let (g, ut) = &ds.schema.types[t.0];
        self.member(*g, &ut.name)
    }

    pub(crate) fn user_type(&self, ds: &CdlDataset, t: TypeId) -> String {
        c_identifier(&self.type_fqn(ds, t))
    }

    /// A compound field's or an enum member's identifier.
    pub(crate) fn nested(&self, ds: &CdlDataset, t: TypeId, name: &str) -> String {
        c_identifier(&format!("{}.{}", self.type_fqn(ds, t), fqn_escape(name)))
    }

    /// An attribute's identifier stem: its group's name, `_`, its own.
    pub(crate) fn attribute(&self, g: GroupId, name: &str) -> String {
        c_identifier(&format!("{}_{}", self.groups[g.0], fqn_escape(name)))
    }
}

/// ncgen's `commify`: the items of a generated list (separated by spaces or commas, strings
/// and character constants kept whole, `{}` nesting kept) joined with `", "`. Like ncgen it
/// stops at a NUL byte, closing the braces it has opened.
pub(crate) fn commify(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 4);
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    commify_level(&raw[..end], &mut 0, &mut out);
    out
}

fn commify_level(raw: &[u8], pos: &mut usize, out: &mut Vec<u8>) {
    let mut first = true;
    while let Some(&c) = raw.get(*pos) {
        *pos += 1;
        match c {
            b' ' | b',' => continue,
            b'}' => return,
            _ => {}
        }
        if !first {
            out.extend_from_slice(b", ");
        }
        first = false;
        match c {
            b'{' => {
                out.push(b'{');
                commify_level(raw, pos, out);
                out.push(b'}');
            }
            b'\'' | b'"' => quoted_word(raw, pos, c, out),
            _ => {
                out.push(c);
                plain_word(raw, pos, out);
            }
        }
    }
}

/// The rest of an unquoted item: up to a space, comma or `}`; a backslash takes the next byte.
fn plain_word(raw: &[u8], pos: &mut usize, out: &mut Vec<u8>) {
    while let Some(&c) = raw.get(*pos) {
        if matches!(c, b'}' | b' ' | b',') {
            return;
        }
        *pos += 1;
        out.push(c);
        if c == b'\\' && !take_escaped(raw, pos, out) {
            return;
        }
    }
}

/// After a backslash: copies the byte it escapes; false at the end of the input.
fn take_escaped(raw: &[u8], pos: &mut usize, out: &mut Vec<u8>) -> bool {
    match raw.get(*pos) {
        Some(&n) => {
            *pos += 1;
            out.push(n);
            true
        }
        None => false,
    }
}

/// The rest of a quoted item, through its closing quote.
fn quoted_word(raw: &[u8], pos: &mut usize, quote: u8, out: &mut Vec<u8>) {
    out.push(quote);
    while let Some(&c) = raw.get(*pos) {
        *pos += 1;
        out.push(c);
        if c == b'\\' {
            if !take_escaped(raw, pos, out) {
                return;
            }
        } else if c == quote {
            return;
        }
    }
}

/// One byte as it appears inside a C string or character constant quoted with `quote` (ncgen's
/// `escapifychar`): backslash and the quote escaped, printable and non-ASCII bytes as they are,
/// the usual control escapes, other bytes in octal.
pub(crate) fn escape_byte(b: u8, quote: u8, out: &mut Vec<u8>) {
    match b {
        b'\\' => out.extend_from_slice(b"\\\\"),
        _ if b == quote => {
            out.push(b'\\');
            out.push(quote);
        }
        0x20..=0x7e | 0x80..=0xff => out.push(b),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0x0b => out.extend_from_slice(b"\\v"),
        _ => {
            out.push(b'\\');
            out.push(b'0' + ((b >> 6) & 3));
            out.push(b'0' + ((b >> 3) & 7));
            out.push(b'0' + (b & 7));
        }
    }
}

/// `bytes` escaped for a C string quoted with `"`.
pub(crate) fn escape_str(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 2);
    for &b in bytes {
        escape_byte(b, b'"', &mut out);
    }
    out
}

/// The netCDF C API's name for an atomic type (`NC_INT`).
pub(crate) fn nc_type_macro(t: NcType) -> &'static str {
    match t {
        NcType::Byte => "NC_BYTE",
        NcType::Char => "NC_CHAR",
        NcType::Short => "NC_SHORT",
        NcType::Int => "NC_INT",
        NcType::Float => "NC_FLOAT",
        NcType::Double => "NC_DOUBLE",
        NcType::UByte => "NC_UBYTE",
        NcType::UShort => "NC_USHORT",
        NcType::UInt => "NC_UINT",
        NcType::Int64 => "NC_INT64",
        NcType::UInt64 => "NC_UINT64",
        NcType::String => "NC_STRING",
        NcType::User(_) => "NC_NAT",
    }
}

/// The C create mode ncgen's generated program passes for a format; `None` for CDF-5, which
/// netcdf-c 4.9's generator does not know ("unknown cmode modifier").
pub(crate) fn c_create_mode(f: Format) -> Option<&'static str> {
    match f {
        Format::Classic => Some("NC_CLOBBER"),
        Format::Offset64 => Some("NC_CLOBBER|NC_64BIT_OFFSET"),
        Format::Netcdf4Classic => Some("NC_CLOBBER|NC_NETCDF4|NC_CLASSIC_MODEL"),
        Format::Netcdf4 => Some("NC_CLOBBER|NC_NETCDF4"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_as_ncgen_makes_them() {
        assert_eq!(c_identifier("/g1/w"), "g1_SLASH_w");
        assert_eq!(c_identifier("4LFTX"), "DIGIT_4_LFTX");
        assert_eq!(c_identifier("_FillValue"), "FillValue");
        assert_eq!(c_identifier("__FillValue"), "_FillValue");
        assert_eq!(c_identifier("a-b.c"), "a_MINUS_b_PERIOD_c");
        assert_eq!(c_identifier("é"), "XC3_XA9");
    }

    #[test]
    fn commify_rejoins_items() {
        assert_eq!(commify(b"1 2 3 "), b"1, 2, 3");
        assert_eq!(commify(b"{ 7 { 1 2} ab\0zz}"), b"{7, {1, 2}, ab}".to_vec());
        assert_eq!(commify(b"\"a b\" 'x'"), b"\"a b\", 'x'");
        assert_eq!(commify(b"{2,(void*)vlen_9}"), b"{2, (void*)vlen_9}");
    }
}
