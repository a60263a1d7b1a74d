//! HDF5 datatypes as netCDF types (file format spec, "NetCDF-4 Format": atomic types map to HDF5
//! native integer and IEEE types, NC_CHAR to a 1-byte fixed string, NC_STRING to a variable-length
//! string, user types to committed datatypes), and decoding of element bytes into [`Value`]s.

use purecdf_hdf5::format::messages::datatype::Datatype;

use crate::error::{fail, ErrorKind, Result};
use crate::model::{CompoundField, NcType, Schema, TypeId, UserType, UserTypeKind, Value};

/// The atomic netCDF type of an HDF5 datatype, if it is one.
pub(crate) fn atomic(dt: &Datatype) -> Option<NcType> {
    Some(match dt {
        // netcdf-c takes HDF5's native type for the precision (H5Tget_native_type): a 12-bit
        // integer stored in 4 bytes is an NC_SHORT.
        // (An integer wider than 16 bytes has no native type: left out, as libhdf5 cannot
        // convert it either.)
        Datatype::FixedPoint {
            precision,
            signed,
            size: 1..=16,
            ..
        } => match (precision, signed) {
            (1..=8, true) => NcType::Byte,
            (1..=8, false) => NcType::UByte,
            (9..=16, true) => NcType::Short,
            (9..=16, false) => NcType::UShort,
            (17..=32, true) => NcType::Int,
            (17..=32, false) => NcType::UInt,
            (33..=64, true) => NcType::Int64,
            (33..=64, false) => NcType::UInt64,
            _ => return None,
        },
        // Likewise for floats by size: a 2-byte float is an NC_FLOAT.
        Datatype::FloatingPoint { size: 1..=4, .. } => NcType::Float,
        Datatype::FloatingPoint { size: 5..=8, .. } => NcType::Double,
        Datatype::String { .. } => NcType::Char,
        Datatype::VarLen {
            is_string: true, ..
        } => NcType::String,
        _ => return None,
    })
}

/// True for integer and float datatypes whose bit layout is not their native type's (reduced
/// precision, a bit offset, custom float fields, or an integer of 3, 5, 6, 7 or more bytes,
/// which HDF5 converts to the native integer holding its precision): their values need
/// converting.
pub(crate) fn needs_conversion(dt: &Datatype) -> bool {
    match dt {
        Datatype::FixedPoint { size, .. } => {
            !matches!(size, 1 | 2 | 4 | 8) || !purecdf_hdf5::convert::is_standard(dt)
        }
        Datatype::FloatingPoint { .. } => !purecdf_hdf5::convert::is_standard(dt),
        _ => false,
    }
}

/// Converts elements of a non-standard integer or float datatype `dt` in `src` to native-endian
/// elements of the atomic netCDF type `typ` in `out`, as HDF5's conversions do.
pub(crate) fn convert_to_native(
    dt: &Datatype,
    typ: NcType,
    src: &[u8],
    out: &mut [u8],
) -> Result<()> {
    let es = dt.size() as usize;
    let ns = typ.atomic_size().ok_or(ErrorKind::BadType)?;
    for (e, o) in src.chunks_exact(es.max(1)).zip(out.chunks_exact_mut(ns)) {
        match typ {
            NcType::Float | NcType::Double => {
                let x = purecdf_hdf5::convert::float_value(dt, e).ok_or_else(|| {
                    crate::error::Error::with_detail(ErrorKind::BadType, "unsupported float layout")
                })?;
                if ns == 4 {
                    o.copy_from_slice(&(x as f32).to_ne_bytes());
                } else {
                    o.copy_from_slice(&x.to_ne_bytes());
                }
            }
            _ => {
                let v = purecdf_hdf5::convert::int_value(dt, e).ok_or(ErrorKind::BadType)?;
                o.copy_from_slice(&(v as i64).to_le_bytes()[..ns]);
                if cfg!(target_endian = "big") {
                    o.reverse();
                }
            }
        }
    }
    Ok(())
}

/// True when the datatype stores multi-byte numbers big-endian.
pub(crate) fn is_big_endian(dt: &Datatype) -> bool {
    match dt {
        Datatype::FixedPoint { big_endian, .. } | Datatype::FloatingPoint { big_endian, .. } => {
            *big_endian
        }
        Datatype::Enum { base, .. } => is_big_endian(base),
        _ => false,
    }
}

/// Registry of the user types found in the file: each committed datatype with the netCDF type id
/// it became, matched by structure when a variable or attribute carries a copy inline.
#[derive(Default)]
pub(crate) struct TypeTable {
    /// Committed datatypes by (file number, address): objects of files reached through
    /// external links have addresses of their own.
    pub(crate) by_address: Vec<((u32, u64), TypeId)>,
    pub(crate) entries: Vec<(Datatype, TypeId)>,
}

