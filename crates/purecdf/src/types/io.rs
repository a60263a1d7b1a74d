//! Between [`NcTypeDescriptor`] types and the data model: type descriptions of the schema's
//! user types, defining described types in a file, and values of `#[repr(C)]` Rust types
//! to and from [`Value`] trees.

use super::{
    CompoundType, CompoundTypeField, EnumType, EnumTypeValues, FloatType, IntType,
    NcTypeDescriptor, NcVariableType, OpaqueType, VlenType,
};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::file::{FileMut, Variable};
use crate::model::{
    CompoundField, GroupId, NcType, Schema, TypeId, UserType, UserTypeKind, Value, Values, VarId,
};
use crate::selection::Extents;

/// The description of a type of the schema.
pub(crate) fn describe(schema: &Schema, t: NcType) -> NcVariableType {
    use NcVariableType as V;
    match t {
        NcType::Byte => V::Int(IntType::I8),
        NcType::UByte => V::Int(IntType::U8),
        NcType::Short => V::Int(IntType::I16),
        NcType::UShort => V::Int(IntType::U16),
        NcType::Int => V::Int(IntType::I32),
        NcType::UInt => V::Int(IntType::U32),
        NcType::Int64 => V::Int(IntType::I64),
        NcType::UInt64 => V::Int(IntType::U64),
        NcType::Float => V::Float(FloatType::F32),
        NcType::Double => V::Float(FloatType::F64),
        NcType::Char => V::Char,
        NcType::String => V::String,
        NcType::User(id) => {
            let u = schema.user_type(id);
            let name = u.name.clone();
            match &u.kind {
                UserTypeKind::Compound { size, fields } => V::Compound(CompoundType {
                    name,
                    size: *size,
                    fields: fields
                        .iter()
                        .map(|f| CompoundTypeField {
                            name: f.name.clone(),
                            basetype: describe(schema, f.typ),
                            arraydims: (!f.dims.is_empty()).then(|| f.dims.clone()),
                            offset: f.offset,
                        })
                        .collect(),
                }),
                UserTypeKind::Enum { base, members } => {
                    let values = members.iter().map(|m| m.1);
                    // The members fit the base type: the backends check them on reading.
                    let fieldvalues = match base {
                        NcType::Byte => values.map(|v| v as i8).collect::<Vec<_>>().into(),
                        NcType::Short => values.map(|v| v as i16).collect::<Vec<_>>().into(),
                        NcType::Int => values.map(|v| v as i32).collect::<Vec<_>>().into(),
                        NcType::Int64 => values.map(|v| v as i64).collect::<Vec<_>>().into(),
                        NcType::UShort => values.map(|v| v as u16).collect::<Vec<_>>().into(),
                        NcType::UInt => values.map(|v| v as u32).collect::<Vec<_>>().into(),
                        NcType::UInt64 => values.map(|v| v as u64).collect::<Vec<_>>().into(),
                        _ => EnumTypeValues::U8(values.map(|v| v as u8).collect()),
                    };
                    V::Enum(EnumType {
                        name,
                        fieldnames: members.iter().map(|m| m.0.clone()).collect(),
                        fieldvalues,
                    })
                }
                UserTypeKind::Opaque { size } => V::Opaque(OpaqueType { name, size: *size }),
                UserTypeKind::Vlen { base } => V::Vlen(VlenType {
                    name,
                    basetype: Box::new(describe(schema, *base)),
                }),
            }
        }
    }
}

/// The user type named `name` visible from group `g` (defined there or in an ancestor).
fn find_visible_type(schema: &Schema, mut g: GroupId, name: &str) -> Option<TypeId> {
    loop {
        if let Some(t) = schema.find_type(g, name) {
            return Some(t);
        }
        g = schema.group(g).parent?;
    }
}

fn type_name(d: &NcVariableType) -> Option<&str> {
    match d {
        NcVariableType::Compound(c) => Some(&c.name),
        NcVariableType::Opaque(o) => Some(&o.name),
        NcVariableType::Enum(e) => Some(&e.name),
        NcVariableType::Vlen(v) => Some(&v.name),
        _ => None,
    }
}

