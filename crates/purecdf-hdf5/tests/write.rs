//! The HDF5 writer: files it writes read back exactly (through our reader and, when installed,
//! libhdf5's h5dump), updates in place keep unchanged objects where they were, partial chunk
//! writes and reads before a flush agree with a model array, and nothing written after a flush
//! is reachable from the file until the next flush.

use std::path::Path;
use std::sync::Arc;

use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::{Charset, CompoundMember, Datatype, StringPadding};
use purecdf_hdf5::format::messages::fill_value::{FillTime, FillValue};
use purecdf_hdf5::format::messages::filter_pipeline::{FilterDesc, FilterPipeline};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Hdf5File, Slab};
use purecdf_hdf5::write::{
    AttrSpec, DatasetSpec, Hdf5Writer, ObjId, Piece, StorageSpec, Target, TypeSpec,
};

fn i32t() -> Datatype {
    Datatype::integer(4, true, false)
}

fn f64t() -> Datatype {
    Datatype::ieee_f64(false)
}

fn vstr() -> Datatype {
    Datatype::VarLen {
        base: Box::new(Datatype::integer(1, false, false)),
        is_string: true,
        padding: StringPadding::NullTerminate,
        charset: Charset::Utf8,
    }
}

fn simple(dims: &[u64], max: &[Option<u64>]) -> Dataspace {
    Dataspace::Simple {
        dims: dims.to_vec(),
        max_dims: max.to_vec(),
    }
}

fn fixed(dims: &[u64]) -> Dataspace {
    simple(dims, &dims.iter().map(|d| Some(*d)).collect::<Vec<_>>())
}

fn fill(v: Option<Vec<u8>>) -> FillValue {
    FillValue {
        alloc_time: 2,
        fill_time: FillTime::IfSet,
        value: v,
    }
}

fn deflate_shuffle(esize: u32) -> FilterPipeline {
    FilterPipeline {
        filters: vec![
            FilterDesc {
                id: 2,
                name: None,
                flags: 1,
                client_data: vec![esize],
            },
            FilterDesc {
                id: 1,
                name: None,
                flags: 0,
                client_data: vec![1],
            },
        ],
    }
}

