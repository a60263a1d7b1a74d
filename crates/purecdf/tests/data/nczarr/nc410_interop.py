#!/usr/bin/env python3
"""NCZarr stores and netCDF4-python with the netcdf-c it bundles (4.10), for tests/zarr_nc410.rs.

    nc410_interop.py write OUTDIR    writes OUTDIR/by410.zarr with netcdf-c 4.10 (zlib with
                                     shuffle, zstd, blosc lz4 and zstd, groups, an unlimited
                                     dimension, attributes of every type) and prints its view
    nc410_interop.py read STORE...   prints netcdf-c 4.10's view of each store (ours)

A view is {"groups": [...], "codecs": {"/g/v": "<_Codecs>", ...}}: the groups as
../zarr_oracle.py's nc_view reports them (types through ctypes on 4.10's libnetcdf), and for every
variable with filters the `_Codecs` text netcdf-c answers for it; or {"error": "..."}.
"""

import importlib.util
import json
import os
import sys

import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("zarr_oracle", os.path.join(HERE, "..", "zarr_oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)


def url(path):
    return "file://" + os.path.abspath(path) + "#mode=nczarr,file"


def build(ds):
    ds.createDimension("x", 40)
    ds.createDimension("y", 50)
    ds.createDimension("t", None)
    ds.title = "by netcdf-c 4.10"
    ds.setncattr("n", np.array([1, -2, 3], "i4"))
    ds.setncattr("f", np.array([0.5, -1.25], "f4"))
    ds.setncattr("d", np.float64(0.1))
    ds.setncattr("b", np.int8(-7))
    ds.setncattr("u64", np.uint64(2**64 - 1))
    ds.setncattr_string("strings", ["a", "bc", ""])
    ds.setncattr_string("one", "one string")
    grid = np.arange(2000).reshape(40, 50)
    for name, typ, kw in [
        ("plain", "f4", {}),
        ("z", "f4", dict(compression="zlib", complevel=4, shuffle=True)),
        ("zs", "i4", dict(compression="zstd", complevel=3)),
        ("bl", "f8", dict(compression="blosc_lz4", complevel=5, blosc_shuffle=1)),
        ("blz", "i2", dict(compression="blosc_zstd", complevel=2, blosc_shuffle=2)),
    ]:
        v = ds.createVariable(name, typ, ("x", "y"), chunksizes=(20, 25), **kw)
        v[:] = (grid * 1.5 - 700).astype(typ)
        v.units = "m"
        v.setncattr("valid_range", np.array([-700, 3000], typ))
    rec = ds.createVariable("rec", "i4", ("t", "x"), compression="zlib", complevel=1)
    rec[0:3, :] = np.arange(120).reshape(3, 40)
    g = ds.createGroup("g")
    g.createDimension("z", 4)
    g.note = "child"
    w = g.createVariable("w", "u2", ("x", "z"), compression="zlib", complevel=9, shuffle=False)
    w[:] = np.arange(160).reshape(40, 4) * 400
    h = g.createGroup("h")
    s = h.createVariable("s", "i8", ())
    s.assignValue(-(2**62))


def codecs(path):
    out = {}
    ds = netCDF4.Dataset(url(path))

    def walk(g):
        for v in g.variables.values():
            if any(x for x in v.filters().values()):
                out[g.path.rstrip("/") + "/" + v.name] = v.getncattr("_Codecs")
        for sub in g.groups.values():
            walk(sub)

    walk(ds)
    ds.close()
    return out


def view(path):
    v = oracle.nc_view(path, mode="nczarr")
    if "error" in v:
        return v
    return {"groups": list(v["groups"].values()), "codecs": codecs(path)}


def main():
    if sys.argv[1] == "write":
        path = os.path.join(sys.argv[2], "by410.zarr")
        ds = netCDF4.Dataset(url(path), "w", format="NETCDF4")
        build(ds)
        ds.close()
        out = view(path)
        out["store"] = path
    else:
        out = {p: view(p) for p in sys.argv[2:]}
    json.dump(out, sys.stdout, ensure_ascii=False, allow_nan=False)


if __name__ == "__main__":
    main()