fn elements(dims: Option<&[usize]>) -> usize {
    dims.map_or(1, |d| d.iter().product())
}

/// True when values of type `have` (in a file) read and write as values of type `want`: the
/// same fields by name (in any order, at any offset) with compatible types and as many array
/// elements, enums and integers of the same integer type, opaques of the same size.
fn compatible(have: &NcVariableType, want: &NcVariableType) -> bool {
    use NcVariableType as V;
    match (have, want) {
        (V::Compound(h), V::Compound(w)) => {
            h.fields.len() == w.fields.len()
                && w.fields.iter().all(|wf| {
                    h.fields.iter().any(|hf| {
                        hf.name == wf.name
                            && elements(hf.arraydims.as_deref())
                                == elements(wf.arraydims.as_deref())
                            && compatible(&hf.basetype, &wf.basetype)
                    })
                })
        }
        (V::Enum(h), V::Enum(w)) => h.fieldvalues.int_type() == w.fieldvalues.int_type(),
        (V::Opaque(h), V::Opaque(w)) => h.size == w.size,
        (V::Vlen(_), _) | (V::String, _) => false,
        (h, w) => h == w,
    }
}

/// Defines the type `d` in group `g` (and first the types it uses) unless a type of its name is
/// visible there already, which must then be compatible; returns its netCDF type.
pub(crate) fn add_descriptor(file: &FileMut, g: GroupId, d: &NcVariableType) -> Result<NcType> {
    add_descriptor_from(file, g, d, find_visible_type, true)
}

/// As [`add_descriptor`], but as georust's `add_type`: `d` itself is looked for in group `g`
/// only (it is defined in the group asked even when an ancestor has one of that name), and the
/// user types its members or base use must be defined already (NC_EBADTYPE otherwise; georust
/// does not define them either).
pub(crate) fn add_descriptor_here(
    file: &FileMut,
    g: GroupId,
    d: &NcVariableType,
) -> Result<NcType> {
    add_descriptor_from(
        file,
        g,
        d,
        |s: &Schema, g, name: &str| s.find_type(g, name),
        false,
    )
}

/// The netCDF type of a compound member's or a vlen's base type `d`: defined first if need be
/// when `define` is set, else it must be an atomic type or a defined user type (visible from
/// `g`).
fn part_type(file: &FileMut, g: GroupId, d: &NcVariableType, define: bool) -> Result<NcType> {
    match type_name(d) {
        Some(name) if !define && find_visible_type(file.schema(), g, name).is_none() => fail(
            ErrorKind::BadType,
            format!("type {name} is not defined: add it before the types that use it"),
        ),
        _ => add_descriptor(file, g, d),
    }
}

fn add_descriptor_from(
    file: &FileMut,
    g: GroupId,
    d: &NcVariableType,
    find: impl FnOnce(&Schema, GroupId, &str) -> Option<TypeId>,
    define_parts: bool,
) -> Result<NcType> {
    use NcVariableType as V;
    let Some(name) = type_name(d) else {
        return Ok(match d {
            V::Int(i) => i.nc_type(),
            V::Float(FloatType::F32) => NcType::Float,
            V::Float(FloatType::F64) => NcType::Double,
            V::Char => NcType::Char,
            _ => NcType::String,
        });
    };
    if let Some(t) = find(file.schema(), g, name) {
        let have = describe(file.schema(), NcType::User(t));
        if have == *d || compatible(&have, d) {
            return Ok(NcType::User(t));
        }
        return fail(
            ErrorKind::NameInUse,
            format!("a different type named {name} is already defined"),
        );
    }
    let kind = match d {
        V::Compound(c) => {
            let mut fields = Vec::with_capacity(c.fields.len());
            for f in &c.fields {
                fields.push(CompoundField {
                    name: f.name.clone(),
                    offset: f.offset,
                    typ: part_type(file, g, &f.basetype, define_parts)?,
                    dims: f.arraydims.clone().unwrap_or_default(),
                });
            }
            UserTypeKind::Compound {
                size: c.size,
                fields,
            }
        }
        V::Enum(e) => UserTypeKind::Enum {
            base: e.fieldvalues.int_type().nc_type(),
            members: e
                .fieldnames
                .iter()
                .cloned()
                .zip(e.fieldvalues.widened())
                .collect(),
        },
        V::Opaque(o) => UserTypeKind::Opaque { size: o.size },
        V::Vlen(v) => UserTypeKind::Vlen {
            base: part_type(file, g, &v.basetype, define_parts)?,
        },
        _ => unreachable!("atomic types returned above"),
    };
    let t = UserType {
        name: name.to_owned(),
        kind,
    };
    Ok(NcType::User(file.def_type(g, t)?))
}

