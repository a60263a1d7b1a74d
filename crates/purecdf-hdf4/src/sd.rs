//! The SD ("multifile scientific data") model as the `mfhdf` library reads it from a file
//! (`cdf.c`: `hdf_read_xdr_cdf`, `hdf_read_dims`, `hdf_read_vars`, `hdf_read_attrs`).
//!
//! The first vgroup of class `CDF0.0` holds the file: its member vgroups of class `Dim0.0`
//! (`UDim0.0` when unlimited) are dimensions, named by the vgroup, sized by their `DimVal0.0`
//! vdata's record count or by the value in their `DimVal0.1` vdata (for an unlimited dimension,
//! its number of records); its member vgroups of class `Var0.0` are datasets, named by the vgroup,
//! whose members give their dimensions (dimension vgroups, looked up by name), number type
//! (`DFTAG_NT`: version, type, width, class; class 4 means little-endian), data (`DFTAG_SD`) and
//! attributes; vdatas of class `Attr0.0` are attributes (name of the vdata, type of its one
//! field, one value per record, or for characters the field's order).

use crate::element::Layout;
use crate::error::{Error, Result};
use crate::file::Hdf4File;
use crate::types::{NumberType, DFNT_CHAR8, DFNT_UCHAR8};
use crate::vset::{DFTAG_VG, DFTAG_VH};

const DFTAG_NT: u16 = 106;
/// Tag of a dataset's data (`DATA_TAG`).
pub const DFTAG_SD: u16 = 702;

/// An SD dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SdDimension {
    /// Name (`fakeDimN` when the writer gave none).
    pub name: String,
    /// Size; 0 for an unlimited dimension.
    pub size: u64,
}

/// An SD attribute: values in their file byte order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SdAttribute {
    /// Name.
    pub name: String,
    /// Number type.
    pub number_type: NumberType,
    /// Number of values.
    pub count: usize,
    /// `count × size` bytes, in the byte order of `number_type`.
    pub data: Vec<u8>,
}

/// An SD dataset (SDS).
#[derive(Debug, Clone, PartialEq)]
pub struct SdDataset {
    /// Name.
    pub name: String,
    /// Number type.
    pub number_type: NumberType,
    /// Indices into [`SdFile::dimensions`], outermost first.
    pub dims: Vec<usize>,
    /// Current shape (`SDgetinfo`: an unlimited dimension has the dataset's record count).
    pub shape: Vec<u64>,
    /// Attributes in file order.
    pub attributes: Vec<SdAttribute>,
    /// Where the data is; `None` when nothing was written.
    pub layout: Option<Layout>,
}

impl SdDataset {
    /// The attribute with this name.
    pub fn attribute(&self, name: &str) -> Option<&SdAttribute> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

/// The SD content of a file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SdFile {
    /// Dimensions in file order.
    pub dimensions: Vec<SdDimension>,
    /// Datasets in file order (`SDselect` index).
    pub datasets: Vec<SdDataset>,
    /// Global attributes.
    pub attributes: Vec<SdAttribute>,
}

impl Hdf4File {
    /// Reads the SD model. A file without a `CDF0.0` vgroup gives the datasets of its old-style
    /// scientific data groups (none when it has none).
    pub fn sd(&self) -> Result<SdFile> {
        let mut cdf = None;
        for r in self.vgroup_refs() {
            let vg = self.vgroup(r)?;
            if vg.class == "CDF0.0" {
                cdf = Some(vg);
                break;
            }
        }
        let Some(cdf) = cdf else {
            // No SD vgroup: the library reads the old DFSD groups instead (`crate::dfsd`).
            return self.sd_from_groups();
        };
        let mut sd = SdFile::default();
        for &(tag, r) in &cdf.members {
            if tag != DFTAG_VG {
                continue;
            }
            let Ok(vg) = self.vgroup(r) else { continue };
            if vg.class != "Dim0.0" && vg.class != "UDim0.0" {
                continue;
            }
            self.read_dimension(&vg, &mut sd.dimensions)?;
        }
        for &(tag, r) in &cdf.members {
            if tag != DFTAG_VG {
                continue;
            }
            let Ok(vg) = self.vgroup(r) else { continue };
            if vg.class == "Var0.0" {
                if let Some(ds) = self.dataset_from_vgroup(&vg, &sd.dimensions)? {
                    sd.datasets.push(ds);
                }
            }
        }
        sd.attributes = self.read_attributes(&cdf.members)?;
        Ok(sd)
    }

