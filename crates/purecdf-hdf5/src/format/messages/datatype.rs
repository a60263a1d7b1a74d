//! Datatype message, type 0x0003 (HDF5 File Format Specification v3.0, section IV.A.2.d):
//! fixed-point, floating-point, time, string, bitfield, opaque, compound (versions 1–3), reference,
//! enumeration, variable-length and array classes, and HDF5 2.0's complex class (class 11,
//! message version 5: one floating-point base type for the real and imaginary parts). Nesting
//! depth is capped.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::Cursor;

/// Deepest nesting of compound/array/vlen/enum types accepted.
const MAX_DEPTH: u32 = 32;

/// String padding (bits 0–3 of the string class fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringPadding {
    /// NUL-terminated.
    NullTerminate,
    /// NUL-padded.
    NullPad,
    /// Space-padded.
    SpacePad,
}

/// Character set of a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// US-ASCII.
    Ascii,
    /// UTF-8.
    Utf8,
}

/// One member of a compound type.
#[derive(Debug, Clone, PartialEq)]
pub struct CompoundMember {
    /// Member name.
    pub name: String,
    /// Byte offset in the compound value.
    pub offset: u32,
    /// Member type (an `Array` for v1 members with dimensions).
    pub dtype: Datatype,
}

/// A decoded HDF5 datatype.
#[derive(Debug, Clone, PartialEq)]
pub enum Datatype {
    /// Integer.
    FixedPoint {
        /// Size in bytes.
        size: u32,
        /// Big-endian byte order.
        big_endian: bool,
        /// Two's-complement signed.
        signed: bool,
        /// Bit offset of the value.
        bit_offset: u16,
        /// Bits of precision.
        precision: u16,
    },
    /// IEEE-style float.
    FloatingPoint {
        /// Size in bytes.
        size: u32,
        /// Big-endian byte order.
        big_endian: bool,
        /// Bit offset of the value.
        bit_offset: u16,
        /// Bits of precision.
        precision: u16,
        /// Bit position of the sign.
        sign_location: u8,
        /// Bit position of the exponent.
        exponent_location: u8,
        /// Bit position of the mantissa.
        mantissa_location: u8,
        /// Mantissa normalization: 0 none, 1 most significant bit set, 2 implied.
        normalization: u8,
        /// Exponent size in bits.
        exponent_size: u8,
        /// Mantissa size in bits.
        mantissa_size: u8,
        /// Exponent bias.
        exponent_bias: u32,
    },
    /// Time (obsolete).
    Time {
        /// Size in bytes.
        size: u32,
        /// Big-endian byte order.
        big_endian: bool,
    },
    /// Fixed-length string.
    String {
        /// Size in bytes.
        size: u32,
        /// Padding rule.
        padding: StringPadding,
        /// Character set.
        charset: Charset,
    },
    /// Bit field.
    Bitfield {
        /// Size in bytes.
        size: u32,
        /// Big-endian byte order.
        big_endian: bool,
    },
    /// Opaque bytes with a tag.
    Opaque {
        /// Size in bytes.
        size: u32,
        /// ASCII tag.
        tag: String,
    },
    /// Compound (struct).
    Compound {
        /// Size in bytes.
        size: u32,
        /// Members in order.
        members: Vec<CompoundMember>,
    },
    /// Object (kind 0) or region (kind 1) reference.
    Reference {
        /// Size in bytes.
        size: u32,
        /// Reference kind.
        kind: u8,
    },
    /// Enumeration.
    Enum {
        /// Size in bytes.
        size: u32,
        /// Integer base type.
        base: Box<Datatype>,
        /// Member names and their values (base-type bytes, file byte order).
        members: Vec<(String, Vec<u8>)>,
    },
    /// Variable-length sequence or string.
    VarLen {
        /// Element type (one byte characters for strings).
        base: Box<Datatype>,
        /// True for a variable-length string.
        is_string: bool,
        /// Padding (strings).
        padding: StringPadding,
        /// Character set (strings).
        charset: Charset,
    },
    /// Fixed-size array of a base type.
    Array {
        /// Array dimensions.
        dims: Vec<u32>,
        /// Element type.
        base: Box<Datatype>,
    },
    /// Complex number in rectangular form (HDF5 2.0, class 11): the real part, then the
    /// imaginary part, both of the floating-point type `base`.
    Complex {
        /// Size of the whole number in bytes (twice the base type's).
        size: u32,
        /// Type of each part.
        base: Box<Datatype>,
    },
}

