//! The `types:` section: compound, enum, vlen and opaque declarations (`ncgen-features.md` §2;
//! netcdf-c `ncgen/ncgen.y` `typedecl`), with compound layout computed as a C compiler does
//! (netcdf-c `semantics.c` `computesize`).

use super::ast::ConstKind;
use super::lexer::Tok;
use super::parser::{PResult, Parser, MAX_VAR_DIMS};
use crate::model::{CompoundField, NcType, Schema, TypeId, UserType, UserTypeKind};

impl Parser<'_> {
    // ----- types -----

    pub(super) fn types_section(&mut self) -> PResult<()> {
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
                    let (t, r) = self.take_resolved()?;
                    if self.tok == Tok::Enum {
                        let Tok::TypeKw(base) = t else {
                            return Err(self.syntax(&[]));
                        };
                        self.enum_decl(base)?;
                    } else if self.is_punct(b'(') {
                        let base = self.as_type(r, &t)?;
                        self.vlen_decl(base)?;
                    } else {
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

    pub(super) fn type_name(&mut self) -> PResult<(String, u32)> {
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
            other => Err(self.unexpected(other, &["IDENT"])),
        }
    }

    pub(super) fn add_type(&mut self, name: &str, kind: UserTypeKind) -> PResult<TypeId> {
        let align = match &kind {
            UserTypeKind::Compound { fields, .. } => fields
                .iter()
                .map(|f| align_and_size(&self.out.schema, &self.aligns, f.typ).0)
                .max()
                .unwrap_or(1),
            UserTypeKind::Vlen { .. } => 8,
            UserTypeKind::Enum { base, .. } => base.atomic_size().unwrap_or(1),
            UserTypeKind::Opaque { .. } => 1,
        };
        self.aligns.push(align);
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

    pub(super) fn enum_decl(&mut self, base: NcType) -> PResult<()> {
        self.advance()?; // ENUM
        let (name, _) = self.type_name()?;
        self.expect_punct(b'{', &["'{'"])?;
        let mut members: Vec<(String, i128)> = Vec::new();
        loop {
            let m = match self.advance()? {
                Tok::Ident(n) => n,
                other => {
                    return Err(self.unexpected(other, &["IDENT"]));
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

    pub(super) fn opaque_decl(&mut self) -> PResult<()> {
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

    pub(super) fn vlen_decl(&mut self, base: NcType) -> PResult<()> {
        self.advance()?; // '('
        self.expect_punct(b'*', &["'*'"])?;
        self.expect_punct(b')', &["')'"])?;
        let (name, _) = self.type_name()?;
        self.mark_cdf4("netCDF4 type: VLEN");
        self.add_type(&name, UserTypeKind::Vlen { base })?;
        Ok(())
    }

    pub(super) fn compound_decl(&mut self) -> PResult<()> {
        self.advance()?;
        let (name, _) = self.type_name()?;
        self.expect_punct(b'{', &["'{'"])?;
        let mut fields: Vec<(String, NcType, Vec<usize>)> = Vec::new();
        loop {
            if !matches!(self.tok, Tok::Ident(_) | Tok::Path(_) | Tok::TypeKw(_)) {
                return Err(self.syntax(&[]));
            }
            let r = self.resolve_ref(&self.tok, self.tok_line)?;
            let typ = self.as_type(r, &self.tok)?;
            self.advance()?;
            loop {
                let fname = match self.advance()? {
                    Tok::Ident(n) => n,
                    other => {
                        return Err(self.unexpected(other, &["IDENT"]));
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
            self.expect_punct(b';', &["';'"])?;
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
        let (size, fields) = layout_compound(&self.out.schema, &self.aligns, &fields)
            .ok_or_else(|| self.plain(format!("{name}: compound type too large")))?;
        self.add_type(&name, UserTypeKind::Compound { size, fields })?;
        Ok(())
    }
}

/// Alignment and size of a type as a C compiler lays it out (netcdf-c `ncaux_class_alignment`);
/// `aligns` holds the alignment of each user type already defined, so nesting needs no
/// recursion.
pub(crate) fn align_and_size(s: &Schema, aligns: &[usize], t: NcType) -> (usize, usize) {
    match t {
        NcType::User(id) => {
            let a = aligns.get(id.0).copied().unwrap_or(1);
            let size = match &s.user_type(id).kind {
                UserTypeKind::Compound { size, .. } => *size,
                UserTypeKind::Vlen { .. } => 16,
                UserTypeKind::Enum { base, .. } => base.atomic_size().unwrap_or(1),
                UserTypeKind::Opaque { size } => *size,
            };
            (a, size)
        }
        other => {
            let n = other.atomic_size().unwrap_or(1);
            (n, n)
        }
    }
}

pub(super) fn layout_compound(
    s: &Schema,
    aligns: &[usize],
    fields: &[(String, NcType, Vec<usize>)],
) -> Option<(usize, Vec<CompoundField>)> {
    let mut offset = 0usize;
    let mut max_align = 1usize;
    let mut out = Vec::with_capacity(fields.len());
    for (name, typ, dims) in fields {
        let (a, sz) = align_and_size(s, aligns, *typ);
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
