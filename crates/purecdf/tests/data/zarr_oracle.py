#!/usr/bin/env python3
"""Zarr v2 stores written by zarr-python, and what each must read as in the netCDF data model.

Usage: zarr_oracle.py OUTDIR

Writes OUTDIR/<name>.zarr for every store below and OUTDIR/manifest.json, the expectation that
tests/zarr_oracle.rs checks purecdf against. The expectation is assembled from two references:

- zarr-python (zarr_format=2) gives every data value (read back with zarr itself, flattened in C
  order), the groups and the arrays;
- netCDF4-python, with the netcdf-c it bundles (4.10), gives the netCDF view that netcdf-c
  defines on top: the netCDF type of each array, the names and groups of dimensions (from
  `_ARRAY_DIMENSIONS`, or `_Anonymous_Dim_<len>` without it), and how each JSON attribute becomes
  a typed netCDF attribute. Exact types come from `nc_inq_vartype` / `nc_inq_att`, called through
  ctypes on the very libnetcdf that netCDF4-python has loaded.

Where netcdf-c 4.10 cannot open a store, fails to read a variable, or reads something we choose to
read differently, the store's `choices` say what we expect instead and why. Every difference
between the expectation and what netcdf-c 4.10 reports is listed in the store's
`netcdf_c_4_10.differences`; the script fails if a difference is not explained by a choice, so
the manifest never departs from the references silently.

Values are JSON numbers except the non-finite floats, written as the strings "NaN", "Infinity"
and "-Infinity". Strings are JSON strings. Attribute values of type char are one string.
"""

import ctypes
import glob
import json
import math
import os
import sys

import numpy as np
import zarr
import numcodecs
from numcodecs import BZ2, LZ4, Blosc, GZip, Shuffle, Zlib, Zstd

try:
    import netCDF4
except ImportError:  # the manifest can still be written, without netcdf-c's view
    netCDF4 = None

NC_TYPES = {
    1: "byte", 2: "char", 3: "short", 4: "int", 5: "float", 6: "double", 7: "ubyte",
    8: "ushort", 9: "uint", 10: "int64", 11: "uint64", 12: "string",
}

# netCDF type of a zarr dtype, for arrays netcdf-c 4.10 cannot open (and as a check on those it can).
DTYPE_TYPES = {
    "i1": "byte", "u1": "ubyte", "i2": "short", "u2": "ushort", "i4": "int", "u4": "uint",
    "i8": "int64", "u8": "uint64", "f4": "float", "f8": "double", "b1": "ubyte",
}