impl Datatype {
    /// Decodes a datatype message body.
    pub fn parse(c: &mut Cursor<'_>) -> FormatResult<Datatype> {
        Self::parse_depth(c, 0)
    }

    /// Size in bytes of one element in the file (vlen: 4-byte length + global heap id).
    pub fn size(&self) -> u32 {
        match self {
            Datatype::FixedPoint { size, .. }
            | Datatype::FloatingPoint { size, .. }
            | Datatype::Time { size, .. }
            | Datatype::String { size, .. }
            | Datatype::Bitfield { size, .. }
            | Datatype::Opaque { size, .. }
            | Datatype::Compound { size, .. }
            | Datatype::Reference { size, .. }
            | Datatype::Enum { size, .. }
            | Datatype::Complex { size, .. } => *size,
            Datatype::VarLen { .. } => 16,
            Datatype::Array { dims, base } => {
                dims.iter().fold(base.size(), |a, d| a.saturating_mul(*d))
            }
        }
    }

    fn parse_depth(c: &mut Cursor<'_>, depth: u32) -> FormatResult<Datatype> {
        if depth > MAX_DEPTH {
            return Err(c.error(FormatErrorKind::LimitExceeded(u64::from(MAX_DEPTH))));
        }
        let class_version = c.u8()?;
        let (class, version) = (class_version & 0x0f, class_version >> 4);
        let bits: [u8; 3] = c.array()?;
        let bits = u32::from(bits[0]) | (u32::from(bits[1]) << 8) | (u32::from(bits[2]) << 16);
        let size = c.u32()?;
        let big_endian = bits & 1 != 0;
        Ok(match class {
            0 => {
                let bit_offset = c.u16()?;
                let precision = c.u16()?;
                Datatype::FixedPoint {
                    size,
                    big_endian,
                    signed: bits & 0x08 != 0,
                    bit_offset,
                    precision,
                }
            }
            1 => {
                let bit_offset = c.u16()?;
                let precision = c.u16()?;
                let exponent_location = c.u8()?;
                let exponent_size = c.u8()?;
                let mantissa_location = c.u8()?;
                let mantissa_size = c.u8()?;
                let exponent_bias = c.u32()?;
                Datatype::FloatingPoint {
                    size,
                    big_endian,
                    bit_offset,
                    precision,
                    sign_location: (bits >> 8) as u8,
                    exponent_location,
                    mantissa_location,
                    normalization: ((bits >> 4) & 3) as u8,
                    exponent_size,
                    mantissa_size,
                    exponent_bias,
                }
            }
            2 => {
                let _precision = c.u16()?;
                Datatype::Time { size, big_endian }
            }
            3 => Datatype::String {
                size,
                padding: padding(bits),
                charset: charset(bits >> 4),
            },
            4 => {
                c.skip(4)?;
                Datatype::Bitfield { size, big_endian }
            }
            5 => {
                let tag_len = (bits & 0xff) as usize;
                let raw = c.bytes(tag_len)?;
                let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
                Datatype::Opaque {
                    size,
                    tag: String::from_utf8_lossy(&raw[..end]).into_owned(),
                }
            }
            6 => Self::parse_compound(c, version, bits & 0xffff, size, depth)?,
            7 => Datatype::Reference {
                size,
                kind: (bits & 0x0f) as u8,
            },
            8 => {
                let n = (bits & 0xffff) as usize;
                let base = Self::parse_depth(c, depth + 1)?;
                let mut names = Vec::with_capacity(n.min(c.remaining()));
                for _ in 0..n {
                    names.push(name(c, version < 3)?);
                }
                let bsize = base.size() as usize;
                let mut members = Vec::with_capacity(names.len());
                for nm in names {
                    members.push((nm, c.bytes(bsize)?.to_vec()));
                }
                Datatype::Enum {
                    size,
                    base: Box::new(base),
                    members,
                }
            }
            9 => {
                let base = Self::parse_depth(c, depth + 1)?;
                Datatype::VarLen {
                    base: Box::new(base),
                    is_string: bits & 0x0f == 1,
                    padding: padding(bits >> 4),
                    charset: charset(bits >> 8),
                }
            }
            10 => {
                let rank = usize::from(c.u8()?);
                if version < 3 {
                    c.skip(3)?;
                }
                let mut dims = Vec::with_capacity(rank);
                for _ in 0..rank {
                    dims.push(c.u32()?);
                }
                if version < 3 {
                    c.skip(4 * rank)?;
                }
                let base = Self::parse_depth(c, depth + 1)?;
                Datatype::Array {
                    dims,
                    base: Box::new(base),
                }
            }
            11 => {
                // Bit 0: homogeneous (both parts of one type); bits 1-2: form, 0 = rectangular,
                // the only one defined.
                if bits & 0x07 != 0x01 {
                    return Err(c.error(FormatErrorKind::InvalidValue(u64::from(bits))));
                }
                let base = Self::parse_depth(c, depth + 1)?;
                if !matches!(base, Datatype::FloatingPoint { .. })
                    || u64::from(base.size()) * 2 != u64::from(size)
                {
                    return Err(c.error(FormatErrorKind::InvalidValue(u64::from(size))));
                }
                Datatype::Complex {
                    size,
                    base: Box::new(base),
                }
            }
            other => return Err(c.error(FormatErrorKind::InvalidValue(u64::from(other)))),
        })
    }