/// The description of `T` and of the variable's type, checked to agree.
fn check<T: NcTypeDescriptor>(var: &Variable<'_>) -> Result<(NcVariableType, NcVariableType)> {
    let want = T::type_descriptor();
    let name = type_name(&want).unwrap_or("an atomic type");
    if T::ARRAY_ELEMENTS.as_dims().is_some() || want.size() != std::mem::size_of::<T>() {
        return fail(
            ErrorKind::BadType,
            format!("the Rust type for {name} is not laid out as the type it describes"),
        );
    }
    let have = describe(var.file_schema(), var.nc_type());
    if !compatible(&have, &want) {
        return fail(
            ErrorKind::BadType,
            format!(
                "{} is of type {}, not {name}",
                var.name_str(),
                type_name(&have).unwrap_or("an atomic type")
            ),
        );
    }
    Ok((have, want))
}

/// Reads a selection of a user-typed variable as values of `T`.
pub(crate) fn read_user<T: NcTypeDescriptor>(
    var: &Variable<'_>,
    extents: &Extents,
) -> Result<Vec<T>> {
    let (have, want) = check::<T>(var)?;
    let values = var.get_typed_values(extents)?;
    let mut buf = vec![0u8; std::mem::size_of::<T>()];
    let mut put = |v: &Value| to_rust::<T>(var, v, &have, &want, &mut buf);
    match values {
        Values::User(_, v) => v.iter().map(&mut put).collect(),
        Values::Char(c) => c.into_iter().map(|c| put(&Value::Char(c))).collect(),
        _ => fail(
            ErrorKind::BadType,
            format!("{} is not of a user-defined type", var.name_str()),
        ),
    }
}

/// Value `v` of the variable's type `have` as a `T` laid out as `want` (checked by [`check`]),
/// through `buf` (`size_of::<T>()` bytes).
fn to_rust<T: NcTypeDescriptor>(
    var: &Variable<'_>,
    v: &Value,
    have: &NcVariableType,
    want: &NcVariableType,
    buf: &mut [u8],
) -> Result<T> {
    encode(v, have, want, buf).map_err(|e| e.object(var.name_str()))?;
    // SAFETY: `check` found `T` laid out as `want` describes (the trait's contract), and
    // `encode` filled every byte with a value of the described field type (enums only with
    // their members), which is then a valid `T`.
    Ok(unsafe { std::ptr::read_unaligned(buf.as_ptr().cast::<T>()) })
}

/// The `_FillValue` of a user-typed variable as a `T`; `None` when it has none.
pub(crate) fn fill_user<T: NcTypeDescriptor>(var: &Variable<'_>) -> Result<Option<T>> {
    let (have, want) = check::<T>(var)?;
    let Some(att) = var.attribute("_FillValue") else {
        return Ok(None);
    };
    match &att.values {
        Values::User(t, v) if NcType::User(*t) == var.nc_type() && v.len() == 1 => {
            let mut buf = vec![0u8; std::mem::size_of::<T>()];
            to_rust::<T>(var, &v[0], &have, &want, &mut buf).map(Some)
        }
        _ => fail(
            ErrorKind::BadType,
            format!(
                "{}: _FillValue is not one value of the variable's type",
                var.name_str()
            ),
        ),
    }
}

