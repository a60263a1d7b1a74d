//! Attribute declarations and the special (virtual) attributes of CDL (`ncgen-features.md` §3;
//! netcdf-c `ncgen/ncgen.y` `attrdecl`, `makespecial`, `makeattribute`).

use super::ast::{Const, ConstKind, PendingAtt, Quantize, StorageKind};
use super::lexer::{Special, Tok};
use super::parser::{PResult, Parser, Ref};
use crate::model::{NcType, VarId};

impl Parser<'_> {
    // ----- attributes -----

    /// `attrdecl`. `first` is an already consumed and resolved leading reference.
    pub(super) fn attr_decl(&mut self, first: Option<(Tok, Ref)>) -> PResult<()> {
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
                    return Err(self.unexpected(other, &[]));
                }
            }
        }
        let (tok1, r1) = match first {
            Some(x) => x,
            None => self.take_resolved()?,
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
    pub(super) fn attr_tail(&mut self, reftok: &Tok, r: Ref, typ: Option<NcType>) -> PResult<()> {
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
                let expected: &[&str] = if typ.is_some() {
                    &["IDENT", "_FILLVALUE"]
                } else {
                    &[]
                };
                Err(self.unexpected(other, expected))
            }
        }
    }

    pub(super) fn make_attribute(
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

    pub(super) fn fill_value(
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

    pub(super) fn conststring(&mut self) -> PResult<String> {
        match &self.tok {
            Tok::Const(ConstKind::Str(s)) => {
                let s = String::from_utf8_lossy(s).into_owned();
                self.advance()?;
                Ok(s)
            }
            _ => Err(self.syntax(&["TERMSTRING"])),
        }
    }

    pub(super) fn constint(&mut self, expected: &[&str]) -> PResult<i128> {
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
    pub(super) fn constbool(&mut self, sp: Special) -> PResult<bool> {
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

    pub(super) const INTS: [&'static str; 4] =
        ["INT_CONST", "INT64_CONST", "UINT_CONST", "UINT64_CONST"];

    pub(super) fn global_special(&mut self, sp: Special) -> PResult<()> {
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

    pub(super) fn var_special(&mut self, reftok: &Tok, r: Ref, sp: Special) -> PResult<()> {
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
}