def nc_type_of(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "SUO" or dtype.kind == "T":
        return "string"
    return DTYPE_TYPES[dtype.str[1:]]


# --------------------------------------------------------------------------------------------
# The stores
# --------------------------------------------------------------------------------------------

LIMITS = {
    "|i1": [-128, -1, 0, 1, 127, 5, -7],
    "|u1": [0, 1, 127, 128, 255, 5, 7],
    "<i2": [-32768, -1, 0, 1, 32767, 300, -300],
    "<u2": [0, 1, 32767, 32768, 65535, 300, 7],
    "<i4": [-(2**31), -1, 0, 1, 2**31 - 1, 70000, -70000],
    "<u4": [0, 1, 2**31 - 1, 2**31, 2**32 - 1, 70000, 7],
    "<i8": [-(2**63), -1, 0, 1, 2**63 - 1, 2**40 + 1, -(2**40) - 3],
    "<u8": [0, 1, 2**63 - 1, 2**63, 2**64 - 1, 2**40 + 1, 7],
    "<f4": [-3.4028234663852886e38, -1.5, 0.0, 0.1, 3.4028234663852886e38, 1e-45, -0.0],
    "<f8": [-1.7976931348623157e308, -1.5, 0.0, 0.1, 1.7976931348623157e308, 5e-324, -0.0],
}


def numeric_store(root):
    """Every numeric dtype little- and big-endian, 7 values in chunks of 3 (an edge chunk of 1),
    without _ARRAY_DIMENSIONS: all share netcdf-c's dimension _Anonymous_Dim_7."""
    for dt, vals in LIMITS.items():
        for order in ("<", ">") if dt[0] == "<" else ("|",):
            d = order + dt[1:]
            name = "v_" + {"<": "le_", ">": "be_", "|": ""}[order] + dt[1:]
            fill = 0 if dt[1] != "f" else 0.0
            a = root.create_array(name, shape=(7,), chunks=(3,), dtype=d, fill_value=fill,
                                  compressors=None)
            a[:] = np.array(vals, dtype=d)


def strings_store(root):
    """Fixed-length byte strings, which netcdf-c reads as NC_STRING."""
    a = root.create_array("s1", shape=(4,), chunks=(3,), dtype="|S1", fill_value=b"",
                          compressors=None)
    a[:] = np.array([b"a", b"", b"z", b"q"], dtype="|S1")
    b = root.create_array("s5", shape=(2, 3), chunks=(1, 2), dtype="|S5", fill_value=b"",
                          compressors=None)
    b[:] = np.array([[b"ab", b"abcde", b""], [b"x y", b"12345", b"q"]], dtype="|S5")
    c = root.create_array("s5_missing", shape=(4,), chunks=(2,), dtype="|S5", fill_value=b"",
                          compressors=None)
    c[:2] = np.array([b"hello", b"w"], dtype="|S5")


def unicode_store(root):
    """UTF-32 fixed strings and vlen-utf8 object strings: netcdf-c 4.10 cannot open these."""
    a = root.create_array("u4", shape=(3,), chunks=(2,), dtype="<U4", fill_value="",
                          compressors=None)
    a[:] = np.array(["ab", "h\u00e9\u00e9", ""], dtype="<U4")
    b = root.create_array("u2be", shape=(2,), chunks=(2,), dtype=">U2", fill_value="",
                          compressors=None)
    b[:] = np.array(["\u03b1\u03b2", "z"], dtype=">U2")
    c = root.create_array("vlen", shape=(5,), chunks=(2,), dtype=str, fill_value="",
                          compressors=None)
    c[:4] = np.array(["x", "h\u00e9llo w\u00f6rld", "", "\u65e5\u672c"], dtype=object)


def bool_store(root):
    """|b1, which netcdf-c 4.10 cannot open."""
    a = root.create_array("flags", shape=(2, 3), chunks=(1, 2), dtype="|b1", fill_value=False,
                          compressors=None)
    a[:] = np.array([[True, False, True], [False, False, True]])
    b = root.create_array("flags_fill_true", shape=(4,), chunks=(2,), dtype="|b1",
                          fill_value=True, compressors=None)
    b[:2] = [False, True]


def codec_data(n=40):
    return (np.arange(n, dtype="<i4") * 37 % 11) - 3


def codecs_store(root, which):
    """One array per compressor/filter combination, 40 values in chunks of 16 (edge chunk of 8)."""
    combos = {}
    if which == "readable":
        combos = {
            "none": (None, None),
            "zlib": (Zlib(level=4), None),
            "bz2": (BZ2(level=5), None),
            "zstd": (Zstd(level=3), None),
            "shuffle": (None, [Shuffle(elementsize=4)]),
            "shuffle_zlib": (Zlib(level=1), [Shuffle(elementsize=4)]),
        }
        if hasattr(numcodecs, "Fletcher32"):
            combos["fletcher32"] = (None, [numcodecs.Fletcher32()])
            combos["shuffle_fletcher32_zstd"] = (Zstd(level=1),
                                                 [Shuffle(elementsize=4), numcodecs.Fletcher32()])
        for cname in ("lz4", "zstd", "blosclz", "zlib"):
            for shuffle, sname in ((Blosc.NOSHUFFLE, "noshuffle"), (Blosc.SHUFFLE, "shuffle"),
                                   (Blosc.BITSHUFFLE, "bitshuffle")):
                combos[f"blosc_{cname}_{sname}"] = (Blosc(cname=cname, clevel=5, shuffle=shuffle),
                                                    None)
    else:
        combos = {"gzip": (GZip(level=4), None), "lz4": (LZ4(), None)}
    for name, (compressor, filters) in combos.items():
        a = root.create_array(name, shape=(40,), chunks=(16,), dtype="<i4", fill_value=-9,
                              compressors=compressor, filters=filters)
        a[:] = codec_data()
    if which == "readable":
        # Doubles through blosc with byte shuffle: typesize 8.
        d = root.create_array("blosc_f8", shape=(5, 6), chunks=(2, 4), dtype="<f8",
                              fill_value=0.0,
                              compressors=Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE))
        d[:] = np.arange(30, dtype="<f8").reshape(5, 6) / 4


