//! netCDF types and values as netCDF-4 stores them (file format spec, "NetCDF-4 Format"):
//! atomic types as HDF5 integer and IEEE types (little-endian unless `_Endianness` says big),
//! NC_CHAR as a one-byte fixed string, NC_STRING as a UTF-8 variable-length string, user types
//! as full copies of their definition; values as the element bytes and global-heap pieces the
//! HDF5 writer stores. Also the default fill values and attribute encodings netcdf-c uses.

use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::{Charset, CompoundMember, Datatype, StringPadding};
use purecdf_hdf5::write::Piece;

use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{NcType, Schema, UserTypeKind, Value, Values};

/// The HDF5 datatype of a netCDF type; `big_endian` applies to atomic numbers (and enum bases).
pub(crate) fn hdf_type(schema: &Schema, t: NcType, big_endian: bool) -> Result<Datatype> {
    hdf_type_depth(schema, t, big_endian, 0)
}

/// The HDF5 type of a variable-length string.
pub(crate) fn vlen_string() -> Datatype {
    Datatype::VarLen {
        base: Box::new(Datatype::integer(1, false, false)),
        is_string: true,
        padding: StringPadding::NullTerminate,
        charset: Charset::Utf8,
    }
}

/// A fixed-length ASCII string of `size` bytes (NC_CHAR data is `size` 1).
pub(crate) fn fixed_string(size: u32) -> Datatype {
    Datatype::String {
        size,
        padding: StringPadding::NullTerminate,
        charset: Charset::Ascii,
    }
}

fn hdf_type_depth(schema: &Schema, t: NcType, be: bool, depth: u32) -> Result<Datatype> {
    if depth > 32 {
        return fail(ErrorKind::BadType, "user types nested too deep");
    }
    Ok(match t {
        NcType::Byte => Datatype::integer(1, true, be),
        NcType::UByte => Datatype::integer(1, false, be),
        NcType::Short => Datatype::integer(2, true, be),
        NcType::UShort => Datatype::integer(2, false, be),
        NcType::Int => Datatype::integer(4, true, be),
        NcType::UInt => Datatype::integer(4, false, be),
        NcType::Int64 => Datatype::integer(8, true, be),
        NcType::UInt64 => Datatype::integer(8, false, be),
        NcType::Float => Datatype::ieee_f32(be),
        NcType::Double => Datatype::ieee_f64(be),
        NcType::Char => fixed_string(1),
        NcType::String => vlen_string(),
        NcType::User(id) => {
            let ut = schema
                .types
                .get(id.0)
                .map(|(_, u)| u)
                .ok_or(ErrorKind::BadType)?;
            match &ut.kind {
                UserTypeKind::Compound { size, fields } => {
                    // The file layout libhdf5 derives from the memory layout (H5T_set_loc):
                    // in offset order, each field moves by the growth of those before it
                    // (a string is a pointer of 8 bytes in memory, 16 bytes on disk).
                    let mut members: Vec<Option<CompoundMember>> = vec![None; fields.len()];
                    let mut order: Vec<usize> = (0..fields.len()).collect();
                    order.sort_by_key(|i| fields[*i].offset);
                    let mut grow = 0i64;
                    for i in order {
                        let f = &fields[i];
                        let base = hdf_type_depth(schema, f.typ, false, depth + 1)?;
                        let n: usize = f.dims.iter().product::<usize>().max(1);
                        let dtype = if f.dims.is_empty() {
                            base
                        } else {
                            Datatype::Array {
                                dims: f.dims.iter().map(|d| *d as u32).collect(),
                                base: Box::new(base),
                            }
                        };
                        let offset = u32::try_from(f.offset as i64 + grow)
                            .map_err(|_| Error::new(ErrorKind::BadType))?;
                        grow += i64::from(dtype.size()) - (n * schema.type_size(f.typ)) as i64;
                        members[i] = Some(CompoundMember {
                            name: f.name.clone(),
                            offset,
                            dtype,
                        });
                    }
                    Datatype::Compound {
                        size: u32::try_from(*size as i64 + grow)
                            .map_err(|_| Error::new(ErrorKind::BadType))?,
                        members: members.into_iter().flatten().collect(),
                    }
                }
                UserTypeKind::Vlen { base } => Datatype::VarLen {
                    base: Box::new(hdf_type_depth(schema, *base, false, depth + 1)?),
                    is_string: false,
                    padding: StringPadding::NullTerminate,
                    charset: Charset::Ascii,
                },
                UserTypeKind::Enum { base, members } => {
                    let b = hdf_type_depth(schema, *base, be, depth + 1)?;
                    let size = b.size();
                    let members = members
                        .iter()
                        .map(|(n, v)| (n.clone(), int_bytes(*v, size as usize, be)))
                        .collect();
                    Datatype::Enum {
                        size,
                        base: Box::new(b),
                        members,
                    }
                }
                UserTypeKind::Opaque { size } => Datatype::Opaque {
                    size: *size as u32,
                    tag: String::new(),
                },
            }
        }
    })
}