    fn parse_compound(
        c: &mut Cursor<'_>,
        version: u8,
        n: u32,
        size: u32,
        depth: u32,
    ) -> FormatResult<Datatype> {
        let mut members = Vec::with_capacity((n as usize).min(c.remaining()));
        for _ in 0..n {
            let nm = name(c, version < 3)?;
            let offset = if version >= 3 {
                // Offset width: the fewest bytes that can hold the compound's size.
                let width = match size {
                    0..=0xff => 1,
                    0x100..=0xffff => 2,
                    0x1_0000..=0xff_ffff => 3,
                    _ => 4,
                };
                c.uint(width)? as u32
            } else {
                c.u32()?
            };
            let dtype = if version == 1 {
                let rank = usize::from(c.u8()?);
                c.skip(3 + 4 + 4)?;
                let mut dims = Vec::with_capacity(4);
                for _ in 0..4 {
                    dims.push(c.u32()?);
                }
                dims.truncate(rank.min(4));
                let base = Self::parse_depth(c, depth + 1)?;
                if dims.is_empty() {
                    base
                } else {
                    Datatype::Array {
                        dims,
                        base: Box::new(base),
                    }
                }
            } else {
                Self::parse_depth(c, depth + 1)?
            };
            members.push(CompoundMember {
                name: nm,
                offset,
                dtype,
            });
        }
        Ok(Datatype::Compound { size, members })
    }
}

fn padding(bits: u32) -> StringPadding {
    match bits & 0x0f {
        0 => StringPadding::NullTerminate,
        1 => StringPadding::NullPad,
        _ => StringPadding::SpacePad,
    }
}

fn charset(bits: u32) -> Charset {
    if bits & 0x0f == 1 {
        Charset::Utf8
    } else {
        Charset::Ascii
    }
}

/// A NUL-terminated name, optionally padded to a multiple of 8 bytes (counting the NUL).
fn name(c: &mut Cursor<'_>, padded: bool) -> FormatResult<String> {
    let raw = c.cstr()?;
    if padded {
        let used = raw.len() + 1;
        c.skip((8 - used % 8) % 8)?;
    }
    Ok(crate::format::name::name_from_bytes(raw))
}

impl Datatype {
    /// A two's-complement (`signed`) or unsigned integer of `size` bytes, every bit used.
    pub fn integer(size: u32, signed: bool, big_endian: bool) -> Datatype {
        Datatype::FixedPoint {
            size,
            big_endian,
            signed,
            bit_offset: 0,
            precision: (size * 8) as u16,
        }
    }

    /// An IEEE 754 binary32 float in the given byte order.
    pub fn ieee_f32(big_endian: bool) -> Datatype {
        Self::ieee(4, big_endian, 8, 23, 127)
    }

    /// An IEEE 754 binary64 float in the given byte order.
    pub fn ieee_f64(big_endian: bool) -> Datatype {
        Self::ieee(8, big_endian, 11, 52, 1023)
    }

