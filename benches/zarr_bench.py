"""zarr-python side of benches/nczarr.sh: `write STORE CODEC` writes the 256 MiB float array of
nc4bench.c (256 x 512 x 512, chunks 1 x 512 x 512, the same values) as a Zarr v2 store with the
codec (blosc-lz4: blosc lz4 level 5 with byte shuffle; zstd-3: zstd level 3) and prints the
seconds the write took (values made beforehand); `read STORE` reads the array `data` whole and
prints the seconds."""
import sys
import time

import numcodecs
import numpy as np
import zarr


def fast_field():
    # The same shape and smoothness, cheaper noise: zarr-python's write time does not include it.
    rng = np.random.default_rng(1)
    i = np.arange(512 * 512)
    smooth = ((i % 512) * 0.01 + (i // 512) * 0.5).reshape(512, 512)
    out = np.empty((256, 512, 512), dtype=np.float32)
    for z in range(256):
        out[z] = (smooth + z).astype(np.float32) + rng.integers(0, 100000, (512, 512)).astype(np.float32) * np.float32(1e-5)
    return out


CODECS = {
    "blosc-lz4": numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE),
    "zstd-3": numcodecs.Zstd(level=3),
}

if sys.argv[1] == "write":
    data = fast_field()
    t = time.perf_counter()
    g = zarr.open_group(sys.argv[2], mode="w", zarr_format=2)
    a = g.create_array("data", shape=data.shape, chunks=(1, 512, 512), dtype="<f4", compressors=CODECS[sys.argv[3]], fill_value=0)
    a[...] = data
    print("%.4f" % (time.perf_counter() - t))
else:
    t = time.perf_counter()
    g = zarr.open_group(sys.argv[2], mode="r", zarr_format=2)
    d = g["data"][...]
    print("%.4f" % (time.perf_counter() - t))
    print("checksum %.6e" % d.astype(np.float64).sum(), file=sys.stderr)
