"""Makes the small HDF5 fixtures in this directory with h5py (run with the project venv's python)."""
import h5py
import numpy as np

# Superblock v0, old-style groups, contiguous dataset.
with h5py.File("h5py_v0.h5", "w") as f:
    f.create_dataset("a", data=np.arange(6, dtype="<i4").reshape(2, 3))
    f.attrs["title"] = "v0 file"
# Superblock v3 (libver latest), new-style groups.
with h5py.File("h5py_v3.h5", "w", libver="latest") as f:
    f.create_dataset("a", data=np.arange(6, dtype="<f8"))
    g = f.create_group("g")
    g.create_dataset("b", data=np.arange(4, dtype=">i2"))
# A 512-byte user block before the superblock.
with h5py.File("h5py_userblock.h5", "w", userblock_size=512) as f:
    f.create_dataset("a", data=np.arange(3, dtype="<u1"))