def fill_store(root):
    """Missing chunks (never written) read as the fill value; fill values of every JSON form."""
    a = root.create_array("int_fill", shape=(10,), chunks=(3,), dtype="<i2", fill_value=-99,
                          compressors=None)
    a[3:5] = [1, 2]  # chunks 0, 2 and 3 are never written
    b = root.create_array("float_fill", shape=(3, 4), chunks=(2, 2), dtype="<f4", fill_value=1.5,
                          compressors=Zlib(level=1))
    b[0:2, 0:2] = [[0, 1], [2, 3]]
    for name, fill in (("nan_fill", float("nan")), ("inf_fill", float("inf")),
                       ("neginf_fill", float("-inf"))):
        c = root.create_array(name, shape=(6,), chunks=(2,), dtype="<f8", fill_value=fill,
                              compressors=None)
        c[2:4] = [7.25, -0.5]
    d = root.create_array("null_fill_int", shape=(6,), chunks=(2,), dtype="<i4", fill_value=None,
                          compressors=None)
    d[0:2] = [5, 6]
    e = root.create_array("null_fill_float", shape=(6,), chunks=(2,), dtype="<f4",
                          fill_value=None, compressors=None)
    e[4:6] = [5, 6]
    f = root.create_array("never_written", shape=(2, 3), chunks=(1, 2), dtype=">u2",
                          fill_value=4321, compressors=Zstd(level=1))
    del f
    g = root.create_array("uint64_fill", shape=(4,), chunks=(2,), dtype="<u8",
                          fill_value=2**64 - 2, compressors=None)
    g[0] = 1


def layout_store(root):
    """Chunk key separators "." and "/", order "C" and "F", partial edge chunks."""
    data = np.arange(5 * 7, dtype="<i4").reshape(5, 7)
    for sep, sname in ((".", "dot"), ("/", "slash")):
        for order in ("C", "F"):
            a = root.create_array(f"{sname}_{order}", shape=(5, 7), chunks=(2, 3), dtype="<i4",
                                  fill_value=-1, order=order, compressors=None,
                                  chunk_key_encoding={"name": "v2", "separator": sep})
            a[:] = data
    b = root.create_array("f_3d", shape=(3, 4, 5), chunks=(2, 3, 2), dtype=">f8", order="F",
                          fill_value=0.0, compressors=Zlib(level=3),
                          chunk_key_encoding={"name": "v2", "separator": "/"})
    b[:] = np.arange(60, dtype="f8").reshape(3, 4, 5) + 0.5
    c = root.create_array("f_missing", shape=(4, 4), chunks=(3, 3), dtype="<i2", order="F",
                          fill_value=77, compressors=None)
    c[0:3, 0:3] = np.arange(9, dtype="<i2").reshape(3, 3)


def scalar_store(root):
    """0-d arrays, which netcdf-c 4.10 leaves out."""
    a = root.create_array("scalar_int", shape=(), dtype="<i4", fill_value=3, compressors=None)
    a[()] = 42
    b = root.create_array("scalar_double", shape=(), dtype=">f8", fill_value=0.0,
                          compressors=Zlib(level=1))
    b[()] = -2.75
    root.create_array("scalar_missing", shape=(), dtype="<u2", fill_value=17, compressors=None)
    c = root.create_array("one", shape=(1,), chunks=(1,), dtype="<i4", fill_value=0,
                          compressors=None)
    c[:] = [9]


def dims(names):
    return {"_ARRAY_DIMENSIONS": names}