impl TypeTable {
    /// The netCDF type of a datatype: atomic, or a registered user type.
    pub(crate) fn nc_type(&self, dt: &Datatype) -> Result<NcType> {
        self.nc_type_among(dt, self.entries.len())
    }

    /// Like [`TypeTable::nc_type`], among the first `known` registered user types only (those
    /// netcdf-c had met when it read a dataset: it reads each group's links in order and a type
    /// met later does not count).
    pub(crate) fn nc_type_among(&self, dt: &Datatype, known: usize) -> Result<NcType> {
        if let Some(t) = atomic(dt) {
            return Ok(t);
        }
        let known = &self.entries[..known.min(self.entries.len())];
        if let Some((_, id)) = known.iter().find(|(d, _)| d == dt) {
            return Ok(NcType::User(*id));
        }
        fail(
            ErrorKind::BadType,
            format!("HDF5 datatype without a netCDF equivalent: {dt:?}"),
        )
    }

    /// The user type registered for a committed datatype at `address`.
    pub(crate) fn by_address(&self, address: (u32, u64)) -> Option<TypeId> {
        self.by_address_among(address, self.by_address.len())
    }

    /// Like [`TypeTable::by_address`], among the first `known` registered types.
    pub(crate) fn by_address_among(&self, address: (u32, u64), known: usize) -> Option<TypeId> {
        self.by_address[..known.min(self.by_address.len())]
            .iter()
            .find(|(a, _)| *a == address)
            .map(|(_, t)| *t)
    }

    /// Registers a committed datatype named `name` in group `g`.
    pub(crate) fn register(
        &mut self,
        schema: &mut Schema,
        g: crate::model::GroupId,
        name: &str,
        address: (u32, u64),
        dt: &Datatype,
    ) -> Result<TypeId> {
        let kind = match dt {
            Datatype::Compound { members, .. } => {
                // netCDF reports a compound in its native memory layout (netcdf-c reads it
                // through H5Tget_native_type): fields in order, each at its C alignment.
                let mut fields = Vec::with_capacity(members.len());
                let (mut offset, mut max_align) = (0usize, 1usize);
                for m in members {
                    let (base, dims) = match &m.dtype {
                        Datatype::Array { dims, base } => {
                            (base.as_ref(), dims.iter().map(|d| *d as usize).collect())
                        }
                        other => (other, Vec::new()),
                    };
                    let typ = self.nc_type(base)?;
                    let align = schema.type_align(typ).max(1);
                    let n: usize = dims.iter().product::<usize>().max(1);
                    offset = offset.div_ceil(align) * align;
                    fields.push(CompoundField {
                        name: m.name.clone(),
                        offset,
                        typ,
                        dims,
                    });
                    offset += n * schema.type_size(typ);
                    max_align = max_align.max(align);
                }
                UserTypeKind::Compound {
                    size: offset.div_ceil(max_align) * max_align,
                    fields,
                }
            }
            Datatype::Enum { base, members, .. } => {
                // netcdf-c matches an enum's base type as stored (not its native form) against
                // the native integers: a big-endian or bit-packed base matches none, and the
                // error stops the open.
                let native = matches!(base.as_ref(), Datatype::FixedPoint { big_endian, .. }
                    if *big_endian == cfg!(target_endian = "big"))
                    && purecdf_hdf5::convert::is_standard(base);
                if !native {
                    return fail(
                        ErrorKind::Hdf,
                        format!("enum type {name} has a non-native base type"),
                    );
                }
                let b = self.nc_type(base)?;
                let big = is_big_endian(base);
                let signed = matches!(base.as_ref(), Datatype::FixedPoint { signed: true, .. });
                let members = members
                    .iter()
                    .map(|(n, v)| (n.clone(), int_value(v, big, signed)))
                    .collect();
                UserTypeKind::Enum { base: b, members }
            }
            Datatype::Opaque { size, .. } => UserTypeKind::Opaque {
                size: *size as usize,
            },
            Datatype::VarLen {
                base,
                is_string: false,
                ..
            } => UserTypeKind::Vlen {
                base: self.nc_type(base)?,
            },
            other => {
                return fail(
                    ErrorKind::BadType,
                    format!("committed datatype {name} has no netCDF equivalent: {other:?}"),
                )
            }
        };
        let id = schema.add_type_unchecked(
            g,
            UserType {
                name: name.to_string(),
                kind,
            },
        );
        self.by_address.push((address, id));
        self.entries.push((dt.clone(), id));
        Ok(id)
    }
}

/// An integer of 1–8 bytes in the given byte order, widened.
pub(crate) fn int_value(b: &[u8], big_endian: bool, signed: bool) -> i128 {
    let mut v: u64 = 0;
    if big_endian {
        for &x in b {
            v = (v << 8) | u64::from(x);
        }
    } else {
        for &x in b.iter().rev() {
            v = (v << 8) | u64::from(x);
        }
    }
    let bits = (b.len() * 8) as u32;
    if signed && bits < 64 && bits > 0 && v & (1 << (bits - 1)) != 0 {
        i128::from(v) - (1i128 << bits)
    } else if signed && bits == 64 {
        i128::from(v as i64)
    } else {
        i128::from(v)
    }
}

