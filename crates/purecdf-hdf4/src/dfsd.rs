//! Scientific data written by the old single-file DFSD interface: numeric data groups
//! (`DFTAG_NDG`, HDF 3.2 on) and scientific data groups (`DFTAG_SDG`, before), with no SD
//! (`CDF0.0`) vgroup. The `mfhdf` library presents them as SD datasets (`hdf_read_ndgs` in
//! `mfsd`'s `hdfsds.c`); this module builds the same model, as netcdf-c 4.9.0 shows it:
//!
//! * groups are read NDGs first, then SDGs not linked from an NDG (`DFTAG_SDLNK`), each tag in
//!   ascending reference order; a group is a list of (tag, ref) pairs (HDF4 spec, "Groups");
//! * the dimension record (`DFTAG_SDD`) gives the rank (int16), the sizes (int32 each), the
//!   data's number type and one per dimension for the scales (tag/ref of `DFTAG_NT` elements:
//!   version, type, width, class; class 4 is little-endian); with no record the data is float32;
//! * every dimension is new, named `fakeDim<n>` with `n` counting over the whole file;
//! * a dimension becomes a coordinate variable of its scale's number type, ahead of the data,
//!   when it has a scale (`DFTAG_SDS`: one flag byte per dimension, then the values of the
//!   flagged dimensions one after another) or when it has none of a label, unit and format;
//!   it then carries its label, unit and format as `long_name`, `units` and `format`;
//!   without a scale it has no values (reads as fill). A dimension with a label, unit or format
//!   but no scale is no variable: the library's test of "has strings" is inverted, and netcdf-c
//!   (so we) show what it gives;
//! * the data is named `Data-Set-<group ref>`, stored in `DFTAG_SD`; its attributes are, in the
//!   group's member order, `coordsys` (`DFTAG_SDC`), `valid_max` and `valid_min` (`DFTAG_SDM`,
//!   two values of the data type as known at that point) and `scale_factor`,
//!   `scale_factor_err`, `add_offset`, `add_offset_err`, `calibrated_nt` (`DFTAG_CAL`: four
//!   float64 and an int32 when 36 bytes long, else four float32 and an int16), then the data
//!   annotations of the group (`remarks-<i>` for descriptions, `anno_label-<i>` for labels,
//!   by annotation reference), then `long_name`, `units` and `format` from the first of the
//!   strings in `DFTAG_SDL`, `DFTAG_SDU`, `DFTAG_SDF` (each a series of NUL-ended strings: the
//!   data's, then one per dimension). Empty strings give no attribute.

use crate::element::Layout;
use crate::error::{Error, Result};
use crate::file::Hdf4File;
use crate::sd::{SdAttribute, SdDataset, SdDimension, SdFile, DFTAG_SD};
use crate::types::{NumberType, DFNT_CHAR8, DFNT_FLOAT32, DFNT_FLOAT64, DFNT_INT16, DFNT_INT32};

const DFTAG_DIL: u16 = 104;
const DFTAG_DIA: u16 = 105;
const DFTAG_SDG: u16 = 700;
const DFTAG_SDD: u16 = 701;
const DFTAG_SDS: u16 = 703;
const DFTAG_SDL: u16 = 704;
const DFTAG_SDU: u16 = 705;
const DFTAG_SDF: u16 = 706;
const DFTAG_SDM: u16 = 707;
const DFTAG_SDC: u16 = 708;
const DFTAG_SDLNK: u16 = 710;
/// Tag of a numeric data group.
const DFTAG_NDG: u16 = 720;
const DFTAG_CAL: u16 = 731;

/// Big-endian u16 at `at`.
fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

/// The dimension record of a group.
struct Sdd {
    sizes: Vec<u64>,
    number_type: NumberType,
    scale_types: Vec<NumberType>,
}

fn char_attribute(name: &str, text: &[u8]) -> SdAttribute {
    SdAttribute {
        name: name.to_string(),
        number_type: NumberType {
            base: DFNT_CHAR8,
            little_endian: false,
        },
        count: text.len(),
        data: text.to_vec(),
    }
}

fn big_endian(base: u16) -> NumberType {
    NumberType {
        base,
        little_endian: false,
    }
}

/// The `index`-th NUL-ended string of `buf` (empty past the end).
fn nth_string(buf: &[u8], index: usize) -> &[u8] {
    buf.split(|&b| b == 0).nth(index).unwrap_or(&[])
}

impl Hdf4File {
    /// The bytes of an element (at most 16 MiB when special), or an error naming it.
    fn element(&self, tag: u16, r: u16) -> Result<Vec<u8>> {
        let dd = *self
            .find(tag, r)
            .ok_or_else(|| Error::new(format!("no element with tag {tag} and reference {r}")))?;
        let layout = self
            .layout(tag, r)?
            .ok_or_else(|| Error::new(format!("no element with tag {tag} and reference {r}")))?;
        match layout {
            Layout::Plain { .. } => self.raw_bytes(&dd),
            // Metadata elements are small: a special one claiming more is refused, not allocated.
            l => self.read_layout(&l, 1 << 24),
        }
    }