def groups_store(root):
    """xarray-style _ARRAY_DIMENSIONS shared across arrays and groups, nested groups, anonymous
    dimensions in a subgroup, group attributes."""
    root.attrs.update({"title": "groups", "level": 0})
    t = root.create_array("time", shape=(4,), chunks=(3,), dtype="<f8", fill_value=0.0,
                          compressors=None, attributes=dims(["time"]) | {"units": "days"})
    t[:] = [0.0, 1.0, 2.0, 3.0]
    x = root.create_array("x", shape=(3,), chunks=(3,), dtype="<i4", fill_value=0,
                          compressors=None, attributes=dims(["x"]))
    x[:] = [10, 20, 30]
    v = root.create_array("temp", shape=(4, 3), chunks=(2, 2), dtype="<f4", fill_value=-1.0,
                          compressors=Zlib(level=1), attributes=dims(["time", "x"]))
    v[:] = np.arange(12, dtype="<f4").reshape(4, 3) * 0.5
    g1 = root.create_group("g1", attributes={"name": "first", "level": 1})
    w = g1.create_array("w", shape=(3, 2), chunks=(2, 2), dtype="<i2", fill_value=0,
                        compressors=None, attributes=dims(["x", "y"]))
    w[:] = [[1, 2], [3, 4], [5, 6]]
    a = g1.create_array("anon", shape=(2, 5), chunks=(2, 2), dtype="|u1", fill_value=0,
                        compressors=None)
    a[:] = np.arange(10, dtype="|u1").reshape(2, 5)
    g2 = g1.create_group("g2", attributes={"level": 2})
    deep = g2.create_array("deep", shape=(5,), chunks=(2,), dtype="<i8", fill_value=0,
                           compressors=None, attributes=dims(["y"]))
    deep[:] = [1, 2, 3, 4, 5]
    g3 = g2.create_group("g3")
    g3.create_group("empty")
    e = g3.create_array("e", shape=(2,), chunks=(2,), dtype="<u4", fill_value=0,
                        compressors=None, attributes=dims(["time2"]))
    e[:] = [7, 8]
    root.create_group("sibling", attributes={"s": "x"})


ATTRIBUTE_CASES = {
    "int": 1,
    "negative_int": -3,
    "big_int": 2**40,
    "huge_uint": 2**63 + 5,
    "float": 1.5,
    "float_integral": 2.0,
    "string": "hello",
    "empty_string": "",
    "unicode": "h\u00e9llo \u65e5",
    "list_int": [1, 2, 3],
    "list_float": [1.0, 2.5],
    "list_mixed": [1, 2.5],
    "list_string": ["a", "bc"],
    "list_bool": [True, False],
    "bool_true": True,
    "bool_false": False,
    "null": None,
    "dict": {"x": 1, "y": [1, 2]},
    "list_dict": [{"a": 1}],
}


def attrs_store(root):
    """Attributes of every JSON kind on the root group, a subgroup and an array."""
    root.attrs.update(ATTRIBUTE_CASES)
    g = root.create_group("g")
    g.attrs.update({"int": 7, "list_string": ["x"], "dict": {"k": "v"}})
    a = root.create_array("v", shape=(2,), chunks=(2,), dtype="<i4", fill_value=0,
                          compressors=None)
    a[:] = [1, 2]
    a.attrs.update(ATTRIBUTE_CASES)


def attrs_bad_store(root):
    """Attributes netcdf-c 4.10 fails on (the whole open fails)."""
    bad = {"list_big_int": [1, 2**40], "empty_list": []}
    root.attrs.update(bad)
    a = root.create_array("v", shape=(1,), chunks=(1,), dtype="<i4", fill_value=0,
                          compressors=None)
    a[:] = [3]
    a.attrs.update(bad)


def consolidated_store(root):
    """Groups and arrays with consolidated metadata (.zmetadata) written by zarr-python."""
    groups_store(root)