/// `value` as the `_FillValue` attribute of a user-typed variable.
pub(crate) fn fill_attribute_user<T: NcTypeDescriptor>(
    var: &Variable<'_>,
    value: &T,
) -> Result<Values> {
    let (have, want) = check::<T>(var)?;
    let NcType::User(t) = var.nc_type() else {
        return fail(
            ErrorKind::BadType,
            format!("{} is not of a user-defined type", var.name_str()),
        );
    };
    // SAFETY: `T` has no padding (the trait's contract), so all its bytes are initialised.
    let bytes = unsafe {
        std::slice::from_raw_parts(
            std::ptr::from_ref(value).cast::<u8>(),
            std::mem::size_of::<T>(),
        )
    };
    Ok(Values::User(t, vec![decode(bytes, &have, &want)]))
}

/// Writes values of `T` into a selection of a user-typed variable.
pub(crate) fn write_user<T: NcTypeDescriptor>(
    file: &FileMut,
    var: VarId,
    values: &[T],
    ext: Extents,
) -> Result<()> {
    let view = file.variable_by_id(var);
    let (have, want) = check::<T>(&view)?;
    let typ = view.nc_type();
    let size = std::mem::size_of::<T>();
    // SAFETY: `T` has no padding (the trait's contract), so all its bytes are initialised.
    let bytes = unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    };
    let out = bytes
        .chunks_exact(size.max(1))
        .map(|b| decode(b, &have, &want))
        .collect::<Vec<_>>();
    let values = match typ {
        NcType::User(t) => Values::User(t, out),
        NcType::Char => Values::Char(
            out.into_iter()
                .map(|v| if let Value::Char(c) = v { c } else { 0 })
                .collect(),
        ),
        _ => return fail(ErrorKind::BadType, "not a user-defined type"),
    };
    file.put_raw_values(var, &values, ext)
}

fn bad(detail: String) -> Error {
    Error::with_detail(ErrorKind::BadType, detail)
}

/// Writes value `v` of file type `have` into `out` laid out as `want`.
fn encode(v: &Value, have: &NcVariableType, want: &NcVariableType, out: &mut [u8]) -> Result<()> {
    use NcVariableType as V;
    match (v, have, want) {
        (Value::Compound(vals), V::Compound(h), V::Compound(w)) => {
            for wf in &w.fields {
                let Some(j) = h.fields.iter().position(|hf| hf.name == wf.name) else {
                    return Err(bad(format!("no field {}", wf.name)));
                };
                let hf = &h.fields[j];
                let esize = wf.basetype.size();
                let n = elements(wf.arraydims.as_deref());
                let field = vals
                    .get(j)
                    .ok_or_else(|| bad(format!("field {} missing", wf.name)))?;
                let dst = out
                    .get_mut(wf.offset..wf.offset + esize * n)
                    .ok_or_else(|| bad(format!("field {} outside the type", wf.name)))?;
                match (field, wf.arraydims.is_some()) {
                    (Value::Array(elems), true) if elems.len() == n => {
                        for (e, d) in elems.iter().zip(dst.chunks_exact_mut(esize.max(1))) {
                            encode(e, &hf.basetype, &wf.basetype, d)?;
                        }
                    }
                    (Value::Array(elems), false) if elems.len() == 1 => {
                        encode(&elems[0], &hf.basetype, &wf.basetype, dst)?;
                    }
                    (_, false) => encode(field, &hf.basetype, &wf.basetype, dst)?,
                    _ => return Err(bad(format!("field {} has the wrong shape", wf.name))),
                }
            }
            Ok(())
        }
        (Value::Enum(x), _, V::Enum(w)) => {
            if !w.fieldvalues.widened().contains(x) {
                return Err(bad(format!("{x} is not a value of enum {}", w.name)));
            }
            write_int(*x, w.fieldvalues.int_type().size(), out);
            Ok(())
        }
        (Value::Opaque(b), _, V::Opaque(o)) if b.len() == o.size && out.len() == o.size => {
            out.copy_from_slice(b);
            Ok(())
        }
        (Value::Char(c), _, V::Char) if out.len() == 1 => {
            out[0] = *c;
            Ok(())
        }
        (Value::Float(x), _, V::Float(FloatType::F32)) if out.len() == 4 => {
            out.copy_from_slice(&x.to_ne_bytes());
            Ok(())
        }
        (Value::Double(x), _, V::Float(FloatType::F64)) if out.len() == 8 => {
            out.copy_from_slice(&x.to_ne_bytes());
            Ok(())
        }
        (v, _, V::Int(i)) if out.len() == i.size() => match int_of(v) {
            Some(x) => {
                write_int(x, i.size(), out);
                Ok(())
            }
            None => Err(bad(format!("{v:?} is not an integer"))),
        },
        (v, _, w) => Err(bad(format!("{v:?} read as {w:?}"))),
    }
}

