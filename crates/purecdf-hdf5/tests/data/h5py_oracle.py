"""h5py (libhdf5) as the oracle for purecdf-hdf5's chunked reading and Fletcher-32.

Used by tests/h5py_oracle.rs:

  h5py_oracle.py chunks OUTDIR SEED
      Writes files of random chunked int32 datasets to OUTDIR, one file per library-version
      bound, so that libhdf5 picks every chunk index: "earliest" gives version 1 B-trees;
      "v110" and "latest" (HDF5 2.0: layout message version 5 for filtered datasets) give
      single-chunk, implicit (early allocation, no filters), fixed-array (fixed
      maximum shape), extensible-array (one unlimited dimension, in any position) and version 2
      B-tree (several unlimited dimensions) indexes. Datasets are grown with resize in steps
      and written in random boxes, so some chunks stay unwritten (fill value) and extensible
      arrays reach their data blocks and super blocks. Filters: none, deflate, shuffle +
      deflate, Fletcher-32. For each dataset, what h5py reads back is written to a raw file;
      manifest.txt lists `file dataset raw-file dtype rank dims...`.

  h5py_oracle.py latest OUTDIR
      Writes latest.h5 under libver "latest" (what HDF5 2.0 writes that 1.10 does not: layout
      message version 5, datatype message version 5 for compounds, native complex numbers of
      class 11) with contiguous, compact and chunked datasets of compound, complex, enum, half
      float, big-endian and fixed string types, plus their raw contents (manifest.txt as above).

  h5py_oracle.py fletcher-write OUTDIR
      Writes fletcher32.h5 with Fletcher-32 datasets whose chunks are all zero, partly zero,
      of odd byte length and large, plus their raw contents (manifest.txt as above).

  h5py_oracle.py fletcher-read FILE RAWDIR
      Reads every dataset of FILE (written by purecdf) with h5py and compares it with
      RAWDIR/<name>.raw; prints "ok N" or the first difference and exits 1.
"""

import os
import random
import sys

import h5py
import numpy as np


def chunk_cases(rng, libver):
    """(name, shape, maxshape, chunks, filters, early) tuples for one file."""
    cases = []
    for i in range(28):
        rank = rng.randint(1, 4)
        chunks = tuple(rng.randint(1, 5) for _ in range(rank))
        shape = tuple(rng.randint(1, 13) for _ in range(rank))
        kind = rng.choice(["fixed", "fixed_larger", "one_unlim", "multi_unlim", "single"])
        if kind == "fixed":
            maxshape = shape
        elif kind == "fixed_larger":
            maxshape = tuple(s + rng.randint(0, 6) for s in shape)
        elif kind == "one_unlim":
            u = rng.randrange(rank)
            maxshape = tuple(None if d == u else s + rng.randint(0, 3) for d, s in enumerate(shape))
        elif kind == "multi_unlim":
            maxshape = tuple(None if rng.random() < 0.6 else s for s in shape)
            if rank > 1 and sum(m is None for m in maxshape) < 2:
                maxshape = (None, None) + tuple(maxshape[2:])
        else:
            maxshape = shape
            chunks = shape
        chunks = tuple(c if m is None else min(c, m) for c, m in zip(chunks, maxshape))
        filt = rng.choice(["none", "none", "gzip", "shuffle", "fletcher32"])
        early = filt == "none" and kind in ("fixed", "fixed_larger") and rng.random() < 0.5
        cases.append((f"d{i}_{kind}_{filt}", shape, maxshape, chunks, filt, early))
    # Long extensible arrays: enough chunks for data block pages and several super blocks.
    for i, (shape, maxshape, chunks) in enumerate(
        [
            ((3, 2500), (3, None), (2, 1)),
            ((2500,), (None,), (1,)),
            ((4, 700, 3), (4, None, 3), (3, 1, 2)),
            ((900, 5), (None, 5), (1, 2)),
        ]
    ):
        cases.append((f"long{i}", shape, maxshape, chunks, "gzip" if i % 2 else "none", False))
    return cases


