"""Writes tests/data/regressions.h5 with h5py (HDF5 2.0 here; any HDF5 >= 1.10 writes the same
index types): the two wrong-data classes of issue 8, as committed fixtures.

* ea_last (10 x None, chunks 4 x 3, libver v110): an extensible-array chunk index whose
  unlimited dimension is not the first; grown to 10 x 7 and written in two steps, so chunks are
  numbered over the maximum extent, not the current one. Values: 100*i + j.
* ea_gap (None, chunks 4): an extensible array whose later data block is allocated while an
  earlier one is not (chunks 0 and 40 written, the ones between never), the case of the
  index's "max index set" field. Values: i for chunk 0 and 40, the fill value 0 elsewhere.
* fl_zero, fl_odd, fl_big (Fletcher-32): an all-zero chunk, a chunk of odd byte length (5 bytes
  of uint8), and a 64 KiB chunk of 0xFFFF words, the sums HDF5 starts at 0.
Usage: python3 make_regressions.py"""
import os

import h5py
import numpy as np

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions.h5")
with h5py.File(path, "w", libver=("v110", "v110")) as f:
    d = f.create_dataset("ea_last", shape=(10, 4), maxshape=(10, None), chunks=(4, 3), dtype="<i4")
    d[:, :4] = np.array([[100 * i + j for j in range(4)] for i in range(10)])
    d.resize((10, 7))
    d[:, 4:] = np.array([[100 * i + j for j in range(4, 7)] for i in range(10)])
    g = f.create_dataset("ea_gap", shape=(164,), maxshape=(None,), chunks=(4,), dtype="<i2", fillvalue=0)
    g[0:4] = np.arange(0, 4)
    g[160:164] = np.arange(160, 164)
    f.create_dataset("fl_zero", data=np.zeros((2, 8), dtype="<f8"), chunks=(1, 8), fletcher32=True)
    f.create_dataset("fl_odd", data=np.arange(5, dtype="u1"), chunks=(5,), fletcher32=True)
    f.create_dataset("fl_big", data=np.full(1 << 15, 0xFFFF, dtype="<u2"), chunks=(1 << 15,), fletcher32=True)
