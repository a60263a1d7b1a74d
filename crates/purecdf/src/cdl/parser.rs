//! A hand-written recursive-descent parser for CDL, following the grammar of netcdf-c's
//! `ncgen/ncgen.y` (`ncgen-features.md` §1–3, §5) and building the symbol table as its actions do:
//! groups, types, dimensions and variables go straight into a [`Schema`]; attributes and data lists
//! are kept as written for [`super::semantics`].
//!
//! Syntax errors reproduce bison's verbose messages (`syntax error, unexpected X, expecting Y`):
//! the expected list is the one bison reports in the state where it detects the error (after its
//! default reductions), given only when it has at most four entries. Scoping follows ncgen(1)
//! "Scoping Rules": dimensions are looked up through the ancestors, types by primitive name, then
//! ancestors, then a unique match anywhere in the tree, variables only in the current group.

use super::ast::{
    CdlError, Const, ConstKind, ErrorStyle, GlobalSpecials, PendingAtt, Quantize, StorageKind,
    VarSpecials,
};
use super::lexer::{constant, LexError, Lexer, ScanKind, Special, Tok};
use crate::model::{
    CompoundField, GroupId, NcType, Schema, TypeId, UserType, UserTypeKind, VarId, ROOT,
};

/// Deepest `{` nesting accepted in data lists.
const MAX_DEPTH: usize = 200;
/// netcdf-c's NC_MAX_VAR_DIMS.
const MAX_VAR_DIMS: usize = 1024;

type PResult<T> = Result<T, CdlError>;

/// A resolved reference: a variable or a type.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ref {
    Var(VarId),
    Type(NcType),
}

/// The parser's output, before semantics.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub name: String,
    pub schema: Schema,
    pub data: Vec<Option<Vec<Const>>>,
    pub atts: Vec<PendingAtt>,
    pub specials: Vec<VarSpecials>,
    pub globals: GlobalSpecials,
    pub enhanced: Option<String>,
    pub special_count: usize,
    pub var_lines: Vec<u32>,
}

