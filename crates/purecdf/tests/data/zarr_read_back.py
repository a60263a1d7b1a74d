"""Reads Zarr stores (directories, or zip archives in netcdf-c's layout) with zarr-python (zarr_format=2) and, for NCZarr stores, netCDF4-python
(netcdf-c 4.10), and prints what each holds as JSON: for every array its dtype, shape, data in
C order (NaN as "NaN") and attributes (NCZarr's own keys left out); for netCDF4 every
variable's dimensions and data. Usage: zarr_read_back.py STORE [nczarr|zarr]..."""
import json
import math
import sys

import numpy as np
import zarr


def plain(x):
    if isinstance(x, (bytes, np.bytes_)):
        return x.decode("utf-8", "replace")
    if isinstance(x, (float, np.floating)):
        f = float(x)
        return "NaN" if math.isnan(f) else ("Infinity" if f == math.inf else ("-Infinity" if f == -math.inf else f))
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, np.ndarray):
        return [plain(v) for v in x.tolist()]
    if isinstance(x, list):
        return [plain(v) for v in x]
    return x


def zarr_view(path):
    out = {}
    if path.endswith(".zip"):
        # netcdf-c's zip layout: the keys under a top directory named after the archive.
        import os

        store = zarr.storage.ZipStore(path, mode="r")
        top = os.path.splitext(os.path.basename(path))[0]
        root = zarr.open_group(store, path=top, mode="r", zarr_format=2)
    else:
        root = zarr.open_group(path, mode="r", zarr_format=2)

    def walk(g, prefix):
        for name, a in g.arrays():
            data = a[...]
            flat = np.asarray(data).reshape(-1)
            out[prefix + name] = {
                "dtype": str(a.dtype),
                "shape": list(a.shape),
                "data": [plain(v) for v in flat.tolist()] if flat.dtype.kind != "O" else [str(v) for v in flat],
                "attrs": {k: plain(v) for k, v in a.attrs.items() if not k.lower().startswith("_nczarr")},
            }
        for name, sub in g.groups():
            walk(sub, prefix + name + "/")

    walk(root, "")
    return out


def netcdf4_view(path):
    import netCDF4

    out = {}
    ds = netCDF4.Dataset("file://%s#mode=nczarr,file" % path)

    def walk(g, prefix):
        for name, v in g.variables.items():
            v.set_auto_maskandscale(False)
            try:
                data = np.asarray(v[...]).reshape(-1)
            except Exception as e:  # a codec netcdf-c lacks
                out[prefix + name] = {"dims": list(v.dimensions), "error": str(e)}
                continue
            out[prefix + name] = {
                "dims": list(v.dimensions),
                "data": [plain(x) for x in data.tolist()] if data.dtype.kind != "O" else [str(x) for x in data],
            }
        for name, sub in g.groups.items():
            walk(sub, prefix + name + "/")

    walk(ds, "")
    ds.close()
    return out


result = {}
args = sys.argv[1:]
for path, mode in zip(args[::2], args[1::2]):
    entry = {"zarr": zarr_view(path)}
    if mode == "nczarr":
        entry["netcdf4"] = netcdf4_view(path)
    result[path] = entry
print(json.dumps(result))
