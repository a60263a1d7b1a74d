//! Datasets: datatype (inline or committed), dataspace, layout, filters and fill value from the
//! object header; chunk enumeration over every index type; whole-dataset reads that decode chunks
//! in parallel (rayon) in bounded batches.

use rayon::prelude::*;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::filter::{decode_chunk, FilterError};
use crate::format::btree_v1::{chunk_records, ChunkRecord};
use crate::format::chunk_index::{self, ChunkGrid};
use crate::format::cursor::Cursor;
use crate::format::messages::dataspace::Dataspace;
use crate::format::messages::datatype::Datatype;
use crate::format::messages::external::ExternalFiles;
use crate::format::messages::fill_value::FillValue;
use crate::format::messages::filter_pipeline::FilterPipeline;
use crate::format::messages::layout::{ChunkIndex, Layout};
use crate::format::messages::shared::SharedRef;
use crate::format::object_header::{flags, MessageType, ObjectHeader};
use crate::format::vds::Mapping;
use crate::io::ByteSource;
use crate::read::group::{attributes, Attribute};
use crate::read::virtual_ds::{self, VirtualState};
use crate::read::Hdf5File;

/// One stored chunk.
pub type Chunk = ChunkRecord;

/// Chunks decoded at once when reading, to bound memory.
const BATCH: usize = 256;

/// A dataset object.
#[derive(Debug, Clone)]
pub struct Dataset {
    file: Hdf5File,
    header: ObjectHeader,
    /// Element type.
    pub dtype: Datatype,
    /// Shape.
    pub space: Dataspace,
    /// Storage layout.
    pub layout: Layout,
    /// Filters (empty when unfiltered).
    pub filters: FilterPipeline,
    /// Fill value property, if any message is present.
    pub fill: Option<FillValue>,
    /// Raw data kept in external files (contiguous layout only).
    pub external: Option<ExternalFiles>,
    cache: crate::read::slab::SharedCache,
    /// The chunks, when known without reading an index (a dataset a writer holds).
    known_chunks: Option<std::sync::Arc<Vec<Chunk>>>,
    /// The mappings of a virtual dataset, and its data once read.
    virtual_state: Option<std::sync::Arc<VirtualState>>,
}

fn missing(addr: u64, what: &'static str) -> FormatError {
    FormatError::new(FormatErrorKind::InvalidValue(0), addr, what)
}

impl Dataset {
    /// Loads the dataset whose object header is at `address`.
    pub fn load(file: &Hdf5File, address: u64) -> FormatResult<Dataset> {
        Self::from_header(file, file.object_header(address)?)
    }