pub(crate) struct Parser<'a> {
    lx: Lexer<'a>,
    tok: Tok,
    tok_line: u32,
    last_line: u32,
    file: String,
    stack: Vec<GroupId>,
    out: Parsed,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a [u8], file: &str, kind: ScanKind) -> Self {
        Parser {
            lx: Lexer::new(src, kind),
            tok: Tok::Eof,
            tok_line: 1,
            last_line: 1,
            file: file.to_string(),
            stack: vec![ROOT],
            out: Parsed {
                name: String::new(),
                schema: Schema::default(),
                data: Vec::new(),
                atts: Vec::new(),
                specials: Vec::new(),
                globals: GlobalSpecials::default(),
                enhanced: None,
                special_count: 0,
                var_lines: Vec::new(),
            },
        }
    }

    fn err_at(&self, line: u32, msg: impl Into<String>) -> CdlError {
        CdlError {
            message: msg.into(),
            style: ErrorStyle::Located(line),
            file: self.file.clone(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
        }
    }

    fn plain(&self, msg: impl Into<String>) -> CdlError {
        CdlError {
            message: msg.into(),
            style: ErrorStyle::Plain,
            file: self.file.clone(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
        }
    }

    fn lex_err(&self, e: LexError) -> CdlError {
        self.err_at(e.line, e.msg)
    }

    fn advance(&mut self) -> PResult<Tok> {
        let next = self.lx.next_token().map_err(|e| self.lex_err(e))?;
        self.last_line = self.tok_line;
        self.tok_line = self.lx.line();
        Ok(std::mem::replace(&mut self.tok, next))
    }

    fn syntax(&self, expected: &[&str]) -> CdlError {
        let mut m = format!("syntax error, unexpected {}", self.tok.bison_name());
        if !expected.is_empty() && expected.len() <= 4 {
            m.push_str(", expecting ");
            m.push_str(&expected.join(" or "));
        }
        self.err_at(self.tok_line, m)
    }

    fn is_punct(&self, c: u8) -> bool {
        self.tok == Tok::Punct(c)
    }

    fn expect_punct(&mut self, c: u8, expected: &[&str]) -> PResult<()> {
        if self.is_punct(c) {
            self.advance()?;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn group(&self) -> GroupId {
        *self.stack.last().unwrap_or(&ROOT)
    }

    fn mark_cdf4(&mut self, why: &str) {
        if self.out.enhanced.is_none() {
            self.out.enhanced = Some(why.to_string());
        }
    }

    /// Parses a whole CDL text.
    pub(crate) fn parse(mut self) -> PResult<Parsed> {
        self.advance()?;
        if self.tok != Tok::Netcdf {
            return Err(self.syntax(&["NETCDF"]));
        }
        self.advance()?;
        match self.advance()? {
            Tok::DatasetId(name) => self.out.name = name,
            other => {
                self.tok = other;
                return Err(self.syntax(&["DATASETID"]));
            }
        }
        self.expect_punct(b'{', &["'{'"])?;
        self.group_body()?;
        self.subgroups()?;
        self.expect_punct(b'}', &["GROUP", "'}'"])?;
        if self.tok != Tok::Eof {
            return Err(self.syntax(&["end of file"]));
        }
        Ok(self.out)
    }

    fn starts_attr(&self) -> bool {
        matches!(
            self.tok,
            Tok::Punct(b':') | Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_)
        )
    }

    fn group_body(&mut self) -> PResult<()> {
        self.attr_list()?;
        if self.tok == Tok::Types {
            self.advance()?;
            self.types_section()?;
        }
        if self.tok == Tok::Dimensions {
            self.advance()?;
            self.dims_section()?;
        }
        if self.tok == Tok::Variables {
            self.advance()?;
            self.vars_section()?;
        }
        if self.tok == Tok::Data {
            self.advance()?;
            self.data_section()?;
        }
        Ok(())
    }

    fn attr_list(&mut self) -> PResult<()> {
        while self.starts_attr() {
            self.attr_decl(None)?;
            self.expect_punct(b';', &["';'"])?;
        }
        Ok(())
    }

    fn subgroups(&mut self) -> PResult<()> {
        while self.tok == Tok::Group {
            self.advance()?;
            let name = match self.advance()? {
                Tok::Ident(n) => n,
                other => {
                    self.tok = other;
                    return Err(self.syntax(&["IDENT"]));
                }
            };
            if !self.is_punct(b'{') {
                return Err(self.syntax(&["'{'"]));
            }
            self.mark_cdf4("Group specification");
            let parent = self.group();
            if self.out.schema.find_group(parent, &name).is_some() {
                return Err(self.plain(format!("Duplicate group name in same scope: {name}")));
            }
            let g = self.out.schema.add_group(parent, &name).map_err(|e| {
                self.err_at(self.last_line, format!("{name}: {}", e.kind().nc_message()))
            })?;
            self.advance()?;
            if self.stack.len() > MAX_DEPTH {
                return Err(self.err_at(self.tok_line, "memory exhausted"));
            }
            self.stack.push(g);
            self.group_body()?;
            self.subgroups()?;
            self.stack.pop();
            self.expect_punct(b'}', &["GROUP", "'}'"])?;
            self.attr_list()?;
        }
        Ok(())
    }

    // ----- names and references -----

    fn find_type_named(&self, name: &str, prefix: Option<&[String]>) -> Option<NcType> {
        if let Some(p) = prefix {
            let g = self.group_by_path(p)?;
            return self.out.schema.find_type(g, name).map(NcType::User);
        }
        if let Some(t) = NcType::from_cdl_name(name) {
            return Some(t);
        }
        let mut cur = Some(self.group());
        while let Some(g) = cur {
            if let Some(t) = self.out.schema.find_type(g, name) {
                return Some(NcType::User(t));
            }
            cur = self.out.schema.group(g).parent;
        }
        unique_type(&self.out.schema, ROOT, name).map(NcType::User)
    }

    fn group_by_path(&self, parts: &[String]) -> Option<GroupId> {
        let mut g = ROOT;
        for p in parts {
            g = self.out.schema.find_group(g, p)?;
        }
        Some(g)
    }

    /// `ambiguous_ref`: a variable (current group) or a type, from an already consumed name.
    fn resolve_ref(&self, tok: &Tok, line: u32) -> PResult<Ref> {
        let (prefix, name): (Option<&[String]>, &str) = match tok {
            Tok::TypeKw(t) => return Ok(Ref::Type(*t)),
            Tok::Ident(n) => (None, n.as_str()),
            Tok::Path(p) if !p.is_empty() => (Some(&p[..p.len() - 1]), p[p.len() - 1].as_str()),
            _ => return Err(self.plain("Undefined name (line 0): /")),
        };
        let g = match prefix {
            Some(p) => self.group_by_path(p),
            None => Some(self.group()),
        };
        if let Some(v) = g.and_then(|g| self.out.schema.find_var(g, name)) {
            return Ok(Ref::Var(v));
        }
        if let Some(t) = self.find_type_named(name, prefix) {
            return Ok(Ref::Type(t));
        }
        Err(self.plain(format!("Undefined name (line {line}): {name}")))
    }

    fn ref_name(tok: &Tok) -> String {
        match tok {
            Tok::Ident(n) => n.clone(),
            Tok::Path(p) => p.last().cloned().unwrap_or_default(),
            other => other.bison_name(),
        }
    }

    fn take_ref_token(&mut self, expected: &[&str]) -> PResult<(Tok, u32)> {
        match self.tok {
            Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_) => {
                let t = self.advance()?;
                Ok((t, self.last_line))
            }
            _ => Err(self.syntax(expected)),
        }
    }

    fn as_type(&self, r: Ref, tok: &Tok) -> PResult<NcType> {
        match r {
            Ref::Type(t) => Ok(t),
            Ref::Var(_) => Err(self.plain(format!(
                "Undefined or forward referenced type: {}",
                Self::ref_name(tok)
            ))),
        }
    }

    // ----- attributes -----

    /// `attrdecl`. `first` is an already consumed and resolved leading reference.
    fn attr_decl(&mut self, first: Option<(Tok, Ref)>) -> PResult<()> {
        if first.is_none() && self.is_punct(b':') {
            self.advance()?;
            let target = self.advance()?;
            match target {
                Tok::Special(
                    sp @ (Special::NcProperties
                    | Special::IsNetcdf4
                    | Special::Superblock
                    | Special::Format),
                ) => {
                    self.expect_punct(b'=', &["'='"])?;
                    return self.global_special(sp);
                }
                Tok::Ident(name) => {
                    let line = self.last_line;
                    self.expect_punct(b'=', &["'='"])?;
                    let data = self.datalist(0)?;
                    return self.make_attribute(None, name, None, data, line);
                }
                other => {
                    self.tok = other;
                    return Err(self.syntax(&[]));
                }
            }
        }
        let (tok1, r1) = match first {
            Some(x) => x,
            None => {
                let (t, line) = self.take_ref_token(&[])?;
                let r = self.resolve_ref(&t, line)?;
                (t, r)
            }
        };
        if self.is_punct(b':') {
            self.advance()?;
            return self.attr_tail(&tok1, r1, None);
        }
        let typ = self.as_type(r1, &tok1)?;
        let (tok2, line2) = self.take_ref_token(&[])?;
        let r2 = self.resolve_ref(&tok2, line2)?;
        if !self.is_punct(b':') {
            return Err(self.syntax(&["':'"]));
        }
        self.advance()?;
        self.attr_tail(&tok2, r2, Some(typ))
    }

    /// After `ref ':'` (with an optional type prefix).
    fn attr_tail(&mut self, reftok: &Tok, r: Ref, typ: Option<NcType>) -> PResult<()> {
        let target = self.advance()?;
        let name_line = self.last_line;
        match target {
            Tok::Ident(name) => {
                self.expect_punct(b'=', &["'='"])?;
                let data = self.datalist(0)?;
                match (r, typ) {
                    (Ref::Var(v), t) => self.make_attribute(Some(v), name, t, data, name_line),
                    (Ref::Type(t), None) => {
                        self.make_attribute(None, name, Some(t), data, name_line)
                    }
                    (Ref::Type(_), Some(_)) => {
                        Err(self.plain(format!("Doubly typed attribute: {name}")))
                    }
                }
            }
            Tok::Special(Special::FillValue) => {
                self.expect_punct(b'=', &["'='"])?;
                let data = self.datalist(0)?;
                self.fill_value(reftok, r, typ, data, name_line)
            }
            Tok::Special(sp) if typ.is_none() => {
                self.expect_punct(b'=', &["'='"])?;
                self.var_special(reftok, r, sp)
            }
            other => {
                self.tok = other;
                Err(self.syntax(&[]))
            }
        }
    }

    fn make_attribute(
        &mut self,
        var: Option<VarId>,
        name: String,
        typ: Option<NcType>,
        data: Vec<Const>,
        line: u32,
    ) -> PResult<()> {
        if data.iter().any(|c| matches!(c.kind, ConstKind::Fill)) {
            return Err(self.plain(format!(
                "Attribute data may not contain fill values (i.e. _ ): {name}"
            )));
        }
        self.out.atts.push(PendingAtt {
            group: self.group(),
            var,
            name,
            typ,
            data,
            line,
        });
        Ok(())
    }

    fn fill_value(
        &mut self,
        reftok: &Tok,
        r: Ref,
        typ: Option<NcType>,
        data: Vec<Const>,
        line: u32,
    ) -> PResult<()> {
        if data.len() != 1 {
            return Err(self.plain("_FillValue: must be a single (possibly compound) value"));
        }
        if data.iter().any(|c| matches!(c.kind, ConstKind::Fill)) {
            return Err(self.plain("Attribute data may not contain fill values (i.e. _ )"));
        }
        let Ref::Var(v) = r else {
            return Err(self.plain(format!(
                "_FillValue attribute not associated with variable: {}",
                Self::ref_name(reftok)
            )));
        };
        // netcdf-c 4.9 accepts a type prefix that differs from the variable's type and converts
        // the value to the variable's type.
        let _ = typ;
        let vt = self.out.schema.var(v).typ;
        self.make_attribute(Some(v), "_FillValue".into(), Some(vt), data, line)
    }

    fn conststring(&mut self) -> PResult<String> {
        match &self.tok {
            Tok::Const(ConstKind::Str(s)) => {
                let s = String::from_utf8_lossy(s).into_owned();
                self.advance()?;
                Ok(s)
            }
            _ => Err(self.syntax(&["TERMSTRING"])),
        }
    }

    fn constint(&mut self, expected: &[&str]) -> PResult<i128> {
        match &self.tok {
            Tok::Const(
                k @ (ConstKind::Int(_)
                | ConstKind::UInt(_)
                | ConstKind::Int64(_)
                | ConstKind::UInt64(_)),
            ) => {
                let v = k.as_i128().unwrap_or(0);
                self.advance()?;
                Ok(v)
            }
            _ => Err(self.syntax(expected)),
        }
    }

    /// `constbool`: a string or an integer constant, mapped by ncgen's `truefalse`.
    fn constbool(&mut self, sp: Special) -> PResult<bool> {
        let v = if let Tok::Const(ConstKind::Str(s)) = &self.tok {
            let r = match s.as_slice() {
                b"false" | b"0" => Some(false),
                b"true" | b"1" => Some(true),
                _ => None,
            };
            self.advance()?;
            r
        } else {
            let v = self.constint(&[])?;
            // convert1 to NC_INT then range check.
            match v as i32 {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            }
        };
        v.ok_or_else(|| self.plain(format!("{}: illegal value", sp.name())))
    }

    const INTS: [&'static str; 4] = ["INT_CONST", "INT64_CONST", "UINT_CONST", "UINT64_CONST"];

    fn global_special(&mut self, sp: Special) -> PResult<()> {
        match sp {
            Special::NcProperties => {
                self.out.special_count += 1;
                let s = self.conststring()?;
                self.out.globals.nc_properties = Some(s);
            }
            Special::IsNetcdf4 => {
                self.out.special_count += 1;
                let b = self.constbool(sp)?;
                self.out.globals.is_netcdf4 = Some(b);
            }
            Special::Superblock => {
                self.out.special_count += 1;
                let v = self.constint(&Self::INTS)?;
                self.out.globals.superblock = Some(v as i32);
            }
            _ => {
                let s = self.conststring()?;
                match super::format_from_kind_name(&s) {
                    Some(f) => self.out.globals.format = Some(f),
                    None => return Err(self.plain(format!("_Format: illegal value: {s}"))),
                }
            }
        }
        Ok(())
    }

    fn var_special(&mut self, reftok: &Tok, r: Ref, sp: Special) -> PResult<()> {
        if matches!(
            sp,
            Special::NcProperties | Special::IsNetcdf4 | Special::Superblock | Special::Format
        ) {
            // GLOBAL_SPECIAL with a variable: reported, then treated as global.
            return Err(self.plain("_Format: must be global attribute"));
        }
        let Ref::Var(v) = r else {
            let _ = reftok;
            return Err(self.plain(format!("{}: must have non-NULL vsym", sp.name())));
        };
        self.out.special_count += 1;
        let line = self.last_line;
        let mut spec = self.out.specials[v.0].clone();
        match sp {
            Special::Storage => {
                let s = self.conststring()?;
                spec.storage = Some(match s.as_str() {
                    "contiguous" => StorageKind::Contiguous,
                    "compact" => StorageKind::Compact,
                    "chunked" => StorageKind::Chunked,
                    _ => return Err(self.plain(format!("_Storage: illegal value: {s}"))),
                });
            }
            Special::ChunkSizes => {
                let mut sizes = vec![self.constint(&Self::INTS)?];
                while self.is_punct(b',') {
                    self.advance()?;
                    sizes.push(self.constint(&Self::INTS)?);
                }
                // convert1 to NC_INT, stored as size_t.
                spec.chunk_sizes = Some(sizes.iter().map(|v| (*v as i32) as i64 as u64).collect());
                spec.storage = Some(StorageKind::Chunked);
            }
            Special::Fletcher32 => spec.fletcher32 = Some(self.constbool(sp)?),
            Special::Shuffle => spec.shuffle = Some(self.constbool(sp)?),
            Special::NoFill => spec.no_fill = Some(self.constbool(sp)?),
            Special::DeflateLevel => spec.deflate_level = Some(self.constint(&Self::INTS)? as i32),
            Special::QuantizeGbr => {
                spec.quantize = Some((
                    Quantize::GranularBitRound,
                    self.constint(&Self::INTS)? as i32,
                ))
            }
            Special::QuantizeBr => {
                spec.quantize = Some((Quantize::BitRound, self.constint(&Self::INTS)? as i32))
            }
            Special::Endianness => {
                let s = self.conststring()?;
                spec.big_endian = Some(match s.as_str() {
                    "little" => false,
                    "big" => true,
                    _ => return Err(self.plain(format!("_Endianness: illegal value: {s}"))),
                });
            }
            Special::Filter => {
                let s = self.conststring()?;
                match super::filters::parse_filter_spec(&s) {
                    Some(f) => spec.filters.extend(f),
                    None => {
                        return Err(self.plain(format!("Malformed filter spec: {s}")));
                    }
                }
            }
            Special::Codecs => {
                let s = self.conststring()?;
                if s.is_empty() {
                    return Err(self.plain(format!("_Codecs: unparsable codec spec: {s}")));
                }
                spec.codecs = Some(s);
            }
            _ => return Err(self.err_at(line, "unexpected special attribute")),
        }
        self.out.specials[v.0] = spec;
        Ok(())
    }

    // ----- types -----

    fn types_section(&mut self) -> PResult<()> {
        let mut any = false;
        loop {
            match self.tok {
                Tok::Compound => self.compound_decl()?,
                Tok::Opaque => self.opaque_decl()?,
                Tok::Punct(b':') => {
                    self.attr_decl(None)?;
                    self.expect_punct(b';', &["';'"])?;
                }
                Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_) => {
                    let (t, line) = self.take_ref_token(&[])?;
                    if self.tok == Tok::Enum {
                        let Tok::TypeKw(base) = t else {
                            return Err(self.syntax(&[]));
                        };
                        self.enum_decl(base)?;
                    } else if self.is_punct(b'(') {
                        let r = self.resolve_ref(&t, line)?;
                        let base = self.as_type(r, &t)?;
                        self.vlen_decl(base)?;
                    } else {
                        let r = self.resolve_ref(&t, line)?;
                        self.attr_decl(Some((t, r)))?;
                        self.expect_punct(b';', &["';'"])?;
                    }
                }
                _ => break,
            }
            any = true;
            if self.is_punct(b';') && !matches!(self.tok, Tok::Eof) {
                // optsemicolon after a type declaration
                self.advance()?;
            }
        }
        if any {
            self.mark_cdf4("Type specification");
        }
        Ok(())
    }

    fn type_name(&mut self) -> PResult<(String, u32)> {
        match self.advance()? {
            Tok::Ident(n) => {
                let line = self.last_line;
                let g = self.group();
                if self.out.schema.find_type(g, &n).is_some() {
                    return Err(
                        self.err_at(self.tok_line, format!("duplicate type declaration for {n}"))
                    );
                }
                Ok((n, line))
            }
            other => {
                self.tok = other;
                Err(self.syntax(&["IDENT"]))
            }
        }
    }

    fn add_type(&mut self, name: &str, kind: UserTypeKind) -> PResult<TypeId> {
        let g = self.group();
        self.out
            .schema
            .add_type(
                g,
                UserType {
                    name: name.to_string(),
                    kind,
                },
            )
            .map_err(|e| self.err_at(self.last_line, format!("{name}: {}", e.kind().nc_message())))
    }

    fn enum_decl(&mut self, base: NcType) -> PResult<()> {
        self.advance()?; // ENUM
        let (name, _) = self.type_name()?;
        self.expect_punct(b'{', &["'{'"])?;
        let mut members: Vec<(String, i128)> = Vec::new();
        loop {
            let m = match self.advance()? {
                Tok::Ident(n) => n,
                other => {
                    self.tok = other;
                    return Err(self.syntax(&["IDENT"]));
                }
            };
            self.expect_punct(b'=', &["'='"])?;
            let v = self.constint(&Self::INTS)?;
            if members.iter().any(|(n, _)| *n == m) {
                return Err(
                    self.err_at(self.tok_line, format!("duplicate enum declaration for {m}"))
                );
            }
            members.push((m, v));
            if self.is_punct(b',') {
                self.advance()?;
            } else {
                break;
            }
        }
        self.expect_punct(b'}', &["'}'", "','"])?;
        if !base.is_integer() {
            return Err(self.plain(format!("{name}: enum base type must be an integer type")));
        }
        self.mark_cdf4("netCDF4 type: ENUM");
        self.add_type(&name, UserTypeKind::Enum { base, members })?;
        Ok(())
    }

    fn opaque_decl(&mut self) -> PResult<()> {
        self.advance()?;
        self.expect_punct(b'(', &["'('"])?;
        let size = match self.tok {
            Tok::Const(ConstKind::Int(v)) => v,
            _ => return Err(self.syntax(&["INT_CONST"])),
        };
        self.advance()?;
        self.expect_punct(b')', &["')'"])?;
        let (name, _) = self.type_name()?;
        self.mark_cdf4("netCDF4 type: OPAQUE");
        if size > 1 << 24 {
            return Err(self.plain(format!("{name}: opaque size too large")));
        }
        let size =
            usize::try_from(size).map_err(|_| self.plain(format!("{name}: bad opaque size")))?;
        self.add_type(&name, UserTypeKind::Opaque { size })?;
        Ok(())
    }

    fn vlen_decl(&mut self, base: NcType) -> PResult<()> {
        self.advance()?; // '('
        self.expect_punct(b'*', &["'*'"])?;
        self.expect_punct(b')', &["')'"])?;
        let (name, _) = self.type_name()?;
        self.mark_cdf4("netCDF4 type: VLEN");
        self.add_type(&name, UserTypeKind::Vlen { base })?;
        Ok(())
    }

    fn compound_decl(&mut self) -> PResult<()> {
        self.advance()?;
        let (name, _) = self.type_name()?;
        self.expect_punct(b'{', &["'{'"])?;
        let mut fields: Vec<(String, NcType, Vec<usize>)> = Vec::new();
        loop {
            let (t, line) = self.take_ref_token(&[])?;
            let r = self.resolve_ref(&t, line)?;
            let typ = self.as_type(r, &t)?;
            loop {
                let fname = match self.advance()? {
                    Tok::Ident(n) => n,
                    other => {
                        self.tok = other;
                        return Err(self.syntax(&["IDENT"]));
                    }
                };
                let mut dims = Vec::new();
                if self.is_punct(b'(') {
                    self.advance()?;
                    loop {
                        let d = match self.tok {
                            Tok::Const(ConstKind::UInt(v)) => i64::from(v),
                            Tok::Const(ConstKind::Int(v)) => {
                                if v <= 0 {
                                    return Err(self.plain("field dimension must be positive"));
                                }
                                i64::from(v)
                            }
                            _ => return Err(self.syntax(&["INT_CONST", "UINT_CONST"])),
                        };
                        self.advance()?;
                        dims.push(d as usize);
                        if dims.len() >= MAX_VAR_DIMS {
                            return Err(self.err_at(
                                self.tok_line,
                                format!("{fname} has too many dimensions"),
                            ));
                        }
                        if self.is_punct(b',') {
                            self.advance()?;
                        } else {
                            break;
                        }
                    }
                    self.expect_punct(b')', &["','", "')'"])?;
                }
                fields.push((fname, typ, dims));
                if self.is_punct(b',') {
                    self.advance()?;
                } else {
                    break;
                }
            }
            self.expect_punct(b';', &["';'", "','"])?;
            if self.is_punct(b'}') {
                self.advance()?;
                break;
            }
        }
        for (i, f) in fields.iter().enumerate() {
            if fields[i + 1..].iter().any(|g| g.0 == f.0) {
                return Err(self.err_at(
                    self.tok_line,
                    format!("duplicate field declaration for {}", f.0),
                ));
            }
        }
        self.mark_cdf4("netCDF4 type: COMPOUND");
        let (size, fields) = layout_compound(&self.out.schema, &fields)
            .ok_or_else(|| self.plain(format!("{name}: compound type too large")))?;
        self.add_type(&name, UserTypeKind::Compound { size, fields })?;
        Ok(())
    }

    // ----- dimensions and variables -----

    fn dims_section(&mut self) -> PResult<()> {
        while self.starts_attr() {
            if let Tok::Ident(_) = self.tok {
                let t = self.advance()?;
                let line = self.last_line;
                if self.is_punct(b'=') {
                    let Tok::Ident(name) = t else { unreachable!() };
                    self.dim_decl(name, line)?;
                    while self.is_punct(b',') {
                        self.advance()?;
                        let name = match self.advance()? {
                            Tok::Ident(n) => n,
                            other => {
                                self.tok = other;
                                return Err(self.syntax(&["IDENT"]));
                            }
                        };
                        let line = self.last_line;
                        if !self.is_punct(b'=') {
                            return Err(self.syntax(&["'='"]));
                        }
                        self.dim_decl(name, line)?;
                    }
                } else {
                    let r = self.resolve_ref(&t, line)?;
                    self.attr_decl(Some((t, r)))?;
                }
            } else {
                self.attr_decl(None)?;
            }
            self.expect_punct(b';', &["';'"])?;
        }
        Ok(())
    }

    /// `dimd '=' (constint | UNLIMITED)` after the name; the current token is '='.
    fn dim_decl(&mut self, name: String, line: u32) -> PResult<()> {
        let g = self.group();
        if self.out.schema.find_dim(g, &name).is_some() {
            return Err(self.err_at(line, format!("Duplicate dimension declaration for {name}")));
        }
        self.advance()?; // '='
        let (len, unlimited) = match &self.tok {
            Tok::Unlimited => (0u64, true),
            Tok::Const(k @ (ConstKind::Int(_) | ConstKind::UInt(_) | ConstKind::Int64(_))) => {
                (k.as_i128().unwrap_or(0) as i64 as u64, false)
            }
            Tok::Const(ConstKind::UInt64(_)) => {
                return Err(self.plain("Not a signed integer type: 11"));
            }
            _ => return Err(self.syntax(&[])),
        };
        self.advance()?;
        self.out
            .schema
            .add_dim(g, &name, len, unlimited)
            .map_err(|e| CdlError {
                message: e.kind().nc_message().to_string(),
                style: ErrorStyle::Library,
                file: self.file.clone(),
                kind: e.kind(),
                exit_code: 1,
            })?;
        Ok(())
    }

    fn vars_section(&mut self) -> PResult<()> {
        while self.starts_attr() {
            if self.is_punct(b':') {
                self.attr_decl(None)?;
            } else {
                let (t1, line1) = self.take_ref_token(&[])?;
                let r1 = self.resolve_ref(&t1, line1)?;
                if self.is_punct(b':') {
                    self.attr_decl(Some((t1, r1)))?;
                } else {
                    let typ = self.as_type(r1, &t1)?;
                    self.var_decl_or_typed_attr(typ)?;
                }
            }
            self.expect_punct(b';', &["';'"])?;
        }
        Ok(())
    }

    /// After `typeref`: either `varlist` or `ambiguous_ref ':' ...` (a typed attribute).
    fn var_decl_or_typed_attr(&mut self, typ: NcType) -> PResult<()> {
        let (t2, line2) = match self.tok {
            Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_) | Tok::Data => {
                let t = self.advance()?;
                (t, self.last_line)
            }
            _ => return Err(self.syntax(&[])),
        };
        if self.is_punct(b':') && t2 != Tok::Data {
            let r2 = self.resolve_ref(&t2, line2)?;
            self.advance()?;
            return self.attr_tail(&t2, r2, Some(typ));
        }
        let mut specs = Vec::new();
        let mut cur = t2;
        loop {
            let name = match cur {
                Tok::Ident(n) => n,
                Tok::Data => "data".to_string(),
                other => {
                    self.tok = other;
                    return Err(self.syntax(&[]));
                }
            };
            let mut dims = Vec::new();
            if self.is_punct(b'(') {
                self.advance()?;
                loop {
                    let d = match self.advance()? {
                        Tok::Ident(n) => {
                            self.out.schema.find_dim_visible(self.group(), &n).ok_or(n)
                        }
                        Tok::Path(p) if !p.is_empty() => {
                            let leaf = p[p.len() - 1].clone();
                            self.group_by_path(&p[..p.len() - 1])
                                .and_then(|g| self.out.schema.find_dim(g, &leaf))
                                .ok_or(leaf)
                        }
                        other => {
                            self.tok = other;
                            return Err(self.syntax(&["IDENT", "PATH"]));
                        }
                    };
                    let d = d.map_err(|n| {
                        self.plain(format!("Undefined or forward referenced dimension: {n}"))
                    })?;
                    dims.push(d);
                    if dims.len() >= MAX_VAR_DIMS {
                        return Err(
                            self.err_at(self.tok_line, format!("{name} has too many dimensions"))
                        );
                    }
                    if self.is_punct(b',') {
                        self.advance()?;
                    } else {
                        break;
                    }
                }
                self.expect_punct(b')', &["','", "')'"])?;
            }
            specs.push((name, dims));
            if !self.is_punct(b',') {
                break;
            }
            self.advance()?;
            cur = match self.tok {
                Tok::Ident(_) | Tok::Data => self.advance()?,
                _ => return Err(self.syntax(&["IDENT", "DATA"])),
            };
        }
        let g = self.group();
        for (name, dims) in specs {
            if self.out.schema.find_var(g, &name).is_some() {
                return Err(self.err_at(
                    self.tok_line,
                    format!("Duplicate variable declaration for {name}"),
                ));
            }
            self.out
                .schema
                .add_var(g, &name, typ, &dims)
                .map_err(|e| CdlError {
                    message: e.kind().nc_message().to_string(),
                    style: ErrorStyle::Library,
                    file: self.file.clone(),
                    kind: e.kind(),
                    exit_code: 1,
                })?;
            self.out.data.push(None);
            self.out.specials.push(VarSpecials::default());
            self.out.var_lines.push(self.tok_line);
        }
        Ok(())
    }

    // ----- data -----

    fn data_section(&mut self) -> PResult<()> {
        while matches!(self.tok, Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_)) {
            let (t, line) = self.take_ref_token(&[])?;
            if !self.is_punct(b'=') {
                return Err(self.syntax(&["'='"]));
            }
            let v = match self.resolve_ref(&t, line)? {
                Ref::Var(v) => v,
                Ref::Type(_) => {
                    return Err(self.plain(format!(
                        "Undefined or forward referenced variable: {}",
                        Self::ref_name(&t)
                    )))
                }
            };
            self.advance()?;
            let data = self.datalist(0)?;
            self.out.data[v.0] = Some(data);
            self.expect_punct(b';', &["';'"])?;
        }
        Ok(())
    }

    fn starts_item(&self) -> bool {
        matches!(
            self.tok,
            Tok::Const(_)
                | Tok::FillMarker
                | Tok::Nil
                | Tok::Ident(_)
                | Tok::Path(_)
                | Tok::Punct(b'{')
        )
    }

    /// `datalist`: possibly empty, with `datalist ',' dataitem` allowing a leading comma.
    fn datalist(&mut self, depth: usize) -> PResult<Vec<Const>> {
        if depth > MAX_DEPTH {
            return Err(self.err_at(self.tok_line, "memory exhausted"));
        }
        let mut items = Vec::new();
        if self.starts_item() {
            items.push(self.dataitem(depth)?);
        }
        while self.is_punct(b',') {
            self.advance()?;
            if !self.starts_item() {
                return Err(self.syntax(&[]));
            }
            items.push(self.dataitem(depth)?);
        }
        Ok(items)
    }

    fn dataitem(&mut self, depth: usize) -> PResult<Const> {
        let line = self.tok_line;
        match self.advance()? {
            Tok::Punct(b'{') => {
                let inner = self.datalist(depth + 1)?;
                let line = self.tok_line;
                self.expect_punct(b'}', &["','", "'}'"])?;
                Ok(constant(ConstKind::List(inner), line))
            }
            Tok::Const(k) => Ok(constant(k, line)),
            Tok::FillMarker => Ok(constant(ConstKind::Fill, line)),
            Tok::Nil => Ok(constant(ConstKind::Nil, line)),
            Tok::Ident(name) if self.is_punct(b'(') => self.function(name, line),
            Tok::Ident(name) => {
                self.mark_cdf4("Enum type");
                Ok(constant(
                    ConstKind::EnumRef {
                        path: None,
                        name,
                        group: self.group(),
                    },
                    line,
                ))
            }
            Tok::Path(p) => {
                self.mark_cdf4("Enum type");
                let name = p.last().cloned().unwrap_or_default();
                let prefix = p[..p.len().saturating_sub(1)].to_vec();
                Ok(constant(
                    ConstKind::EnumRef {
                        path: Some(prefix),
                        name,
                        group: self.group(),
                    },
                    line,
                ))
            }
            other => {
                self.tok = other;
                Err(self.syntax(&[]))
            }
        }
    }

    /// `ident '(' arglist ')'`: only `time([kind,] "date")` exists.
    fn function(&mut self, name: String, line: u32) -> PResult<Const> {
        self.advance()?; // '('
        let mut args = Vec::new();
        loop {
            match self.advance()? {
                Tok::Const(k @ ConstKind::Opaque(_)) => {
                    self.tok = Tok::Const(k);
                    return Err(self.syntax(&[]));
                }
                Tok::Const(k) => args.push(k),
                other => {
                    self.tok = other;
                    return Err(self.syntax(&[]));
                }
            }
            if self.is_punct(b',') {
                self.advance()?;
            } else {
                break;
            }
        }
        self.expect_punct(b')', &["','", "')'"])?;
        if !name.eq_ignore_ascii_case("time") {
            return Err(self.plain(format!("Unknown function name: {name}")));
        }
        let sig = || "Expected function signature: time([string,]string)".to_string();
        let text = match args.as_slice() {
            [ConstKind::Str(s)] => s.clone(),
            [ConstKind::Str(kind), ConstKind::Str(_)] => {
                return Err(self.plain(format!(
                    "Time conversion '{}' not supported",
                    String::from_utf8_lossy(kind)
                )))
            }
            _ => return Err(self.plain(sig())),
        };
        let v = epoch_hours(&String::from_utf8_lossy(&text));
        Ok(constant(ConstKind::Double(v), line))
    }
}

