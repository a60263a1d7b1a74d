//! Hostile Zarr stores (issue 10): malformed JSON, wrong types, absurd shapes and chunk sizes,
//! missing, truncated and undecodable chunks. Each gives an error naming the key at fault (or,
//! for a missing chunk, the fill value), never a panic or an allocation sized by the store.

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