    /// The dataset described by an object header already read (saves reading it twice when the
    /// caller had to look at it to learn that it is a dataset).
    pub fn from_header(file: &Hdf5File, header: ObjectHeader) -> FormatResult<Dataset> {
        let address = header.address;
        let sizes = file.sizes();
        let m = header
            .message(MessageType::DATATYPE)
            .ok_or_else(|| missing(address, "dataset datatype"))?;
        let dtype = if m.flags & flags::SHARED != 0 {
            match SharedRef::parse(
                &mut Cursor::new(&m.data, m.offset, "shared datatype"),
                sizes,
            )? {
                SharedRef::ObjectHeader(a) => committed_type(file, a)?,
                SharedRef::Heap(_) => {
                    return Err(FormatError::new(
                        FormatErrorKind::InvalidValue(1),
                        m.offset,
                        "shared datatype in the message heap",
                    ))
                }
            }
        } else {
            Datatype::parse(&mut Cursor::new(&m.data, m.offset, "datatype"))?
        };
        if dtype.size() == 0 {
            // No valid HDF5 type has size 0; a corrupt one would make element counts meaningless.
            return Err(FormatError::new(
                FormatErrorKind::InvalidValue(0),
                address,
                "dataset datatype size",
            ));
        }
        let m = header
            .message(MessageType::DATASPACE)
            .ok_or_else(|| missing(address, "dataset dataspace"))?;
        let space = Dataspace::parse(Cursor::new(&m.data, m.offset, "dataspace"), sizes)?;
        let m = header
            .message(MessageType::LAYOUT)
            .ok_or_else(|| missing(address, "dataset layout"))?;
        let layout = Layout::parse(Cursor::new(&m.data, m.offset, "layout"), sizes)?;
        if let Layout::Chunked {
            chunk_dims,
            element_size,
            ..
        } = &layout
        {
            // HDF5 stores chunk sizes in 32 bits: a chunk of 4 GiB or more, or an empty chunk
            // extent, only comes from a corrupt layout message.
            let bytes = chunk_dims
                .iter()
                .try_fold(*element_size, |a, d| a.checked_mul(*d));
            if chunk_dims.contains(&0) || bytes.is_none_or(|b| b == 0 || b > u64::from(u32::MAX)) {
                return Err(FormatError::new(
                    FormatErrorKind::InvalidValue(bytes.unwrap_or(u64::MAX)),
                    address,
                    "chunk dimensions",
                ));
            }
        }
        let filters = match header.message(MessageType::FILTER_PIPELINE) {
            Some(m) => FilterPipeline::parse(Cursor::new(&m.data, m.offset, "filter pipeline"))?,
            None => FilterPipeline::default(),
        };
        let fill = match (
            header.message(MessageType::FILL_VALUE),
            header.message(MessageType::FILL_VALUE_OLD),
        ) {
            (Some(m), _) => Some(FillValue::parse(Cursor::new(
                &m.data,
                m.offset,
                "fill value",
            ))?),
            (None, Some(m)) => Some(FillValue::parse_old(Cursor::new(
                &m.data,
                m.offset,
                "fill value",
            ))?),
            _ => None,
        };
        let external = match header.message(MessageType::EXTERNAL_FILES) {
            Some(m) => Some(ExternalFiles::parse(
                Cursor::new(&m.data, m.offset, "external data files"),
                file.source(),
                sizes,
            )?),
            None => None,
        };
        let mut ds = Dataset {
            file: file.clone(),
            external,
            header,
            dtype,
            space,
            layout,
            filters,
            fill,
            cache: Default::default(),
            known_chunks: None,
            virtual_state: None,
        };
        if let Layout::Virtual { heap } = &ds.layout {
            let mappings = virtual_ds::load_mappings(file, *heap)?;
            // HDF5 gives a virtual dataset with unlimited mappings the extent its sources have
            // now.
            if let Some(dims) = virtual_ds::extent(&ds, &mappings)? {
                if let Dataspace::Simple { dims: d, .. } = &mut ds.space {
                    *d = dims;
                }
            }
            ds.virtual_state = Some(std::sync::Arc::new(VirtualState {
                mappings,
                data: Default::default(),
            }));
        }
        Ok(ds)
    }

    /// A dataset described by its parts rather than an object header: what a writer holds for
    /// a dataset it is building. `chunks` lists the stored chunks of a chunked layout (`None`:
    /// read them from the layout's index).
    pub fn from_parts(
        file: &Hdf5File,
        dtype: Datatype,
        space: Dataspace,
        layout: Layout,
        filters: FilterPipeline,
        fill: Option<FillValue>,
        chunks: Option<Vec<Chunk>>,
    ) -> Dataset {
        Dataset {
            file: file.clone(),
            header: ObjectHeader {
                address: 0,
                version: 2,
                flags: 0,
                mtime: None,
                messages: Vec::new(),
            },
            dtype,
            space,
            layout,
            filters,
            fill,
            cache: Default::default(),
            known_chunks: chunks.map(std::sync::Arc::new),
            external: None,
            virtual_state: None,
        }
    }

    /// The object header.
    pub fn header(&self) -> &ObjectHeader {
        &self.header
    }

    /// The file the dataset is in.
    pub fn file(&self) -> &Hdf5File {
        &self.file
    }

