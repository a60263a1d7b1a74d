//! CDL tokens, recognised the way netcdf-c's flex scanner (`ncgen/ncgen.l`) does: at each
//! position the longest match wins and ties go to the rule listed first (keywords before
//! identifiers before numbers). Spec: `ncgen-features.md` §1 (file structure, identifiers) and §4
//! (constants); man page ncgen(1) "CDL Constants".
//!
//! Quirks kept on purpose because they decide which files netcdf-c accepts:
//! * newlines inside `/* */` comments, strings and the dataset name do not advance the line count;
//! * a leading `0` makes an integer octal and parsing stops at the first non-octal digit (`08` is 0);
//! * `ubyte ushort uint int64 uint64 ulong uinteger` are identifiers unless the requested kind is
//!   netCDF-4 or CDF-5, and `string` unless it is netCDF-4 (`identcheck`);
//! * hexadecimal with an `s`/`l`/`ll` suffix is always an unsigned int constant.

use super::ast::{Const, ConstKind};
use super::escapes::{
    char_const, digits, float_body_len, hex_scanf, id_len, number_len, unescape_ident,
    unescape_string,
};
pub(crate) use super::tokens::{Special, Tok};
use super::tokens::{BROKEN_SPECIAL, SPECIALS};

/// Which CDL features the requested output kind enables while scanning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum ScanKind {
    /// No `-k` given (ncgen's `k_flag == 0`).
    #[default]
    Unset,
    /// CDF-1, CDF-2 or netCDF-4 classic model: untagged integers must fit `int`.
    ClassicModel,
    /// CDF-5: unsigned and 64-bit type keywords.
    Cdf5,
    /// netCDF-4: every type keyword.
    Netcdf4,
}

/// A scanner error: the line and netcdf-c's message text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LexError {
    pub line: u32,
    pub msg: String,
    /// Reported by `derror` (no file/line prefix) rather than `yyerror`.
    pub plain: bool,
}

/// The scanner over one CDL text.
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    kind: ScanKind,
    after_netcdf: bool,
    /// Set when a NaN/Infinity spelling was seen (ncgen's `specialconstants`).
    pub(crate) special_constants: bool,
    /// Names spelled other than in NFC: (NFC form, spelling), first spelling of each.
    pub(crate) spellings: Vec<(String, String)>,
    /// Set when the input ends inside a `/* */` comment.
    pub(crate) unterminated_comment: bool,
    /// Name of the last identifier or path scanned (bison's `yylval.sym`).
    last_sym: String,
    /// The last byte constant scanned (ncgen.l's global `byte_val`).
    byte_val: i8,
    /// `last_sym` when the latest `data:` keyword was scanned.
    pub(crate) data_sym: String,
}

impl<'a> Lexer<'a> {
    /// A scanner over `src` (any BOM already removed).
    pub(crate) fn new(src: &'a [u8], kind: ScanKind) -> Self {
        Lexer {
            src,
            pos: 0,
            line: 1,
            kind,
            after_netcdf: false,
            special_constants: false,
            spellings: Vec::new(),
            unterminated_comment: false,
            last_sym: String::new(),
            byte_val: 0,
            data_sym: String::new(),
        }
    }

    /// The current line number (ncgen's `lineno`).
    pub(crate) fn line(&self) -> u32 {
        self.line
    }

    /// An identifier's name (escapes removed, NFC), remembering a different spelling.
    fn ident(&mut self, raw: &[u8]) -> String {
        let (name, spelled) = unescape_ident(raw);
        if let Some(spelled) = spelled {
            if !self.spellings.iter().any(|(n, _)| *n == name) {
                self.spellings.push((name.clone(), spelled));
            }
        }
        name
    }

    fn err<T>(&self, msg: String) -> Result<T, LexError> {
        Err(LexError {
            line: self.line,
            msg,
            plain: false,
        })
    }

