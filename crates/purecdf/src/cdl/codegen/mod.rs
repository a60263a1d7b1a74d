//! Program generation from CDL: `ncgen -l c` writes a C program that creates the dataset
//! through the netCDF C API, byte for byte as netcdf-c 4.9's ncgen writes it
//! (`ncgen-features.md` §6; netcdf-c `ncgen/genc.c`, `cdata.c`, `generate.c`).
//!
//! The pieces every target language shares live here: the fully qualified names ncgen derives
//! its identifiers from, the escaping of names into identifiers, and ncgen's re-punctuation of
//! generated value lists (`commify`).
pub mod c;
pub mod f77;
pub mod java;

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
    /// The CDL input's name, as diagnostics about its data name it.
    pub input_name: String,
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
            input_name: "-".into(),
        }
    }
}

/// A generated program and what ncgen would print beside it.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    /// The program text (standard output). Not always UTF-8: character data passes through.
    pub code: Vec<u8>,
    /// Diagnostics ncgen prints on standard error without failing, byte for byte (they may
    /// quote text that is not UTF-8).
    pub messages: Vec<u8>,
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
    /// The dataset's [`CdlDataset::spellings`]: identifiers are made from names as spelled.
    spellings: Vec<(String, String)>,
}

impl Fqns {
    pub(crate) fn new(ds: &CdlDataset) -> Self {
        let classic = ds.format.is_classic_model();
        let s = &ds.schema;
        let mut groups = Vec::with_capacity(s.groups.len());
        for g in &s.groups {
            let fqn = match g.parent {
                // The classic model has no paths: each group is known by its own name.
                None if classic => ds.spelled(&ds.name).to_string(),
                Some(_) if classic => ds.spelled(&g.name).to_string(),
                None => String::new(),
                // Groups come in preorder: a parent before its children.
                Some(p) => format!("{}/{}", groups[p.0], fqn_escape(ds.spelled(&g.name))),
            };
            groups.push(fqn);
        }
        Fqns {
            classic,
            root_name: ds.spelled(&ds.name).to_string(),
            spellings: ds.spellings.clone(),
            groups,
        }
    }

    fn spelled<'a>(&'a self, name: &'a str) -> &'a str {
        crate::cdl::ast::spelling(&self.spellings, name)
    }

    fn member(&self, g: GroupId, name: &str) -> String {
        let name = self.spelled(name);
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
        let name = self.spelled(name);
        c_identifier(&format!("{}.{}", self.type_fqn(ds, t), fqn_escape(name)))
    }