/// The unique type named `name` in a pre-order walk below `g` (ncgen `uniquetreelocate`).
fn unique_type(s: &Schema, g: GroupId, name: &str) -> Option<TypeId> {
    if let Some(t) = s.find_type(g, name) {
        return Some(t);
    }
    let mut found = None;
    for c in &s.group(g).groups {
        if let Some(t) = unique_type(s, *c, name) {
            if found.is_some() {
                return None;
            }
            found = Some(t);
        }
    }
    found
}

/// Alignment and size of a type as a C compiler lays it out (netcdf-c `ncaux_class_alignment`).
pub(crate) fn align_and_size(s: &Schema, t: NcType) -> (usize, usize) {
    match t {
        NcType::User(id) => match &s.user_type(id).kind {
            UserTypeKind::Compound { size, fields } => {
                let a = fields
                    .iter()
                    .map(|f| align_and_size(s, f.typ).0)
                    .max()
                    .unwrap_or(1);
                (a, *size)
            }
            UserTypeKind::Vlen { .. } => (8, 16),
            UserTypeKind::Enum { base, .. } => align_and_size(s, *base),
            UserTypeKind::Opaque { size } => (1, *size),
        },
        other => {
            let n = other.atomic_size().unwrap_or(1);
            (n, n)
        }
    }
}