    fn ieee(size: u32, big_endian: bool, exponent: u8, mantissa: u8, bias: u32) -> Datatype {
        Datatype::FloatingPoint {
            size,
            big_endian,
            bit_offset: 0,
            precision: (size * 8) as u16,
            sign_location: (size * 8 - 1) as u8,
            exponent_location: mantissa,
            mantissa_location: 0,
            normalization: 2,
            exponent_size: exponent,
            mantissa_size: mantissa,
            exponent_bias: bias,
        }
    }

    /// The datatype message version libhdf5 1.10 writes for this type under netCDF-4's 1.8 format
    /// bounds: 3 for compound, enumeration and array types (names unpadded, compact member
    /// offsets) and sequences of them, 1 for every other class. Members and base types keep
    /// their own version.
    pub fn encode_version(&self) -> u8 {
        match self {
            Datatype::Compound { .. } | Datatype::Enum { .. } | Datatype::Array { .. } => 3,
            Datatype::VarLen { base, .. } => base.encode_version(),
            Datatype::Complex { .. } => 5,
            _ => 1,
        }
    }

    /// Encodes a datatype message body (section IV.A.2.d) in [`Datatype::encode_version`].
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        let version = self.encode_version();
        let head = |e: &mut crate::format::encode::Encoder, class: u8, bits: u32, size: u32| {
            e.u8((version << 4) | class)
                .u8(bits as u8)
                .u8((bits >> 8) as u8)
                .u8((bits >> 16) as u8)
                .u32(size);
        };
        match self {
            Datatype::FixedPoint {
                size,
                big_endian,
                signed,
                bit_offset,
                precision,
            } => {
                head(
                    e,
                    0,
                    u32::from(*big_endian) | (u32::from(*signed) << 3),
                    *size,
                );
                e.u16(*bit_offset).u16(*precision);
            }
            Datatype::FloatingPoint {
                size,
                big_endian,
                bit_offset,
                precision,
                sign_location,
                exponent_location,
                mantissa_location,
                normalization,
                exponent_size,
                mantissa_size,
                exponent_bias,
            } => {
                let bits = u32::from(*big_endian)
                    | (u32::from(*normalization & 0x03) << 4)
                    | (u32::from(*sign_location) << 8);
                head(e, 1, bits, *size);
                e.u16(*bit_offset)
                    .u16(*precision)
                    .u8(*exponent_location)
                    .u8(*exponent_size)
                    .u8(*mantissa_location)
                    .u8(*mantissa_size)
                    .u32(*exponent_bias);
            }
            Datatype::Time { size, big_endian } => {
                head(e, 2, u32::from(*big_endian), *size);
                e.u16((*size * 8) as u16);
            }
            Datatype::String {
                size,
                padding,
                charset,
            } => head(e, 3, pad_bits(*padding) | (cset_bits(*charset) << 4), *size),
            Datatype::Bitfield { size, big_endian } => {
                head(e, 4, u32::from(*big_endian), *size);
                e.u16(0).u16((*size * 8) as u16);
            }
            Datatype::Opaque { size, tag } => {
                // A tag is NUL-terminated and padded to 8 bytes; no tag is a length of 0.
                let padded = if tag.is_empty() {
                    0
                } else {
                    (tag.len() + 1).div_ceil(8) * 8
                };
                head(e, 5, padded as u32, *size);
                e.bytes(tag.as_bytes()).zeros(padded - tag.len());
            }
            Datatype::Compound { size, members } => {
                head(e, 6, members.len() as u32, *size);
                let width = match *size {
                    0..=0xff => 1,
                    0x100..=0xffff => 2,
                    0x1_0000..=0xff_ffff => 3,
                    _ => 4,
                };
                for m in members {
                    e.bytes(&crate::format::name::name_to_bytes(&m.name)).u8(0);
                    e.uint(u64::from(m.offset), width);
                    m.dtype.encode(e);
                }
            }
            Datatype::Reference { size, kind } => head(e, 7, u32::from(*kind & 0x0f), *size),
            Datatype::Enum {
                size,
                base,
                members,
            } => {
                head(e, 8, members.len() as u32, *size);
                base.encode(e);
                for (name, _) in members {
                    e.bytes(&crate::format::name::name_to_bytes(name)).u8(0);
                }
                for (_, value) in members {
                    e.bytes(value);
                }
            }
            Datatype::VarLen {
                base,
                is_string,
                padding,
                charset,
            } => {
                let bits =
                    u32::from(*is_string) | (pad_bits(*padding) << 4) | (cset_bits(*charset) << 8);
                let size = 4 + u32::from(e.sizes().offset_size) + 4;
                head(e, 9, bits, size);
                base.encode(e);
            }
            Datatype::Array { dims, base } => {
                head(e, 10, 0, self.size());
                e.u8(dims.len() as u8);
                for d in dims {
                    e.u32(*d);
                }
                base.encode(e);
            }
            Datatype::Complex { size, base } => {
                head(e, 11, 1, *size);
                base.encode(e);
            }
        }
    }
}

