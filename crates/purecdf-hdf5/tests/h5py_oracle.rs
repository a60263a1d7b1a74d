//! libhdf5 (through h5py) as the oracle for chunked reading and Fletcher-32, both ways.
//!
//! - `chunk_indexes_match_h5py`: `tests/data/h5py_oracle.py chunks` writes random chunked
//!   datasets (ranks 1–4, fixed, larger-than-current, one unlimited dimension in any position,
//!   several unlimited dimensions, single chunk; grown in steps and written in random boxes;
//!   no filter, deflate, shuffle + deflate, Fletcher-32) under both library-version bounds, so
//!   that libhdf5 uses every chunk index (version 1 and 2 B-trees, single chunk, implicit, fixed
//!   and extensible arrays). Every dataset read whole and in strided hyperslabs must equal what
//!   h5py reads back, and every index type must have been seen.
//! - `hdf5_2_latest_format_matches_h5py`: what only HDF5 2.0 writes (libver "latest"): layout
//!   message version 5 (filtered chunked datasets), datatype message version 5 (compounds) and
//!   native complex numbers (class 11) in datasets and attributes, next to contiguous, compact
//!   and chunked datasets of other types; the chunk-index test also runs under "latest".
//! - `fletcher32_matches_h5py`: chunks that are all zero, partly zero, of odd byte length and
//!   large, written by libhdf5 and read by us; the same datasets written by us and read by h5py.
//!
//! A Python with h5py and numpy comes from `$PURECDF_PYTHON` or `python3`; without one the tests
//! skip, or fail under `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "common/python.rs"]
mod python;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use purecdf_hdf5::format::messages::attribute::TypeRef;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::messages::fill_value::{FillTime, FillValue};
use purecdf_hdf5::format::messages::filter_pipeline::{FilterDesc, FilterPipeline};
use purecdf_hdf5::format::messages::layout::{ChunkIndex, Layout};
use purecdf_hdf5::format::object_header::MessageType;
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Hdf5File, Slab};
use purecdf_hdf5::write::{DatasetSpec, Hdf5Writer, StorageSpec, TypeSpec};

fn python() -> Option<PathBuf> {
    python::python_with("h5py, numpy")
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/h5py_oracle.py")
}

fn oracle(py: &Path, args: &[&str]) -> String {
    let out = Command::new(py).arg(script()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "h5py_oracle.py {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `h5py_oracle.py CMD DIR` in a new temporary folder: the Python, the folder and its
/// manifest; `None` (the test skips) without a Python that has h5py.
fn written_by_h5py(cmd: &str) -> Option<(PathBuf, tempfile::TempDir, Vec<Entry>)> {
    let py = python()?;
    let dir = tempfile::tempdir().unwrap();
    oracle(&py, &[cmd, dir.path().to_str().unwrap()]);
    let entries = manifest(dir.path());
    Some((py, dir, entries))
}

/// One line of a manifest: file, dataset path, raw file, element size, shape.
struct Entry {
    file: String,
    path: String,
    raw: String,
    esize: usize,
    shape: Vec<u64>,
}

fn manifest(dir: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(dir.join("manifest.txt")).unwrap();
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let rank: usize = w[4].parse().unwrap();
            Entry {
                file: w[0].into(),
                path: w[1].into(),
                raw: w[2].into(),
                esize: w[3][2..].parse().unwrap(),
                shape: w[5..5 + rank].iter().map(|s| s.parse().unwrap()).collect(),
            }
        })
        .collect()
}

fn open(path: &Path) -> Hdf5File {
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

fn index_name(layout: &Layout) -> &'static str {
    match layout {
        Layout::Chunked { index, .. } => match index {
            ChunkIndex::BTreeV1 => "v1 B-tree",
            ChunkIndex::SingleChunk { .. } => "single chunk",
            ChunkIndex::Implicit => "implicit",
            ChunkIndex::FixedArray { .. } => "fixed array",
            ChunkIndex::ExtensibleArray { .. } => "extensible array",
            ChunkIndex::BTreeV2 { .. } => "v2 B-tree",
        },
        _ => "not chunked",
    }
}