fn int_of(v: &Value) -> Option<i128> {
    Some(match *v {
        Value::Byte(x) => x.into(),
        Value::UByte(x) => x.into(),
        Value::Short(x) => x.into(),
        Value::UShort(x) => x.into(),
        Value::Int(x) => x.into(),
        Value::UInt(x) => x.into(),
        Value::Int64(x) => x.into(),
        Value::UInt64(x) => x.into(),
        _ => return None,
    })
}

/// The low `size` bytes of `x` (two's complement) in native order.
fn write_int(x: i128, size: usize, out: &mut [u8]) {
    let b = x.to_le_bytes();
    let mut v = b[..size].to_vec();
    if cfg!(target_endian = "big") {
        v.reverse();
    }
    out[..size].copy_from_slice(&v);
}

fn read_int(b: &[u8], t: IntType) -> i128 {
    let b = &b[..b.len().min(8)];
    let mut a = [0u8; 8];
    a[..b.len()].copy_from_slice(b);
    if cfg!(target_endian = "big") {
        a[..b.len()].reverse();
    }
    let u = u64::from_le_bytes(a);
    let bits = (8 * b.len()).max(8) as u32;
    let signed = matches!(t, IntType::I8 | IntType::I16 | IntType::I32 | IntType::I64);
    if signed && bits < 64 {
        i128::from(((u << (64 - bits)) as i64) >> (64 - bits))
    } else if signed {
        i128::from(u as i64)
    } else {
        i128::from(u)
    }
}

/// The value laid out as `want` in `b`, as a value of file type `have` (fields in its order).
fn decode(b: &[u8], have: &NcVariableType, want: &NcVariableType) -> Value {
    use NcVariableType as V;
    match (have, want) {
        (V::Compound(h), V::Compound(w)) => Value::Compound(
            h.fields
                .iter()
                .map(|hf| {
                    let Some(wf) = w.fields.iter().find(|wf| wf.name == hf.name) else {
                        return Value::Compound(Vec::new());
                    };
                    let esize = wf.basetype.size();
                    let n = elements(wf.arraydims.as_deref());
                    let src = b.get(wf.offset..wf.offset + esize * n).unwrap_or_default();
                    let one = |s: &[u8]| decode(s, &hf.basetype, &wf.basetype);
                    if hf.arraydims.is_some() {
                        Value::Array(src.chunks_exact(esize.max(1)).map(one).collect())
                    } else {
                        one(src)
                    }
                })
                .collect(),
        ),
        (_, V::Enum(w)) => Value::Enum(read_int(b, w.fieldvalues.int_type())),
        (_, V::Opaque(_)) => Value::Opaque(b.to_vec()),
        (_, V::Char) => Value::Char(b.first().copied().unwrap_or(0)),
        (_, V::Float(FloatType::F32)) => {
            Value::Float(b.try_into().map_or(f32::NAN, f32::from_ne_bytes))
        }
        (_, V::Float(FloatType::F64)) => {
            Value::Double(b.try_into().map_or(f64::NAN, f64::from_ne_bytes))
        }
        (_, V::Int(i)) => {
            let x = read_int(b, *i);
            match i {
                IntType::I8 => Value::Byte(x as i8),
                IntType::U8 => Value::UByte(x as u8),
                IntType::I16 => Value::Short(x as i16),
                IntType::U16 => Value::UShort(x as u16),
                IntType::I32 => Value::Int(x as i32),
                IntType::U32 => Value::UInt(x as u32),
                IntType::I64 => Value::Int64(x as i64),
                IntType::U64 => Value::UInt64(x as u64),
            }
        }
        _ => Value::Compound(Vec::new()),
    }
}