fn pad_bits(p: StringPadding) -> u32 {
    match p {
        StringPadding::NullTerminate => 0,
        StringPadding::NullPad => 1,
        StringPadding::SpacePad => 2,
    }
}

fn cset_bits(c: Charset) -> u32 {
    match c {
        Charset::Ascii => 0,
        Charset::Utf8 => 1,
    }
}

#[cfg(test)]
mod encode_tests {
    use super::*;
    use crate::format::cursor::SizeParams;
    use crate::format::encode::Encoder;

    fn round_trip(t: &Datatype) -> Vec<u8> {
        let mut e = Encoder::new(SizeParams::new(8, 8, 0).unwrap());
        t.encode(&mut e);
        let bytes = e.finish();
        let back = Datatype::parse(&mut Cursor::new(&bytes, 0, "t")).unwrap();
        assert_eq!(&back, t);
        bytes
    }

    #[test]
    fn every_class_round_trips() {
        let int = Datatype::FixedPoint {
            size: 4,
            big_endian: false,
            signed: true,
            bit_offset: 0,
            precision: 32,
        };
        let float = Datatype::ieee_f32(false);
        // The bytes libhdf5 writes for a little-endian IEEE float (netcdf-c's NC_FLOAT).
        assert_eq!(
            round_trip(&float),
            [0x11, 0x20, 0x1f, 0, 4, 0, 0, 0, 0, 0, 32, 0, 23, 8, 0, 23, 127, 0, 0, 0]
        );
        round_trip(&int);
        round_trip(&Datatype::String {
            size: 5,
            padding: StringPadding::NullTerminate,
            charset: Charset::Ascii,
        });
        round_trip(&Datatype::Opaque {
            size: 11,
            tag: "raw bytes".into(),
        });
        round_trip(&Datatype::Reference { size: 8, kind: 0 });
        // netcdf-c's opaque types have no tag: bit field 0, nothing after the size.
        assert_eq!(
            round_trip(&Datatype::Opaque {
                size: 5,
                tag: String::new(),
            }),
            [0x15, 0, 0, 0, 5, 0, 0, 0]
        );
        let cmp = Datatype::Compound {
            size: 16,
            members: vec![
                CompoundMember {
                    name: "a".into(),
                    offset: 0,
                    dtype: int.clone(),
                },
                CompoundMember {
                    name: "arr".into(),
                    offset: 4,
                    dtype: Datatype::Array {
                        dims: vec![3],
                        base: Box::new(float.clone()),
                    },
                },
            ],
        };
        round_trip(&cmp);
        round_trip(&Datatype::Enum {
            size: 4,
            base: Box::new(int.clone()),
            members: vec![
                ("x".into(), vec![1, 0, 0, 0]),
                ("yy".into(), vec![2, 0, 0, 0]),
            ],
        });
        round_trip(&Datatype::VarLen {
            base: Box::new(cmp),
            is_string: false,
            padding: StringPadding::NullTerminate,
            charset: Charset::Ascii,
        });
        round_trip(&Datatype::VarLen {
            base: Box::new(Datatype::String {
                size: 1,
                padding: StringPadding::NullTerminate,
                charset: Charset::Utf8,
            }),
            is_string: true,
            padding: StringPadding::NullTerminate,
            charset: Charset::Utf8,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rustfmt::skip]
    #[test]
    fn integers_floats_strings() {
        // Class 0 version 1, signed big-endian, 2 bytes, offset 0, precision 16.
        let b = [0x10, 0x09, 0, 0, 2, 0, 0, 0, 0, 0, 16, 0];
        let t = Datatype::parse(&mut Cursor::new(&b, 0, "t")).unwrap();
        assert_eq!(t, Datatype::FixedPoint { size: 2, big_endian: true, signed: true, bit_offset: 0, precision: 16 });
        // Class 1: little-endian IEEE single.
        let b = [0x11, 0x20, 0x1f, 0, 4, 0, 0, 0, 0, 0, 32, 0, 23, 8, 0, 23, 127, 0, 0, 0];
        let t = Datatype::parse(&mut Cursor::new(&b, 0, "t")).unwrap();
        assert!(matches!(t, Datatype::FloatingPoint { size: 4, big_endian: false, exponent_size: 8, mantissa_size: 23, exponent_bias: 127, .. }));
        // Vlen string (class 9, type 1, UTF-8) of 1-byte chars.
        let b = [0x19, 0x01, 0x01, 0, 16, 0, 0, 0, 0x13, 0x00, 0x01, 0, 1, 0, 0, 0];
        let t = Datatype::parse(&mut Cursor::new(&b, 0, "t")).unwrap();
        assert!(matches!(t, Datatype::VarLen { is_string: true, charset: Charset::Utf8, .. }));
        // Truncated.
        assert!(Datatype::parse(&mut Cursor::new(&b[..10], 0, "t")).is_err());
    }

    #[test]
    fn hdf5_2_complex_and_version_5_compound() {
        // What libhdf5 2.0.0 writes for H5T_COMPLEX_IEEE_F32LE: class 11 version 5, homogeneous
        // rectangular, 8 bytes, then the base type (little-endian IEEE single).
        let b = [
            0x5b, 0x01, 0, 0, 8, 0, 0, 0, 0x11, 0x20, 0x1f, 0, 4, 0, 0, 0, 0, 0, 32, 0, 23, 8, 0,
            23, 127, 0, 0, 0,
        ];
        let t = Datatype::parse(&mut Cursor::new(&b, 0, "t")).unwrap();
        assert_eq!(
            t,
            Datatype::Complex {
                size: 8,
                base: Box::new(Datatype::ieee_f32(false))
            }
        );
        let mut e = crate::format::encode::Encoder::new(
            crate::format::cursor::SizeParams::new(8, 8, 0).unwrap(),
        );
        t.encode(&mut e);
        assert_eq!(e.finish(), b);
        // A polar form (bits 1-2 = 1), a size that is not twice the base's, a non-float base.
        for (at, v) in [(1, 0x03), (4, 9), (8, 0x10)] {
            let mut bad = b;
            bad[at] = v;
            assert!(
                Datatype::parse(&mut Cursor::new(&bad, 0, "t")).is_err(),
                "{at}"
            );
        }
        // Under libver "latest" libhdf5 2.0 writes compounds as version 5, encoded as version 3
        // (h5py's complex64 compound {r, i}: offsets in one byte).
        let b = [
            0x56, 0x02, 0, 0, 8, 0, 0, 0, b'r', 0, 0, 0x11, 0x20, 0x1f, 0, 4, 0, 0, 0, 0, 0, 32, 0,
            23, 8, 0, 23, 127, 0, 0, 0, b'i', 0, 4, 0x11, 0x20, 0x1f, 0, 4, 0, 0, 0, 0, 0, 32, 0,
            23, 8, 0, 23, 127, 0, 0, 0,
        ];
        let Datatype::Compound { members, .. } =
            Datatype::parse(&mut Cursor::new(&b, 0, "t")).unwrap()
        else {
            panic!("not a compound")
        };
        assert_eq!(
            members
                .iter()
                .map(|m| (m.name.as_str(), m.offset))
                .collect::<Vec<_>>(),
            [("r", 0), ("i", 4)]
        );
    }

    #[test]
    fn nesting_is_bounded() {
        // An array of an array of ... (class 10 v3, rank 1, dim 1) nested beyond the cap.
        let mut b = Vec::new();
        for _ in 0..100 {
            b.extend_from_slice(&[0x3a, 0, 0, 0, 4, 0, 0, 0, 1, 1, 0, 0, 0]);
        }
        let e = Datatype::parse(&mut Cursor::new(&b, 0, "t")).unwrap_err();
        assert!(matches!(e.kind, FormatErrorKind::LimitExceeded(_)));
    }
}
