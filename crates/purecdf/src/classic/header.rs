//! Parsing and encoding of the classic header, per the file format spec, "The NetCDF Classic
//! Format Specification", section "The Format in Detail" (the `header` production), extended for
//! CDF-5 as netcdf-c's `v1hpg.c` does: every `NON_NEG` count and length is 64 bits wide, `OFFSET`
//! is 64 bits, and the types NC_UBYTE ... NC_UINT64 are allowed.
//!
//! Parsing is bounded: every count is checked against the bytes left in the source before anything
//! is allocated from it, and running off the end fails with NC_ETRUNC naming the offset. As
//! netcdf-c, names are taken as stored (no NFC check on read); a name whose stored length includes
//! trailing NUL bytes (left by a data-mode rename) is cut at the first NUL, and the stored length
//! is remembered so that rewriting the header keeps the same bytes.
//!
//! A header netcdf-c 4.9's reader rejects is rejected too, with netcdf-c's status recorded for the
//! tools (see [`super::ncstatus`]), even where this parser could read it (a CDF-1 `begin` of 2^31
//! or more, which netcdf-c reads as negative). Deliberate differences remain where netcdf-c takes
//! damage this parser refuses or reads otherwise: a header running past the end of the file
//! (netcdf-c reads zeros there, which often make a valid header; here NC_ETRUNC), names that are
//! not UTF-8 (read here with U+FFFD for the bad bytes), CDF-5 dimensions of 2^63 or more
//! (negative sizes to netcdf-c, NC_EVARSIZE here) and `numrecs` of STREAMING (the spec's
//! streaming mode here; a count of 2^32 - 1 records to netcdf-c).

use std::collections::HashMap;

use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Attribute, Dimension, NcType, Schema, Values, Variable, ROOT};

use super::storage::Storage;

/// Tag of a dimension list (`NC_DIMENSION`).
const NC_DIMENSION: u32 = 0x0A;
/// Tag of a variable list (`NC_VARIABLE`).
const NC_VARIABLE: u32 = 0x0B;
/// Tag of an attribute list (`NC_ATTRIBUTE`).
const NC_ATTRIBUTE: u32 = 0x0C;
/// `STREAMING` numrecs of CDF-1/CDF-2.
pub(crate) const STREAMING32: u64 = 0xFFFF_FFFF;

/// Which stored name a length override belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum NameKey {
    /// Dimension by index.
    Dim(usize),
    /// Variable by index.
    Var(usize),
    /// Attribute of a variable (or global when `None`), by current name.
    Att(Option<usize>, String),
}

/// Stored name lengths that exceed the name's own length (names padded with NULs in the file).
pub(crate) type NameLens = HashMap<NameKey, usize>;

/// The widths a format uses: counts (`NON_NEG`) and offsets (`OFFSET`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Widths {
    /// 4 for CDF-1/CDF-2, 8 for CDF-5.
    pub count: usize,
    /// 4 for CDF-1, 8 for CDF-2/CDF-5.
    pub offset: usize,
}

impl Widths {
    /// The widths of a classic format.
    pub(crate) fn of(format: Format) -> Widths {
        match format {
            Format::Classic => Widths {
                count: 4,
                offset: 4,
            },
            Format::Offset64 => Widths {
                count: 4,
                offset: 8,
            },
            _ => Widths {
                count: 8,
                offset: 8,
            },
        }
    }
}

/// A parsed header: the schema plus what only the classic layout needs.
#[derive(Debug)]
pub(crate) struct Header {
    /// CDF-1, CDF-2 or CDF-5.
    pub format: Format,
    /// `numrecs` as stored (may be STREAMING).
    pub numrecs: u64,
    /// Dimensions, variables and attributes (root group only).
    pub schema: Schema,
    /// `begin` of each variable.
    pub begins: Vec<u64>,
    /// Names stored longer than their text.
    pub name_lens: NameLens,
    /// Bytes the header occupies (netcdf-c's `xsz`).
    pub xsz: u64,
}

/// The external size of one value of a classic type.
pub(crate) fn ext_size(t: NcType) -> Option<usize> {
    match t {
        NcType::String | NcType::User(_) => None,
        t => t.atomic_size(),
    }
}

/// Rounds up to a multiple of 4.
pub(crate) fn rnd4(x: u64) -> Option<u64> {
    x.checked_add(3).map(|v| v & !3)
}