/// The low `size` bytes of `v` in the given byte order.
fn int_bytes(v: i128, size: usize, big_endian: bool) -> Vec<u8> {
    let le = v.to_le_bytes();
    let mut b = le[..size].to_vec();
    if big_endian {
        b.reverse();
    }
    b
}

/// The pieces of one element of type `t` whose file type is `dt`, in the given byte order for
/// atomic numbers.
pub(crate) fn value_pieces(
    schema: &Schema,
    t: NcType,
    dt: &Datatype,
    v: &Value,
    be: bool,
    out: &mut Vec<Piece>,
) -> Result<()> {
    let mut bytes = |b: &[u8]| {
        let mut b = b.to_vec();
        if be {
            b.reverse();
        }
        Piece::push_bytes(out, &b);
    };
    match (t, v) {
        (NcType::Byte, Value::Byte(x)) => bytes(&x.to_le_bytes()),
        (NcType::UByte, Value::UByte(x)) => bytes(&x.to_le_bytes()),
        (NcType::Char, Value::Char(x)) => bytes(&[*x]),
        (NcType::Short, Value::Short(x)) => bytes(&x.to_le_bytes()),
        (NcType::UShort, Value::UShort(x)) => bytes(&x.to_le_bytes()),
        (NcType::Int, Value::Int(x)) => bytes(&x.to_le_bytes()),
        (NcType::UInt, Value::UInt(x)) => bytes(&x.to_le_bytes()),
        (NcType::Int64, Value::Int64(x)) => bytes(&x.to_le_bytes()),
        (NcType::UInt64, Value::UInt64(x)) => bytes(&x.to_le_bytes()),
        (NcType::Float, Value::Float(x)) => bytes(&x.to_le_bytes()),
        (NcType::Double, Value::Double(x)) => bytes(&x.to_le_bytes()),
        (NcType::String, Value::String(s)) => out.push(string_piece(s.as_deref())),
        (NcType::User(id), v) => {
            let ut = &schema.types.get(id.0).ok_or(ErrorKind::BadType)?.1;
            match (&ut.kind, v, dt) {
                (
                    UserTypeKind::Compound { fields, .. },
                    Value::Compound(vals),
                    Datatype::Compound { size, members },
                ) => {
                    if vals.len() != fields.len() || members.len() != fields.len() {
                        return fail(ErrorKind::BadType, "compound value with the wrong fields");
                    }
                    let mut order: Vec<usize> = (0..fields.len()).collect();
                    order.sort_by_key(|i| members[*i].offset);
                    let mut pos = 0usize;
                    for i in order {
                        let (f, m) = (&fields[i], &members[i]);
                        let at = m.offset as usize;
                        if at < pos {
                            return fail(ErrorKind::BadType, "overlapping compound fields");
                        }
                        Piece::push_bytes(out, &vec![0u8; at - pos]);
                        let (base, n) = match &m.dtype {
                            Datatype::Array { base, dims } => {
                                (base.as_ref(), dims.iter().map(|d| *d as usize).product())
                            }
                            other => (other, 1usize),
                        };
                        let items: &[Value] = match &vals[i] {
                            Value::Array(items) if !f.dims.is_empty() => items,
                            one => std::slice::from_ref(one),
                        };
                        if items.len() != n {
                            return fail(ErrorKind::BadType, "array field of the wrong length");
                        }
                        for it in items {
                            value_pieces(schema, f.typ, base, it, false, out)?;
                        }
                        pos = at + m.dtype.size() as usize;
                    }
                    Piece::push_bytes(out, &vec![0u8; (*size as usize).saturating_sub(pos)]);
                }
                (
                    UserTypeKind::Vlen { base },
                    Value::Vlen(items),
                    Datatype::VarLen { base: bt, .. },
                ) => {
                    let mut content = Vec::new();
                    for it in items {
                        value_pieces(schema, *base, bt, it, false, &mut content)?;
                    }
                    // An empty sequence is the null reference (as netcdf-c's default vlen fill).
                    out.push(Piece::Vlen {
                        count: items.len() as u32,
                        content,
                    });
                }
                (UserTypeKind::Enum { base, .. }, Value::Enum(x), _) => {
                    let size = schema.type_size(*base);
                    Piece::push_bytes(out, &int_bytes(*x, size, be));
                }
                (UserTypeKind::Opaque { size }, Value::Opaque(b), _) => {
                    let mut b = b.clone();
                    b.resize(*size, 0);
                    Piece::push_bytes(out, &b);
                }
                _ => return fail(ErrorKind::BadType, "value does not match its user type"),
            }
        }
        _ => return fail(ErrorKind::BadType, "value does not match its type"),
    }
    Ok(())
}

