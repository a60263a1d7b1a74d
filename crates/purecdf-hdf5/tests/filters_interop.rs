//! The registered compression filters (bzip2 307, LZF 32000, blosc 32001, LZ4 32004, bitshuffle
//! 32008, zstd 32015) against libhdf5 with hdf5plugin's (and h5py's) filters, both ways.
//!
//! - `committed_fixture_reads`: `tests/data/filters_plugins.h5` (written by
//!   `tests/data/filters_interop.py fixture`) holds one small dataset per filter and blosc
//!   compressor x shuffle; each must read as `/expected_4`. Needs no Python.
//! - `plugins_write_we_read`: `filters_interop.py write` makes every blosc compressor x shuffle
//!   mode x type size 1/2/4/8 at levels 1/5/9, shuffle|zstd, zstd, bzip2, LZ4 (one block and
//!   1000-byte blocks), bitshuffle (none, LZ4, zstd; default and 256-element blocks) and LZF, of
//!   odd lengths and chunk sizes; we must read exactly the values written.
//! - `we_write_plugins_read`: the same datasets written by us with the same filters (client data
//!   as read from libhdf5's file, then as a user gives them, filled by our `set_local`) must read
//!   back in h5py exactly.
//!
//! A Python with h5py, hdf5plugin and numpy comes from `$PURECDF_PYTHON` or `python3`; without
//! one the last two tests skip, or fail under `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "common/python.rs"]
mod python;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use purecdf_hdf5::filter;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::messages::fill_value::{FillTime, FillValue};
use purecdf_hdf5::format::messages::filter_pipeline::{FilterDesc, FilterPipeline};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Hdf5File, Slab};
use purecdf_hdf5::write::{DatasetSpec, Hdf5Writer, StorageSpec, TypeSpec};

fn python() -> Option<PathBuf> {
    python::python_with("h5py, hdf5plugin, numpy")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn run(py: &Path, args: &[&str]) -> String {
    let out = Command::new(py)
        .arg(data("filters_interop.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "filters_interop.py {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn open(path: &Path) -> Hdf5File {
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

/// One line of the manifest: name, numpy type string, length, chunk length.
struct Entry {
    name: String,
    dtype: String,
    n: u64,
    chunk: u64,
}

fn manifest(dir: &Path) -> Vec<Entry> {
    std::fs::read_to_string(dir.join("manifest.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Entry {
                name: w[0].into(),
                dtype: w[1].into(),
                n: w[2].parse().unwrap(),
                chunk: w[3].parse().unwrap(),
            }
        })
        .collect()
}

fn datatype(code: &str) -> Datatype {
    let size: u32 = code[2..].parse().unwrap();
    match &code[1..2] {
        "f" if size == 4 => Datatype::ieee_f32(false),
        "f" => Datatype::ieee_f64(false),
        "u" => Datatype::integer(size, false, false),
        _ => Datatype::integer(size, true, false),
    }
}

#[test]
fn committed_fixture_reads() {
    let f = open(&data("filters_plugins.h5"));
    let want = f.dataset("/expected_4").unwrap().read_raw().unwrap();
    let mut seen = 0;
    for m in f.root().unwrap().members().unwrap() {
        let name = m.name;
        if name.starts_with("expected") {
            continue;
        }
        let ds = f.dataset(&format!("/{name}")).unwrap();
        for d in &ds.filters.filters {
            assert!(filter::is_available(d.id), "{name}: filter {}", d.id);
        }
        assert_eq!(ds.read_raw().unwrap(), want, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 21);
}

#[test]
fn plugins_write_we_read() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    run(&py, &["write", dir.path().to_str().unwrap()]);
    let f = open(&dir.path().join("theirs.h5"));
    let entries = manifest(dir.path());
    assert!(entries.len() > 90);
    let mut bad = Vec::new();
    for e in &entries {
        let want = std::fs::read(dir.path().join(format!("{}.raw", e.name))).unwrap();
        match f.dataset(&e.name).and_then(|d| d.read_raw()) {
            Ok(got) if got == want => {}
            Ok(_) => bad.push(format!("{}: other values", e.name)),
            Err(err) => bad.push(format!("{}: {err}", e.name)),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {}:\n{}",
        bad.len(),
        entries.len(),
        bad.join("\n")
    );
}

/// The filters a user gives for a dataset, before `set_local`.
fn user_filters(name: &str) -> Option<Vec<FilterDesc>> {
    let desc = |id: u16, cd: Vec<u32>| FilterDesc {
        id,
        name: None,
        flags: 1,
        client_data: cd,
    };
    let mut parts = name.split('_');
    Some(match parts.next()? {
        "blosc" => {
            let (cname, sname) = (parts.next()?, parts.next()?);
            let c = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]
                .iter()
                .position(|c| *c == cname)? as u32;
            let s = ["none", "byte", "bit"].iter().position(|c| *c == sname)? as u32;
            vec![desc(filter::BLOSC, vec![0, 0, 0, 0, 7, s, c])]
        }
        "bitshuffle" => vec![desc(filter::BITSHUFFLE, vec![0, 2])],
        "lzf" => vec![desc(filter::LZF, vec![])],
        "zstd" => vec![desc(filter::ZSTD, vec![9])],
        _ => return None,
    })
}

#[test]
fn we_write_plugins_read() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    run(&py, &["write", dir.path().to_str().unwrap()]);
    let theirs = open(&dir.path().join("theirs.h5"));
    let entries = manifest(dir.path());
    // Twice: with libhdf5's client data, then with a user's (filled by our set_local).
    for round in 0..2 {
        let ours = dir.path().join(format!("ours{round}.h5"));
        let mut w = Hdf5Writer::create(&ours).unwrap();
        let root = w.root();
        for e in &entries {
            let filters = if round == 0 {
                theirs.dataset(&e.name).unwrap().filters.filters
            } else {
                user_filters(&e.name)
                    .unwrap_or_else(|| theirs.dataset(&e.name).unwrap().filters.filters)
            };
            let ds = w
                .create_dataset(
                    root,
                    &e.name,
                    DatasetSpec {
                        dtype: TypeSpec::Inline(datatype(&e.dtype)),
                        space: Dataspace::Simple {
                            dims: vec![e.n],
                            max_dims: vec![Some(e.n)],
                        },
                        storage: StorageSpec::Chunked(vec![e.chunk]),
                        filters: FilterPipeline { filters },
                        fill: FillValue {
                            alloc_time: 2,
                            fill_time: FillTime::IfSet,
                            value: None,
                        },
                    },
                )
                .unwrap();
            let raw = std::fs::read(dir.path().join(format!("{}.raw", e.name))).unwrap();
            w.write(ds, &Slab::whole(&[e.n]), &raw).unwrap();
        }
        w.flush().unwrap();
        drop(w);
        let said = run(
            &py,
            &["read", ours.to_str().unwrap(), dir.path().to_str().unwrap()],
        );
        assert_eq!(
            said.trim(),
            format!("ok {}", entries.len()),
            "round {round}"
        );
    }
}