fn ints(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn open(path: &Path) -> Hdf5File {
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

fn read_all(f: &Hdf5File, path: &str) -> Vec<u8> {
    f.dataset(path).unwrap().read_raw().unwrap()
}

fn slab(start: &[u64], count: &[u64], stride: &[u64]) -> Slab {
    Slab {
        start: start.to_vec(),
        count: count.to_vec(),
        stride: stride.to_vec(),
    }
}

fn string(s: &str) -> Piece {
    Piece::Vlen {
        count: s.len() as u32,
        content: vec![Piece::Bytes(s.as_bytes().to_vec())],
    }
}

/// A file with every storage kind, strings, a committed compound and object references.
fn build(path: &Path) -> (Hdf5Writer, [ObjId; 4]) {
    let mut w = Hdf5Writer::create(path).unwrap();
    let root = w.root();
    let g = w.create_group(root, "grp").unwrap();
    let contig = w
        .create_dataset(
            g,
            "contig",
            DatasetSpec {
                dtype: TypeSpec::Inline(i32t()),
                space: fixed(&[3, 4]),
                storage: StorageSpec::Contiguous,
                filters: FilterPipeline::default(),
                fill: fill(Some(ints(&[-1]))),
            },
        )
        .unwrap();
    w.write(
        contig,
        &slab(&[1, 1], &[2, 3], &[1, 1]),
        &ints(&[0, 1, 2, 3, 4, 5]),
    )
    .unwrap();
    let chunked = w
        .create_dataset(
            root,
            "chunked",
            DatasetSpec {
                dtype: TypeSpec::Inline(f64t()),
                space: simple(&[0, 5], &[None, Some(5)]),
                storage: StorageSpec::Chunked(vec![2, 5]),
                filters: deflate_shuffle(8),
                fill: fill(Some(9.5f64.to_le_bytes().to_vec())),
            },
        )
        .unwrap();
    w.set_extent(chunked, &[3, 5]).unwrap();
    let d: Vec<u8> = (0..15).flat_map(|v| f64::from(v).to_le_bytes()).collect();
    w.write(chunked, &Slab::whole(&[3, 5]), &d).unwrap();
    let strings = w
        .create_dataset(
            root,
            "strings",
            DatasetSpec {
                dtype: TypeSpec::Inline(vstr()),
                space: fixed(&[3]),
                storage: StorageSpec::Contiguous,
                filters: FilterPipeline::default(),
                fill: fill(None),
            },
        )
        .unwrap();
    w.write_pieces(
        strings,
        &Slab::whole(&[3]),
        &[string("abc"), string("ü"), string("")],
    )
    .unwrap();
    let cmp = w
        .commit_datatype(
            root,
            "cmp_t",
            Datatype::Compound {
                size: 12,
                members: vec![
                    CompoundMember {
                        name: "i".into(),
                        offset: 0,
                        dtype: i32t(),
                    },
                    CompoundMember {
                        name: "d".into(),
                        offset: 4,
                        dtype: f64t(),
                    },
                ],
            },
        )
        .unwrap();
    let compact = w
        .create_dataset(
            root,
            "compact",
            DatasetSpec {
                dtype: TypeSpec::Committed(cmp),
                space: fixed(&[2]),
                storage: StorageSpec::Compact,
                filters: FilterPipeline::default(),
                fill: fill(None),
            },
        )
        .unwrap();
    let mut kd = ints(&[7]);
    kd.extend_from_slice(&1.5f64.to_le_bytes());
    kd.extend_from_slice(&ints(&[8]));
    kd.extend_from_slice(&2.5f64.to_le_bytes());
    w.write(compact, &Slab::whole(&[2]), &kd).unwrap();
    w.put_attribute(
        root,
        AttrSpec {
            name: "title".into(),
            dtype: TypeSpec::Inline(Datatype::String {
                size: 5,
                padding: StringPadding::NullTerminate,
                charset: Charset::Ascii,
            }),
            space: Dataspace::Scalar,
            data: vec![Piece::Bytes(b"hello".to_vec())],
        },
    )
    .unwrap();
    w.put_attribute(
        strings,
        AttrSpec {
            name: "refs".into(),
            dtype: TypeSpec::Inline(Datatype::VarLen {
                base: Box::new(Datatype::Reference { size: 8, kind: 0 }),
                is_string: false,
                padding: StringPadding::NullTerminate,
                charset: Charset::Ascii,
            }),
            space: fixed(&[1]),
            data: vec![Piece::Vlen {
                count: 2,
                content: vec![Piece::Ref(contig), Piece::Ref(chunked)],
            }],
        },
    )
    .unwrap();
    w.link(root, "soft", Target::Soft("/grp/contig".into()))
        .unwrap();
    (w, [contig, chunked, strings, compact])
}

fn expected_contig() -> Vec<u8> {
    ints(&[-1, -1, -1, -1, -1, 0, 1, 2, -1, 3, 4, 5])
}

#[test]
fn everything_reads_back_through_our_reader() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.h5");
    let (mut w, _) = build(&path);
    w.flush().unwrap();
    drop(w);
    let f = open(&path);
    assert_eq!(f.superblock().version, 2);
    assert_eq!(read_all(&f, "/grp/contig"), expected_contig());
    let d: Vec<u8> = (0..15).flat_map(|v| f64::from(v).to_le_bytes()).collect();
    assert_eq!(read_all(&f, "/chunked"), d);
    let ds = f.dataset("/chunked").unwrap();
    assert_eq!(ds.chunks().unwrap().len(), 2);
    assert_eq!(ds.filters, deflate_shuffle(8));
    let compact = read_all(&f, "/compact");
    assert_eq!(&compact[..4], &ints(&[7])[..]);
    assert_eq!(&compact[16..24], &2.5f64.to_le_bytes()[..]);
    let root = f.root().unwrap();
    let names: Vec<String> = root
        .members()
        .unwrap()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(
        names,
        ["grp", "chunked", "strings", "cmp_t", "compact", "soft"]
    );
    let attrs = root.attributes().unwrap();
    assert_eq!(attrs.len(), 1);
    assert_eq!(attrs[0].name, "title");
    assert_eq!(attrs[0].data, b"hello");
    // Vlen strings: 16-byte elements pointing into a global heap collection.
    let s = read_all(&f, "/strings");
    assert_eq!(s.len(), 48);
    assert_eq!(u32::from_le_bytes(s[0..4].try_into().unwrap()), 3);
    assert_eq!(u32::from_le_bytes(s[16..20].try_into().unwrap()), 2);
    // An empty string is an empty heap object (libhdf5 does the same); only a sequence
    // without content is the null reference.
    assert_eq!(u32::from_le_bytes(s[32..36].try_into().unwrap()), 0);
    assert_ne!(&s[36..44], &[0u8; 8][..]);
}

#[test]
fn reads_before_a_flush_see_pending_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.h5");
    let mut w = Hdf5Writer::create(&path).unwrap();
    let root = w.root();
    let ds = w
        .create_dataset(
            root,
            "v",
            DatasetSpec {
                dtype: TypeSpec::Inline(i32t()),
                space: simple(&[10, 14], &[None, Some(14)]),
                storage: StorageSpec::Chunked(vec![4, 5]),
                filters: deflate_shuffle(4),
                fill: fill(Some(ints(&[-7]))),
            },
        )
        .unwrap();
    // A model of the dataset, updated alongside by a deterministic sequence of strided writes.
    let (rows, cols) = (10usize, 14usize);
    let mut model = vec![-7i32; rows * cols];
    let mut seed = 12345u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for round in 0..40 {
        let s = [next(rows as u64), next(cols as u64)];
        let st = [1 + next(3), 1 + next(3)];
        let c = [
            1 + next((rows as u64 - s[0] - 1) / st[0] + 1),
            1 + next((cols as u64 - s[1] - 1) / st[1] + 1),
        ];
        let mut vals = Vec::new();
        for i in 0..c[0] {
            for j in 0..c[1] {
                let v = (round * 1000 + i * 100 + j) as i32;
                model[((s[0] + i * st[0]) as usize) * cols + (s[1] + j * st[1]) as usize] = v;
                vals.push(v);
            }
        }
        w.write(ds, &slab(&s, &c, &st), &ints(&vals)).unwrap();
        if round % 13 == 0 {
            w.flush().unwrap();
        }
        let mut out = vec![0u8; rows * cols * 4];
        w.read(ds, &Slab::whole(&[10, 14]), &mut out).unwrap();
        assert_eq!(out, ints(&model), "round {round}");
    }
    w.flush().unwrap();
    drop(w);
    assert_eq!(read_all(&open(&path), "/v"), ints(&model));
}