/// The pieces of a vector of values of type `t`.
pub(crate) fn values_pieces(
    schema: &Schema,
    t: NcType,
    v: &Values,
    be: bool,
) -> Result<Vec<Piece>> {
    if let (Some(size), false) = (t.atomic_size(), t == NcType::String) {
        // Plain numbers and chars: one block of bytes.
        let mut raw = crate::convert::values_to_ne_bytes(v)?;
        if be != cfg!(target_endian = "big") && size > 1 {
            for e in raw.chunks_exact_mut(size) {
                e.reverse();
            }
        }
        return Ok(vec![Piece::Bytes(raw)]);
    }
    let mut out = Vec::new();
    match v {
        Values::String(items) => out.extend(items.iter().map(|s| string_piece(s.as_deref()))),
        Values::User(_, items) => {
            let dt = hdf_type(schema, t, be)?;
            for it in items {
                value_pieces(schema, t, &dt, it, be, &mut out)?;
            }
        }
        _ => return fail(ErrorKind::BadType, "values do not match their type"),
    }
    Ok(out)
}

/// A string element: a heap object with the bytes (an empty one for `""`), or the null
/// reference for NIL.
pub(crate) fn string_piece(s: Option<&str>) -> Piece {
    match s {
        Some(s) => Piece::Vlen {
            count: s.len() as u32,
            content: vec![Piece::Bytes(s.as_bytes().to_vec())],
        },
        None => Piece::Vlen {
            count: 0,
            content: Vec::new(),
        },
    }
}

/// The fill value of type `t` as pieces: `fill` when given (one value), else netCDF's default
/// (numbers as `convert::default_fill`, `""` for strings, zeros for compound and opaque, an empty
/// sequence for vlens, the base type's default for enums).
pub(crate) fn fill_pieces(
    schema: &Schema,
    t: NcType,
    fill: Option<&Values>,
    be: bool,
) -> Result<Vec<Piece>> {
    if let Some(f) = fill {
        return values_pieces(schema, t, f, be);
    }
    if let Some(d) = crate::convert::default_fill(t) {
        return values_pieces(schema, t, &d, be);
    }
    Ok(match t {
        NcType::User(id) => match &schema.types.get(id.0).ok_or(ErrorKind::BadType)?.1.kind {
            UserTypeKind::Vlen { .. } => vec![Piece::Vlen {
                count: 0,
                content: Vec::new(),
            }],
            UserTypeKind::Enum { base, .. } => {
                let d = crate::convert::default_fill(*base).ok_or(ErrorKind::BadType)?;
                values_pieces(schema, *base, &d, be)?
            }
            _ => vec![Piece::Bytes(vec![
                0;
                hdf_type(schema, t, be)?.size() as usize
            ])],
        },
        _ => return fail(ErrorKind::BadType, "no default fill"),
    })
}

/// How netcdf-c stores an attribute: its datatype, shape and data (section 4.6 of our notes on
/// netcdf-c: numbers and user types as `[n]`, NC_CHAR as one scalar fixed string of all the
/// characters, NC_STRING as `[n]` variable-length strings; zero-length attributes have a null
/// dataspace). Attributes are always in little-endian (native) order.
pub(crate) fn attribute_parts(
    schema: &Schema,
    v: &Values,
) -> Result<(Datatype, Dataspace, Vec<Piece>)> {
    let t = v.nc_type();
    let n = v.len();
    if let Values::Char(c) = v {
        let dt = fixed_string(c.len().max(1) as u32);
        if c.is_empty() {
            return Ok((dt, Dataspace::Null, Vec::new()));
        }
        return Ok((dt, Dataspace::Scalar, vec![Piece::Bytes(c.clone())]));
    }
    let dt = hdf_type(schema, t, false)?;
    if n == 0 {
        return Ok((dt, Dataspace::Null, Vec::new()));
    }
    let space = Dataspace::Simple {
        dims: vec![n as u64],
        max_dims: vec![Some(n as u64)],
    };
    Ok((dt, space, values_pieces(schema, t, v, false)?))
}