    /// The mappings of a virtual dataset (`None` for other layouts).
    pub fn virtual_mappings(&self) -> Option<&[Mapping]> {
        self.virtual_state.as_ref().map(|v| v.mappings.as_slice())
    }

    /// The whole data of a virtual dataset, read once and kept.
    pub(crate) fn virtual_data(&self) -> FormatResult<std::sync::Arc<Vec<u8>>> {
        let at = self.header.address;
        let Some(v) = &self.virtual_state else {
            return Err(missing(at, "virtual dataset mappings"));
        };
        v.data
            .get_or_init(|| {
                let n = self
                    .space
                    .num_elements()
                    .ok_or_else(|| missing(at, "dataspace size"))?;
                let sources = virtual_ds::source_bytes(self, &v.mappings)?;
                let cap = self
                    .file
                    .source()
                    .len()
                    .saturating_add(sources)
                    .saturating_mul(1024)
                    .max(1 << 20);
                let total = n
                    .checked_mul(self.element_size())
                    .filter(|t| *t <= cap)
                    .ok_or_else(|| {
                        FormatError::new(FormatErrorKind::LimitExceeded(n), at, "dataset size")
                    })?;
                let mut out = vec![0u8; total as usize];
                virtual_ds::materialize(self, &v.mappings, &mut out)?;
                Ok(std::sync::Arc::new(out))
            })
            .clone()
    }

    pub(crate) fn cache(&self) -> &crate::read::slab::SharedCache {
        &self.cache
    }

    /// The dataset's attributes.
    pub fn attributes(&self) -> FormatResult<Vec<Attribute>> {
        attributes(&self.file, &self.header)
    }

    /// Size of one element in bytes.
    pub fn element_size(&self) -> u64 {
        u64::from(self.dtype.size())
    }

    fn grid(&self, chunk: &[u64]) -> ChunkGrid {
        // Indexes that span the maximum extent use it; unlimited dimensions use the current one.
        let dims = match &self.space {
            Dataspace::Simple { dims, max_dims } => dims
                .iter()
                .zip(max_dims)
                .map(|(d, m)| m.unwrap_or(*d).max(*d))
                .collect::<Vec<_>>(),
            _ => vec![1; chunk.len()],
        };
        match &self.layout {
            Layout::Chunked {
                index: ChunkIndex::BTreeV1 | ChunkIndex::BTreeV2 { .. },
                ..
            } => ChunkGrid::new(self.space.dims(), chunk),
            // An extensible array numbers chunks over the maximum extent of the fixed
            // dimensions with the unlimited one first.
            Layout::Chunked {
                index: ChunkIndex::ExtensibleArray { .. },
                ..
            } => {
                let unlimited = match &self.space {
                    Dataspace::Simple { max_dims, .. } => max_dims.iter().position(Option::is_none),
                    _ => None,
                };
                let grid = ChunkGrid::new(&dims, chunk);
                match unlimited {
                    Some(u) => grid.with_leading(u),
                    None => grid,
                }
            }
            _ => ChunkGrid::new(&dims, chunk),
        }
    }

    /// Every stored chunk (empty for non-chunked layouts). Where the layout (version 4, flag
    /// bit 0) says partial edge chunks are stored unfiltered, as HDF5's
    /// `H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS` writes them, those chunks (reaching past the
    /// dataset's current extent in some dimension) have every filter marked skipped.
    pub fn chunks(&self) -> FormatResult<Vec<Chunk>> {
        let mut chunks = self.stored_chunks()?;
        if let Layout::Chunked {
            chunk_dims, flags, ..
        } = &self.layout
        {
            if flags & 0x01 != 0 {
                let dims = self.space.dims();
                for c in &mut chunks {
                    let partial = c
                        .offsets
                        .iter()
                        .zip(chunk_dims.iter().zip(dims))
                        .any(|(o, (n, d))| o.saturating_add(*n) > *d);
                    if partial {
                        c.filter_mask = u32::MAX;
                    }
                }
            }
        }
        Ok(chunks)
    }

