#!/usr/bin/env python3
"""Makes the HDF4 SD fixtures of purecdf's HDF4 tests and their expected values.

Writes with pyhdf (the HDF Group's SD library), chunks and compresses copies with hrepack
(Debian hdf4-tools), then reads every fixture back with pyhdf -- an independent reader -- into
`<fixture>.json`: per dataset its name, number type, dimension names, shape, attributes and
values, and the global attributes. The Rust tests compare purecdf's reading with these.

`make_c.c` (built here with the system C compiler against libhdf4) writes what pyhdf cannot:
n-bit datasets and little-endian number types; `make_dfsd.c` writes `dfsd.hdf` with the old
DFSD interface (scientific data groups, no SD vgroups), which pyhdf reads as SD datasets too.

SZIP: neither pyhdf (`setcompress (92): Encoder not available`) nor hrepack (`Input Error: SZIP
compression is not available`) of Debian's libhdf4 4.2.15 can write SZIP (`compressed.hdf`'s
`szip_nn` and `szip_ec` are created, neither compressed nor written); `szip.hdf` comes from
`make_szip.c` run against an HDF4 built with szip (see that file).

`expected/` holds netcdf-c's ncdump output for each fixture (see `expected/README.md`).

Run from this directory: `python3 make.py` (needs pyhdf, numpy, hrepack and libhdf4-dev).
"""

import json
import subprocess

import numpy as np
from pyhdf.SD import SD, SDC

TYPES = [
    ("i8", SDC.INT8, np.int8),
    ("u8", SDC.UINT8, np.uint8),
    ("i16", SDC.INT16, np.int16),
    ("u16", SDC.UINT16, np.uint16),
    ("i32", SDC.INT32, np.int32),
    ("u32", SDC.UINT32, np.uint32),
    ("f32", SDC.FLOAT32, np.float32),
    ("f64", SDC.FLOAT64, np.float64),
    ("uc8", SDC.UCHAR8, np.uint8),
]


def ramp(shape, dtype):
    n = int(np.prod(shape))
    v = (np.arange(n) % 97) - (40 if np.issubdtype(dtype, np.signedinteger) else 0)
    if np.issubdtype(dtype, np.floating):
        v = v * 0.25 - 3.5
    return v.astype(dtype).reshape(shape)


def types_file(path):
    """Every number type, 1-4 dimensions, named and unnamed dimensions, scales, attributes of
    each type (global, dataset, dimension), fill values, an empty and an unlimited dataset."""
    f = SD(path, SDC.WRITE | SDC.CREATE | SDC.TRUNC)
    f.title = "pyhdf fixture"
    for name, t, dt in TYPES:
        a = f.attr("g_" + name)
        a.set(t, [1, 2, 3] if t != SDC.FLOAT32 and t != SDC.FLOAT64 else [1.5, -2.25])
    shapes = [(5,), (3, 4), (2, 3, 4), (2, 2, 3, 2)]
    for i, (name, t, dt) in enumerate(TYPES):
        shape = shapes[i % 4]
        ds = f.create("v_" + name, t, shape)
        if i % 2 == 0:  # named dimensions; odd ones keep their fakeDimN names
            for k in range(len(shape)):
                ds.dim(k).setname("d%d_%d" % (len(shape), k))
        ds.units = "u_" + name
        a = ds.attr("a_" + name)
        a.set(t, [7] if t not in (SDC.FLOAT32, SDC.FLOAT64) else [0.125])
        if t not in (SDC.UCHAR8,):
            ds.setfillvalue(dt(9).item())
        ds[:] = ramp(shape, dt)
        ds.endaccess()
    # A character dataset.
    ds = f.create("text", SDC.CHAR8, (2, 6))
    ds.dim(0).setname("rows")
    ds.dim(1).setname("chars")
    ds[:] = np.array([list(b"hello!"), list(b"world.")], dtype=np.int8).view("S1")
    ds.endaccess()
    # Dimension scales (coordinate variables) with attributes on the dimension.
    ds = f.create("temp", SDC.FLOAT32, (4, 3))
    lat, lon = ds.dim(0), ds.dim(1)
    lat.setname("lat")
    lon.setname("lon")
    lat.setscale(SDC.FLOAT64, [10.0, 20.0, 30.0, 40.0])
    lon.setscale(SDC.INT16, [-1, 0, 1])
    lat.units = "degrees_north"
    ds.setfillvalue(-999.0)
    ds[:] = ramp((4, 3), np.float32)
    ds.endaccess()
    # Created, never written: reads as its fill value.
    ds = f.create("empty", SDC.INT16, (2, 3))
    ds.dim(0).setname("e0")
    ds.dim(1).setname("e1")
    ds.setfillvalue(-5)
    ds.endaccess()
    # An unlimited dimension with 3 records written.
    ds = f.create("series", SDC.INT32, (SDC.UNLIMITED, 4))
    ds.dim(0).setname("time")
    ds.dim(1).setname("station")
    ds[0:3] = ramp((3, 4), np.int32)
    ds.endaccess()
    # Appended record by record: HDF4 turns the element into linked blocks.
    ds = f.create("grow", SDC.INT16, (SDC.UNLIMITED, 3))
    ds.dim(0).setname("step")
    ds.dim(1).setname("three")
    for r in range(5):
        ds[r : r + 1] = ramp((1, 3), np.int16) + r
    ds.endaccess()
    f.end()