#[test]
fn reopened_files_keep_unchanged_objects_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.h5");
    let (mut w, _) = build(&path);
    w.flush().unwrap();
    drop(w);
    let before = open(&path);
    let contig_at = before.object_address("/grp/contig").unwrap();
    let compact_at = before.object_address("/compact").unwrap();
    let mut w = Hdf5Writer::open(&path).unwrap();
    let root = w.root();
    let chunked = w.child(root, "chunked").unwrap();
    w.set_extent(chunked, &[4, 5]).unwrap();
    let row: Vec<u8> = (100..105)
        .flat_map(|v| f64::from(v).to_le_bytes())
        .collect();
    w.write(chunked, &slab(&[3, 0], &[1, 5], &[1, 1]), &row)
        .unwrap();
    let g = w.child(root, "grp").unwrap();
    w.put_attribute(
        g,
        AttrSpec {
            name: "n".into(),
            dtype: TypeSpec::Inline(i32t()),
            space: fixed(&[3]),
            data: vec![Piece::Bytes(ints(&[1, 2, 3]))],
        },
    )
    .unwrap();
    w.flush().unwrap();
    drop(w);
    let after = open(&path);
    assert_eq!(after.object_address("/grp/contig").unwrap(), contig_at);
    assert_eq!(after.object_address("/compact").unwrap(), compact_at);
    assert_eq!(read_all(&after, "/grp/contig"), expected_contig());
    let mut d: Vec<u8> = (0..15).flat_map(|v| f64::from(v).to_le_bytes()).collect();
    d.extend_from_slice(&row);
    assert_eq!(read_all(&after, "/chunked"), d);
    let ga = after
        .dataset("/chunked")
        .unwrap()
        .attributes()
        .unwrap()
        .len();
    assert_eq!(ga, 0);
    let g = purecdf_hdf5::read::Group::load(&after, after.object_address("/grp").unwrap()).unwrap();
    let a = g.attributes().unwrap();
    assert_eq!(
        (a[0].name.as_str(), a[0].data.clone()),
        ("n", ints(&[1, 2, 3]))
    );
    // The reference attribute now points at the moved dataset.
    let s = after.dataset("/strings").unwrap();
    let refs = s.attributes().unwrap();
    assert_eq!(refs[0].name, "refs");
    // Loading again and flushing without changes writes nothing but the superblock.
    let len = std::fs::metadata(&path).unwrap().len();
    let mut w = Hdf5Writer::open(&path).unwrap();
    w.flush().unwrap();
    drop(w);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), len);
}

