//! Attribute message, type 0x000C (HDF5 File Format Specification v3.0, section IV.A.2.m),
//! versions 1–3, with shared datatypes and dataspaces.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::messages::dataspace::Dataspace;
use crate::format::messages::datatype::Datatype;
use crate::format::messages::shared::SharedRef;
use crate::format::object_header::MessageType;

/// Fetches the body of a shared message (type, reference, where the reference is).
pub type Resolver<'a> = &'a dyn Fn(MessageType, &SharedRef, u64) -> FormatResult<Vec<u8>>;

/// A datatype given inline or by reference to a committed datatype.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeRef {
    /// The datatype itself.
    Inline(Datatype),
    /// A shared (committed) datatype.
    Shared(SharedRef),
}

/// A decoded attribute message.
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeMessage {
    /// Attribute name.
    pub name: String,
    /// Element type.
    pub dtype: TypeRef,
    /// Shape.
    pub space: Dataspace,
    /// Raw value bytes in file order (vlen elements are global heap references).
    pub data: Vec<u8>,
}

impl AttributeMessage {
    /// Decodes the message body; a shared dataspace is refused and a shared datatype is left a
    /// reference (see [`AttributeMessage::parse_with`]).
    pub fn parse(c: Cursor<'_>, sizes: SizeParams) -> FormatResult<AttributeMessage> {
        Self::parse_with(c, sizes, None)
    }

    /// Decodes the message body, fetching a shared dataspace, and a datatype shared through the
    /// shared message heap, with `resolve` (committed datatypes stay references).
    pub fn parse_with(
        mut c: Cursor<'_>,
        sizes: SizeParams,
        resolve: Option<Resolver<'_>>,
    ) -> FormatResult<AttributeMessage> {
        let version = c.u8()?;
        if !(1..=3).contains(&version) {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let flags = c.u8()?;
        let name_len = usize::from(c.u16()?);
        let type_len = usize::from(c.u16()?);
        let space_len = usize::from(c.u16()?);
        if version == 3 {
            let _encoding = c.u8()?;
        }
        let pad = |n: usize| if version == 1 { n.div_ceil(8) * 8 } else { n };
        let raw_name = c.split(pad(name_len))?;
        let mut rn = raw_name.clone();
        let name_bytes = rn.bytes(name_len.min(raw_name.remaining()))?;
        let end = name_bytes
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(name_bytes.len());
        let name = crate::format::name::name_from_bytes(&name_bytes[..end]);
        let mut tc = c.split(pad(type_len))?;
        let at = tc.offset();
        let dtype = if flags & 1 != 0 {
            match (SharedRef::parse(&mut tc, sizes)?, resolve) {
                (r @ SharedRef::Heap(_), Some(f)) => {
                    let body = f(MessageType::DATATYPE, &r, at)?;
                    TypeRef::Inline(Datatype::parse(&mut Cursor::new(&body, at, "datatype"))?)
                }
                (r, _) => TypeRef::Shared(r),
            }
        } else {
            TypeRef::Inline(Datatype::parse(&mut tc)?)
        };
        let mut sc = c.split(pad(space_len))?;
        let at = sc.offset();
        let space = if flags & 2 != 0 {
            let Some(f) = resolve else {
                return Err(sc.error(FormatErrorKind::InvalidValue(u64::from(flags))));
            };
            let body = f(
                MessageType::DATASPACE,
                &SharedRef::parse(&mut sc, sizes)?,
                at,
            )?;
            Dataspace::parse(Cursor::new(&body, at, "dataspace"), sizes)?
        } else {
            Dataspace::parse(sc, sizes)?
        };
        let rest = c.remaining();
        let data = c.bytes(rest)?.to_vec();
        Ok(AttributeMessage {
            name,
            dtype,
            space,
            data,
        })
    }
}

impl AttributeMessage {
    /// Encodes a version 3 attribute message body (section IV.A.2.m): name (NUL-terminated, with
    /// its character set), datatype (inline, or shared when committed), dataspace, raw data.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        let sizes = e.sizes();
        let mut t = crate::format::encode::Encoder::new(sizes);
        let shared = match &self.dtype {
            TypeRef::Inline(dt) => {
                dt.encode(&mut t);
                false
            }
            TypeRef::Shared(r) => {
                r.encode(&mut t);
                true
            }
        };
        let mut s = crate::format::encode::Encoder::new(sizes);
        self.space.encode(&mut s);
        let encoding = u8::from(!self.name.is_ascii());
        let name = crate::format::name::name_to_bytes(&self.name);
        e.u8(3)
            .u8(u8::from(shared))
            .u16(name.len() as u16 + 1)
            .u16(t.len() as u16)
            .u16(s.len() as u16)
            .u8(encoding)
            .bytes(&name)
            .u8(0)
            .bytes(t.as_slice())
            .bytes(s.as_slice())
            .bytes(&self.data);
    }
}

#[cfg(test)]
mod encode_tests {
    use super::*;
    use crate::format::encode::Encoder;
    use crate::format::messages::datatype::{Charset, StringPadding};

    #[test]
    fn attribute_round_trips() {
        let s = SizeParams::new(8, 8, 0).unwrap();
        let a = AttributeMessage {
            name: "title".into(),
            dtype: TypeRef::Inline(Datatype::String {
                size: 5,
                padding: StringPadding::NullTerminate,
                charset: Charset::Ascii,
            }),
            space: Dataspace::Scalar,
            data: b"hello".to_vec(),
        };
        let mut e = Encoder::new(s);
        a.encode(&mut e);
        let b = e.finish();
        // libhdf5's bytes for netcdf-c's `:title = "hello"` begin the same way.
        assert_eq!(&b[..12], &[3, 0, 6, 0, 8, 0, 4, 0, 0, b't', b'i', b't']);
        assert_eq!(b.len(), 32);
        assert_eq!(
            AttributeMessage::parse(Cursor::new(&b, 0, "t"), s).unwrap(),
            a
        );
    }
}