/// A bounded reader over the header bytes of a source, fetching more as parsing advances.
struct Cursor<'a> {
    src: &'a Storage,
    size: u64,
    buf: Vec<u8>,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn trunc(&self, need: u64, what: &str) -> Error {
        Error::with_detail(
            ErrorKind::Trunc,
            format!(
                "header ends inside {what}: {need} bytes needed at offset {} of a {}-byte file",
                self.pos, self.size
            ),
        )
        .offset(self.pos as u64)
    }

    /// Makes `n` bytes available at the current position.
    fn ensure(&mut self, n: u64, what: &str) -> Result<()> {
        let end = (self.pos as u64).checked_add(n);
        let end = match end {
            Some(e) if e <= self.size => e,
            _ => return Err(self.trunc(n, what)),
        };
        if end as usize > self.buf.len() {
            let want = end.max(self.buf.len() as u64 * 2).max(8192).min(self.size);
            let old = self.buf.len();
            let want = usize::try_from(want).map_err(|_| Error::new(ErrorKind::NoMem))?;
            self.buf.resize(want, 0);
            self.src.read_exact_at(old as u64, &mut self.buf[old..])?;
        }
        Ok(())
    }

    fn bytes(&mut self, n: u64, what: &str) -> Result<&[u8]> {
        self.ensure(n, what)?;
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.buf[start..self.pos])
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        let b = self.bytes(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_be_bytes(a))
    }

    fn uint(&mut self, width: usize, what: &str) -> Result<u64> {
        if width == 8 {
            self.u64(what)
        } else {
            self.u32(what).map(u64::from)
        }
    }

    fn remaining(&self) -> u64 {
        self.size - self.pos as u64
    }

    /// A name: count, bytes, zero padding to 4. Returns the text and the stored length.
    fn name(&mut self, w: Widths, what: &str) -> Result<(String, usize)> {
        let at = self.pos as u64;
        let n = self.uint(w.count, what)?;
        let padded = rnd4(n).filter(|p| *p <= self.remaining());
        let Some(padded) = padded else {
            return Err(self.trunc(n, what));
        };
        let raw = self.bytes(padded, what)?;
        let raw = &raw[..n as usize];
        let text = match raw.iter().position(|b| *b == 0) {
            Some(i) => &raw[..i],
            None => raw,
        };
        if text.is_empty() {
            return Err(Error::with_detail(ErrorKind::NotNc, format!("empty {what}")).offset(at));
        }
        Ok((String::from_utf8_lossy(text).into_owned(), n as usize))
    }
}

fn bad(kind: ErrorKind, at: u64, detail: String) -> Error {
    Error::with_detail(kind, detail).offset(at)
}

/// Reads the header of a classic file.
pub(crate) fn parse(src: &Storage) -> Result<Header> {
    let size = src.len()?;
    let mut c = Cursor {
        src,
        size,
        buf: Vec::new(),
        pos: 0,
    };
    if size < 4 {
        return Err(bad(
            ErrorKind::NotNc,
            0,
            format!("{size}-byte file is too short for a magic number"),
        ));
    }
    let magic = c.bytes(4, "magic number")?;
    let format = match magic {
        [b'C', b'D', b'F', 1] => Format::Classic,
        [b'C', b'D', b'F', 2] => Format::Offset64,
        [b'C', b'D', b'F', 5] => Format::Cdf5,
        _ => return Err(bad(ErrorKind::NotNc, 0, "bad magic number".into())),
    };
    let w = Widths::of(format);
    let numrecs = c.uint(w.count, "numrecs")?;
    let mut schema = Schema::default();
    let mut name_lens = NameLens::new();

    // dim_list
    let at = c.pos as u64;
    let tag = c.u32("dimension list tag")?;
    let ndims = c.uint(w.count, "dimension count")?;
    if ndims != 0 && tag != NC_DIMENSION {
        return Err(bad(
            ErrorKind::NotNc,
            at,
            format!("expected NC_DIMENSION tag, found {tag:#x}"),
        ));
    }
    for i in 0..ndims {
        let (name, stored) = c.name(w, "dimension name")?;
        let len = c.uint(w.count, "dimension length")?;
        if stored != name.len() {
            name_lens.insert(NameKey::Dim(i as usize), stored);
        }
        schema.groups[0].dims.push(crate::DimId(schema.dims.len()));
        schema.dims.push(Dimension {
            name,
            len,
            unlimited: len == 0,
            group: ROOT,
        });
    }

    // gatt_list
    schema.groups[0].atts = parse_atts(&mut c, w, None, &mut name_lens)?;

    // var_list
    let at = c.pos as u64;
    let tag = c.u32("variable list tag")?;
    let nvars = c.uint(w.count, "variable count")?;
    if nvars != 0 && tag != NC_VARIABLE {
        return Err(bad(
            ErrorKind::NotNc,
            at,
            format!("expected NC_VARIABLE tag, found {tag:#x}"),
        ));
    }
    let mut begins = Vec::new();
    for i in 0..nvars {
        let vat = c.pos as u64;
        let (name, stored) = c.name(w, "variable name")?;
        if stored != name.len() {
            name_lens.insert(NameKey::Var(i as usize), stored);
        }
        let rank = c.uint(w.count, "variable rank")?;
        match rank.checked_mul(w.count as u64) {
            Some(b) if b <= c.remaining() => {}
            _ => return Err(c.trunc(rank.saturating_mul(w.count as u64), "dimension ids")),
        }
        let mut dims = Vec::with_capacity(rank as usize);
        for _ in 0..rank {
            let d = c.uint(w.count, "dimension id")?;
            if d >= ndims {
                return Err(bad(
                    ErrorKind::BadDim,
                    c.pos as u64 - w.count as u64,
                    format!("variable {name} uses dimension id {d} of {ndims}"),
                ));
            }
            dims.push(crate::DimId(d as usize));
        }
        let atts = parse_atts(&mut c, w, Some(i as usize), &mut name_lens)?;
        let tat = c.pos as u64;
        let code = c.u32("variable type")?;
        let typ = classic_type(code)
            .ok_or_else(|| bad(ErrorKind::BadType, tat, format!("variable type {code}")))?;
        let _vsize = c.uint(w.count, "vsize")?;
        let begin = c.uint(w.offset, "begin")?;
        for (k, d) in dims.iter().enumerate() {
            if k > 0 && schema.dims[d.0].unlimited {
                return Err(bad(
                    ErrorKind::UnlimPos,
                    vat,
                    format!("variable {name}: unlimited dimension not first"),
                ));
            }
        }
        schema.groups[0].vars.push(crate::VarId(schema.vars.len()));
        schema.vars.push(Variable {
            name,
            typ,
            dims,
            atts,
            group: ROOT,
            no_fill: false,
            storage: Default::default(),
        });
        begins.push(begin);
    }
    let xsz = c.pos as u64;
    Ok(Header {
        format,
        numrecs,
        schema,
        begins,
        name_lens,
        xsz,
    })
}

