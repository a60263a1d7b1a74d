"""Writes Zarr version 3 stores with zarr-python 3 into OUTDIR and prints a JSON manifest of what
each array holds (read back by zarr-python; see zarr_v3_manifest.py).
Usage: zarr_v3.py OUTDIR"""
import os
import sys

import numpy as np
import zarr
from zarr.codecs import BloscCodec, BytesCodec, Crc32cCodec, GzipCodec, ZstdCodec

from zarr_v3_manifest import print_manifest

out = sys.argv[1]
path = os.path.join(out, "v3.zarr")
g = zarr.open_group(path, mode="w", zarr_format=3)
rng = np.random.default_rng(3)
arrays = []


def add(name, data, chunks, group=g, dims=None, **kw):
    a = group.create_array(name, shape=data.shape, chunks=chunks, dtype=(str if data.dtype == object else data.dtype),
                           dimension_names=dims, **kw)
    a[...] = data
    arrays.append((group.path, name, a))


codecs = [
    ("plain", {"compressors": None}),
    ("gzip", {"compressors": GzipCodec(level=5)}),
    ("zstd", {"compressors": ZstdCodec(level=3, checksum=True)}),
    ("blosc_shuf", {"compressors": BloscCodec(cname="lz4", clevel=5, shuffle="shuffle")}),
    ("blosc_bit", {"compressors": BloscCodec(cname="zstd", clevel=3, shuffle="bitshuffle")}),
    ("crc", {"compressors": [GzipCodec(level=1), Crc32cCodec()]}),
    ("big", {"compressors": None, "serializer": BytesCodec(endian="big")}),
]
types = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"]
for i, t in enumerate(types):
    label, kw = codecs[i % len(codecs)]
    info = np.iinfo(t) if t[0] in "iu" else np.finfo(t)
    data = rng.integers(-1000, 1000, size=(5, 7)).astype(t) if t[0] != "u" else rng.integers(0, 1000, size=(5, 7)).astype(t)
    data.flat[0] = info.max
    data.flat[1] = info.min
    add("v_%s_%s" % (t, label), data, (2, 3), dims=["y", "x"], **kw)
add("bools", np.array([True, False, True, True]), (3,), **codecs[1][1])
f = g.create_array("sparse", shape=(6,), chunks=(2,), dtype="float32", fill_value=float("nan"))
f[0:2] = [1.5, 2.5]
arrays.append((g.path, "sparse", f))
add("strings", np.array(["a", "bb", "", "é"], dtype=object), (3,), dims=["n"])
z = g.create_array("scalar", shape=(), dtype="float64", fill_value=0)
z[()] = 2.5
arrays.append((g.path, "scalar", z))
sub = g.create_group("sub")
add("w", np.arange(12, dtype="int16").reshape(3, 4), (2, 2), group=sub, dims=["a", "b"], **codecs[3][1])


print_manifest(path, arrays)