    /// A number type element (`DFTAG_NT`).
    fn number_type_element(&self, tag: u16, r: u16) -> Result<NumberType> {
        let nt = self.element(tag, r)?;
        let [_, code, _, class, ..] = nt[..] else {
            return Err(Error::new(format!("number type {r} is short")));
        };
        let t = NumberType::from_code(u16::from(code))
            .ok_or_else(|| Error::new(format!("number type {code}")))?;
        Ok(NumberType {
            little_endian: class == 4,
            ..t
        })
    }

    fn read_sdd(&self, r: u16) -> Result<Sdd> {
        let b = self.element(DFTAG_SDD, r)?;
        let short = || Error::new(format!("dimension record {r} is short"));
        let rank = i16::from_be_bytes(b.get(..2).ok_or_else(short)?.try_into().unwrap());
        if rank <= 0 {
            return Err(Error::new(format!("dimension record {r}: rank {rank}")));
        }
        let rank = rank as usize;
        let mut sizes = Vec::with_capacity(rank);
        for d in 0..rank {
            let at = 2 + 4 * d;
            let v = i32::from_be_bytes(b.get(at..at + 4).ok_or_else(short)?.try_into().unwrap());
            if v < 0 {
                return Err(Error::new(format!("dimension record {r}: size {v}")));
            }
            sizes.push(v as u64);
        }
        let mut at = 2 + 4 * rank;
        let mut nt = || -> Result<NumberType> {
            let (t, rf) = (
                be16(&b, at).ok_or_else(short)?,
                be16(&b, at + 2).ok_or_else(short)?,
            );
            at += 4;
            self.number_type_element(t, rf)
        };
        let number_type = nt()?;
        let scale_types = (0..rank).map(|_| nt()).collect::<Result<Vec<_>>>()?;
        Ok(Sdd {
            sizes,
            number_type,
            scale_types,
        })
    }

    /// The reference numbers of the elements with this base tag, ascending (the order in which
    /// the library's wildcard reads visit them).
    fn refs_of(&self, tag: u16) -> Vec<u16> {
        let mut refs: Vec<u16> = self
            .descriptors()
            .iter()
            .filter(|d| crate::file::base_tag(d.tag) == tag)
            .map(|d| d.reference)
            .collect();
        refs.sort_unstable();
        refs.dedup();
        refs
    }

    /// The data annotations (`tag` `DFTAG_DIA` or `DFTAG_DIL`) of the object `(otag, oref)`, by
    /// annotation reference: the text after the object's tag/ref, up to a NUL.
    fn annotations(&self, tag: u16, otag: u16, oref: u16) -> Result<Vec<Vec<u8>>> {
        let refs = self.refs_of(tag);
        let mut out = Vec::new();
        for r in refs {
            let b = self.element(tag, r)?;
            if be16(&b, 0) == Some(otag) && be16(&b, 2) == Some(oref) {
                out.push(nth_string(&b[4..], 0).to_vec());
            }
        }
        Ok(out)
    }

    /// The SD model of a file holding only DFSD groups.
    pub(crate) fn sd_from_groups(&self) -> Result<SdFile> {
        let mut sd = SdFile::default();
        let mut linked_sdgs = Vec::new();
        for tag in [DFTAG_NDG, DFTAG_SDG] {
            for r in self.refs_of(tag) {
                if tag == DFTAG_SDG && linked_sdgs.contains(&r) {
                    continue;
                }
                self.read_group(tag, r, &mut sd, &mut linked_sdgs)?;
            }
        }
        Ok(sd)
    }