fn layout_compound(
    s: &Schema,
    fields: &[(String, NcType, Vec<usize>)],
) -> Option<(usize, Vec<CompoundField>)> {
    let mut offset = 0usize;
    let mut max_align = 1usize;
    let mut out = Vec::with_capacity(fields.len());
    for (name, typ, dims) in fields {
        let (a, sz) = align_and_size(s, *typ);
        let n = dims.iter().try_fold(1usize, |acc, d| acc.checked_mul(*d))?;
        let rem = offset % a.max(1);
        if rem != 0 {
            offset = offset.checked_add(a - rem)?;
        }
        out.push(CompoundField {
            name: name.clone(),
            offset,
            typ: *typ,
            dims: dims.clone(),
        });
        offset = offset.checked_add(sz.checked_mul(n)?)?;
        max_align = max_align.max(a);
    }
    let rem = offset % max_align;
    if rem != 0 {
        offset = offset.checked_add(max_align - rem)?;
    }
    Some((offset, out))
}

/// `time("YYYY-MM-DD[ hh[:mm[:ss]]]")`: hours since 1970-01-01 in the standard calendar
/// (netcdf-c `cdChar2Comp` + `Cdh2e`).
fn epoch_hours(text: &str) -> f64 {
    let t = text.trim();
    let (date, time) = match t.find([' ', 'T']) {
        Some(i) => (&t[..i], t[i + 1..].trim()),
        None => (t, ""),
    };
    let mut dp = date.splitn(3, '-');
    let year: i64 = dp.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let month: i64 = dp.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let day: i64 = dp.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut tp = time.splitn(3, ':');
    let h: f64 = tp.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let m: f64 = tp.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let sec: f64 = tp.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let year = year.clamp(-1_000_000, 1_000_000);
    let mut days: i64 = 0;
    if year > 1970 {
        for y in 1970..year {
            days += if leap(y) { 366 } else { 365 };
        }
    } else {
        for y in year..1970 {
            days -= if leap(y) { 366 } else { 365 };
        }
    }
    const CUM: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let mi = (month.clamp(1, 12) - 1) as usize;
    let mut doy = CUM[mi] + day;
    if mi >= 2 && leap(year) {
        doy += 1;
    }
    (days + doy - 1) as f64 * 24.0 + h + m / 60.0 + sec / 3600.0
}