/// Reads variable-length payloads (vlen sequences and strings) from the global heap.
pub(crate) trait HeapReader {
    /// The bytes of the global heap object a 16-byte vlen element points to; `None` for NULL.
    fn vlen_bytes(&self, element: &[u8]) -> Result<Option<(u32, Vec<u8>)>>;
}

/// Decodes one element of datatype `dt` from `b` (file byte order) into a [`Value`].
pub(crate) fn decode_value(
    dt: &Datatype,
    b: &[u8],
    heap: &dyn HeapReader,
    depth: u32,
) -> Result<Value> {
    if depth > 32 {
        return fail(ErrorKind::BadMeta, "datatype nesting too deep");
    }
    let need = dt.size() as usize;
    if b.len() < need {
        return fail(ErrorKind::Trunc, "element shorter than its type");
    }
    Ok(match dt {
        Datatype::FixedPoint { .. } => {
            let v = purecdf_hdf5::convert::int_value(dt, b).ok_or(ErrorKind::BadType)?;
            match atomic(dt) {
                Some(NcType::Byte) => Value::Byte(v as i8),
                Some(NcType::UByte) => Value::UByte(v as u8),
                Some(NcType::Short) => Value::Short(v as i16),
                Some(NcType::UShort) => Value::UShort(v as u16),
                Some(NcType::Int) => Value::Int(v as i32),
                Some(NcType::UInt) => Value::UInt(v as u32),
                Some(NcType::Int64) => Value::Int64(v as i64),
                _ => Value::UInt64(v as u64),
            }
        }
        Datatype::FloatingPoint { size, .. } if needs_conversion(dt) => {
            let x = purecdf_hdf5::convert::float_value(dt, b).ok_or(ErrorKind::BadType)?;
            if *size <= 4 {
                Value::Float(x as f32)
            } else {
                Value::Double(x)
            }
        }
        Datatype::FloatingPoint {
            size, big_endian, ..
        } => {
            let mut x = b[..*size as usize].to_vec();
            if *big_endian {
                x.reverse();
            }
            if *size == 4 {
                Value::Float(f32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            } else {
                Value::Double(f64::from_le_bytes(
                    x[..8].try_into().map_err(|_| ErrorKind::Trunc)?,
                ))
            }
        }
        Datatype::String { size, .. } => {
            if *size == 1 {
                Value::Char(b[0])
            } else {
                let s = &b[..*size as usize];
                let end = s.iter().position(|&c| c == 0).unwrap_or(s.len());
                Value::String(Some(String::from_utf8_lossy(&s[..end]).into_owned()))
            }
        }
        Datatype::VarLen {
            is_string: true, ..
        } => match heap.vlen_bytes(&b[..16])? {
            None => Value::String(None),
            Some((_, bytes)) => Value::String(Some(String::from_utf8_lossy(&bytes).into_owned())),
        },
        Datatype::VarLen { base, .. } => {
            let mut items = Vec::new();
            if let Some((n, bytes)) = heap.vlen_bytes(&b[..16])? {
                let es = base.size() as usize;
                if let Some(fit) = bytes.len().checked_div(es) {
                    for i in 0..(n as usize).min(fit) {
                        items.push(decode_value(base, &bytes[i * es..], heap, depth + 1)?);
                    }
                }
            }
            Value::Vlen(items)
        }
        Datatype::Enum { base, .. } => {
            let signed = matches!(base.as_ref(), Datatype::FixedPoint { signed: true, .. });
            Value::Enum(int_value(
                &b[..base.size() as usize],
                is_big_endian(base),
                signed,
            ))
        }
        Datatype::Opaque { size, .. } => Value::Opaque(b[..*size as usize].to_vec()),
        Datatype::Compound { members, .. } => {
            let mut fields = Vec::with_capacity(members.len());
            for m in members {
                let off = m.offset as usize;
                let part = b.get(off..).ok_or(ErrorKind::Trunc)?;
                fields.push(match &m.dtype {
                    Datatype::Array { .. } => decode_value(&m.dtype, part, heap, depth + 1)?,
                    other => decode_value(other, part, heap, depth + 1)?,
                });
            }
            Value::Compound(fields)
        }
        Datatype::Array { dims, base } => {
            let n: usize = dims.iter().map(|d| *d as usize).product();
            let es = base.size() as usize;
            let mut items = Vec::with_capacity(n.min(b.len()));
            for i in 0..n {
                items.push(decode_value(
                    base,
                    b.get(i * es..).ok_or(ErrorKind::Trunc)?,
                    heap,
                    depth + 1,
                )?);
            }
            Value::Array(items)
        }
        other => return fail(ErrorKind::BadType, format!("cannot decode {other:?}")),
    })
}
