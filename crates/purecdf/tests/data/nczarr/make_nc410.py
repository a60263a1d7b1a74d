#!/usr/bin/env python3
"""Writes tests/data/nczarr/nc410/: NCZarr stores (`#mode=nczarr,file`) written by netCDF4-python
with the netcdf-c it bundles (4.10), which uses the lower-case `_nczarr_*` keys in `.zattrs`, and
nc410/manifest.json: what each store reads as, read back with netCDF4-python (netCDF types through
ctypes on its own libnetcdf, as in ../zarr_oracle.py). Run from anywhere:

    python3 crates/purecdf/tests/data/nczarr/make_nc410.py
"""

import importlib.util
import json
import os
import shutil

import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "nc410")

spec = importlib.util.spec_from_file_location("zarr_oracle", os.path.join(HERE, "..", "zarr_oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)


def url(name):
    return "file://" + os.path.join(OUT, name) + "#mode=nczarr,file"


def types_store(ds):
    """Every atomic type, char and string variables, a scalar, _FillValue, edge chunks, a variable
    never written, typed attributes (multi-valued, char, string)."""
    ds.createDimension("n", 5)
    ds.createDimension("len", 3)
    values = [-2, -1, 0, 1, 100]
    for t in ("i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8"):
        v = ds.createVariable("v_" + t, t, ("n",), chunksizes=(2,))
        v[:] = np.array([abs(x) if t[0] == "u" else x for x in values], dtype=t) / (
            4 if t[0] == "f" else 1)
    c = ds.createVariable("chars", "S1", ("n", "len"), chunksizes=(2, 2))
    c[:] = netCDF4.stringtochar(np.array([b"abc", b"de", b"f", b"", b"xyz"], dtype="S3"))
    s = ds.createVariable("strings", str, ("n",), chunksizes=(3,))
    s[0:4] = np.array(["one", "", "th\u00e9", "a longer string"], dtype=object)
    f = ds.createVariable("filled", "i2", ("n", "len"), fill_value=-5, chunksizes=(2, 2))
    f[0:2, 0:2] = [[1, 2], [3, 4]]
    ds.createVariable("never", "f8", ("n",), fill_value=-1.5, chunksizes=(2,))
    sc = ds.createVariable("scalar", "i4", ())
    sc.assignValue(17)
    sc.units = "1"
    ds.setncattr("att_int", np.array([1, -2, 3], "i4"))
    ds.setncattr("att_short", np.int16(-7))
    ds.setncattr("att_ubyte", np.array([0, 255], "u1"))
    ds.setncattr("att_uint64", np.uint64(2**64 - 1))
    ds.setncattr("att_float", np.array([0.5, -1.25], "f4"))
    ds.setncattr("att_double", np.float64(0.1))
    ds.setncattr("att_char", "some text")
    ds.setncattr_string("att_strings", ["a", "bc", ""])
    ds.setncattr_string("att_string", "one string")


def groups_store(ds):
    """Dimensions in parent groups used by variables in subgroups; an unlimited dimension."""
    ds.createDimension("x", 3)
    ds.createDimension("t", None)
    ds.title = "nczarr groups"
    x = ds.createVariable("x", "f4", ("x",))
    x[:] = [0.5, 1.5, 2.5]
    rec = ds.createVariable("rec", "i4", ("t", "x"), chunksizes=(2, 3))
    rec[0:3, :] = np.arange(9).reshape(3, 3)
    g = ds.createGroup("g")
    g.createDimension("y", 2)
    g.note = "child"
    a = g.createVariable("a", "u2", ("x", "y"), chunksizes=(2, 1))
    a[:] = [[1, 2], [3, 4], [5, 6]]
    h = g.createGroup("h")
    b = h.createVariable("b", "i8", ("t", "y"))
    b[0:2, :] = [[-1, -2], [-3, -4]]
    ds.createGroup("empty")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    manifest = {
        "generator": "crates/purecdf/tests/data/nczarr/make_nc410.py",
        "netCDF4": netCDF4.__version__,
        "netcdf_c": netCDF4.__netcdf4libversion__,
        "stores": [],
    }
    for name, build in (("types.zarr", types_store), ("groups.zarr", groups_store)):
        ds = netCDF4.Dataset(url(name), "w", format="NETCDF4")
        build(ds)
        ds.close()
        view = oracle.nc_view(os.path.join(OUT, name), mode="nczarr")
        assert "error" not in view, view
        groups = []
        for g in view["groups"].values():
            for v in g["variables"]:
                assert "read_error" not in v, v
            groups.append(g)
        manifest["stores"].append({"name": name, "mode": "nczarr", "groups": groups})
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