/// The elements of `slab` taken from the row-major array `all` of `shape`.
fn select(all: &[u8], shape: &[u64], slab: &Slab, esize: usize) -> Vec<u8> {
    let n: u64 = slab.count.iter().product();
    let mut out = Vec::with_capacity(n as usize * esize);
    let rank = shape.len();
    let mut idx = vec![0u64; rank];
    for _ in 0..n {
        let mut lin = 0u64;
        for d in 0..rank {
            lin = lin * shape[d] + slab.start[d] + idx[d] * slab.stride[d];
        }
        let at = lin as usize * esize;
        out.extend_from_slice(&all[at..at + esize]);
        for d in (0..rank).rev() {
            idx[d] += 1;
            if idx[d] < slab.count[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// Strided hyperslabs of `shape`: every other element from 1, and the last half.
fn slabs(shape: &[u64]) -> Vec<Slab> {
    let odd = Slab {
        start: shape.iter().map(|&d| u64::from(d > 1)).collect(),
        count: shape
            .iter()
            .map(|&d| if d > 1 { d / 2 } else { d })
            .collect(),
        stride: shape.iter().map(|&d| if d > 1 { 2 } else { 1 }).collect(),
    };
    let tail = Slab {
        start: shape.iter().map(|&d| d / 2).collect(),
        count: shape.iter().map(|&d| d - d / 2).collect(),
        stride: vec![1; shape.len()],
    };
    vec![odd, tail]
}

/// `ds` has the shape of `e` and reads whole and in [`slabs`] as `want`, what h5py read.
fn reads_as_h5py(ds: &purecdf_hdf5::read::Dataset, e: &Entry, want: &[u8], what: &str) {
    assert_eq!(ds.space.dims(), &e.shape[..], "{what}: shape");
    let got = ds.read_raw().unwrap();
    assert!(got == want, "{what}: whole read differs from h5py's");
    for slab in slabs(&e.shape) {
        let got = ds.read_slab(&slab).unwrap();
        let want = select(want, &e.shape, &slab, e.esize);
        assert!(
            got == want,
            "{what}: hyperslab {slab:?} differs from h5py's"
        );
    }
}

#[test]
fn chunk_indexes_match_h5py() {
    let Some(py) = python() else { return };
    let mut seen = BTreeSet::new();
    let mut checked = 0;
    for seed in ["1", "2", "3"] {
        let dir = tempfile::tempdir().unwrap();
        oracle(&py, &["chunks", dir.path().to_str().unwrap(), seed]);
        for e in manifest(dir.path()) {
            let f = open(&dir.path().join(&e.file));
            let ds = f.dataset(&e.path).unwrap();
            seen.insert(index_name(&ds.layout));
            let want = std::fs::read(dir.path().join(&e.raw)).unwrap();
            let what = format!(
                "seed {seed} {} {} ({})",
                e.file,
                e.path,
                index_name(&ds.layout)
            );
            reads_as_h5py(&ds, &e, &want, &what);
            checked += 1;
        }
    }
    println!("{checked} datasets equal to h5py's; indexes {seen:?}");
    for kind in [
        "v1 B-tree",
        "single chunk",
        "implicit",
        "fixed array",
        "extensible array",
        "v2 B-tree",
    ] {
        assert!(seen.contains(kind), "no {kind} index among the cases");
    }
}

/// The element type of a manifest entry, from its numpy dtype string (`<i4`, `<f8`, `|i1`, …).
fn dtype_of(e: &Entry, manifest_line: &str) -> Datatype {
    let code = manifest_line.split_whitespace().nth(3).unwrap();
    match &code[1..2] {
        "f" if e.esize == 4 => Datatype::ieee_f32(false),
        "f" => Datatype::ieee_f64(false),
        "u" => Datatype::integer(e.esize as u32, false, false),
        _ => Datatype::integer(e.esize as u32, true, false),
    }
}

#[test]
fn fletcher32_matches_h5py() {
    let Some((py, dir, entries)) = written_by_h5py("fletcher-write") else {
        return;
    };
    let lines = std::fs::read_to_string(dir.path().join("manifest.txt")).unwrap();
    let lines: Vec<&str> = lines.lines().collect();
    // libhdf5's checksums, read by us.
    let theirs = open(&dir.path().join("fletcher32.h5"));
    for e in &entries {
        let want = std::fs::read(dir.path().join(&e.raw)).unwrap();
        let got = theirs.dataset(&e.path).unwrap().read_raw().unwrap();
        assert!(
            got == want,
            "{}: we read other values than h5py wrote",
            e.path
        );
    }
    // Ours, read by libhdf5.
    let ours_dir = tempfile::tempdir().unwrap();
    let ours = ours_dir.path().join("ours.h5");
    let mut w = Hdf5Writer::create(&ours).unwrap();
    let root = w.root();
    for (e, line) in entries.iter().zip(&lines) {
        let theirs_ds = theirs.dataset(&e.path).unwrap();
        let Layout::Chunked { chunk_dims, .. } = &theirs_ds.layout else {
            panic!("{}: not chunked", e.path)
        };
        let ds = w
            .create_dataset(
                root,
                e.path.trim_start_matches('/'),
                DatasetSpec {
                    dtype: TypeSpec::Inline(dtype_of(e, line)),
                    space: Dataspace::Simple {
                        dims: e.shape.clone(),
                        max_dims: e.shape.iter().map(|d| Some(*d)).collect(),
                    },
                    storage: StorageSpec::Chunked(chunk_dims.clone()),
                    filters: FilterPipeline {
                        filters: vec![FilterDesc {
                            id: 3,
                            name: None,
                            flags: 1,
                            client_data: vec![],
                        }],
                    },
                    fill: FillValue {
                        alloc_time: 2,
                        fill_time: FillTime::IfSet,
                        value: None,
                    },
                },
            )
            .unwrap();
        let raw = std::fs::read(dir.path().join(&e.raw)).unwrap();
        std::fs::write(
            ours_dir
                .path()
                .join(format!("{}.raw", e.path.trim_start_matches('/'))),
            &raw,
        )
        .unwrap();
        w.write(ds, &Slab::whole(&e.shape), &raw).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let said = oracle(
        &py,
        &[
            "fletcher-read",
            ours.to_str().unwrap(),
            ours_dir.path().to_str().unwrap(),
        ],
    );
    assert_eq!(said.trim(), format!("ok {}", entries.len()));
}

/// The first byte (the version) of each message of type `t` in `ds`'s header.
fn message_versions(ds: &purecdf_hdf5::read::Dataset, t: MessageType) -> Vec<u8> {
    ds.header()
        .messages
        .iter()
        .filter(|m| m.mtype == t)
        .filter_map(|m| m.data.first().copied())
        .collect()
}

#[test]
fn hdf5_2_latest_format_matches_h5py() {
    let Some((_, dir, entries)) = written_by_h5py("latest") else {
        return;
    };
    assert!(entries.len() >= 16, "{} datasets", entries.len());
    let f = open(&dir.path().join("latest.h5"));
    let (mut layout5, mut complex, mut compound5) = (0, 0, 0);
    for e in &entries {
        let ds = f.dataset(&e.path).unwrap();
        let want = std::fs::read(dir.path().join(&e.raw)).unwrap();
        reads_as_h5py(&ds, e, &want, &e.path);
        layout5 += usize::from(message_versions(&ds, MessageType::LAYOUT) == [5]);
        compound5 += usize::from(message_versions(&ds, MessageType::DATATYPE) == [0x56]);
        if let Datatype::Complex { base, .. } = &ds.dtype {
            assert!(matches!(**base, Datatype::FloatingPoint { .. }));
            complex += 1;
        }
    }
    // Every filtered chunked dataset has a version 5 layout message.
    assert_eq!((layout5, complex, compound5), (7, 3, 3));
    let attrs = f.root().unwrap().attributes().unwrap();
    assert_eq!(attrs.len(), 13);
    let c = attrs.iter().find(|a| a.name == "complex_attr").unwrap();
    assert!(matches!(
        &c.dtype,
        TypeRef::Inline(Datatype::Complex { size: 16, .. })
    ));
    let want: Vec<u8> = [5f64, -6f64].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(c.data, want);
}