    fn stored_chunks(&self) -> FormatResult<Vec<Chunk>> {
        let Layout::Chunked {
            chunk_dims,
            element_size,
            index,
            address,
            ..
        } = &self.layout
        else {
            return Ok(Vec::new());
        };
        if let Some(known) = &self.known_chunks {
            return Ok(known.as_ref().clone());
        }
        let Some(address) = *address else {
            return Ok(Vec::new());
        };
        let src = self.file.source();
        let sizes = self.file.sizes();
        let rank = chunk_dims.len();
        let grid = self.grid(chunk_dims);
        match index {
            ChunkIndex::BTreeV1 => chunk_records(src, address, rank, sizes),
            ChunkIndex::SingleChunk { filtered } => {
                let full = grid
                    .chunk
                    .iter()
                    .fold(*element_size, |a, c| a.saturating_mul(*c));
                let (size, mask) = filtered.unwrap_or((full, 0));
                Ok(vec![ChunkRecord {
                    offsets: vec![0; rank],
                    size: u32::try_from(size).unwrap_or(u32::MAX),
                    filter_mask: mask,
                    address,
                }])
            }
            ChunkIndex::Implicit => Ok(chunk_index::implicit(address, &grid, *element_size)),
            ChunkIndex::FixedArray { .. } => {
                chunk_index::fixed_array(src, address, sizes, &grid, *element_size)
            }
            ChunkIndex::ExtensibleArray { .. } => {
                chunk_index::extensible_array(src, address, sizes, &grid, *element_size)
            }
            ChunkIndex::BTreeV2 { .. } => {
                chunk_index::btree_v2(src, address, sizes, &grid, *element_size)
            }
        }
    }

    /// The fill value bytes for one element (zeros when none is defined).
    pub fn fill_bytes(&self) -> Vec<u8> {
        let n = self.element_size() as usize;
        match self.fill.as_ref().and_then(|f| f.value.as_ref()) {
            Some(v) if v.len() == n => v.clone(),
            _ => vec![0; n],
        }
    }

    /// Reads the whole dataset: elements in file byte order, row-major. Unwritten chunks and
    /// unallocated storage read as the fill value.
    pub fn read_raw(&self) -> FormatResult<Vec<u8>> {
        let esize = self.element_size();
        let n = self
            .space
            .num_elements()
            .ok_or_else(|| missing(self.header.address, "dataspace size"))?;
        if matches!(self.layout, Layout::Virtual { .. }) {
            return Ok(self.virtual_data()?.as_ref().clone());
        }
        let total = n
            .checked_mul(esize)
            .filter(|t| *t <= self.file.source().len().saturating_mul(1024).max(1 << 20));
        let total = total.ok_or_else(|| {
            FormatError::new(
                FormatErrorKind::LimitExceeded(n),
                self.header.address,
                "dataset size",
            )
        })? as usize;
        // No elements: nothing to read, and no fill value to build (the element size is bounded
        // only by the output, which is empty).
        if total == 0 {
            return Ok(Vec::new());
        }
        let fill = self.fill_bytes();
        let mut out = vec![0u8; total];
        crate::read::slab::fill_with(&mut out, &fill);
        match &self.layout {
            Layout::Compact { data } => {
                let k = data.len().min(total);
                out[..k].copy_from_slice(&data[..k]);
            }
            Layout::Contiguous {
                address: Some(a), ..
            } => {
                self.file.source().read_at(*a, &mut out).map_err(|_| {
                    FormatError::new(
                        FormatErrorKind::UnexpectedEof {
                            wanted: total as u64,
                            available: 0,
                        },
                        *a,
                        "contiguous data",
                    )
                })?;
            }
            Layout::Contiguous { address: None, .. } => {
                if let Some(ext) = &self.external {
                    let src =
                        crate::read::external::ExternalSource::open(ext, self.header.address)?;
                    src.read_at(0, &mut out).map_err(|_| {
                        FormatError::new(
                            FormatErrorKind::UnexpectedEof {
                                wanted: total as u64,
                                available: src.len(),
                            },
                            self.header.address,
                            "external data",
                        )
                    })?;
                }
            }
            Layout::Chunked { chunk_dims, .. } => self.read_chunks_into(chunk_dims, &mut out)?,
            Layout::Virtual { .. } => unreachable!("returned above"),
        }
        Ok(out)
    }