#[test]
fn unflushed_changes_are_not_reachable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.h5");
    let (mut w, [contig, chunked, ..]) = build(&path);
    w.flush().unwrap();
    let synced = std::fs::read(&path).unwrap();
    // Change data and metadata, then "die" without flushing.
    w.write(contig, &slab(&[0, 0], &[1, 1], &[1, 1]), &ints(&[42]))
        .unwrap();
    w.set_extent(chunked, &[6, 5]).unwrap();
    let rows: Vec<u8> = (0..15).flat_map(|v| f64::from(-v).to_le_bytes()).collect();
    w.write(chunked, &slab(&[3, 0], &[3, 5], &[1, 1]), &rows)
        .unwrap();
    let root = w.root();
    w.create_group(root, "later").unwrap();
    std::mem::forget(w);
    let f = open(&path);
    // The synced metadata is untouched: the first 48 bytes (superblock) and the headers.
    assert_eq!(
        std::fs::read(&path).unwrap()[..48],
        synced[..48],
        "superblock"
    );
    let names: Vec<String> = f
        .root()
        .unwrap()
        .members()
        .unwrap()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert!(!names.contains(&"later".to_string()));
    let d: Vec<u8> = (0..15).flat_map(|v| f64::from(v).to_le_bytes()).collect();
    assert_eq!(read_all(&f, "/chunked"), d);
    // Contiguous data is updated in place (documented): only that element differs.
    let mut c = expected_contig();
    c[..4].copy_from_slice(&ints(&[42]));
    assert_eq!(read_all(&f, "/grp/contig"), c);
}

fn require_reference() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