    fn read_dimension(&self, vg: &crate::vset::Vgroup, dims: &mut Vec<SdDimension>) -> Result<()> {
        let unlimited = vg.class == "UDim0.0";
        for &(tag, r) in &vg.members {
            if tag != DFTAG_VH {
                continue;
            }
            let vd = self.vdata(r)?;
            let mut size = 0u64;
            if vd.class == "DimVal0.0" && !unlimited {
                size = u64::from(vd.records);
            }
            if vd.class == "DimVal0.1" || unlimited {
                let v = self.vdata_field(&vd, 0)?;
                let val = v
                    .get(..4)
                    .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                    .ok_or_else(|| Error::new(format!("dimension {} has no size", vg.name)))?;
                // An unlimited dimension's value is the file's record count; SD files
                // take each dataset's own (`SDgetinfo`).
                size = if unlimited { 0 } else { u64::from(val) };
            }
            let known = dims.iter().any(|d| d.name == vg.name && d.size == size);
            if !known {
                dims.push(SdDimension {
                    name: vg.name.clone(),
                    size,
                });
            }
        }
        Ok(())
    }

    fn dataset_from_vgroup(
        &self,
        vg: &crate::vset::Vgroup,
        dims: &[SdDimension],
    ) -> Result<Option<SdDataset>> {
        let mut ds_dims = Vec::new();
        let mut number_type = None;
        let mut data_ref = 0u16;
        let mut is_record = false;
        for &(tag, r) in &vg.members {
            match tag {
                DFTAG_VG => {
                    let sub = self.vgroup(r)?;
                    if sub.class == "Dim0.0" || sub.class == "UDim0.0" {
                        is_record |= sub.class == "UDim0.0";
                        let i = dims
                            .iter()
                            .position(|d| d.name == sub.name)
                            .ok_or_else(|| {
                                Error::new(format!(
                                    "dataset {}: no dimension {}",
                                    vg.name, sub.name
                                ))
                            })?;
                        ds_dims.push(i);
                    }
                }
                DFTAG_SD => data_ref = r,
                DFTAG_NT => {
                    let dd = *self.find(DFTAG_NT, r).ok_or_else(|| {
                        Error::new(format!("dataset {}: no number type", vg.name))
                    })?;
                    let nt = self.raw_bytes(&dd)?;
                    let [_, code, _, class, ..] = nt[..] else {
                        return Err(Error::new(format!(
                            "dataset {}: short number type",
                            vg.name
                        )));
                    };
                    let little = class == 4;
                    let t = NumberType::from_code(u16::from(code)).ok_or_else(|| {
                        Error::new(format!("dataset {}: number type {code}", vg.name))
                    })?;
                    number_type = Some(NumberType {
                        little_endian: little,
                        ..t
                    });
                }
                _ => {}
            }
        }
        let number_type = number_type
            .ok_or_else(|| Error::new(format!("dataset {}: no number type", vg.name)))?;
        let layout = if data_ref != 0 {
            self.layout(DFTAG_SD, data_ref)?
        } else {
            None
        };
        let mut shape: Vec<u64> = ds_dims.iter().map(|&d| dims[d].size).collect();
        if let Some(first) = shape.first_mut() {
            if *first == 0 {
                *first = match (&layout, is_record) {
                    (Some(l), true) => {
                        let row: u64 = dims_product(&ds_dims[1..], dims)
                            .saturating_mul(number_type.size() as u64);
                        match l {
                            Layout::Chunked(h) => h.dims.first().map_or(0, |d| d.length),
                            _ if row > 0 => l.length() / row,
                            _ => 0,
                        }
                    }
                    (None, true) => 0,
                    // A fixed dimension of size 0 (`SDgetinfo` gives the dataset's record
                    // count: 1 once written).
                    (l, false) => u64::from(l.is_some()),
                };
            }
        }
        let attributes = self.read_attributes(&vg.members)?;
        Ok(Some(SdDataset {
            name: vg.name.clone(),
            number_type,
            dims: ds_dims,
            shape,
            attributes,
            layout,
        }))
    }

    /// The `Attr0.0` vdatas among `members`, in order.
    fn read_attributes(&self, members: &[(u16, u16)]) -> Result<Vec<SdAttribute>> {
        let mut out = Vec::new();
        for &(tag, r) in members {
            if tag != DFTAG_VH {
                continue;
            }
            let vd = self.vdata(r)?;
            if vd.class != "Attr0.0" {
                continue;
            }
            let f = vd
                .fields
                .first()
                .ok_or_else(|| Error::new(format!("attribute {} has no field", vd.name)))?;
            let number_type = NumberType::from_code(f.number_type).ok_or_else(|| {
                Error::new(format!(
                    "attribute {}: number type {}",
                    vd.name, f.number_type
                ))
            })?;
            let values = self.vdata_field(&vd, 0)?;
            let is_char = matches!(number_type.base, DFNT_CHAR8 | DFNT_UCHAR8);
            let count = if is_char {
                usize::from(f.order)
            } else {
                vd.records as usize
            };
            let bytes = count * number_type.size();
            let data = values
                .get(..bytes)
                .ok_or_else(|| Error::new(format!("attribute {} is truncated", vd.name)))?
                .to_vec();
            out.push(SdAttribute {
                name: vd.name.clone(),
                number_type,
                count,
                data,
            });
        }
        Ok(out)
    }
}

fn dims_product(ids: &[usize], dims: &[SdDimension]) -> u64 {
    ids.iter()
        .fold(1u64, |p, &d| p.saturating_mul(dims[d].size))
}