/// The classic type with this code (1..=11; netcdf-c reads CDF-5 types in any version).
fn classic_type(code: u32) -> Option<NcType> {
    match code {
        1..=11 => NcType::from_code(code as i32),
        _ => None,
    }
}

fn parse_atts(
    c: &mut Cursor<'_>,
    w: Widths,
    var: Option<usize>,
    name_lens: &mut NameLens,
) -> Result<Vec<Attribute>> {
    let at = c.pos as u64;
    let tag = c.u32("attribute list tag")?;
    let n = c.uint(w.count, "attribute count")?;
    if n != 0 && tag != NC_ATTRIBUTE {
        return Err(bad(
            ErrorKind::NotNc,
            at,
            format!("expected NC_ATTRIBUTE tag, found {tag:#x}"),
        ));
    }
    let mut atts = Vec::new();
    for _ in 0..n {
        let (name, stored) = c.name(w, "attribute name")?;
        let tat = c.pos as u64;
        let code = c.u32("attribute type")?;
        let typ = classic_type(code)
            .ok_or_else(|| bad(ErrorKind::BadType, tat, format!("attribute type {code}")))?;
        let nelems = c.uint(w.count, "attribute length")?;
        let size = ext_size(typ).unwrap_or(1) as u64;
        let bytes = nelems
            .checked_mul(size)
            .and_then(rnd4)
            .filter(|b| *b <= c.remaining());
        let Some(bytes) = bytes else {
            return Err(c.trunc(nelems.saturating_mul(size), "attribute values"));
        };
        let raw = c.bytes(bytes, "attribute values")?;
        let values = decode_be(typ, &raw[..(nelems * size) as usize]);
        if stored != name.len() {
            name_lens.insert(NameKey::Att(var, name.clone()), stored);
        }
        atts.push(Attribute { name, values });
    }
    Ok(atts)
}

/// Decodes big-endian external values of a classic type.
pub(crate) fn decode_be(typ: NcType, raw: &[u8]) -> Values {
    macro_rules! dec {
        ($t:ty, $v:ident) => {
            Values::$v(
                raw.chunks_exact(std::mem::size_of::<$t>())
                    .map(|c| {
                        let mut a = [0u8; std::mem::size_of::<$t>()];
                        a.copy_from_slice(c);
                        <$t>::from_be_bytes(a)
                    })
                    .collect(),
            )
        };
    }
    match typ {
        NcType::Byte => Values::Byte(raw.iter().map(|b| *b as i8).collect()),
        NcType::UByte => Values::UByte(raw.to_vec()),
        NcType::Short => dec!(i16, Short),
        NcType::UShort => dec!(u16, UShort),
        NcType::Int => dec!(i32, Int),
        NcType::UInt => dec!(u32, UInt),
        NcType::Float => dec!(f32, Float),
        NcType::Double => dec!(f64, Double),
        NcType::Int64 => dec!(i64, Int64),
        NcType::UInt64 => dec!(u64, UInt64),
        _ => Values::Char(raw.to_vec()),
    }
}