# Where we read differently from netcdf-c 4.10: (kind of difference, variable path or None for
# any in the store, why). `differences()` below names the kinds.
UNICODE_CHOICE = (
    "open", None,
    "netcdf-c 4.10 fails to open the store (NC_ENCZARR) on <U and |O dtypes; we read <Un (UTF-32, "
    "either byte order) and vlen-utf8 |O arrays as NC_STRING, values as zarr-python reads them "
    "(trailing NULs of <Un removed, as numpy does)")
BOOL_CHOICE = (
    "open", None,
    "netcdf-c 4.10 fails to open the store (NC_ENCZARR) on |b1; we read |b1 as NC_UBYTE 0/1, as "
    "netcdf-c types JSON true/false attributes")
CODEC_CHOICES = [
    ("read", "/gzip", "netcdf-c 4.10 has no codec for numcodecs' gzip (NC_ENOFILTER); we decode it"),
    ("read", "/lz4", "netcdf-c 4.10 has no codec for numcodecs' lz4 (NC_ENOFILTER); we decode it"),
]
BE_FILL_CHOICE = (
    "data", "/never_written",
    "netcdf-c 4.10 fills missing chunks of a big-endian (>u2) array with the fill value's bytes "
    "swapped (4321 reads as 57616); we fill with fill_value as zarr-python does")
F_ORDER = ("netcdf-c 4.10 ignores order \"F\" and reads such chunks as if C-ordered; we read them as "
           "zarr-python does (issue 10)")
LAYOUT_CHOICES = [("data", f"/{s}_F", F_ORDER) for s in ("dot", "slash")] + [
    ("data", "/f_3d", F_ORDER), ("data", "/f_missing", F_ORDER)]
ATTRS_CHOICES = [
    ("attributes", w, "netcdf-c 4.10 reads a JSON string with \\u escapes (zarr-python's json "
     "writes non-ASCII that way) without the backslash: 'h\\u00e9' as 'hu00e9'; we decode it")
    for w in ("/", "/v")]
ATTRS_BAD_CHOICE = (
    "open", None,
    "netcdf-c 4.10 fails to open a store with an integer list attribute whose first element fits "
    "int and a later one does not (NC_ERANGE) or an empty list (NC_EBADTYPE); we read the first "
    "as the type that holds all elements (int64 here), the second as char '[]', its JSON text, "
    "as netcdf-c does for JSON it has no type for")
SCALAR_CHOICES = [
    ("missing_variable", f"/{n}",
     "netcdf-c 4.10 leaves out 0-d arrays; we keep them as netCDF scalar variables (issue 10)")
    for n in ("scalar_int", "scalar_double", "scalar_missing")]

STORES = [
    # name, builder, consolidate, choices
    ("numeric", numeric_store, False, []),
    ("strings", strings_store, False, []),
    ("unicode", unicode_store, False, [UNICODE_CHOICE]),
    ("bool", bool_store, False, [BOOL_CHOICE]),
    ("codecs", lambda r: codecs_store(r, "readable"), False, []),
    ("codecs_more", lambda r: codecs_store(r, "more"), False, CODEC_CHOICES),
    ("fill", fill_store, False, [BE_FILL_CHOICE]),
    ("layout", layout_store, False, LAYOUT_CHOICES),
    ("scalar", scalar_store, False, SCALAR_CHOICES),
    ("groups", groups_store, False, []),
    ("attrs", attrs_store, False, ATTRS_CHOICES),
    ("attrs_bad", attrs_bad_store, False, [ATTRS_BAD_CHOICE]),
    ("consolidated", consolidated_store, True, []),
]


# --------------------------------------------------------------------------------------------
# JSON encoding of values
# --------------------------------------------------------------------------------------------

def enc_scalar(x):
    if isinstance(x, (bytes, np.bytes_)):
        return bytes(x).decode("utf-8")
    if isinstance(x, (str, np.str_)):
        return str(x)
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, (np.integer, int)):
        return int(x)
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def enc_array(a):
    a = np.asarray(a)
    return [enc_scalar(x) for x in a.ravel(order="C")]


# --------------------------------------------------------------------------------------------
# zarr-python's view
# --------------------------------------------------------------------------------------------