#[test]
fn h5dump_reads_what_we_write() {
    if !Path::new("/usr/bin/h5dump").exists() {
        assert!(!require_reference(), "/usr/bin/h5dump is required");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("e.h5");
    let (mut w, _) = build(&path);
    w.flush().unwrap();
    drop(w);
    let out = std::process::Command::new("/usr/bin/h5dump")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "(0,0): -1, -1, -1, -1,",
        "(2,0): -1, 3, 4, 5",
        "(2,0): 10, 11, 12, 13, 14",
        "(0): \"abc\", ",
        "(DATASET ",
        "DATATYPE  \"/cmp_t\"",
        "SOFTLINK \"soft\"",
        "(0): \"hello\"",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    let out = std::process::Command::new("/usr/bin/h5stat")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Complete chunks are filtered on rayon's pool while writes go on: reads before the flush see
/// them, later writes to the same chunk (complete or partial) win, a write from a pool thread
/// works, and an edge chunk keeps fill past the extent for a later extension.
#[test]
fn chunks_filtered_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.h5");
    let mut w = Hdf5Writer::create(&path).unwrap();
    let root = w.root();
    let (cr, cc) = (4u64, 64u64);
    let ds = w
        .create_dataset(
            root,
            "v",
            DatasetSpec {
                dtype: TypeSpec::Inline(i32t()),
                space: simple(&[0, 128], &[None, Some(128)]),
                storage: StorageSpec::Chunked(vec![cr, cc]),
                filters: deflate_shuffle(4),
                fill: fill(Some(ints(&[-1]))),
            },
        )
        .unwrap();
    let rows = 42u64; // the last row of chunks is an edge chunk (rows 40..44)
    let mut model = vec![-1i32; (rows * 128) as usize];
    let chunk = |r0: u64, c0: u64, base: i32| -> Vec<i32> {
        (0..cr * cc)
            .map(|i| base + i as i32 + (r0 * 1000 + c0) as i32)
            .collect()
    };
    w.set_extent(ds, &[rows, 128]).unwrap();
    let put = |w: &mut Hdf5Writer, model: &mut Vec<i32>, r0: u64, c0: u64, n: u64, v: &[i32]| {
        w.write(
            ds,
            &slab(&[r0, c0], &[n, cc], &[1, 1]),
            &ints(&v[..(n * cc) as usize]),
        )
        .unwrap();
        for i in 0..n {
            for j in 0..cc {
                model[((r0 + i) * 128 + c0 + j) as usize] = v[(i * cc + j) as usize];
            }
        }
    };
    for r0 in (0..rows).step_by(cr as usize) {
        for c0 in [0, cc] {
            let n = cr.min(rows - r0);
            put(&mut w, &mut model, r0, c0, n, &chunk(r0, c0, 0));
        }
        // Reads while chunks are in flight.
        let mut out = vec![0u8; model.len() * 4];
        w.read(ds, &Slab::whole(&[rows, 128]), &mut out).unwrap();
        assert!(out == ints(&model), "after row {r0}");
    }
    // Overwrite a chunk twice completely, then part of another chunk still in flight.
    put(&mut w, &mut model, 8, 0, cr, &chunk(8, 0, 500_000));
    put(&mut w, &mut model, 8, 0, cr, &chunk(8, 0, 900_000));
    put(&mut w, &mut model, 12, cc, cr, &chunk(12, cc, 300_000));
    let part: Vec<i32> = (0..3).map(|i| 77 + i).collect();
    w.write(ds, &slab(&[13, cc + 5], &[1, 3], &[1, 1]), &ints(&part))
        .unwrap();
    model[(13 * 128 + cc + 5) as usize..(13 * 128 + cc + 8) as usize].copy_from_slice(&part);
    // A write from a pool thread filters on that thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| put(&mut w, &mut model, 16, 0, cr, &chunk(16, 0, 700_000)));
    let mut out = vec![0u8; model.len() * 4];
    w.read(ds, &Slab::whole(&[rows, 128]), &mut out).unwrap();
    assert!(out == ints(&model));
    w.flush().unwrap();
    // The edge chunk's rows past the old extent read as fill once the dataset grows.
    w.set_extent(ds, &[44, 128]).unwrap();
    model.extend(std::iter::repeat_n(-1, 2 * 128));
    let mut out = vec![0u8; model.len() * 4];
    w.read(ds, &Slab::whole(&[44, 128]), &mut out).unwrap();
    assert!(out == ints(&model));
    w.flush().unwrap();
    drop(w);
    assert!(read_all(&open(&path), "/v") == ints(&model));
}