    fn read_chunks_into(&self, chunk_dims: &[u64], out: &mut [u8]) -> FormatResult<()> {
        let esize = self.element_size();
        let chunk_bytes = chunk_dims.iter().fold(esize, |a, c| a.saturating_mul(*c));
        let max_out =
            usize::try_from(chunk_bytes).map_err(|_| missing(self.header.address, "chunk size"))?;
        let dims = self.space.dims().to_vec();
        let chunks = self.chunks()?;
        let src = self.file.source();
        for batch in chunks.chunks(BATCH) {
            let decoded: Vec<FormatResult<(usize, Vec<u8>)>> = batch
                .par_iter()
                .enumerate()
                .map(|(i, c)| {
                    let raw = crate::format::object_header::read_block(
                        src,
                        c.address,
                        u64::from(c.size),
                        "chunk",
                    )?;
                    let data = if self.filters.filters.is_empty() {
                        raw
                    } else {
                        decode_chunk(&self.filters, c.filter_mask, raw, max_out, esize as usize)
                            .map_err(|e| filter_error(e, c.address))?
                    };
                    Ok((i, data))
                })
                .collect();
            for d in decoded {
                let (i, data) = d?;
                copy_chunk(
                    &data,
                    &batch[i].offsets,
                    chunk_dims,
                    &dims,
                    esize as usize,
                    out,
                );
            }
        }
        Ok(())
    }
}

fn filter_error(e: FilterError, at: u64) -> FormatError {
    let kind = match e {
        FilterError::Unknown(id) | FilterError::NotBuilt(id, _) => {
            FormatErrorKind::UnknownMessage(id)
        }
        _ => FormatErrorKind::InvalidValue(0),
    };
    FormatError::new(kind, at, "chunk filter")
}

fn committed_type(file: &Hdf5File, address: u64) -> FormatResult<Datatype> {
    let oh = file.object_header(address)?;
    let m = oh
        .message(MessageType::DATATYPE)
        .ok_or_else(|| missing(address, "committed datatype"))?;
    Datatype::parse(&mut Cursor::new(&m.data, m.offset, "datatype"))
}

/// Copies the part of a decoded chunk that lies inside the dataset into the row-major output.
fn copy_chunk(
    chunk: &[u8],
    offsets: &[u64],
    chunk_dims: &[u64],
    dims: &[u64],
    esize: usize,
    out: &mut [u8],
) {
    let rank = dims.len();
    if rank == 0 {
        let k = esize.min(chunk.len()).min(out.len());
        out[..k].copy_from_slice(&chunk[..k]);
        return;
    }
    if offsets.len() != rank
        || chunk_dims.len() != rank
        || offsets.iter().zip(dims).any(|(o, d)| o >= d)
    {
        return;
    }
    // Extent of the chunk inside the dataset along each dimension.
    let extent: Vec<u64> = (0..rank)
        .map(|d| chunk_dims[d].min(dims[d] - offsets[d]))
        .collect();
    let run = extent[rank - 1] as usize * esize;
    let mut idx = vec![0u64; rank - 1];
    loop {
        let mut src = 0u64;
        let mut dst = 0u64;
        for d in 0..rank {
            let i = if d < rank - 1 { idx[d] } else { 0 };
            src = src * chunk_dims[d] + i;
            dst = dst * dims[d] + offsets[d] + i;
        }
        let (s, t) = (src as usize * esize, dst as usize * esize);
        if let (Some(from), Some(to)) = (chunk.get(s..s + run), out.get_mut(t..t + run)) {
            to.copy_from_slice(from);
        }
        // Next row.
        let mut d = rank - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < extent[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}