def zarr_view(path):
    """Groups (by path) with their arrays: name, dtype, shape, data, attributes."""
    root = zarr.open_group(path, mode="r", zarr_format=2, use_consolidated=False)
    groups = {}

    def walk(g, gpath):
        entry = {"path": gpath, "attributes": dict(g.attrs), "arrays": [], "groups": []}
        groups[gpath] = entry
        for name, a in sorted(g.arrays()):
            entry["arrays"].append({
                "name": name,
                "dtype": a.dtype,
                "fill_value": a.metadata.fill_value,
                "shape": list(a.shape),
                "data": a[...],
                "attributes": dict(a.attrs),
            })
        for name, sub in sorted(g.groups()):
            entry["groups"].append(name)
            walk(sub, (gpath.rstrip("/") + "/" + name))

    walk(root, "/")
    return groups


# --------------------------------------------------------------------------------------------
# netcdf-c 4.10's view, through netCDF4-python and ctypes on its libnetcdf
# --------------------------------------------------------------------------------------------

def libnetcdf():
    here = os.path.dirname(netCDF4.__file__)
    cands = glob.glob(os.path.join(here, "..", "netcdf4.libs", "libnetcdf*.so*"))
    cands += glob.glob(os.path.join(here, ".dylibs", "libnetcdf*"))
    if not cands:
        raise RuntimeError("cannot find the libnetcdf bundled with netCDF4-python")
    return ctypes.CDLL(cands[0])


def nc_view(path, mode="zarr"):
    """netcdf-c's view of a store opened as `file://...#mode=<mode>,file`, or the open error."""
    lib = libnetcdf()
    url = "file://" + os.path.abspath(path) + f"#mode={mode},file"
    try:
        ds = netCDF4.Dataset(url)
    except Exception as e:  # noqa: BLE001 - netCDF4 raises OSError/RuntimeError
        return {"error": str(e)}

    def att_list(gid, vid, obj):
        out = []
        for name in obj.ncattrs():
            t = ctypes.c_int()
            n = ctypes.c_size_t()
            rc = lib.nc_inq_att(gid, vid, name.encode(), ctypes.byref(t), ctypes.byref(n))
            assert rc == 0, (path, name, rc)
            typ = NC_TYPES[t.value]
            val = obj.getncattr(name)
            if typ == "char":
                values = val if isinstance(val, str) else val.decode()
            elif typ == "string":
                values = [val] if isinstance(val, str) else list(val)
            else:
                values = enc_array(np.atleast_1d(val))
            out.append({"name": name, "type": typ, "values": values})
        return out

    groups = {}

    def walk(g):
        gpath = g.path
        entry = {
            "path": gpath,
            "dims": [[d.name, len(d)] for d in g.dimensions.values()],
            "attributes": att_list(g._grpid, -1, g),
            "variables": [],
            "groups": list(g.groups),
        }
        groups[gpath] = entry
        for v in g.variables.values():
            t = ctypes.c_int()
            assert lib.nc_inq_vartype(g._grpid, v._varid, ctypes.byref(t)) == 0
            var = {
                "name": v.name,
                "type": NC_TYPES[t.value],
                "dims": list(v.dimensions),
                "shape": list(v.shape),
                "attributes": att_list(g._grpid, v._varid, v),
            }
            try:
                v.set_auto_maskandscale(False)
                data = v[...]
                if var["type"] == "string":
                    data = np.asarray(data, dtype=object)
                if var["type"] == "char":  # one string of all the bytes, as char attributes
                    var["data"] = np.ascontiguousarray(data).tobytes().decode()
                else:
                    var["data"] = enc_array(data)
            except Exception as e:  # noqa: BLE001
                var["read_error"] = str(e)
            entry["variables"].append(var)
        for sub in g.groups.values():
            walk(sub)

    walk(ds)
    ds.close()
    return {"groups": groups}


# --------------------------------------------------------------------------------------------
# The expectation
# --------------------------------------------------------------------------------------------