/// Encodes values as big-endian external bytes (no padding); `None` for strings and user types.
pub(crate) fn encode_be(values: &Values) -> Option<Vec<u8>> {
    macro_rules! enc {
        ($v:expr) => {
            $v.iter().flat_map(|x| x.to_be_bytes()).collect()
        };
    }
    Some(match values {
        Values::Byte(v) => v.iter().map(|b| *b as u8).collect(),
        Values::Char(v) | Values::UByte(v) => v.clone(),
        Values::Short(v) => enc!(v),
        Values::UShort(v) => enc!(v),
        Values::Int(v) => enc!(v),
        Values::UInt(v) => enc!(v),
        Values::Float(v) => enc!(v),
        Values::Double(v) => enc!(v),
        Values::Int64(v) => enc!(v),
        Values::UInt64(v) => enc!(v),
        Values::String(_) | Values::User(..) => return None,
    })
}

/// Everything needed to write a header.
pub(crate) struct HeaderOut<'a> {
    /// The format.
    pub format: Format,
    /// numrecs to store.
    pub numrecs: u64,
    /// The schema (root group).
    pub schema: &'a Schema,
    /// `vsize` of each variable (the padded per-variable or per-record size).
    pub vsizes: &'a [u64],
    /// `begin` of each variable.
    pub begins: &'a [u64],
    /// Names stored longer than their text.
    pub name_lens: &'a NameLens,
}

/// One step of netcdf-c's header stream (`v1hs`, libsrc/v1hpg.c): what decides where its
/// windows open (see [`super::ncio::Io::write_header`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HItem {
    /// Position after the magic number and `numrecs` (written without a check).
    Start(usize),
    /// `check_v1hs(n)` then `n` bytes.
    Check(usize),
    /// An attribute's values (padded size), checked in pieces of the window's extent.
    Values(usize),
}

struct Out {
    b: Vec<u8>,
    w: Widths,
    items: Vec<HItem>,
}

impl Out {
    fn uint(&mut self, v: u64) {
        self.items.push(HItem::Check(self.w.count));
        if self.w.count == 8 {
            self.b.extend_from_slice(&v.to_be_bytes());
        } else {
            self.b.extend_from_slice(&(v as u32).to_be_bytes());
        }
    }
    fn tag(&mut self, t: u32) {
        self.items.push(HItem::Check(4));
        self.b.extend_from_slice(&t.to_be_bytes());
    }
    fn pad(&mut self) {
        while self.b.len() & 3 != 0 {
            self.b.push(0);
        }
    }
    fn name(&mut self, name: &str, stored: Option<&usize>) {
        let n = stored.copied().unwrap_or(0).max(name.len());
        self.uint(n as u64);
        self.items.push(HItem::Check(n.div_ceil(4) * 4));
        self.b.extend_from_slice(name.as_bytes());
        self.b.resize(self.b.len() + (n - name.len()), 0);
        self.pad();
    }
    fn atts(&mut self, atts: &[Attribute], var: Option<usize>, lens: &NameLens) {
        if atts.is_empty() {
            self.tag(0);
            self.uint(0);
            return;
        }
        self.tag(NC_ATTRIBUTE);
        self.uint(atts.len() as u64);
        for a in atts {
            self.name(&a.name, lens.get(&NameKey::Att(var, a.name.clone())));
            self.tag(a.values.nc_type().code().unwrap_or(0) as u32);
            self.uint(a.values.len() as u64);
            let at = self.b.len();
            if let Some(raw) = encode_be(&a.values) {
                self.b.extend_from_slice(&raw);
            }
            self.pad();
            self.items.push(HItem::Values(self.b.len() - at));
        }
    }
}

/// Encodes a header exactly as netcdf-c's `ncx_put_NC` does.
pub(crate) fn encode(h: &HeaderOut<'_>) -> Vec<u8> {
    encode_items(h).0
}

