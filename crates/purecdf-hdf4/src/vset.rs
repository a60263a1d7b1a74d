//! Vgroups and vdatas (HDF4 Specification, "Vsets"; `vgp.c` `vunpackvg`, `vio.c` `vunpackvs`).
//!
//! A vgroup (`DFTAG_VG`) is a member count, the members' tags, then their references, a name
//! and a class (each a 2-byte length and bytes), an extension tag/ref, and (version 4) flags and
//! attribute references; its version is in the element's last 5 bytes but one.
//! A vdata header (`DFTAG_VH`) is the interlace, the number of records, the record size, the
//! number of fields, then per field its number type, size, offset and order, the field names,
//! the vdata's name and class; its records are the `DFTAG_VS` element of the same reference,
//! fields stored one after another in each record, big-endian unless the type says otherwise.

use crate::error::{Error, Reader, Result};
use crate::file::Hdf4File;
use crate::types::NumberType;

/// Vgroup tag.
pub const DFTAG_VG: u16 = 1965;
/// Vdata header tag.
pub const DFTAG_VH: u16 = 1962;
/// Vdata records tag.
pub const DFTAG_VS: u16 = 1963;

/// A vgroup: a named, classed list of tag/ref members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vgroup {
    /// Its reference number.
    pub reference: u16,
    /// Name.
    pub name: String,
    /// Class.
    pub class: String,
    /// Members as (tag, ref), in order.
    pub members: Vec<(u16, u16)>,
}

/// One field of a vdata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Field name.
    pub name: String,
    /// Number type code (`DFNT_*`, maybe with the little-endian bit).
    pub number_type: u16,
    /// Values per record.
    pub order: u16,
    /// Bytes per record in the file.
    pub size: u16,
}

/// A vdata header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vdata {
    /// Its reference number.
    pub reference: u16,
    /// Name.
    pub name: String,
    /// Class.
    pub class: String,
    /// Number of records.
    pub records: u32,
    /// Bytes per record.
    pub record_size: u16,
    /// Fields in record order.
    pub fields: Vec<Field>,
}

/// Reads the name-length-prefixed string HDF4 uses in vset headers.
fn short_string(r: &mut Reader<'_>) -> Result<String> {
    let n = r.u16()? as usize;
    r.string(n)
}

impl Hdf4File {
    /// Reads the vgroup with this reference number.
    pub fn vgroup(&self, reference: u16) -> Result<Vgroup> {
        let dd = *self
            .find(DFTAG_VG, reference)
            .ok_or_else(|| Error::new(format!("no vgroup {reference}")))?;
        let bytes = self.raw_bytes(&dd)?;
        let mut r = Reader::new(&bytes, u64::from(dd.offset));
        let n = r.u16()? as usize;
        let tags = r.bytes(2 * n)?;
        let refs = r.bytes(2 * n)?;
        let members = (0..n)
            .map(|i| {
                (
                    u16::from_be_bytes([tags[2 * i], tags[2 * i + 1]]),
                    u16::from_be_bytes([refs[2 * i], refs[2 * i + 1]]),
                )
            })
            .collect();
        let name = short_string(&mut r)?;
        let class = short_string(&mut r)?;
        Ok(Vgroup {
            reference,
            name,
            class,
            members,
        })
    }

    /// Reads the vdata header with this reference number.
    pub fn vdata(&self, reference: u16) -> Result<Vdata> {
        let dd = *self
            .find(DFTAG_VH, reference)
            .ok_or_else(|| Error::new(format!("no vdata {reference}")))?;
        let bytes = self.raw_bytes(&dd)?;
        let mut r = Reader::new(&bytes, u64::from(dd.offset));
        let _interlace = r.u16()?;
        let records = r.u32()?;
        let record_size = r.u16()?;
        let n = r.u16()? as usize;
        if n > bytes.len() {
            return Err(Error::at(u64::from(dd.offset), "bad vdata field count"));
        }
        let mut arrays = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for a in &mut arrays {
            for _ in 0..n {
                a.push(r.u16()?);
            }
        }
        let [types, sizes, _offsets, orders] = arrays;
        let mut fields = Vec::with_capacity(n);
        for i in 0..n {
            fields.push(Field {
                name: short_string(&mut r)?,
                number_type: types[i],
                order: orders[i],
                size: sizes[i],
            });
        }
        let name = short_string(&mut r)?;
        let class = short_string(&mut r)?;
        Ok(Vdata {
            reference,
            name,
            class,
            records,
            record_size,
            fields,
        })
    }

    /// The record bytes of a vdata (`records × record_size`), checked against the file.
    pub fn vdata_records(&self, vd: &Vdata) -> Result<Vec<u8>> {
        let want = u64::from(vd.records) * u64::from(vd.record_size);
        if want == 0 {
            return Ok(Vec::new());
        }
        if want > self.size() {
            return Err(Error::new(format!(
                "vdata {} is larger than the file",
                vd.name
            )));
        }
        let layout = self
            .layout(DFTAG_VS, vd.reference)?
            .ok_or_else(|| Error::new(format!("vdata {} has no records", vd.name)))?;
        let bytes = self.read_layout(&layout, want)?;
        if (bytes.len() as u64) < want {
            return Err(Error::new(format!(
                "vdata {} records are truncated",
                vd.name
            )));
        }
        Ok(bytes)
    }

    /// The values of field `index` of every record, each in its file byte order, concatenated.
    pub fn vdata_field(&self, vd: &Vdata, index: usize) -> Result<Vec<u8>> {
        let f = vd
            .fields
            .get(index)
            .ok_or_else(|| Error::new("vdata field out of range"))?;
        let nt = NumberType::from_code(f.number_type)
            .ok_or_else(|| Error::new(format!("vdata field type {}", f.number_type)))?;
        let width = nt.size() * usize::from(f.order);
        let start: usize = vd.fields[..index].iter().map(|f| usize::from(f.size)).sum();
        let rec = usize::from(vd.record_size);
        if start + width > rec {
            return Err(Error::new(format!(
                "vdata {} fields overflow its records",
                vd.name
            )));
        }
        let bytes = self.vdata_records(vd)?;
        let mut out = Vec::with_capacity(width * vd.records as usize);
        for r in bytes.chunks_exact(rec.max(1)).take(vd.records as usize) {
            out.extend_from_slice(&r[start..start + width]);
        }
        Ok(out)
    }

    /// References of every vgroup in the file, in ascending order (how `Vgetid` walks them).
    pub fn vgroup_refs(&self) -> Vec<u16> {
        let mut v: Vec<u16> = self
            .descriptors()
            .iter()
            .filter(|d| d.tag == DFTAG_VG)
            .map(|d| d.reference)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}
