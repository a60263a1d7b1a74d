//! Dimensions of datasets that are not coordinate variables, as netcdf-c 4.9.0 finds them
//! (`libhdf5/hdf5open.c`): `get_attached_info` asks how many scales axis 0 has and, when there
//! are any, visits every scale of every axis, each overwriting the object id kept for its axis,
//! so the last one attached wins; `rec_match_dimscales` then looks each id up among the
//! dimensions of the dataset's group and of its ancestors, in the order they were made, and
//! leaves an axis with no match without a dimension. A dataset with no scale on axis 0 gets
//! `create_phony_dims`: per axis, the group's first dimension of the same length and kind
//! (unlimited or not) not already used by the dataset, else a new `phony_dim_N`.

use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::messages::attribute::AttributeMessage;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::read::Dataset;

use super::{Builder, HeapOnly};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{DimId, GroupId};
use crate::netcdf4::hdf;
use crate::netcdf4::types::HeapReader;

impl Builder<'_> {
    /// The dimensions netcdf-c finds for a dataset's `DIMENSION_LIST` (`get_attached_info`,
    /// `rec_match_dimscales`): `None` when axis 0 has no scale attached (then every axis gets a
    /// phony dimension); otherwise, per axis, the last scale attached to it (each scale visited
    /// overwrites the one before), looked up by object address among the dimensions of `g` and
    /// then of each ancestor, in the order they were made; `None` for an axis with no match.
    pub(super) fn dimension_list(
        &mut self,
        g: GroupId,
        list: &AttributeMessage,
        rank: usize,
        name: &str,
    ) -> Result<Option<Vec<Option<DimId>>>> {
        let sizes = self.h5.sizes();
        let reader = HeapOnly {
            h5: &self.h5,
            cache: self.heaps,
        };
        let width = usize::from(sizes.offset_size);
        let mut out = Vec::with_capacity(rank);
        for i in 0..rank {
            let e = list.data.get(i * 16..(i + 1) * 16).ok_or_else(|| {
                Error::with_detail(
                    ErrorKind::BadDim,
                    format!("DIMENSION_LIST of {name} too short"),
                )
            })?;
            let refs = reader.vlen_bytes(e)?.map(|(_, r)| r).unwrap_or_default();
            let count = refs.len() / width.max(1);
            if i == 0 && count == 0 {
                return Ok(None);
            }
            if count == 0 {
                out.push(None);
                continue;
            }
            let mut c = Cursor::new(&refs[(count - 1) * width..], 0, "object reference");
            let addr = c.uint(sizes.offset_size).map_err(hdf)?;
            out.push(self.dim_of_scale(g, (self.h5.file_number(), addr)));
        }
        Ok(Some(out))
    }

    /// The first dimension made from the scale at `key` (file number, address) in `g` or its
    /// nearest ancestor.
    fn dim_of_scale(&self, g: GroupId, key: (u32, u64)) -> Option<DimId> {
        let mut cur = Some(g);
        while let Some(c) = cur {
            let grp = self.schema.group(c);
            if let Some(d) = grp
                .dims
                .iter()
                .copied()
                .find(|d| self.scale_addr.get(d) == Some(&key))
            {
                return Some(d);
            }
            cur = grp.parent;
        }
        None
    }

    pub(super) fn phony_dims(&mut self, g: GroupId, ds: &Dataset) -> Result<Vec<DimId>> {
        let (dims, max) = match &ds.space {
            Dataspace::Simple { dims, max_dims } => (dims.clone(), max_dims.clone()),
            _ => return Ok(Vec::new()),
        };
        let mut out: Vec<DimId> = Vec::with_capacity(dims.len());
        for (len, m) in dims.iter().zip(max) {
            let max_unlimited = m.is_none();
            // A length of 0 is NC_UNLIMITED to netcdf-c: such a phony dimension is unlimited,
            // and only a dataset with an unlimited maximum shares it.
            let unlimited = max_unlimited || *len == 0;
            // netcdf-c (`create_phony_dims`) takes the group's first dimension, phony or
            // not, of this length and kind that this dataset does not use already.
            let found = self.schema.group(g).dims.iter().copied().find(|d| {
                let dim = self.schema.dim(*d);
                self.made_len.get(d).copied().unwrap_or(dim.len) == *len
                    && dim.unlimited == max_unlimited
                    && !out.contains(d)
            });
            let id = match found {
                Some(d) => d,
                None => {
                    let nc = self.next_dimid;
                    self.next_dimid += 1;
                    let id = self
                        .schema
                        .add_dim(g, &format!("phony_dim_{nc}"), *len, unlimited)?;
                    self.made_len.insert(id, *len);
                    self.nc_dimid.insert(id, nc);
                    id
                }
            };
            out.push(id);
        }
        Ok(out)
    }
}
