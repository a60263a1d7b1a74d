"""The manifest zarr_v3.py and zarr_v3_sharded.py print: for each array, read back by
zarr-python, its path, netCDF type name, shape, dimension names (the array's dimension_names,
else _Anonymous_Dim_<len>) and data in C order (NaN as "NaN"), one array a line."""
import json
import math

import numpy as np

NC = {"int8": "byte", "uint8": "ubyte", "int16": "short", "uint16": "ushort", "int32": "int",
      "uint32": "uint", "int64": "int64", "uint64": "uint64", "float32": "float",
      "float64": "double", "bool": "ubyte"}


def plain(v):
    if isinstance(v, float):
        return "NaN" if math.isnan(v) else v
    return v


def print_manifest(store, arrays):
    """Prints the manifest of `arrays`, (group path, name, zarr array) triples, in `store`."""
    rows = []
    for gpath, name, a in arrays:
        data = np.asarray(a[...]).reshape(-1)
        if data.dtype.kind in "OUT":
            vals, typ = [str(x) for x in data.tolist()], "string"
        else:
            vals, typ = [plain(x) for x in data.tolist()], NC[str(data.dtype)]
        if data.dtype == bool:
            vals = [int(x) for x in vals]
        names = a.metadata.dimension_names
        dims = list(names) if names else ["_Anonymous_Dim_%d" % n for n in a.shape]
        rows.append(json.dumps({"path": (gpath + "/" if gpath else "") + name, "type": typ,
                                "shape": list(a.shape), "dims": dims, "data": vals}))
    print('{"store": %s, "arrays": [\n%s\n]}' % (json.dumps(store), ",\n".join(rows)))