def make_chunks(outdir, seed):
    rng = random.Random(seed)
    manifest = []
    for libver, bounds in (("earliest", ("earliest", "v110")), ("v110", ("v110", "v110")),
                           ("latest", ("latest", "latest"))):
        fname = f"chunks_{seed}_{libver}.h5"
        with h5py.File(os.path.join(outdir, fname), "w", libver=bounds) as f:
            for name, shape, maxshape, chunks, filt, early in chunk_cases(rng, libver):
                start = tuple(max(1, s // 2) if m != s else s for s, m in zip(shape, maxshape))
                kw = {}
                if filt == "gzip":
                    kw = {"compression": "gzip", "compression_opts": 1}
                elif filt == "shuffle":
                    kw = {"compression": "gzip", "shuffle": True}
                elif filt == "fletcher32":
                    kw = {"fletcher32": True}
                fill = rng.randint(-100, -1)
                if early:
                    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
                    dcpl.set_chunk(chunks)
                    dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
                    dcpl.set_fill_value(np.array(fill, dtype="<i4"))
                    space = h5py.h5s.create_simple(start, tuple(maxshape))
                    dsid = h5py.h5d.create(f.id, name.encode(), h5py.h5t.STD_I32LE, space, dcpl=dcpl)
                    ds = h5py.Dataset(dsid)
                else:
                    ds = f.create_dataset(
                        name, shape=start, maxshape=maxshape, chunks=chunks, dtype="<i4",
                        fillvalue=fill, **kw
                    )
                # Grow in steps, writing a random box after each step.
                steps = [start, shape] if start != shape else [shape]
                counter = 1
                for s in steps:
                    if tuple(ds.shape) != tuple(s):
                        ds.resize(s)
                    for _ in range(2):
                        lo = [rng.randrange(n) for n in s]
                        hi = [rng.randint(l + 1, n) for l, n in zip(lo, s)]
                        box = tuple(slice(l, h) for l, h in zip(lo, hi))
                        n = int(np.prod([h - l for l, h in zip(lo, hi)]))
                        ds[box] = np.arange(counter, counter + n, dtype="<i4").reshape(
                            [h - l for l, h in zip(lo, hi)]
                        )
                        counter += n
                if name.startswith("long"):
                    ds[...] = np.arange(1, ds.size + 1, dtype="<i4").reshape(ds.shape)
                raw = f"{fname}.{name}.raw"
                ds[...].astype("<i4").tofile(os.path.join(outdir, raw))
                manifest.append(f"{fname} /{name} {raw} <i4 {len(ds.shape)} "
                                + " ".join(map(str, ds.shape)))
    with open(os.path.join(outdir, "manifest.txt"), "w") as m:
        m.write("\n".join(manifest) + "\n")


def make_latest(outdir):
    """Datasets whose messages only HDF5 2.0 writes, under libver "latest"."""
    rng = np.random.default_rng(11)
    manifest = []
    fname = "latest.h5"

    def record(name, ds, raw_bytes):
        raw = f"latest.{name}.raw"
        with open(os.path.join(outdir, raw), "wb") as r:
            r.write(raw_bytes)
        manifest.append(f"{fname} /{name} {raw} {ds.dtype.str} {len(ds.shape)} "
                        + " ".join(map(str, ds.shape)))

    cmp_t = np.dtype([("a", "<i4"), ("b", "<f8"), ("c", "<i2", (3,))])
    cmp = np.zeros(7, dtype=cmp_t)
    cmp["a"] = np.arange(7)
    cmp["b"] = rng.standard_normal(7)
    cmp["c"] = np.arange(21).reshape(7, 3)
    cases = {
        "contiguous_f8": (rng.standard_normal((4, 5)), {}),
        "chunked_gzip_i2": (np.arange(-30, 30, dtype="<i2").reshape(6, 10),
                            {"chunks": (4, 3), "compression": "gzip"}),
        "chunked_shuffle_unlim": (np.arange(40, dtype="<u4").reshape(8, 5),
                                  {"chunks": (3, 2), "maxshape": (None, 5), "shuffle": True,
                                   "compression": "gzip"}),
        "chunked_bt2_fletcher": (np.arange(24, dtype="<f4").reshape(4, 6),
                                 {"chunks": (3, 4), "maxshape": (None, None),
                                  "fletcher32": True}),
        "single_scaleoffset": (np.arange(50, dtype="<i4") * 3,
                               {"chunks": (50,), "scaleoffset": 0}),
        "compound": (cmp, {}),
        "compound_chunked": (cmp, {"chunks": (2,), "compression": "gzip"}),
        "complex_compound": (np.array([1 + 2j, -3.5 - 4j, 0j], dtype="<c8"), {}),
        "enum": (np.array([0, 2, 1, 1], dtype="u1"),
                 {"dtype": h5py.enum_dtype({"R": 0, "G": 1, "B": 2}, basetype="u1")}),
        "half": (np.array([1.5, -2.25, 65504.0], dtype="<f2"), {}),
        "big_endian_i8": (np.arange(5, dtype=">i8") - 2,
                          {"dtype": ">i8", "chunks": (2,), "compression": "gzip"}),
        "fixed_string": (np.array([b"ab", b"cde", b""], dtype="S4"), {}),
    }
    with h5py.File(os.path.join(outdir, fname), "w", libver="latest") as f:
        for name, (data, kw) in cases.items():
            ds = f.create_dataset(name, data=data, **kw)
            record(name, ds, ds[...].astype(ds.dtype).tobytes())
        # Compact storage.
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_layout(h5py.h5d.COMPACT)
        dsid = h5py.h5d.create(f.id, b"compact_i2", h5py.h5t.STD_I16LE,
                               h5py.h5s.create_simple((6,)), dcpl=dcpl)
        ds = h5py.Dataset(dsid)
        ds[...] = np.arange(6, dtype="<i2") * -7
        record("compact_i2", ds, ds[...].tobytes())
        # Native complex numbers (datatype class 11), little- and big-endian, plain and chunked.
        for name, ftype, mtype, chunks in [
            ("complex_f32le", h5py.h5t.COMPLEX_IEEE_F32LE, "<c8", None),
            ("complex_f64be", h5py.h5t.COMPLEX_IEEE_F64BE, ">c16", None),
            ("complex_f64le_chunked", h5py.h5t.COMPLEX_IEEE_F64LE, "<c16", (2,)),
        ]:
            dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
            if chunks:
                dcpl.set_chunk(chunks)
                dcpl.set_deflate(1)
            values = (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(mtype)
            dsid = h5py.h5d.create(f.id, name.encode(), ftype, h5py.h5s.create_simple((5,)),
                                   dcpl=dcpl)
            mem = ftype.copy()
            dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, values, mtype=mem)
            back = np.zeros(5, dtype=mtype)
            dsid.read(h5py.h5s.ALL, h5py.h5s.ALL, back, mtype=mem)
            ds = h5py.Dataset(dsid)
            raw = f"latest.{name}.raw"
            with open(os.path.join(outdir, raw), "wb") as r:
                r.write(back.tobytes())
            manifest.append(f"{fname} /{name} {raw} {back.dtype.str} 1 5")
        # Attributes spilling into dense storage, one of them a native complex number.
        for i in range(12):
            f.attrs[f"attr{i:02d}"] = np.int32(i)
        aid = h5py.h5a.create(f.id, b"complex_attr", h5py.h5t.COMPLEX_IEEE_F64LE,
                              h5py.h5s.create(h5py.h5s.SCALAR))
        aid.write(np.array(5 - 6j, dtype="<c16"), mtype=h5py.h5t.COMPLEX_IEEE_F64LE)
    with open(os.path.join(outdir, "manifest.txt"), "w") as m:
        m.write("\n".join(manifest) + "\n")


def make_fletcher(outdir):
    rng = np.random.default_rng(7)
    cases = {
        # (data, chunks)
        "zero_chunk_i4": (np.concatenate([np.arange(1, 9), np.zeros(4), np.arange(5, 9)]).astype("<i4"), (4,)),
        "all_zero_f8": (np.zeros((6, 8), dtype="<f8"), (3, 4)),
        "odd_i1": (np.array([1, 2, 3, 4, 5, 0, 0, 0, 0, 0, -7, 8, 9, 10, 11], dtype="i1"), (5,)),
        "odd_3_i1": (np.array([0, 0, 0, 250 - 256, 17, 3, 1], dtype="i1"), (3,)),
        "big_f4": (rng.standard_normal((512, 1024)).astype("<f4"), (512, 1024)),
        "big_u2_max": (np.full((3000,), 0xFFFF, dtype="<u2"), (3000,)),
        "partial_zero_i2": (np.concatenate([np.zeros(700), np.arange(1, 301)]).astype("<i2"), (1000,)),
    }
    manifest = []
    with h5py.File(os.path.join(outdir, "fletcher32.h5"), "w") as f:
        for name, (data, chunks) in cases.items():
            f.create_dataset(name, data=data, chunks=chunks, fletcher32=True)
            raw = f"fletcher32.{name}.raw"
            data.tofile(os.path.join(outdir, raw))
            manifest.append(f"fletcher32.h5 /{name} {raw} {data.dtype.str} {data.ndim} "
                            + " ".join(map(str, data.shape)))
    with open(os.path.join(outdir, "manifest.txt"), "w") as m:
        m.write("\n".join(manifest) + "\n")


def check_fletcher(path, rawdir):
    n = 0
    with h5py.File(path, "r") as f:
        for name, ds in f.items():
            if ds.fletcher32 is not True:
                print(f"{name}: not a Fletcher-32 dataset")
                return 1
            got = ds[...]
            want = np.fromfile(os.path.join(rawdir, f"{name}.raw"), dtype=ds.dtype).reshape(ds.shape)
            if not np.array_equal(got, want):
                print(f"{name}: h5py reads other values")
                return 1
            n += 1
    print(f"ok {n}")
    return 0


def main():
    cmd = sys.argv[1]
    if cmd == "chunks":
        make_chunks(sys.argv[2], int(sys.argv[3]))
    elif cmd == "latest":
        make_latest(sys.argv[2])
    elif cmd == "fletcher-write":
        make_fletcher(sys.argv[2])
    elif cmd == "fletcher-read":
        sys.exit(check_fletcher(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