def json_text(value):
    """A JSON value as netcdf-c 4.10 writes it back into a char attribute: members separated by
    ", " and keys by ": " in objects, elements by "," in arrays (seen in its output)."""
    if isinstance(value, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + json_text(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(json_text(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def int_type(values):
    if all(-(2**31) <= v < 2**31 for v in values):
        return "int"
    if all(-(2**63) <= v < 2**63 for v in values):
        return "int64"
    return "uint64"


def zarr_attr_to_nc(name, value):
    """Our typing of a JSON attribute where netcdf-c 4.10 gives none (it cannot open the store).
    netcdf-c's rule as seen in the stores it opens: a string is char; true/false ubyte; an integer
    int, else int64, else uint64; a float double; a list of these takes the type of its first
    element; anything else (null, objects, lists of strings) becomes its JSON text as char. Ours
    differs where netcdf-c fails: an integer list whose first element fits int but a later one
    does not (netcdf-c: NC_ERANGE) takes the type that holds them all; an empty list (netcdf-c:
    NC_EBADTYPE) becomes its JSON text "[]"."""
    def att(typ, values):
        return {"name": name, "type": typ, "values": values}
    items = value if isinstance(value, list) else [value]
    if isinstance(value, str):
        return att("char", value)
    if not items or not all(isinstance(v, (bool, int, float)) for v in items):
        return att("char", json_text(value))
    first = items[0]
    if isinstance(first, bool):
        return att("ubyte", [int(bool(v)) for v in items])
    if isinstance(first, int):
        ints = [int(v) for v in items]
        return att(int_type(ints), ints)
    return att("double", [enc_scalar(float(v)) for v in items])


def attributes_of(nc_atts, zarr_attrs):
    """netcdf-c's attributes, except that a JSON string is read as what it says: netcdf-c 4.10
    drops the backslash of \\uXXXX escapes (zarr-python writes non-ASCII text escaped), so
    "h\\u00e9" reads as "hu00e9"; we decode the escape."""
    out = []
    for att in nc_atts:
        z = zarr_attrs.get(att["name"])
        if att["type"] == "char" and isinstance(z, str):
            att = dict(att, values=z)
        out.append(att)
    return out


def anonymous_dims(shape):
    return [f"_Anonymous_Dim_{n}" for n in shape]


def expectation(zv, nv):
    """Groups as zarr-python lists them; netCDF names and types as netcdf-c has them."""
    groups = []
    by_path = {}
    for gpath, zg in zv.items():
        ng = (nv.get("groups") or {}).get(gpath) if nv else None
        entry = {
            "path": gpath,
            "dims": [list(d) for d in ng["dims"]] if ng else [],
            "attributes": attributes_of(ng["attributes"], zg["attributes"]) if ng else [
                zarr_attr_to_nc(k, v) for k, v in zg["attributes"].items()],
            "variables": [],
            "groups": zg["groups"],
        }
        groups.append(entry)
        by_path[gpath] = entry
        for za in zg["arrays"]:
            nvar = None
            if ng is not None:
                nvar = next((v for v in ng["variables"] if v["name"] == za["name"]), None)
            typ = nc_type_of(za["dtype"])
            if nvar is not None:
                assert nvar["type"] == typ, (gpath, za["name"], nvar["type"], typ)
                vdims = nvar["dims"]
                vatts = attributes_of(nvar["attributes"], za["attributes"])
            else:
                # netcdf-c does not list the variable (store not opened, or a 0-d array left out):
                # its dimensions as netcdf-c places them in the stores it opens, anonymous ones in
                # the root group, named ones in the array's own group.
                vdims = list(za["attributes"].get("_ARRAY_DIMENSIONS")
                             or anonymous_dims(za["shape"]))
                vatts = [zarr_attr_to_nc(k, v) for k, v in za["attributes"].items()
                         if k != "_ARRAY_DIMENSIONS"]
                for dname, n in zip(vdims, za["shape"]):
                    home = by_path["/" if dname.startswith("_Anonymous_Dim_") else gpath]
                    if [dname, n] not in home["dims"]:
                        home["dims"].append([dname, n])
            entry["variables"].append({
                "name": za["name"],
                "type": typ,
                "dims": vdims,
                "shape": za["shape"],
                "attributes": vatts,
                # zarr's fill_value, for information: netcdf-c 4.10 lists no _FillValue attribute
                # for it (nc_inq_var_fill reports it), and a null one means "no fill"
                "zarr_fill_value": None if za["fill_value"] is None else enc_scalar(
                    za["fill_value"]),
                "data": enc_array(za["data"]),
            })
    return groups


def att_diff(nc_atts, expected):
    ours = {a["name"]: a for a in expected}
    theirs = {a["name"]: a for a in nc_atts}
    diff = [f"{n}: netcdf-c 4.10 {theirs.get(n)}" for n in sorted(set(ours) | set(theirs))
            if ours.get(n) != theirs.get(n)]
    if not diff:
        diff = ["attribute order"]
    return "; ".join(diff)


def differences(expected, nv):
    """What netcdf-c 4.10 reports differently from the expectation: (kind, where, detail)."""
    if nv is None:
        return [("unavailable", "/", "netCDF4-python is not installed")]
    if "error" in nv:
        return [("open", "/", nv["error"])]
    out = []
    for g in expected:
        ng = nv["groups"].get(g["path"])
        if ng is None:
            out.append(("missing_group", g["path"], ""))
            continue
        if ng["groups"] != g["groups"]:
            out.append(("groups", g["path"], f"{ng['groups']} != {g['groups']}"))
        if ng["dims"] != g["dims"]:
            out.append(("dims", g["path"], f"{ng['dims']} != {g['dims']}"))
        if ng["attributes"] != g["attributes"]:
            out.append(("attributes", g["path"], att_diff(ng["attributes"], g["attributes"])))
        for v in g["variables"]:
            where = g["path"].rstrip("/") + "/" + v["name"]
            nvar = next((x for x in ng["variables"] if x["name"] == v["name"]), None)
            if nvar is None:
                out.append(("missing_variable", where, ""))
                continue
            for key in ("type", "dims", "shape"):
                if nvar[key] != v[key]:
                    out.append((key, where, f"{nvar[key]} != {v[key]}"))
            if nvar["attributes"] != v["attributes"]:
                out.append(("attributes", where, att_diff(nvar["attributes"], v["attributes"])))
            if "read_error" in nvar:
                out.append(("read", where, nvar["read_error"]))
            elif nvar["data"] != v["data"]:
                out.append(("data", where, f"netcdf-c 4.10 reads {nvar['data'][:12]}"))
        names = {v["name"] for v in g["variables"]}
        for nvar in ng["variables"]:
            if nvar["name"] not in names:
                out.append(("extra_variable", g["path"], nvar["name"]))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    manifest = {
        "generator": "crates/purecdf/tests/data/zarr_oracle.py",
        "zarr": zarr.__version__,
        "numcodecs": numcodecs.__version__,
        "numpy": np.__version__,
        "netCDF4": getattr(netCDF4, "__version__", None),
        "netcdf_c": getattr(netCDF4, "__netcdf4libversion__", None),
        "stores": [],
    }
    for name, build, consolidate, choices in STORES:
        path = os.path.join(out, name + ".zarr")
        root = zarr.open_group(path, mode="w", zarr_format=2)
        build(root)
        if consolidate:
            zarr.consolidate_metadata(path)
        zv = zarr_view(path)
        nv = nc_view(path) if netCDF4 is not None else None
        groups = expectation(zv, nv)
        diffs = differences(groups, nv)
        unexplained = [d for d in diffs if d[0] != "unavailable" and not any(
            c[0] == d[0] and c[1] in (None, d[1]) for c in choices)]
        if unexplained:
            sys.exit(f"{name}: netcdf-c 4.10 differs without a recorded choice: {unexplained}")
        manifest["stores"].append({
            "name": name + ".zarr",
            "consolidated": consolidate,
            "choices": [{"kind": k, "where": w, "why": why} for k, w, why in choices],
            "netcdf_c_4_10": {
                "opened": nv is not None and "error" not in nv,
                "differences": [{"kind": k, "where": w, "detail": d} for k, w, d in diffs],
            },
            "groups": groups,
        })
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
