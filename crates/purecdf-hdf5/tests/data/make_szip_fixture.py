"""Makes h5py_szip.h5: szip-compressed datasets (libaec through h5py) exercising every coding option:
zero runs, low-entropy (second extension), split samples and uncompressed blocks, for 8/16/32/64-bit
samples, both byte orders, nn and ec modes, blocks of 8 and 32 pixels, and a scanline that is not a
whole number of blocks. The expected values are rebuilt by the test from the same formulas."""
import h5py
import numpy as np


def values(n):
    i = np.arange(n, dtype=np.int64)
    smooth = (i // 7) % 50                      # runs and small steps
    zeros = np.where((i // 300) % 3 == 0, 0, 1)  # long zero stretches
    noise = (i * 2654435761) % 65536            # high entropy
    mix = np.where(i % 1000 < 500, smooth * zeros, noise)
    return mix


n = 1200
v = values(n)
with h5py.File("h5py_szip.h5", "w") as f:
    for dtype in ["<u1", "<i2", ">i2", "<u2", "<i4", ">i4", "<f4", "<f8", "<i8"]:
        data = v.astype(np.float64) * 0.25 if dtype[1] == "f" else v % min(2 ** (8 * int(dtype[2]) - 1), 2 ** 40)
        for mode, ppb in [("nn", 8), ("ec", 32)]:
            name = f"{dtype[0] == '>' and 'be' or 'le'}_{dtype[1:]}_{mode}_{ppb}"
            f.create_dataset(name, data=data.astype(dtype).reshape(40, 30), chunks=(20, 15), compression="szip", compression_opts=(mode, ppb))
