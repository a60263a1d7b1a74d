//! Hostile Zarr stores (issue 10): malformed JSON, wrong types, absurd shapes and chunk sizes,
//! missing, truncated and undecodable chunks. Each gives an error naming the key at fault (or,
//! for a missing chunk, the fill value), never a panic or an allocation sized by the store.

#[macro_use]
#[path = "common/wrapped_store.rs"]
mod wrapped_store;

use purecdf::store::MemoryStore;
use purecdf::{ErrorKind, Values};

const ZGROUP: (&str, &str) = (".zgroup", r#"{"zarr_format": 2}"#);

fn store(objects: &[(&str, &[u8])]) -> Box<MemoryStore> {
    let objs = objects.iter().map(|(k, v)| (k.to_string(), v.to_vec()));
    Box::new(MemoryStore::from_objects(objs).unwrap())
}

fn zarray(fields: &str) -> String {
    format!(r#"{{"zarr_format": 2, "order": "C", "compressor": null, "filters": null, {fields}}}"#)
}

/// Opening fails with `kind` and a message naming `key`.
fn open_fails(objects: &[(&str, &[u8])], kind: ErrorKind, key: &str) {
    match purecdf::open_store(store(objects)) {
        Ok(_) => panic!("opened a store with a bad {key}"),
        Err(e) => {
            assert_eq!(e.kind(), kind, "{e}");
            assert!(e.to_string().contains(key), "{e} does not name {key}");
        }
    }
}

/// Opening works but reading variable `v` fails naming `key`.
fn read_fails(objects: &[(&str, &[u8])], key: &str) {
    let f = purecdf::open_store(store(objects)).unwrap();
    let v = f.variable("v").unwrap();
    match v.get_typed_values(..) {
        Ok(x) => panic!("read {x:?} from a bad {key}"),
        Err(e) => assert!(e.to_string().contains(key), "{e} does not name {key}"),
    }
}

#[test]
fn malformed_metadata_names_the_key() {
    let g = ZGROUP.1.as_bytes();
    open_fails(
        &[(".zgroup", b"{\"zarr_format\": 2")],
        ErrorKind::Nczarr,
        ".zgroup",
    );
    open_fails(&[(".zgroup", b"[1, 2]")], ErrorKind::Nczarr, ".zgroup");
    open_fails(&[(".zattrs", b"{}")], ErrorKind::NotNc, ".zgroup");
    open_fails(
        &[(".zgroup", g), (".zattrs", b"{\"a\": }")],
        ErrorKind::Nczarr,
        ".zattrs",
    );
    let deep = "[".repeat(100_000);
    open_fails(
        &[(".zgroup", deep.as_bytes())],
        ErrorKind::Nczarr,
        ".zgroup",
    );
    let cases: [(&str, ErrorKind); 9] = [
        (
            r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": 0, "zarr_format": 3"#,
            ErrorKind::Nczarr,
        ),
        (
            r#""shape": "4", "chunks": [2], "dtype": "<i4", "fill_value": 0"#,
            ErrorKind::Nczarr,
        ),
        (
            r#""shape": [4], "chunks": [0], "dtype": "<i4", "fill_value": 0"#,
            ErrorKind::Nczarr,
        ),
        (
            r#""shape": [4], "chunks": [2, 2], "dtype": "<i4", "fill_value": 0"#,
            ErrorKind::Nczarr,
        ),
        (
            r#""shape": [4], "chunks": [2], "dtype": "<c16", "fill_value": 0"#,
            ErrorKind::BadType,
        ),
        (
            r#""shape": [4], "chunks": [2], "dtype": 7, "fill_value": 0"#,
            ErrorKind::Nczarr,
        ),
        (
            r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": "x""#,
            ErrorKind::Nczarr,
        ),
        // Chunks of 2^62 elements, and a grid of 2^64 chunks: refused before any allocation.
        (
            r#""shape": [4611686018427387904], "chunks": [4611686018427387904], "dtype": "<f8", "fill_value": 0"#,
            ErrorKind::Nczarr,
        ),
        (
            r#""shape": [18446744073709551615, 18446744073709551615], "chunks": [1, 1], "dtype": "|u1", "fill_value": 0"#,
            ErrorKind::Nczarr,
        ),
    ];
    for (fields, kind) in cases {
        let z = zarray(fields);
        open_fails(&[ZGROUP_B, ("v/.zarray", z.as_bytes())], kind, "v/.zarray");
    }
    // A codec without an id, and a compressor that is not an object.
    let z = zarray(r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": 0, "compressor": {"level": 1}"#)
        .replace(r#""compressor": null, "#, "");
    open_fails(
        &[ZGROUP_B, ("v/.zarray", z.as_bytes())],
        ErrorKind::Nczarr,
        "v/.zarray",
    );
}

const ZGROUP_B: (&str, &[u8]) = (".zgroup", br#"{"zarr_format": 2}"#);

#[test]
fn bad_chunks_name_the_key() {
    let z = zarray(r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": 7"#);
    let za = ("v/.zarray", z.as_bytes());
    // A missing chunk reads as the fill value.
    let f =
        purecdf::open_store(store(&[ZGROUP_B, za, ("v/0", &[1, 0, 0, 0, 2, 0, 0, 0])])).unwrap();
    assert_eq!(
        f.variable("v").unwrap().get_typed_values(..).unwrap(),
        Values::Int(vec![1, 2, 7, 7])
    );
    // A truncated chunk, and one too long.
    read_fails(&[ZGROUP_B, za, ("v/0", &[1, 0, 0])], "v/0");
    read_fails(&[ZGROUP_B, za, ("v/1", &[0; 12])], "v/1");
    // Corrupt compressed chunks, and a decompression bomb bounded by the chunk size.
    let zz = zarray(r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": 0"#).replace(
        r#""compressor": null"#,
        r#""compressor": {"id": "zlib", "level": 1}"#,
    );
    let zza = ("v/.zarray", zz.as_bytes());
    read_fails(&[ZGROUP_B, zza, ("v/0", b"not zlib at all")], "v/0");
    let bomb = {
        use std::io::Write;
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(&vec![0u8; 64 << 20]).unwrap();
        e.finish().unwrap()
    };
    read_fails(&[ZGROUP_B, zza, ("v/0", &bomb)], "v/0");
    // A codec this build lacks: NC_ENOFILTER when the data is read.
    let zu = zarray(r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": 0"#).replace(
        r#""compressor": null"#,
        r#""compressor": {"id": "nosuchcodec"}"#,
    );
    let f = purecdf::open_store(store(&[
        ZGROUP_B,
        ("v/.zarray", zu.as_bytes()),
        ("v/0", &[0; 8]),
    ]))
    .unwrap();
    let e = f.variable("v").unwrap().get_typed_values(..).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NoFilter, "{e}");
    // vlen-utf8 items that run past the chunk.
    let zs = zarray(r#""shape": [2], "chunks": [2], "dtype": "|O", "fill_value": """#)
        .replace(r#""filters": null"#, r#""filters": [{"id": "vlen-utf8"}]"#);
    let mut bad = 2u32.to_le_bytes().to_vec();
    bad.extend(0x7fff_ffffu32.to_le_bytes());
    read_fails(
        &[ZGROUP_B, ("v/.zarray", zs.as_bytes()), ("v/0", &bad)],
        "v/0",
    );
}

#[test]
fn bad_dimension_references_name_the_key() {
    let g = br#"{"zarr_format": 2, "_NCZARR_SUPERBLOCK": {"version": "2.0.0"}, "_NCZARR_GROUP": {"dims": {"x": 4}, "vars": ["v"], "groups": []}}"#;
    for refs in [r#"["/nosuch"]"#, r#"["/x", "/x"]"#, r#"["/g/x"]"#, r#"[7]"#] {
        let z = zarray(&format!(
            r#""shape": [4], "chunks": [2], "dtype": "<i4", "fill_value": 0, "_NCZARR_ARRAY": {{"dimrefs": {refs}, "storage": "chunked"}}"#
        ));
        let r = purecdf::open_store(store(&[(".zgroup", g), ("v/.zarray", z.as_bytes())]));
        if refs == r#"["/nosuch"]"# {
            // netcdf-c defines a dimension it was not told of where the reference names it.
            assert!(r.is_ok(), "{refs}");
            continue;
        }
        let e = r.err().unwrap_or_else(|| panic!("{refs} accepted"));
        assert!(e.to_string().contains("v/.zarray"), "{e}");
    }
    // A dimension length that disagrees with the shape.
    let z = zarray(
        r#""shape": [5], "chunks": [2], "dtype": "<i4", "fill_value": 0, "_NCZARR_ARRAY": {"dimrefs": ["/x"], "storage": "chunked"}"#,
    );
    let e = purecdf::open_store(store(&[(".zgroup", g), ("v/.zarray", z.as_bytes())])).unwrap_err();
    assert!(e.to_string().contains("v/.zarray"), "{e}");
}

/// As `read_fails`, with the objects in a directory store.
fn dir_read_fails(objects: &[(&str, &[u8])], key: &str) {
    let dir = tempfile::tempdir().unwrap();
    for (k, v) in objects {
        let path = dir.path().join(k);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, v).unwrap();
    }
    let f = purecdf::open(dir.path()).unwrap();
    match f.variable("v").unwrap().get_typed_values(..) {
        Ok(x) => panic!("read {x:?} from a bad {key} in a directory"),
        Err(e) => assert!(e.to_string().contains(key), "{e} does not name {key}"),
    }
}

/// The `zarr.json` of a Zarr v3 int32 array `v` of `shape` in shards of `shard` holding inner
/// chunks of `inner`, its shard index at `at` encoded by `index_codecs`.
fn sharded_v3(shape: &str, shard: &str, inner: &str, at: &str, index_codecs: &str) -> String {
    format!(
        r#"{{"zarr_format": 3, "node_type": "array", "shape": {shape}, "data_type": "int32",
        "chunk_grid": {{"name": "regular", "configuration": {{"chunk_shape": {shard}}}}},
        "chunk_key_encoding": {{"name": "default"}}, "fill_value": 7,
        "codecs": [{{"name": "sharding_indexed", "configuration": {{"chunk_shape": {inner},
            "codecs": [{{"name": "bytes", "configuration": {{"endian": "little"}}}}],
            "index_codecs": {index_codecs}, "index_location": "{at}"}}}}]}}"#
    )
}

const V3_GROUP: (&str, &[u8]) = ("zarr.json", br#"{"zarr_format": 3, "node_type": "group"}"#);
const BYTES_INDEX: &str = r#"[{"name": "bytes", "configuration": {"endian": "little"}}]"#;
const CRC_INDEX: &str =
    r#"[{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]"#;

/// A shard of two inner chunks of two int32 each, index at the end without a checksum:
/// `entries` are the index's (offset, nbytes) pairs.
fn shard(data: &[i32], entries: [(u64, u64); 2]) -> Vec<u8> {
    let mut out: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    for (o, n) in entries {
        out.extend(o.to_le_bytes());
        out.extend(n.to_le_bytes());
    }
    out
}

#[test]
fn hostile_v3_shards_name_the_key() {
    let meta = sharded_v3("[6]", "[4]", "[2]", "end", BYTES_INDEX);
    let za = ("v/zarr.json", meta.as_bytes());
    // A good first shard whose second inner chunk was never written; no second shard.
    let good = shard(&[1, 2], [(0, 8), (u64::MAX, u64::MAX)]);
    let f = purecdf::open_store(store(&[V3_GROUP, za, ("v/c/0", &good)])).unwrap();
    let v = f.variable("v").unwrap().get_typed_values(..).unwrap();
    assert_eq!(v, Values::Int(vec![1, 2, 7, 7, 7, 7]));
    // A shard shorter than its index; an entry running past the shard; one whose end
    // overflows; an inner chunk of the wrong size.
    let short = good[..20].to_vec();
    let past = shard(&[1, 2], [(0, 8), (4, 100)]);
    let wrap = shard(&[1, 2], [(u64::MAX - 2, 8), (0, 8)]);
    let size = shard(&[1, 2], [(0, 4), (0, 8)]);
    for bad in [short, past, wrap, size] {
        read_fails(&[V3_GROUP, za, ("v/c/0", &bad)], "v/c/0");
        // A directory store reads the index and the inner chunk alone: the same errors.
        dir_read_fails(&[V3_GROUP, za, ("v/c/0", &bad)], "v/c/0");
    }
    // A checksummed index that fails its checksum, and one cut short.
    let meta = sharded_v3("[6]", "[4]", "[2]", "start", CRC_INDEX);
    let za = ("v/zarr.json", meta.as_bytes());
    let mut bad = vec![0u8; 36];
    bad.extend([1, 0, 0, 0, 2, 0, 0, 0]);
    for objects in [
        [V3_GROUP, za, ("v/c/0", &bad[..])],
        [V3_GROUP, za, ("v/c/0", &bad[..30])],
    ] {
        read_fails(&objects, "v/c/0");
        dir_read_fails(&objects, "v/c/0");
    }
    // Absurd shard layouts are refused when the store opens, naming the array's zarr.json:
    // shards not a multiple of the inner chunks, 2^40 inner chunks a shard, inner chunks of
    // 2^62 elements, and an index location that is neither start nor end.
    for meta in [
        sharded_v3("[6]", "[4]", "[3]", "end", BYTES_INDEX),
        sharded_v3("[6]", "[4]", "[2, 2]", "end", BYTES_INDEX),
        sharded_v3(
            "[1099511627776]",
            "[1099511627776]",
            "[1]",
            "end",
            BYTES_INDEX,
        ),
        sharded_v3(
            "[4611686018427387904]",
            "[4611686018427387904]",
            "[4611686018427387904]",
            "end",
            BYTES_INDEX,
        ),
        sharded_v3("[6]", "[4]", "[2]", "middle", BYTES_INDEX),
    ] {
        open_fails(
            &[V3_GROUP, ("v/zarr.json", meta.as_bytes())],
            ErrorKind::Nczarr,
            "v/zarr.json",
        );
    }
    // Index codecs this reader does not know: the store opens, reading fails with
    // NC_ENOFILTER.
    let meta = sharded_v3("[6]", "[4]", "[2]", "end", r#"[{"name": "gzip"}]"#);
    let f = purecdf::open_store(store(&[V3_GROUP, ("v/zarr.json", meta.as_bytes())])).unwrap();
    let e = f.variable("v").unwrap().get_typed_values(..).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NoFilter, "{e}");
}

/// The three hostile stores of the CLI tests, as `(name, .zarray text)`: malformed JSON, a
/// shape of 10^18 × 10^18, a chunk of length 0.
fn hostile_dirs() -> [(&'static str, String); 3] {
    [
        ("h_json", r#"{"zarr_format": 2, "shape": [4"#.to_string()),
        (
            "h_shape",
            zarray(r#""shape": [1e18, 1e18], "chunks": [1, 1], "dtype": "<i4", "fill_value": 0"#),
        ),
        (
            "h_chunks",
            zarray(r#""shape": [4, 3], "chunks": [0, 3], "dtype": "<i4", "fill_value": 0"#),
        ),
    ]
}

/// A hostile store in a directory fails to open as NC_ENCZARR naming `v/.zarray`, whether it is
/// given as a plain path or as a URL with either mode.
#[test]
fn hostile_directory_stores_are_nczarr_errors_in_every_form() {
    let dir = tempfile::tempdir().unwrap();
    for (name, zarray) in hostile_dirs() {
        let root = dir.path().join(format!("{name}.zarr"));
        std::fs::create_dir_all(root.join("v")).unwrap();
        std::fs::write(root.join(".zgroup"), ZGROUP.1).unwrap();
        std::fs::write(root.join("v/.zarray"), zarray).unwrap();
        let plain = root.to_str().unwrap().to_string();
        let forms = [
            plain.clone(),
            format!("file://{plain}#mode=zarr,file"),
            format!("file://{plain}#mode=nczarr,file"),
        ];
        for form in forms {
            let e = match purecdf::open(&form) {
                Ok(_) => panic!("{form} opened"),
                Err(e) => e,
            };
            assert_eq!(e.kind(), ErrorKind::Nczarr, "{form}: {e}");
            assert_eq!(e.nc_message(), "NetCDF: NCZarr error", "{form}");
            assert!(e.to_string().contains("v/.zarray"), "{form}: {e}");
        }
    }
}

/// A directory holding only a `.zattrs` at its top is recognisably a Zarr store: opened as one
/// (and refused for its missing `.zgroup`, as the same objects in memory are), not read as a file.
#[test]
fn directory_with_only_zattrs_is_opened_as_zarr() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("a.zarr");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join(".zattrs"), "{}").unwrap();
    let Err(e) = purecdf::open(&root) else {
        panic!("opened a store without a .zgroup");
    };
    assert_eq!(e.kind(), ErrorKind::NotNc, "{e}");
    assert!(e.to_string().contains(".zgroup"), "{e}");
}

/// A URL with a mode makes netcdf-c 4.10 read a store root that holds `.zattrs` or `.zarray`
/// but no `.zgroup` as a group: the root's `.zattrs` gives the global attributes (a lone root
/// array is not a variable), and arrays below are read. A root holding no Zarr object (an empty
/// directory, as in netcdf-c's `ref_notzarr`) is not netCDF, and a directory that is not there
/// is NC_ENOOBJECT. A plain path to the same directories stays refused.
#[test]
fn url_mode_reads_a_root_without_zgroup() {
    let dir = tempfile::tempdir().unwrap();
    let url = |name: &str| format!("file://{}#mode=zarr,file", dir.path().join(name).display());

    std::fs::create_dir(dir.path().join("empty.zarr")).unwrap();
    let e = purecdf::open(url("empty.zarr")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotNc, "{e}");

    let root = dir.path().join("lone.zarr");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join(".zattrs"), r#"{"units": "m"}"#).unwrap();
    let lone = zarray(r#""shape": [4], "chunks": [4], "dtype": "<i4", "fill_value": 0"#);
    std::fs::write(root.join(".zarray"), lone).unwrap();
    let f = purecdf::open(url("lone.zarr")).unwrap();
    assert_eq!(f.variables().count(), 0);
    let names: Vec<String> = f.attributes().map(|a| a.name().to_string()).collect();
    assert_eq!(names, ["units"]);
    assert!(purecdf::open(&root).is_err());

    let root = dir.path().join("below.zarr");
    std::fs::create_dir_all(root.join("v")).unwrap();
    std::fs::write(root.join(".zattrs"), r#"{"title": "t"}"#).unwrap();
    let v = zarray(r#""shape": [3], "chunks": [3], "dtype": "<i2", "fill_value": 0"#);
    std::fs::write(root.join("v/.zarray"), v).unwrap();
    std::fs::write(root.join("v/.zattrs"), r#"{"_ARRAY_DIMENSIONS": ["x"]}"#).unwrap();
    std::fs::write(root.join("v/0"), [1u8, 0, 2, 0, 3, 0]).unwrap();
    let f = purecdf::open(url("below.zarr")).unwrap();
    let v: Vec<i16> = f.variable("v").unwrap().get_values(..).unwrap();
    assert_eq!(v, [1, 2, 3]);
    assert_eq!(f.dimension("x").unwrap().len(), 3);

    let e = purecdf::open(url("missing.zarr")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NoObject, "{e}");
    assert_eq!(e.kind().nc_code(), -141);
}

/// A store whose `get` of one key fails (as an S3 bucket that may not be listed answers 403 for
/// a key that is not there).
#[derive(Debug)]
struct FailingKey(MemoryStore, &'static str);

impl purecdf::store::Store for FailingKey {
    fn get(&self, key: &str) -> purecdf::store::Result<Option<Vec<u8>>> {
        if key == self.1 {
            let source = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "403");
            return Err(purecdf::store::StoreError::Io {
                key: key.into(),
                source,
            });
        }
        self.0.get(key)
    }
    delegate_listing_and_writes!();
}

/// A consolidated `.zmetadata` is read when the root agrees with it, whatever the key order and
/// spacing, and when the root's `.zattrs` is absent on one side and empty on the other, or
/// cannot be read at all: the array `w`, held only in `.zmetadata`, is then seen. A root that
/// differs makes the objects read one by one, where `w` is not.
#[test]
fn consolidated_metadata_is_used_when_the_root_agrees() {
    let w = zarray(r#""shape": [2], "chunks": [2], "dtype": "<i2", "fill_value": 7"#);
    let zmetadata = |root_attrs: &str| {
        format!(
            r#"{{"zarr_consolidated_format": 1, "metadata": {{
                ".zgroup": {{"zarr_format": 2}}, ".zattrs": {root_attrs},
                "w/.zarray": {w}, "w/.zattrs": {{"_ARRAY_DIMENSIONS": ["x"]}}}}}}"#
        )
    };
    let uses_it = |objects: Vec<(&str, String)>, failing: Option<&'static str>| {
        let objs = objects
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_bytes()));
        let mem = MemoryStore::from_objects(objs).unwrap();
        let f = match failing {
            Some(key) => purecdf::open_store(Box::new(FailingKey(mem, key))),
            None => purecdf::open_store(Box::new(mem)),
        }
        .unwrap();
        f.variable("w").map(|v| v.get_values::<i16, _>(..).unwrap())
    };
    let group = |text: &str| (".zgroup", text.to_string());
    let cases = [
        // The same root objects, spelled with other spacing and key order.
        (
            vec![
                group("{ \"zarr_format\" : 2 }"),
                (".zattrs", r#"{"b": 2, "a": 1}"#.into()),
                (".zmetadata", zmetadata(r#"{"a": 1, "b": 2}"#)),
            ],
            None,
            true,
        ),
        // No root `.zattrs`; an empty one in `.zmetadata`.
        (
            vec![group(ZGROUP.1), (".zmetadata", zmetadata("{}"))],
            None,
            true,
        ),
        // The root `.zattrs` cannot be read: nothing shows the copy stale.
        (
            vec![group(ZGROUP.1), (".zmetadata", zmetadata(r#"{"a": 1}"#))],
            Some(".zattrs"),
            true,
        ),
        // The root's attributes changed after consolidation.
        (
            vec![
                group(ZGROUP.1),
                (".zattrs", r#"{"a": 2}"#.into()),
                (".zmetadata", zmetadata(r#"{"a": 1}"#)),
            ],
            None,
            false,
        ),
    ];
    for (i, (objects, failing, used)) in cases.into_iter().enumerate() {
        let got = uses_it(objects, failing);
        assert_eq!(got.is_some(), used, "case {i}");
        if let Some(values) = got {
            assert_eq!(
                values,
                [7, 7],
                "case {i}: missing chunks read as the fill value"
            );
        }
    }
}
