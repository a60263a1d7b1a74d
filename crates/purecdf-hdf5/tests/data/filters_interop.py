#!/usr/bin/env python3
"""Reference files for tests/filters_interop.rs: libhdf5 through h5py with hdf5plugin's filters
(c-blosc 1.x, HDF5's LZ4 filter, bitshuffle, bzip2, zstd) and h5py's LZF.

  filters_interop.py write OUTDIR
      Writes theirs.h5 with one dataset per filter case (every blosc compressor x shuffle mode x
      type size 1/2/4/8, shuffle|zstd, bzip2, lz4, bitshuffle with none/lz4/zstd, lzf) of odd
      lengths and chunk sizes, each value array also in NAME.raw; manifest.txt lists
      "NAME DTYPE N CHUNK" per dataset.
  filters_interop.py read FILE OUTDIR
      Reads every dataset of manifest.txt in OUTDIR from FILE (written by purecdf) and compares
      it with NAME.raw; prints "ok N" or the mismatches (exit status 1).
  filters_interop.py fixture FILE
      Writes the small committed fixture (tests/data/filters_plugins.h5): /expected_<type> and one
      filtered copy per filter, named after it.
"""
import os
import sys

import h5py
import hdf5plugin
import numpy as np

DTYPES = ["|u1", "<i2", "<f4", "<f8"]
BLOSC_NAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]
SHUFFLES = {"none": hdf5plugin.Blosc.NOSHUFFLE, "byte": hdf5plugin.Blosc.SHUFFLE,
            "bit": hdf5plugin.Blosc.BITSHUFFLE}


def values(dtype, n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        v = np.sin(t / 37.0) * 1000 + rng.normal(0, 0.01, n)
    else:
        info = np.iinfo(dt)
        v = (t // 3 + rng.integers(0, 4, n)) % (int(info.max) + 1)
    return v.astype(dt)


def cases():
    """(name, dtype, n, chunk, h5py keyword arguments)."""
    out = []
    i = 0
    for cname in BLOSC_NAMES:
        for sname, sh in SHUFFLES.items():
            for dt in DTYPES:
                clevel = [1, 5, 9][i % 3]
                n, chunk = [(30011, 9001), (20000, 20000), (777, 250)][i % 3]
                out.append((f"blosc_{cname}_{sname}_{np.dtype(dt).itemsize}_{clevel}", dt, n, chunk,
                            dict(**hdf5plugin.Blosc(cname=cname, clevel=clevel, shuffle=sh))))
                i += 1
    for dt in DTYPES:
        size = np.dtype(dt).itemsize
        out.append((f"zstd_{size}", dt, 10007, 3001, dict(**hdf5plugin.Zstd(clevel=5))))
        out.append((f"shuffle_zstd_{size}", dt, 10007, 3001,
                    dict(shuffle=True, **hdf5plugin.Zstd(clevel=3))))
        out.append((f"bzip2_{size}", dt, 10007, 3001, dict(**hdf5plugin.BZip2(blocksize=9))))
        out.append((f"lz4_{size}", dt, 10007, 3001, dict(**hdf5plugin.LZ4())))
        out.append((f"lz4_blocks_{size}", dt, 10007, 3001, dict(**hdf5plugin.LZ4(nbytes=1000))))
        for cname in ["none", "lz4", "zstd"]:
            out.append((f"bitshuffle_{cname}_{size}", dt, 10007, 3001,
                        dict(**hdf5plugin.Bitshuffle(cname=cname))))
        out.append((f"bitshuffle_blocks_lz4_{size}", dt, 10007, 3001,
                    dict(**hdf5plugin.Bitshuffle(nelems=256, cname="lz4"))))
        out.append((f"lzf_{size}", dt, 10007, 3001, dict(compression="lzf")))
    return out


def write(outdir):
    manifest = []
    with h5py.File(os.path.join(outdir, "theirs.h5"), "w") as f:
        for k, (name, dt, n, chunk, kw) in enumerate(cases()):
            data = values(dt, n, k)
            f.create_dataset(name, data=data, chunks=(chunk,), **kw)
            data.tofile(os.path.join(outdir, name + ".raw"))
            manifest.append(f"{name} {dt} {n} {chunk}")
    with open(os.path.join(outdir, "manifest.txt"), "w") as m:
        m.write("\n".join(manifest) + "\n")


def read(path, outdir):
    bad = []
    lines = open(os.path.join(outdir, "manifest.txt")).read().split("\n")
    entries = [l.split() for l in lines if l]
    with h5py.File(path, "r") as f:
        for name, dt, n, chunk in entries:
            want = np.fromfile(os.path.join(outdir, name + ".raw"), dtype=dt)
            try:
                got = f[name][...]
            except Exception as e:  # noqa: BLE001
                bad.append(f"{name}: {e}")
                continue
            if got.dtype != want.dtype or not np.array_equal(got, want):
                bad.append(f"{name}: values differ")
    if bad:
        print("\n".join(bad))
        return 1
    print(f"ok {len(entries)}")
    return 0


def fixture(path):
    with h5py.File(path, "w", libver=("earliest", "v110")) as f:
        for dt in ["<f4"]:
            size = np.dtype(dt).itemsize
            data = values(dt, 501, size)
            f.create_dataset(f"expected_{size}", data=data)
            kws = {
                "bzip2": hdf5plugin.BZip2(),
                "zstd": hdf5plugin.Zstd(),
                "lz4": hdf5plugin.LZ4(),
                "lzf": dict(compression="lzf"),
                "bitshuffle_lz4": hdf5plugin.Bitshuffle(cname="lz4"),
                "bitshuffle_zstd": hdf5plugin.Bitshuffle(cname="zstd"),
            }
            for cname in BLOSC_NAMES:
                for sname, sh in SHUFFLES.items():
                    kws[f"blosc_{cname}_{sname}"] = hdf5plugin.Blosc(cname=cname, clevel=5, shuffle=sh)
            for name, kw in kws.items():
                f.create_dataset(f"{name}_{size}", data=data, chunks=(200,), **dict(kw))


def main():
    cmd = sys.argv[1]
    if cmd == "write":
        write(sys.argv[2])
    elif cmd == "read":
        sys.exit(read(sys.argv[2], sys.argv[3]))
    elif cmd == "fixture":
        fixture(sys.argv[2])
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