/// Encodes a header as [`encode`] and lists the steps netcdf-c's header stream takes over it.
pub(crate) fn encode_items(h: &HeaderOut<'_>) -> (Vec<u8>, Vec<HItem>) {
    let w = Widths::of(h.format);
    let mut o = Out {
        b: Vec::with_capacity(256),
        w,
        items: vec![HItem::Start(4 + w.count)],
    };
    let v = match h.format {
        Format::Classic => 1u8,
        Format::Offset64 => 2,
        _ => 5,
    };
    o.b.extend_from_slice(&[b'C', b'D', b'F', v]);
    o.uint(h.numrecs);
    o.items.pop();
    let s = h.schema;
    let root = s.group(ROOT);
    if root.dims.is_empty() {
        o.tag(0);
        o.uint(0);
    } else {
        o.tag(NC_DIMENSION);
        o.uint(root.dims.len() as u64);
        for (i, d) in root.dims.iter().enumerate() {
            let dim = s.dim(*d);
            o.name(&dim.name, h.name_lens.get(&NameKey::Dim(i)));
            o.uint(if dim.unlimited { 0 } else { dim.len });
        }
    }
    o.atts(&root.atts, None, h.name_lens);
    if root.vars.is_empty() {
        o.tag(0);
        o.uint(0);
    } else {
        o.tag(NC_VARIABLE);
        o.uint(root.vars.len() as u64);
        for (i, vid) in root.vars.iter().enumerate() {
            let var = s.var(*vid);
            o.name(&var.name, h.name_lens.get(&NameKey::Var(i)));
            o.uint(var.dims.len() as u64);
            for d in &var.dims {
                o.uint(d.0 as u64);
                o.items.pop();
            }
            o.items.push(HItem::Check(var.dims.len() * w.count));
            o.atts(&var.atts, Some(i), h.name_lens);
            o.tag(var.typ.code().unwrap_or(0) as u32);
            let mut vsize = h.vsizes[i];
            if w.count == 4 && vsize > 4_294_967_292 {
                vsize = 4_294_967_295;
            }
            o.uint(vsize);
            o.items.push(HItem::Check(w.offset));
            if w.offset == 8 {
                o.b.extend_from_slice(&h.begins[i].to_be_bytes());
            } else {
                o.b.extend_from_slice(&(h.begins[i] as u32).to_be_bytes());
            }
        }
    }
    (o.b, o.items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[rustfmt::skip]
    fn empty_file_round_trip() {
        let bytes: Vec<u8> = vec![
            b'C', b'D', b'F', 1,
            0, 0, 0, 0,             // numrecs
            0, 0, 0, 0, 0, 0, 0, 0, // dim_list ABSENT
            0, 0, 0, 0, 0, 0, 0, 0, // gatt_list ABSENT
            0, 0, 0, 0, 0, 0, 0, 0, // var_list ABSENT
        ];
        let h = parse(&Storage::Mem(bytes.clone())).unwrap();
        assert_eq!(h.xsz, 32);
        let out = encode(&HeaderOut {
            format: h.format,
            numrecs: 0,
            schema: &h.schema,
            vsizes: &[],
            begins: &[],
            name_lens: &h.name_lens,
        });
        assert_eq!(out, bytes);
    }

    #[test]
    fn huge_vsize_is_clamped_in_32_bit_formats() {
        let mut s = Schema::default();
        let d = s.add_dim(ROOT, "n", 1_200_000_000, false).unwrap();
        s.add_var(ROOT, "v", NcType::Float, &[d]).unwrap();
        for (format, want) in [
            (Format::Offset64, vec![0xFF; 4]),
            (Format::Cdf5, 4_800_000_000u64.to_be_bytes().to_vec()),
        ] {
            let out = encode(&HeaderOut {
                format,
                numrecs: 0,
                schema: &s,
                vsizes: &[4_800_000_000],
                begins: &[96],
                name_lens: &NameLens::new(),
            });
            // The header ends with vsize, then an 8-byte begin.
            let vsize_at = out.len() - 8 - want.len();
            assert_eq!(
                &out[vsize_at..vsize_at + want.len()],
                &want[..],
                "{format:?}"
            );
        }
    }

    #[test]
    #[rustfmt::skip]
    fn bad_tag_and_truncation() {
        let bytes: Vec<u8> = vec![
            b'C', b'D', b'F', 1,
            0, 0, 0, 0,
            0, 0, 0, 0x0B, 0, 0, 0, 1, // NC_VARIABLE where dims belong
        ];
        let e = parse(&Storage::Mem(bytes)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotNc);
        assert_eq!(e.context().offset, Some(8));
        let e = parse(&Storage::Mem(b"CDF\x01\0\0".to_vec())).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Trunc);
        assert_eq!(e.context().offset, Some(4));
    }
}
