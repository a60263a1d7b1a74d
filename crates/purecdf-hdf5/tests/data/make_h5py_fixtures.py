"""Makes the small HDF5 fixtures in this directory with h5py (run with the project venv's python)."""
import h5py
import numpy as np

# Superblock v0, old-style groups, contiguous dataset.
with h5py.File("h5py_v0.h5", "w") as f:
    f.create_dataset("a", data=np.arange(6, dtype="<i4").reshape(2, 3))
    f.attrs["title"] = "v0 file"
# Superblock v3 (libver latest), new-style groups.
with h5py.File("h5py_v3.h5", "w", libver=("v110", "v110")) as f:
    f.create_dataset("a", data=np.arange(6, dtype="<f8"))
    g = f.create_group("g")
    g.create_dataset("b", data=np.arange(4, dtype=">i2"))
# A 512-byte user block before the superblock.
with h5py.File("h5py_userblock.h5", "w", userblock_size=512) as f:
    f.create_dataset("a", data=np.arange(3, dtype="<u1"))

# Chunked + filtered, default library version: v1 B-tree chunk index.
z = (np.arange(600, dtype="<f4").reshape(20, 30) * 0.5).astype("<f4")
with h5py.File("h5py_chunked.h5", "w") as f:
    f.create_dataset("z", data=z, chunks=(7, 8), compression="gzip", compression_opts=4, shuffle=True, fletcher32=True)
    f.create_dataset("plain", data=z, chunks=(7, 8))
# Format of HDF5 1.10 (readable by Debian's h5dump 1.10): fixed array, extensible array, v2 B-tree
# and single-chunk indexes.
with h5py.File("h5py_chunk_indexes.h5", "w", libver=("v110", "v110")) as f:
    f.create_dataset("fixed", data=z, chunks=(7, 8), compression="gzip", shuffle=True)
    f.create_dataset("fixed_plain", data=z, chunks=(7, 8))
    e = f.create_dataset("ext", data=z[:10], chunks=(4, 8), maxshape=(None, 30), compression="gzip")
    f.create_dataset("ext_plain", data=z[:10], chunks=(4, 8), maxshape=(None, 30))
    f.create_dataset("bt2", data=z, chunks=(7, 8), maxshape=(None, None), compression="gzip")
    f.create_dataset("bt2_plain", data=z, chunks=(7, 8), maxshape=(None, None))
    f.create_dataset("single", data=z, chunks=(20, 30), compression="gzip")
    big = np.arange(1100 * 4, dtype="<i4").reshape(1100, 4)
    # 300 chunks: the extensible array needs secondary blocks.
    f.create_dataset("ext_big", data=big[:600], chunks=(2, 4), maxshape=(None, 4))
    # 1100 chunks: more than 1024 entries, so the fixed array's data block is paged.
    f.create_dataset("fixed_big", data=big, chunks=(1, 4))

# An 80 KB attribute: too big for a compact attribute message, so it is stored densely as a
# "huge" fractal heap object indexed by the heap's huge-object v2 B-tree.
with h5py.File("h5py_huge_attr.h5", "w", libver=("v110", "v110")) as f:
    d = f.create_dataset("d", data=np.arange(3, dtype="<i4"))
    d.attrs["big"] = np.arange(20000, dtype="<i4")
    d.attrs["small"] = np.int32(7)
