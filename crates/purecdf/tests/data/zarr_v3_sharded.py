"""Writes a Zarr version 3 store of sharded arrays (the sharding_indexed codec) with zarr-python 3
into OUTDIR/sharded.zarr and prints a JSON manifest of what each array holds, read back by
zarr-python (see zarr_v3_manifest.py).
Arrays: every numeric type, booleans and strings; shapes that end in partial shards; the index at
the shard's end and at its start; inner codecs bytes (both byte orders), transpose, gzip, zstd,
blosc and crc32c; inner chunks and a whole shard never written (fill value).
Usage: zarr_v3_sharded.py OUTDIR (tests/data/zarr_v3_sharded/ holds its output and manifest)"""
import os
import sys

import numpy as np
import zarr
from zarr.codecs import (BloscCodec, BytesCodec, Crc32cCodec, GzipCodec, TransposeCodec,
                         ZstdCodec)

from zarr_v3_manifest import print_manifest

out = sys.argv[1]
path = os.path.join(out, "sharded.zarr")
g = zarr.open_group(path, mode="w", zarr_format=3)
rng = np.random.default_rng(7)
arrays = []


def add(name, data, chunks, shards, where="end", group=g, dims=None, write=None, **kw):
    a = group.create_array(name, shape=data.shape, chunks=chunks,
                           shards={"shape": shards, "index_location": where},
                           dtype=(str if data.dtype == object else data.dtype),
                           dimension_names=dims, **kw)
    if write is None:
        a[...] = data
    else:
        a[write] = data[write]
    arrays.append((group.path, name, a))


codecs = [
    ("plain", {"compressors": None}),
    ("gzip", {"compressors": GzipCodec(level=5)}),
    ("zstd", {"compressors": ZstdCodec(level=3, checksum=True)}),
    ("blosc", {"compressors": BloscCodec(cname="lz4", clevel=5, shuffle="shuffle")}),
    ("bitshuf", {"compressors": BloscCodec(cname="zstd", clevel=3, shuffle="bitshuffle")}),
    ("crc", {"compressors": [GzipCodec(level=1), Crc32cCodec()]}),
    ("big", {"compressors": None, "serializer": BytesCodec(endian="big")}),
    ("transposed", {"compressors": GzipCodec(level=1), "filters": [TransposeCodec(order=(1, 0))]}),
]
types = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
         "float64"]
for i, t in enumerate(types):
    label, kw = codecs[i % len(codecs)]
    info = np.iinfo(t) if t[0] in "iu" else np.finfo(t)
    lo = 0 if t[0] == "u" else -1000
    data = rng.integers(lo, 1000, size=(5, 7)).astype(t)
    data.flat[0] = info.max
    data.flat[1] = info.min
    where = "start" if i % 2 else "end"
    add("v_%s_%s_%s" % (t, label, where), data, (2, 3), (4, 6), where, dims=["y", "x"], **kw)
add("transposed", np.arange(35, dtype="int32").reshape(5, 7), (2, 3), (4, 6), "start",
    **codecs[7][1])
add("bools", np.array([True, False, True, True, False]), (2,), (4,), **codecs[1][1])
add("strings", np.array(["a", "bb", "", "\u00e9", "five"], dtype=object), (2,), (4,), "start",
    dims=["n"])
# Inner chunks and one whole shard never written: only rows 0..2, columns 0..3 hold data.
sparse = np.full((6, 8), -1.5, dtype="float64")
sparse[0:2, 0:3] = [[1, 2, 3], [4, 5, 6]]
add("sparse", sparse, (2, 3), (4, 6), fill_value=-1.5, write=np.s_[0:2, 0:3])
# Three dimensions, the inner chunks a single element wide in one of them.
add("cube", np.arange(3 * 5 * 4, dtype="uint16").reshape(3, 5, 4), (1, 2, 4), (2, 4, 4), "start",
    dims=["t", "ty", "tx"], **codecs[2][1])
sub = g.create_group("sub")
add("w", np.arange(12, dtype="int16").reshape(3, 4), (1, 2), (2, 4), group=sub, dims=["a", "b"],
    **codecs[3][1])


print_manifest("sharded.zarr", arrays)
