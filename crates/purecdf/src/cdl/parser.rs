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

use super::ast::{CdlError, Const, ConstKind, ErrorStyle, GlobalSpecials, PendingAtt, VarSpecials};
use super::lexer::{constant, LexError, Lexer, ScanKind, Tok};
use crate::model::{GroupId, NcType, Schema, TypeId, VarId, ROOT};

/// Deepest `{` nesting accepted in data lists.
pub(super) const MAX_DEPTH: usize = 200;
/// netcdf-c's NC_MAX_VAR_DIMS.
pub(super) const MAX_VAR_DIMS: usize = 1024;

pub(super) type PResult<T> = Result<T, CdlError>;

/// A resolved reference: a variable or a type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Ref {
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
    pub warnings: String,
    /// A NaN or infinity spelling was seen (ncgen's `specialconstants`).
    pub special_constants: bool,
    /// Names spelled other than in NFC: (NFC form, spelling).
    pub spellings: Vec<(String, String)>,
}

pub(crate) struct Parser<'a> {
    lx: Lexer<'a>,
    pub(super) tok: Tok,
    pub(super) tok_line: u32,
    pub(super) last_line: u32,
    pub(super) file: String,
    stack: Vec<GroupId>,
    pub(super) out: Parsed,
    root_line: u32,
    /// Alignment of each user type, by `TypeId` (see `types::align_and_size`).
    pub(super) aligns: Vec<usize>,
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
            root_line: 1,
            aligns: Vec::new(),
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
                warnings: String::new(),
                special_constants: false,
                spellings: Vec::new(),
            },
        }
    }

    pub(super) fn err_at(&self, line: u32, msg: impl Into<String>) -> CdlError {
        CdlError {
            message: msg.into(),
            style: ErrorStyle::Located(line),
            file: self.file.clone(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
            preamble: String::new(),
        }
    }

    pub(super) fn plain(&self, msg: impl Into<String>) -> CdlError {
        CdlError {
            message: msg.into(),
            style: ErrorStyle::Plain,
            file: self.file.clone(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
            preamble: String::new(),
        }
    }

    fn lex_err(&self, e: LexError) -> CdlError {
        if e.plain {
            self.plain(e.msg)
        } else {
            self.err_at(e.line, e.msg)
        }
    }

    pub(super) fn advance(&mut self) -> PResult<Tok> {
        let next = self.lx.next_token().map_err(|e| self.lex_err(e))?;
        self.last_line = self.tok_line;
        self.tok_line = self.lx.line();
        Ok(std::mem::replace(&mut self.tok, next))
    }

    pub(super) fn syntax(&self, expected: &[&str]) -> CdlError {
        let mut m = format!("syntax error, unexpected {}", self.tok.bison_name());
        if !expected.is_empty() && expected.len() <= 4 {
            m.push_str(", expecting ");
            m.push_str(&expected.join(" or "));
        }
        self.err_at(self.tok_line, m)
    }

    /// A syntax error at `other`, a token already consumed (its line restored).
    pub(super) fn unexpected(&mut self, other: Tok, expected: &[&str]) -> CdlError {
        self.tok = other;
        self.tok_line = self.last_line;
        self.syntax(expected)
    }

    pub(super) fn is_punct(&self, c: u8) -> bool {
        self.tok == Tok::Punct(c)
    }

    pub(super) fn expect_punct(&mut self, c: u8, expected: &[&str]) -> PResult<()> {
        if self.is_punct(c) {
            self.advance()?;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    pub(super) fn group(&self) -> GroupId {
        *self.stack.last().unwrap_or(&ROOT)
    }

    pub(super) fn mark_cdf4(&mut self, why: &str) {
        if self.out.enhanced.is_none() {
            self.out.enhanced = Some(why.to_string());
        }
    }

    /// Parses a whole CDL text.
    pub(crate) fn parse(mut self) -> PResult<Parsed> {
        match self.parse_inner() {
            Ok(()) => {
                let mut p = self.out;
                p.special_constants = self.lx.special_constants;
                p.spellings = std::mem::take(&mut self.lx.spellings);
                if self.lx.unterminated_comment {
                    p.warnings.push_str("unterminated /**/ comment");
                }
                Ok(p)
            }
            Err(mut e) => {
                if self.lx.unterminated_comment {
                    e.preamble = "unterminated /**/ comment".into();
                }
                Err(e)
            }
        }
    }

    fn parse_inner(&mut self) -> PResult<()> {
        self.advance()?;
        if self.tok != Tok::Netcdf {
            return Err(self.syntax(&["NETCDF"]));
        }
        self.advance()?;
        match self.advance()? {
            Tok::DatasetId(name) => {
                self.out.name = name;
                self.root_line = self.last_line;
            }
            other => {
                return Err(self.unexpected(other, &["DATASETID"]));
            }
        }
        self.expect_punct(b'{', &["'{'"])?;
        self.group_body()?;
        self.subgroups()?;
        if !self.is_punct(b'}') {
            return Err(self.syntax(&["GROUP", "'}'"]));
        }
        // bison finishes the dataset before reading past the final '}': a scanner error there is
        // reported, but ncgen then exits 0 without writing anything.
        match self.advance() {
            Ok(_) => {}
            Err(mut e) => {
                e.exit_code = 0;
                return Err(e);
            }
        }
        if self.tok != Tok::Eof {
            return Err(self.syntax(&["end of file"]));
        }
        Ok(())
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
                    return Err(self.unexpected(other, &["IDENT"]));
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
            // The mid-rule action before '}' is a default reduction: only '}' is expected.
            self.expect_punct(b'}', &["'}'"])?;
            self.attr_list()?;
        }
        Ok(())
    }

    // ----- names and references -----

    pub(super) fn find_type_named(&self, name: &str, prefix: Option<&[String]>) -> Option<NcType> {
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

    pub(super) fn group_by_path(&self, parts: &[String]) -> Option<GroupId> {
        let mut g = ROOT;
        for p in parts {
            g = self.out.schema.find_group(g, p)?;
        }
        Some(g)
    }

    /// `ambiguous_ref`: a variable (current group) or a type, from an already consumed name.
    pub(super) fn resolve_ref(&self, tok: &Tok, line: u32) -> PResult<Ref> {
        let (prefix, name): (Option<&[String]>, &str) = match tok {
            Tok::TypeKw(t) => return Ok(Ref::Type(*t)),
            Tok::Ident(n) => (None, n.as_str()),
            Tok::Path(p) if !p.is_empty() => (Some(&p[..p.len() - 1]), p[p.len() - 1].as_str()),
            // `/` names the root group, whose symbol carries the dataset name.
            _ => {
                return Err(self.plain(format!(
                    "Undefined name (line {}): {}",
                    self.root_line, self.out.name
                )))
            }
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
        let spelled = super::ast::spelling(&self.lx.spellings, name);
        Err(self.plain(format!("Undefined name (line {line}): {spelled}")))
    }

    pub(super) fn ref_name(tok: &Tok) -> String {
        match tok {
            Tok::Ident(n) => n.clone(),
            Tok::Path(p) => p.last().cloned().unwrap_or_default(),
            Tok::TypeKw(t) => t.cdl_name().unwrap_or_default().to_string(),
            other => other.bison_name(),
        }
    }

    pub(super) fn take_ref_token(&mut self, expected: &[&str]) -> PResult<(Tok, u32)> {
        match self.tok {
            Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_) => {
                let t = self.advance()?;
                Ok((t, self.last_line))
            }
            _ => Err(self.syntax(expected)),
        }
    }

    /// `ambiguous_ref` where bison reduces it before reading the next token: the reference is
    /// looked up (and reported if undefined) before the scanner moves on.
    pub(super) fn take_resolved(&mut self) -> PResult<(Tok, Ref)> {
        match self.tok {
            Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_) => {
                let r = self.resolve_ref(&self.tok, self.tok_line)?;
                let t = self.advance()?;
                Ok((t, r))
            }
            _ => Err(self.syntax(&[])),
        }
    }

    pub(super) fn as_type(&self, r: Ref, tok: &Tok) -> PResult<NcType> {
        match r {
            Ref::Type(t) => Ok(t),
            Ref::Var(_) => Err(self.plain(format!(
                "Undefined or forward referenced type: {}",
                Self::ref_name(tok)
            ))),
        }
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
                                return Err(self.unexpected(other, &["IDENT"]));
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
                preamble: String::new(),
            })?;
        Ok(())
    }

    fn vars_section(&mut self) -> PResult<()> {
        while self.starts_attr() {
            if self.is_punct(b':') {
                self.attr_decl(None)?;
            } else {
                let (t1, r1) = self.take_resolved()?;
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
        if matches!(t2, Tok::TypeKw(_) | Tok::Path(_)) {
            // Only `ambiguous_ref ':'` can follow a type here.
            let _ = self.resolve_ref(&t2, line2)?;
            return Err(self.syntax(&["':'"]));
        }
        let mut specs = Vec::new();
        let mut cur = t2;
        loop {
            let name = match cur {
                Tok::Ident(n) => n,
                // ncgen names it after the scanner's last identifier (a stale `yylval`).
                Tok::Data => self.lx.data_sym.clone(),
                other => {
                    return Err(self.unexpected(other, &[]));
                }
            };
            let mut dims = Vec::new();
            if self.is_punct(b'(') {
                self.advance()?;
                loop {
                    // `dimref: path` is reduced before the next token is read.
                    let d = match &self.tok {
                        Tok::Ident(n) => self
                            .out
                            .schema
                            .find_dim_visible(self.group(), n)
                            .ok_or(n.clone()),
                        Tok::Path(p) if p.is_empty() => Err(self.out.name.clone()),
                        Tok::Path(p) => {
                            let leaf = p[p.len() - 1].clone();
                            self.group_by_path(&p[..p.len() - 1])
                                .and_then(|g| self.out.schema.find_dim(g, &leaf))
                                .ok_or(leaf)
                        }
                        _ => return Err(self.syntax(&["IDENT", "PATH"])),
                    };
                    let d = d.map_err(|n| {
                        self.plain(format!("Undefined or forward referenced dimension: {n}"))
                    })?;
                    self.advance()?;
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
                    preamble: String::new(),
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
            let v = match self.resolve_ref(&self.tok, self.tok_line)? {
                Ref::Var(v) => v,
                Ref::Type(_) => {
                    return Err(self.plain(format!(
                        "Undefined or forward referenced variable: {}",
                        Self::ref_name(&self.tok)
                    )))
                }
            };
            self.advance()?;
            if !self.is_punct(b'=') {
                return Err(self.syntax(&["'='"]));
            }
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
    pub(super) fn datalist(&mut self, depth: usize) -> PResult<Vec<Const>> {
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
                self.expect_punct(b'}', &["'}'", "','"])?;
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
            other => Err(self.unexpected(other, &[])),
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
                    return Err(self.unexpected(other, &[]));
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
        let v = super::constants::epoch_hours(&String::from_utf8_lossy(&text));
        Ok(constant(ConstKind::Double(v), line))
    }
}

/// The unique type named `name` in a pre-order walk below `g` (ncgen `uniquetreelocate`).
pub(super) fn unique_type(s: &Schema, g: GroupId, name: &str) -> Option<TypeId> {
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