    fn read_group(
        &self,
        gtag: u16,
        gref: u16,
        sd: &mut SdFile,
        linked_sdgs: &mut Vec<u16>,
    ) -> Result<()> {
        let group = self.element(gtag, gref)?;
        let mut sdd = None;
        let mut number_type = big_endian(DFNT_FLOAT32);
        let (mut lref, mut uref, mut fref, mut sref, mut data_ref) = (0, 0, 0, 0, 0);
        let mut attributes = Vec::new();
        for m in group.chunks_exact(4) {
            let (tag, r) = (be16(m, 0).unwrap_or(0), be16(m, 2).unwrap_or(0));
            match tag {
                DFTAG_SDD => {
                    let d = self.read_sdd(r)?;
                    number_type = d.number_type;
                    sdd = Some(d);
                }
                DFTAG_SDL => lref = r,
                DFTAG_SDU => uref = r,
                DFTAG_SDF => fref = r,
                DFTAG_SDS => sref = r,
                DFTAG_SD => data_ref = r,
                DFTAG_SDC => {
                    let b = self.element(tag, r)?;
                    let text = nth_string(&b, 0);
                    if !text.is_empty() {
                        attributes.push(char_attribute("coordsys", text));
                    }
                }
                DFTAG_SDM => {
                    let b = self.element(tag, r)?;
                    let size = number_type.size();
                    for (i, name) in ["valid_max", "valid_min"].into_iter().enumerate() {
                        let data = b
                            .get(i * size..(i + 1) * size)
                            .ok_or_else(|| Error::new(format!("range {r} is short")))?;
                        attributes.push(SdAttribute {
                            name: name.to_string(),
                            number_type,
                            count: 1,
                            data: data.to_vec(),
                        });
                    }
                }
                DFTAG_CAL => {
                    let b = self.element(tag, r)?;
                    let (t, nt) = if b.len() == 36 {
                        (big_endian(DFNT_FLOAT64), big_endian(DFNT_INT32))
                    } else {
                        (big_endian(DFNT_FLOAT32), big_endian(DFNT_INT16))
                    };
                    let size = t.size();
                    let names = ["scale_factor", "scale_factor_err", "add_offset"];
                    for (i, name) in names.into_iter().chain(["add_offset_err"]).enumerate() {
                        let data = b
                            .get(i * size..(i + 1) * size)
                            .ok_or_else(|| Error::new(format!("calibration {r} is short")))?;
                        attributes.push(SdAttribute {
                            name: name.to_string(),
                            number_type: t,
                            count: 1,
                            data: data.to_vec(),
                        });
                    }
                    let data = b
                        .get(4 * size..4 * size + nt.size())
                        .ok_or_else(|| Error::new(format!("calibration {r} is short")))?;
                    attributes.push(SdAttribute {
                        name: "calibrated_nt".to_string(),
                        number_type: nt,
                        count: 1,
                        data: data.to_vec(),
                    });
                }
                DFTAG_SDLNK if gtag == DFTAG_NDG => {
                    let b = self.element(tag, r)?;
                    if let Some(sdg) = be16(&b, 6) {
                        linked_sdgs.push(sdg);
                    }
                }
                _ => {}
            }
        }
        let strings = |tag: u16, r: u16| -> Result<Vec<u8>> {
            if r == 0 {
                Ok(Vec::new())
            } else {
                self.element(tag, r)
            }
        };
        let (labels, units, formats) = (
            strings(DFTAG_SDL, lref)?,
            strings(DFTAG_SDU, uref)?,
            strings(DFTAG_SDF, fref)?,
        );
        let scales = strings(DFTAG_SDS, sref)?;
        let Some(sdd) = sdd else {
            return Err(Error::new(format!(
                "scientific data group {gref} has no dimension record"
            )));
        };
        let rank = sdd.sizes.len();
        let scale_layout = match self.layout(DFTAG_SDS, sref)? {
            Some(Layout::Plain { offset, length }) => Some((offset, length)),
            _ => None,
        };
        let mut scale_offset = rank as u64;
        let mut dims = Vec::with_capacity(rank);
        for (d, &size) in sdd.sizes.iter().enumerate() {
            let luf = [
                ("long_name", nth_string(&labels, d + 1)),
                ("units", nth_string(&units, d + 1)),
                ("format", nth_string(&formats, d + 1)),
            ];
            let index = sd.dimensions.len();
            let name = format!("fakeDim{index}");
            sd.dimensions.push(SdDimension {
                name: name.clone(),
                size,
            });
            dims.push(index);
            let has_scale = scales.get(d).is_some_and(|&f| f != 0);
            let has_strings = luf.iter().any(|(_, s)| !s.is_empty());
            if has_strings && !has_scale {
                continue;
            }
            let st = sdd.scale_types[d];
            let mut layout = None;
            if has_scale {
                let bytes = size.saturating_mul(st.size() as u64);
                if let Some((offset, length)) = scale_layout {
                    let start = scale_offset.min(length);
                    layout = Some(Layout::Plain {
                        offset: offset + start,
                        length: bytes.min(length - start),
                    });
                }
                scale_offset = scale_offset.saturating_add(bytes);
            }
            sd.datasets.push(SdDataset {
                name,
                number_type: st,
                dims: vec![index],
                shape: vec![size],
                attributes: luf
                    .iter()
                    .filter(|(_, s)| !s.is_empty())
                    .map(|(n, s)| char_attribute(n, s))
                    .collect(),
                layout,
            });
        }
        for (tag, name) in [(DFTAG_DIA, "remarks"), (DFTAG_DIL, "anno_label")] {
            for (i, text) in self.annotations(tag, gtag, gref)?.iter().enumerate() {
                attributes.push(char_attribute(&format!("{name}-{}", i + 1), text));
            }
        }
        for (n, buf) in [
            ("long_name", &labels),
            ("units", &units),
            ("format", &formats),
        ] {
            let s = nth_string(buf, 0);
            if !s.is_empty() {
                attributes.push(char_attribute(n, s));
            }
        }
        let layout = if data_ref != 0 {
            self.layout(DFTAG_SD, data_ref)?
        } else {
            None
        };
        sd.datasets.push(SdDataset {
            name: format!("Data-Set-{gref}"),
            number_type: sdd.number_type,
            dims,
            shape: sdd.sizes,
            attributes,
            layout,
        });
        Ok(())
    }
}