def external_file(path):
    """A dataset whose data lives in another file (SDsetexternalfile)."""
    f = SD(path, SDC.WRITE | SDC.CREATE | SDC.TRUNC)
    ds = f.create("outside", SDC.FLOAT64, (3, 4))
    ds.setexternalfile("external.dat", 16)
    ds[:] = ramp((3, 4), np.float64)
    ds.endaccess()
    f.end()


def compressed_file(path):
    """One dataset per coder of SDsetcompress."""
    f = SD(path, SDC.WRITE | SDC.CREATE | SDC.TRUNC)
    cases = [
        ("rle", SDC.INT16, np.int16, (SDC.COMP_RLE,)),
        ("deflate", SDC.INT32, np.int32, (SDC.COMP_DEFLATE, 6)),
        ("skphuff", SDC.INT16, np.int16, (SDC.COMP_SKPHUFF, 2)),
        ("skphuff_f64", SDC.FLOAT64, np.float64, (SDC.COMP_SKPHUFF, 8)),
        ("szip_nn", SDC.INT32, np.int32, (SDC.COMP_SZIP, SDC.COMP_SZIP_NN, 8)),
        ("szip_ec", SDC.FLOAT32, np.float32, (SDC.COMP_SZIP, SDC.COMP_SZIP_EC, 16)),
    ]
    for name, t, dt, comp in cases:
        ds = f.create(name, t, (20, 30))
        ds.dim(0).setname("y")
        ds.dim(1).setname("x")
        try:
            ds.setcompress(*comp)
        except Exception as e:  # an encoder missing from this libhdf4
            print("skipping", name, e)
            ds.endaccess()
            continue
        v = ramp((20, 30), dt)
        v[5:9, :] = v[5, 0]  # runs for RLE
        ds[:] = v
        ds.endaccess()
    f.end()


def dump(path):
    """Everything pyhdf reads from a fixture, as JSON-ready values."""
    f = SD(path, SDC.READ)

    def hdp_text(name):
        return subprocess.run(["hdp", "dumpsds", "-n", name, path], check=True,
                              capture_output=True, text=True).stdout

    def hdp_attr(ds_name, att_name):
        # pyhdf cannot read little-endian attributes: take hdp's "Value =" line.
        lines = hdp_text(ds_name).splitlines()
        at = next(i for i, l in enumerate(lines) if l.strip().endswith("Name = " + att_name))
        value = next(l for l in lines[at:] if "Value =" in l)
        return [float(x) for x in value.split("=", 1)[1].split()]

    def attrs(obj, ds_name=None):
        out = []
        n = obj.info()[4] if ds_name else obj.info()[1]
        for i in range(n):
            a = obj.attr(i)
            name, t, count = a.info()
            try:
                val = a.get()
            except Exception:
                val = hdp_attr(ds_name, name)
            if isinstance(val, str):
                val = [ord(c) for c in val]
            elif not isinstance(val, list):
                val = [val]
            out.append({"name": name, "type": t, "values": val})
        return out

    sets = []
    nds, _ = f.info()
    for i in range(nds):
        ds = f.select(i)
        name, rank, dims, t, _ = ds.info()
        dimnames = [ds.dim(k).info()[0] for k in range(rank)]
        shape = [dims] if rank == 1 else list(dims)
        try:
            values = ds.get()
            if values.dtype.kind == "S":
                values = values.view(np.uint8)
            values = values.flatten().tolist()
        except Exception:
            # pyhdf cannot read little-endian types: take hdp's values.
            out = subprocess.run(["hdp", "dumpsds", "-n", name, "-d", path], check=True,
                                 capture_output=True, text=True).stdout
            values = [float(x) for x in out.split()]
        sets.append(
            {
                "name": name,
                "type": t,
                "dims": dimnames,
                "shape": shape,
                "attributes": attrs(ds, name),
                "values": values,
            }
        )
        ds.endaccess()
    out = {"attributes": attrs(f), "datasets": sets}
    f.end()
    with open(path + ".json", "w") as j:
        json.dump(out, j, separators=(",", ":"))


def hrepack(src, dst, *opts):
    subprocess.run(["hrepack", "-i", src, "-o", dst, *opts], check=True)


if __name__ == "__main__":
    types_file("types.hdf")
    compressed_file("compressed.hdf")
    external_file("external.hdf")
    hrepack("types.hdf", "chunked.hdf", "-c", "*:2x2")
    hrepack("types.hdf", "chunked_gzip.hdf", "-c", "*:2x2", "-t", "*:GZIP 6")
    hrepack("compressed.hdf", "chunked_rle.hdf", "-c", "*:7x4", "-t", "*:RLE")
    hrepack("compressed.hdf", "chunked_huff.hdf", "-c", "*:7x4", "-t", "*:HUFF 2")
    subprocess.run(["cc", "make_c.c", "-I/usr/include/hdf", "-lmfhdf", "-ldf", "-o", "/tmp/make_c"],
                   check=True)
    subprocess.run(["/tmp/make_c"], check=True)
    subprocess.run(["rm", "-f", "dfsd.hdf"], check=True)
    subprocess.run(["cc", "make_dfsd.c", "-I/usr/include/hdf", "-lmfhdf", "-ldf", "-o",
                    "/tmp/make_dfsd"], check=True)
    subprocess.run(["/tmp/make_dfsd"], check=True)
    for f in ["dfsd", "external", "nbit_litend", "types", "compressed", "chunked", "chunked_gzip", "chunked_rle", "chunked_huff"]:
        dump(f + ".hdf")