    /// An attribute's identifier stem: its group's name, `_`, its own.
    pub(crate) fn attribute(&self, g: GroupId, name: &str) -> String {
        let name = self.spelled(name);
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

/// A text attribute's bytes as ncgen holds them: an empty one is stored as one NUL (what the
/// file gets), which ncgen has as the empty string (and writes with length 1: the same byte).
pub(crate) fn declared_text(bytes: &[u8]) -> &[u8] {
    if bytes == [0] {
        &[]
    } else {
        bytes
    }
}

/// One attribute declaration as ncgen generates it.
pub(crate) struct AttDecl<'a> {
    /// The group it is declared in.
    pub group: GroupId,
    /// Its variable; `None` for a group attribute.
    pub var: Option<VarId>,
    /// Its name (NFC).
    pub name: &'a str,
    /// The values this declaration gave (a name declared again keeps each declaration's own).
    pub values: &'a crate::model::Values,
}

/// ncgen's two attribute sections: the global declarations of `attribute_order` (which come
/// first), then the per-variable ones.
pub(crate) fn attribute_sections(ds: &CdlDataset) -> [std::ops::Range<usize>; 2] {
    let order = &ds.attribute_order;
    let split = order
        .iter()
        .position(|(_, v, _, _)| v.is_some())
        .unwrap_or(order.len());
    [0..split, split..order.len()]
}

/// Declaration `i` of `attribute_order`: `Ok(None)` for a special attribute (not generated);
/// the error ncgen reports on reaching it when its values could not be made.
pub(crate) fn attribute_decl(
    ds: &CdlDataset,
    i: usize,
) -> Result<Option<AttDecl<'_>>, crate::cdl::CdlError> {
    if let Some((_, e)) = ds.deferred_errors.iter().find(|(k, _)| *k == i) {
        return Err(e.clone());
    }
    let (g, var, name, _) = &ds.attribute_order[i];
    let Some(att) = ds.schema.atts(*g, *var).iter().find(|a| a.name == *name) else {
        return Ok(None);
    };
    let values = match ds.superseded_attributes.iter().find(|(k, _)| *k == i) {
        Some((_, old)) => old,
        None => &att.values,
    };
    Ok(Some(AttDecl {
        group: *g,
        var: *var,
        name: &att.name,
        values,
    }))
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

/// Reads CDL for the Fortran 77 and Java generators, as netcdf-c's `main.c` does for them: the
/// text is scanned as `-k` asks, but then analysed in the classic format whatever `-k` or
/// `_Format` say. Input that needs netCDF-4 is refused with ncgen's message, after which
/// netcdf-c exits with status 0 (the error's `exit_code`). Otherwise as
/// [`crate::cdl::parse_with`].
///
/// # Errors
/// A [`crate::cdl::CdlError`] as ncgen prints it.
pub fn parse_classic_model(
    src: &[u8],
    opts: &crate::cdl::ParseOptions,
) -> Result<CdlDataset, crate::cdl::CdlError> {
    use crate::cdl::{CdlError, ErrorStyle};
    let plain = |message: &str, exit_code: i32| CdlError {
        message: message.into(),
        style: ErrorStyle::Plain,
        file: opts.file_name.clone(),
        kind: crate::ErrorKind::Inval,
        exit_code,
        preamble: String::new(),
    };
    let src = crate::cdl::entry::skip_bom(src, &opts.file_name)?;
    let scan = crate::cdl::entry::scan_kind(opts.kind);
    // ncgen's scanner refuses NIL for these languages: it reports each one and drops it,
    // and the run then ends with status 1.
    let (nil_lines, extended_keyword) = scan_extras(src, scan);
    let nil_error = |line: u32| CdlError {
        style: ErrorStyle::Located(line),
        ..plain("NIL only allowed for netcdf-4 and for -lc or -lb", 1)
    };
    let nil_report = |upto: u32| -> String {
        let lines = nil_lines.iter().filter(|l| **l <= upto);
        lines
            .map(|l| nil_error(*l).ncgen_line("ncgen") + "\n")
            .collect()
    };
    let parsed = crate::cdl::parser::Parser::new(src, &opts.file_name, scan).parse();
    let mut parsed = match parsed {
        Err(mut e) => {
            let upto = match e.style {
                ErrorStyle::Located(n) => n,
                _ => u32::MAX,
            };
            e.preamble = nil_report(upto) + &e.preamble;
            return Err(e);
        }
        Ok(_) if !nil_lines.is_empty() => {
            let (&last, before) = nil_lines.split_last().unwrap_or((&0, &[]));
            let mut e = nil_error(last);
            e.preamble = before
                .iter()
                .map(|l| nil_error(*l).ncgen_line("ncgen") + "\n")
                .collect();
            return Err(e);
        }
        Ok(p) => p,
    };
    if let Some(n) = &opts.dataset_name {
        parsed.name.clone_from(n);
    }
    if parsed.enhanced.is_some() || extended_keyword {
        // What the scanner and parser warned about came out before.
        let mut e = plain("Java or Fortran requires classic model CDL input", 0);
        e.preamble = parsed.warnings;
        return Err(e);
    }
    let mut ds = crate::cdl::semantics::analyse(parsed, Format::Classic, &opts.file_name)?;
    ds.schema.groups[0].name = "/".into();
    Ok(ds)
}

/// What the parser does not record but the Fortran and Java generators need: the lines of
/// the `NIL` tokens in CDL text, and whether a type keyword beyond the classic types was
/// scanned (netcdf-c's grammar marks the input netCDF-4 for those; the keywords exist only
/// under `-k nc4` or `-k nc5`). Scanning stops at the first error.
fn scan_extras(src: &[u8], scan: crate::cdl::lexer::ScanKind) -> (Vec<u32>, bool) {
    use crate::cdl::tokens::Tok;
    let mut lx = crate::cdl::lexer::Lexer::new(src, scan);
    let mut lines = Vec::new();
    let mut extended = false;
    loop {
        match lx.next_token() {
            Ok(Tok::Eof) | Err(_) => return (lines, extended),
            Ok(Tok::Nil) => lines.push(lx.line()),
            Ok(Tok::TypeKw(t)) => extended |= !t.is_classic(),
            Ok(_) => {}
        }
    }
}

/// C's `%.{digits}g` of a double, infinities and NaNs included (`inf`, `-nan`).
pub(crate) fn c_g(x: f64, digits: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.into();
    }
    let mut buf = Vec::new();
    crate::cdl::print::number::push_g(x, digits, &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// `bytes` as a Fortran 77 character expression (ncgen's `f77quotestring`): runs of printable
/// characters in quotes (a quote doubled), every other byte as `char(N)`, the parts joined
/// with `//`. The empty string is `char(0)`.
pub(crate) fn f77_quote(bytes: &[u8]) -> Vec<u8> {
    if bytes.is_empty() {
        return b"char(0)".to_vec();
    }
    let mut out = Vec::with_capacity(bytes.len() + 2);
    let mut quoted = false;
    for (i, &b) in bytes.iter().enumerate() {
        if (0x20..0x7f).contains(&b) {
            if !quoted {
                if i > 0 {
                    out.extend_from_slice(b"//");
                }
                out.push(b'\'');
                quoted = true;
            }
            if b == b'\'' {
                out.push(b'\'');
            }
            out.push(b);
        } else {
            if quoted {
                out.push(b'\'');
                quoted = false;
            }
            if i > 0 {
                out.extend_from_slice(b"//");
            }
            out.extend_from_slice(format!("char({b})").as_bytes());
        }
    }
    if quoted {
        out.push(b'\'');
    }
    out
}

/// The Fortran 77 identifier ncgen makes of a name (`f77codify`): a rooting `/` dropped, then
/// the name quoted as a character constant ([`f77_quote`]) — so `x` becomes `'x'`, which is
/// not an identifier at all (netcdf-c 4.9 behaviour).
pub(crate) fn f77_identifier(name: &str) -> String {
    let name = name.strip_prefix('/').unwrap_or(name);
    String::from_utf8_lossy(&f77_quote(name.as_bytes())).into_owned()
}

/// `bytes` escaped for a Java string literal quoted with `"` (ncgen's `jescapify`). Like ncgen
/// it reads up to the first NUL and goes through UTF-16: printable ASCII stays (a `"` gets a
/// backslash, a backslash does not), tab, backspace, newline, return and form feed get their
/// escapes, and every other code unit is `\uXXXX`. `None` when the text is not UTF-8 or holds
/// a character outside the Basic Multilingual Plane, which ncgen cannot convert.
pub(crate) fn java_escape(bytes: &[u8]) -> Option<String> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let text = std::str::from_utf8(&bytes[..end]).ok()?;
    let mut out = String::with_capacity(text.len() + 2);
    for ch in text.chars() {
        let unit = u16::try_from(u32::from(ch)).ok()?;
        match ch {
            '"' => out.push_str("\\\""),
            ' '..='~' => out.push(ch),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{c}' => out.push_str("\\f"),
            _ => out.push_str(&format!("\\u{unit:04X}")),
        }
    }
    Some(out)
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
    fn fortran_and_java_escapes() {
        assert_eq!(f77_quote(b""), b"char(0)");
        assert_eq!(f77_quote(b"it's"), b"'it''s'");
        assert_eq!(f77_quote(b"\tab\0"), b"char(9)//'ab'//char(0)");
        assert_eq!(f77_identifier("/x y"), "'x y'");
        assert_eq!(
            java_escape(b"a\"\\\t\x7f\xc3\xa9\0zz").unwrap(),
            "a\\\"\\\\t\\u007F\\u00E9"
        );
        assert_eq!(java_escape(b"\xf4\x8d\x90\xaa"), None);
        assert_eq!(java_escape(b"\xc3"), None);
        assert_eq!(c_g(f64::NAN, 8), "nan");
        assert_eq!(c_g(-f64::NAN, 8), "-nan");
        assert_eq!(c_g(f64::NEG_INFINITY, 16), "-inf");
        assert_eq!(c_g(1e-5, 16), "1e-05");
    }

    #[test]
    fn classic_model_reading() {
        let opts = crate::cdl::ParseOptions {
            file_name: "t.cdl".into(),
            ..Default::default()
        };
        let src = b"netcdf t {\nvariables:\n int v;\n v:a = \"x\", \"y\";\n :g = 1, 2;\n}\n";
        let ds = parse_classic_model(src, &opts).unwrap();
        assert_eq!(ds.format, Format::Classic);
        assert_eq!(ds.attribute_constants, vec![2, 2]);
        let e = parse_classic_model(b"netcdf t {\ngroup: g {}\n}\n", &opts).unwrap_err();
        assert_eq!(
            e.ncgen_line("ncgen"),
            "Java or Fortran requires classic model CDL input"
        );
        assert_eq!(e.exit_code, 0);
        let nc4 = crate::cdl::ParseOptions {
            kind: Some(Format::Netcdf4),
            ..opts.clone()
        };
        let e = parse_classic_model(b"netcdf t {\nvariables:\n ubyte v;\n}\n", &nc4);
        assert_eq!(e.unwrap_err().exit_code, 0);
        let src = b"netcdf t {\nvariables:\n char v;\ndata:\n v = NIL;\n}\n";
        let e = parse_classic_model(src, &opts).unwrap_err();
        assert!(e.ncgen_line("ncgen").contains("NIL only allowed"));
    }

    #[test]
    fn commify_rejoins_items() {
        assert_eq!(commify(b"1 2 3 "), b"1, 2, 3");
        assert_eq!(commify(b"{ 7 { 1 2} ab\0zz}"), b"{7, {1, 2}, ab}".to_vec());
        assert_eq!(commify(b"\"a b\" 'x'"), b"\"a b\", 'x'");
        assert_eq!(commify(b"{2,(void*)vlen_9}"), b"{2, (void*)vlen_9}");
    }
}