    /// The next token.
    pub(crate) fn next_token(&mut self) -> Result<Tok, LexError> {
        let s = self.src;
        if self.after_netcdf {
            self.after_netcdf = false;
            // <TEXT>{DATASETID}: everything up to '{', bytes <= ' ' dropped.
            if self.pos < s.len() && s[self.pos] != b'{' {
                let start = self.pos;
                while self.pos < s.len() && s[self.pos] != b'{' {
                    self.pos += 1;
                }
                let name: Vec<u8> = s[start..self.pos]
                    .iter()
                    .copied()
                    .filter(|c| *c > b' ')
                    .collect();
                return Ok(Tok::DatasetId(String::from_utf8_lossy(&name).into_owned()));
            }
        }
        loop {
            let Some(&c) = s.get(self.pos) else {
                return Ok(Tok::Eof);
            };
            match c {
                b' ' | b'\r' | b'\t' | 0x0c => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                }
                b'/' if s.get(self.pos + 1) == Some(&b'/') => {
                    while self.pos < s.len() && s[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                b'/' if s.get(self.pos + 1) == Some(&b'*') => {
                    // Newlines inside the comment are not counted (ncgen.l ST_C_COMMENT).
                    match s[self.pos + 2..].windows(2).position(|w| w == b"*/") {
                        Some(k) => self.pos += 2 + k + 2,
                        None => {
                            self.pos = s.len();
                            self.unterminated_comment = true;
                        }
                    }
                }
                _ => {
                    let t = self.token()?;
                    match &t {
                        Tok::Ident(n) => self.last_sym.clone_from(n),
                        Tok::Path(p) => self.last_sym = p.last().cloned().unwrap_or_default(),
                        Tok::Data => self.data_sym.clone_from(&self.last_sym),
                        _ => {}
                    }
                    return Ok(t);
                }
            }
        }
    }

    fn token(&mut self) -> Result<Tok, LexError> {
        let s = self.src;
        let i = self.pos;
        let c = s[i];
        if c == b'"' {
            if let Some(len) = self.string_len(i) {
                self.pos = i + len;
                let body = &s[i + 1..i + len - 1];
                return match unescape_string(body) {
                    Ok(v) => Ok(Tok::Const(ConstKind::Str(v))),
                    Err(msg) => Err(LexError {
                        line: self.line,
                        msg,
                        plain: true,
                    }),
                };
            }
        }
        if c == b'\'' {
            if let Some((len, v)) = char_const(s, i) {
                self.pos = i + len;
                // ncgen.l checks the previous byte constant, not the new one, before accepting
                // a `'\xhh'` constant.
                let hex = len == 6 && matches!(s[i + 2], b'x' | b'X');
                if hex && self.byte_val < 0 {
                    return self.err(format!(
                        "bad hex character constant: {}",
                        String::from_utf8_lossy(&s[i..i + len])
                    ));
                }
                self.byte_val = v as i8;
                return Ok(Tok::Const(ConstKind::Byte(v as i8)));
            }
        }
        if c == b'/' {
            // PATH: '/' or ('/' ID)+
            let mut j = i;
            let mut parts = Vec::new();
            while s.get(j) == Some(&b'/') {
                let n = id_len(s, j + 1);
                if n == 0 {
                    break;
                }
                parts.push(self.ident(&s[j + 1..j + 1 + n]));
                j += 1 + n;
            }
            self.pos = if parts.is_empty() { i + 1 } else { j };
            return Ok(Tok::Path(parts));
        }
        if c == b'-' {
            for (lit, tok) in [
                ("-Infinityf", ConstKind::Float(f32::NEG_INFINITY)),
                ("-Infinity", ConstKind::Double(f64::NEG_INFINITY)),
                ("-Inff", ConstKind::Float(f32::NEG_INFINITY)),
            ] {
                if s[i..].starts_with(lit.as_bytes()) && id_len(s, i + 1) == lit.len() - 1 {
                    self.pos = i + lit.len();
                    self.special_constants = true;
                    return Ok(Tok::Const(tok));
                }
            }
        }
        let idl = id_len(s, i);
        // Numbers: compare lengths of the numeric rules.
        let hexl = if c == b'0' && matches!(s.get(i + 1), Some(b'x' | b'X')) {
            let d = digits(s, i + 2, |c| c.is_ascii_hexdigit());
            if d > 0 {
                2 + d
            } else {
                0
            }
        } else {
            0
        };
        let numl = number_len(s, i);
        let fbody = float_body_len(s, i);
        let dbll = if fbody > 0 {
            fbody + usize::from(s.get(i + fbody).is_some_and(|c| b"LlDd".contains(c)))
        } else {
            0
        };
        let fltl = if fbody > 0 && s.get(i + fbody).is_some_and(|c| b"Ff".contains(c)) {
            fbody + 1
        } else {
            0
        };
        let xul = if hexl > 0 {
            let k = i + hexl;
            match (s.get(k), s.get(k + 1)) {
                (Some(b'L' | b'l'), Some(b'L' | b'l')) => hexl + 2,
                (Some(b'S' | b's' | b'L' | b'l'), _) => hexl + 1,
                _ => hexl,
            }
        } else {
            0
        };
        let best_num = hexl.max(numl).max(dbll).max(fltl).max(xul);
        if idl > 0 && idl >= best_num {
            // Keyword-with-colon beats the bare identifier by one byte.
            let raw = &s[i..i + idl];
            if s.get(i + idl) == Some(&b':') {
                let kw = match raw {
                    b"types" => Some(Tok::Types),
                    b"dimensions" => Some(Tok::Dimensions),
                    b"variables" => Some(Tok::Variables),
                    b"data" => Some(Tok::Data),
                    b"group" => Some(Tok::Group),
                    _ => None,
                };
                if let Some(kw) = kw {
                    self.pos = i + idl + 1;
                    return Ok(kw);
                }
            }
            self.pos = i + idl;
            return self.word(raw);
        }
        if best_num > 0 {
            self.pos = i + best_num;
            let text = &s[i..i + best_num];
            // Equal lengths: OPAQUESTRING, NUMBER, XUNUMBER, DBLNUMBER, FLTNUMBER in rule order.
            if best_num == hexl {
                let mut hex: String = String::from_utf8_lossy(&text[2..]).to_ascii_lowercase();
                if hex.len() % 2 == 1 {
                    hex.push('0');
                }
                return Ok(Tok::Const(ConstKind::Opaque(hex)));
            }
            if best_num == numl {
                return self.integer(text);
            }
            if best_num == xul {
                return Ok(Tok::Const(ConstKind::UInt(hex_scanf(&text[2..]))));
            }
            let t = String::from_utf8_lossy(text);
            if best_num == dbll {
                let body = t.trim_end_matches(['L', 'l', 'D', 'd']);
                return match body.parse::<f64>() {
                    Ok(v) => Ok(Tok::Const(ConstKind::Double(v))),
                    Err(_) => self.err(format!("bad long or double constant: {t}")),
                };
            }
            let body = t.trim_end_matches(['F', 'f']);
            return match body.parse::<f32>() {
                Ok(v) => Ok(Tok::Const(ConstKind::Float(v))),
                Err(_) => self.err(format!("bad float constant: {t}")),
            };
        }
        // '.' rule: any other single byte. flex returns it as a (signed) char, so bytes >= 0x80
        // and NUL reach bison as end of input.
        self.pos = i + 1;
        if c == 0 || c >= 0x80 {
            return Ok(Tok::Eof);
        }
        Ok(Tok::Punct(c))
    }

    /// Length of a complete `"..."` string at `i`, or `None` when unterminated.
    fn string_len(&self, i: usize) -> Option<usize> {
        let s = self.src;
        let mut j = i + 1;
        while j < s.len() {
            match s[j] {
                b'"' => return Some(j + 1 - i),
                // `\\.`: '.' does not match a newline; then '\\' fails [^"\\] too.
                b'\\' => {
                    if s.get(j + 1).is_some_and(|c| *c != b'\n') {
                        j += 2;
                    } else {
                        return None;
                    }
                }
                _ => j += 1,
            }
        }
        None
    }

    fn word(&mut self, raw: &[u8]) -> Result<Tok, LexError> {
        use crate::NcType as T;
        let id_or = |t: Tok, allowed: bool| {
            if allowed {
                t
            } else {
                Tok::Ident(String::from_utf8_lossy(raw).into_owned())
            }
        };
        let unsigned_ok = matches!(self.kind, ScanKind::Netcdf4 | ScanKind::Cdf5);
        let string_ok = self.kind == ScanKind::Netcdf4;
        let tok = match raw {
            b"compound" | b"struct" | b"structure" => Tok::Compound,
            b"enum" => Tok::Enum,
            b"opaque" => Tok::Opaque,
            b"float" | b"real" => Tok::TypeKw(T::Float),
            b"double" => Tok::TypeKw(T::Double),
            b"char" => Tok::TypeKw(T::Char),
            b"byte" => Tok::TypeKw(T::Byte),
            b"short" => Tok::TypeKw(T::Short),
            b"int" | b"long" | b"integer" => Tok::TypeKw(T::Int),
            b"ubyte" => id_or(Tok::TypeKw(T::UByte), unsigned_ok),
            b"ushort" => id_or(Tok::TypeKw(T::UShort), unsigned_ok),
            b"uint" | b"ulong" | b"uinteger" => id_or(Tok::TypeKw(T::UInt), unsigned_ok),
            b"int64" => id_or(Tok::TypeKw(T::Int64), unsigned_ok),
            b"uint64" => id_or(Tok::TypeKw(T::UInt64), unsigned_ok),
            b"string" => id_or(Tok::TypeKw(T::String), string_ok),
            b"unlimited" | b"UNLIMITED" => Tok::Unlimited,
            b"netcdf" | b"NETCDF" | b"netCDF" => {
                self.after_netcdf = true;
                Tok::Netcdf
            }
            b"DoubleInf" | b"Infinity" => {
                self.special_constants = true;
                Tok::Const(ConstKind::Double(f64::INFINITY))
            }
            b"NaN" | b"nan" => {
                self.special_constants = true;
                Tok::Const(ConstKind::Double(f64::NAN))
            }
            b"FloatInf" | b"Infinityf" | b"Inff" => {
                self.special_constants = true;
                Tok::Const(ConstKind::Float(f32::INFINITY))
            }
            b"NaNf" | b"nanf" => {
                self.special_constants = true;
                Tok::Const(ConstKind::Float(f32::NAN))
            }
            b"NIL" | b"nil" | b"Nil" => Tok::Nil,
            _ => {
                if let Some(sp) = SPECIALS.iter().find(|sp| sp.name().as_bytes() == raw) {
                    return Ok(Tok::Special(*sp));
                }
                if raw == BROKEN_SPECIAL.as_bytes() {
                    return Ok(Tok::Eof);
                }
                let name = self.ident(raw);
                if name == "_" {
                    return Ok(Tok::FillMarker);
                }
                Tok::Ident(name)
            }
        };
        Ok(tok)
    }

    /// An integer constant with optional tag (ncgen.l NUMBER rule, `collecttag`, `downconvert`).
    fn integer(&mut self, text: &[u8]) -> Result<Tok, LexError> {
        let tag_start = text
            .iter()
            .rposition(|c| !b"BbSsLlUu".contains(c))
            .map_or(0, |p| p + 1);
        let (body, tag) = text.split_at(tag_start);
        let body_s = String::from_utf8_lossy(body).into_owned();
        let mut t: Vec<u8> = tag.to_ascii_lowercase();
        let mut has_u = false;
        if t.first() == Some(&b'u') {
            has_u = true;
            t.remove(0);
        } else if t.last() == Some(&b'u') {
            has_u = true;
            t.pop();
        }
        #[derive(PartialEq, Clone, Copy)]
        enum Tag {
            None,
            B,
            S,
            I,
            L,
        }
        let size = match t.as_slice() {
            b"" => Tag::None,
            b"b" => Tag::B,
            b"s" => Tag::S,
            b"l" => Tag::I,
            b"ll" => Tag::L,
            _ => {
                return self.err(format!(
                    "Illegal integer suffix: {}",
                    String::from_utf8_lossy(tag)
                ))
            }
        };
        let neg = body.first() == Some(&b'-');
        let digits_part = body_s.trim_start_matches(['+', '-']);
        if neg && has_u {
            return self.err(format!("Unsigned integer cannot be signed: {body_s}"));
        }
        let (radix, ds) = if digits_part.starts_with('0') {
            (
                8,
                &digits_part[..digits_part
                    .bytes()
                    .take_while(|c| (b'0'..=b'7').contains(c))
                    .count()],
            )
        } else {
            (10, digits_part)
        };
        let Ok(u) = u64::from_str_radix(if ds.is_empty() { "0" } else { ds }, radix) else {
            return self.err(format!("integer constant out of range: {body_s}"));
        };
        let range_err = |this: &Self| this.err("Value out of range".to_string());
        let big_u64 = size == Tag::L && has_u && (u >> 63) == 1;
        let mut v = u as i64;
        if neg {
            v = v.wrapping_neg();
        }
        let k = match (size, has_u) {
            _ if big_u64 => ConstKind::UInt64(u),
            (Tag::None, false) => {
                if i32::try_from(v).is_ok() {
                    ConstKind::Int(v as i32)
                } else if (0..=i64::from(u32::MAX)).contains(&v) {
                    ConstKind::UInt(v as u32)
                } else if v < 0 {
                    ConstKind::Int64(v)
                } else {
                    ConstKind::UInt64(v as u64)
                }
            }
            (_, true) if v < 0 => return range_err(self),
            (Tag::B, true) if v <= 255 => ConstKind::UByte(v as u8),
            (Tag::S, true) if v <= 65535 => ConstKind::UShort(v as u16),
            (Tag::None | Tag::I, true) if v <= i64::from(u32::MAX) => ConstKind::UInt(v as u32),
            (Tag::L, true) => ConstKind::UInt64(u),
            (_, true) => return range_err(self),
            (Tag::L, false) => ConstKind::Int64(v),
            (Tag::B, false) => {
                self.byte_val = v as i8;
                ConstKind::Byte(v as i8)
            }
            (Tag::S, false) => ConstKind::Short(v as i16),
            (Tag::I, false) => ConstKind::Int(v as i32),
        };
        if self.kind == ScanKind::ClassicModel
            && !matches!(
                k,
                ConstKind::Byte(_) | ConstKind::Short(_) | ConstKind::Int(_)
            )
        {
            return self.err(format!(
                "Illegal integer constant for classic format: {body_s}"
            ));
        }
        Ok(Tok::Const(k))
    }
}

/// Makes a [`Const`] from a constant token at `line`.
pub(crate) fn constant(kind: ConstKind, line: u32) -> Const {
    Const { kind, line }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        let mut lx = Lexer::new(src.as_bytes(), ScanKind::Unset);
        let mut v = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t == Tok::Eof {
                return v;
            }
            v.push(t);
        }
    }

    fn err(src: &str, kind: ScanKind) -> String {
        let mut lx = Lexer::new(src.as_bytes(), kind);
        loop {
            match lx.next_token() {
                Ok(Tok::Eof) => panic!("no error in {src}"),
                Ok(_) => {}
                Err(e) => return e.msg,
            }
        }
    }

    #[test]
    fn integers_and_tags() {
        use ConstKind::*;
        assert_eq!(
            toks("010 08 255b 65535s 100us 7UL 1ll 3000000000 -3000000000 18446744073709551615"),
            vec![
                Tok::Const(Int(8)),
                Tok::Const(Int(0)),
                Tok::Const(Byte(-1)),
                Tok::Const(Short(-1)),
                Tok::Const(UShort(100)),
                Tok::Const(UInt(7)),
                Tok::Const(Int64(1)),
                Tok::Const(UInt(3000000000)),
                Tok::Const(Int64(-3000000000)),
                Tok::Const(Int(-1)),
            ]
        );
        assert_eq!(
            toks("18446744073709551615ull 0x1Fs 0xABC"),
            vec![
                Tok::Const(UInt64(u64::MAX)),
                Tok::Const(UInt(31)),
                Tok::Const(Opaque("abc0".into()))
            ]
        );
        assert_eq!(
            err("-1u", ScanKind::Unset),
            "Unsigned integer cannot be signed: -1"
        );
        assert_eq!(err("256ub", ScanKind::Unset), "Value out of range");
        assert_eq!(
            err("99999999999999999999", ScanKind::Unset),
            "integer constant out of range: 99999999999999999999"
        );
        assert_eq!(
            err("3000000000", ScanKind::ClassicModel),
            "Illegal integer constant for classic format: 3000000000"
        );
    }

    #[test]
    fn floats_words_strings() {
        use ConstKind::*;
        assert_eq!(
            toks("1.5 2.5e-3F 1e3 .5d -Infinity e5"),
            vec![
                Tok::Const(Double(1.5)),
                Tok::Const(Float(2.5e-3)),
                Tok::Const(Double(1000.0)),
                Tok::Const(Double(0.5)),
                Tok::Const(Double(f64::NEG_INFINITY)),
                Tok::Ident("e5".into()),
            ]
        );
        assert!(matches!(toks("NaNf")[0], Tok::Const(Float(f)) if f.is_nan()));
        assert_eq!(
            toks("data: data x-1.y \\1a a\\ b _ ubyte string 'a' '\\n' '\\101' \"a\\tb\\\"\""),
            vec![
                Tok::Data,
                Tok::Ident("data".into()),
                Tok::Ident("x-1.y".into()),
                Tok::Ident("1a".into()),
                Tok::Ident("a b".into()),
                Tok::FillMarker,
                Tok::Ident("ubyte".into()),
                Tok::Ident("string".into()),
                Tok::Const(Byte(97)),
                Tok::Const(Byte(10)),
                Tok::Const(Byte(65)),
                Tok::Const(Str(b"a\tb\"".to_vec())),
            ]
        );
        assert_eq!(
            toks("/g1/g2/x v:_FillValue // c\n/* x\n */ ;"),
            vec![
                Tok::Path(vec!["g1".into(), "g2".into(), "x".into()]),
                Tok::Ident("v".into()),
                Tok::Punct(b':'),
                Tok::Special(Special::FillValue),
                Tok::Punct(b';'),
            ]
        );
        let mut lx = Lexer::new(b"netcdf my file\n {", ScanKind::Unset);
        assert_eq!(lx.next_token().unwrap(), Tok::Netcdf);
        assert_eq!(lx.next_token().unwrap(), Tok::DatasetId("myfile".into()));
        assert_eq!(lx.next_token().unwrap(), Tok::Punct(b'{'));
        assert_eq!(lx.line(), 1);
    }
}
