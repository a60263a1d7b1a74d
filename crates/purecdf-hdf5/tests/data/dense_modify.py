"""Changes or lists a file made by tests/dense_write.rs through h5py (see dense_modify.c, which
makes the same changes through the libhdf5 C library).

    python dense_modify.py modify FILE   # add and delete links and attributes
    python dense_modify.py list FILE     # print every group's links and int attributes
    python dense_modify.py untracked FILE  # make a file with h5py's defaults (no creation order)

The listing has one line per top-level group (and the root), in creation order, then its links
and attributes in creation order; an attribute prints its length, and its values when it has at
most 16 of them, else its first and last values and their sum."""
import sys

import h5py
import numpy as np


def ints(*v):
    return np.array(v, dtype="<i4")


def modify(path):
    with h5py.File(path, "r+") as f:
        g = f["g40"]
        for i in range(40, 70):
            g.create_group(f"new_{i:04}")
        for i in range(1, 40, 4):
            if i % 3 != 0 and i != 5:
                del g[f"sub_{i:04}"]
        a = f["a500"].attrs
        for i in range(500, 600):
            a.create(f"att_{i:04}", ints(i, -i))
        for i in range(0, 500, 10):
            del a[f"att_{i:04}"]
        a.modify("att_0001", ints(7, 7))
        b = f["big"].attrs
        del b["b80k"]
        b.create("more", np.arange(30000, dtype="<i4"))
        for i in range(4):
            del f["a9"].attrs[f"att_{i:04}"]
        for n in ["sub_0001", "sub_0002", "sub_0004", "soft_0000"]:
            del f["g9"][n]
        m = f["mix"]
        for i in range(4):
            del m[f"sub_{2 * i:04}"]
            del m.attrs[f"att_{2 * i + 1:04}"]
        f.attrs.create("r_new", ints(42))
        del f.attrs["r_03"]


def untracked(path):
    """The root and group "g" with 20 links and 20 attributes each, in h5py's default format
    (superblock 0, old-style groups, version 1 object headers, no creation order)."""
    with h5py.File(path, "w") as f:
        g = f.create_group("g")
        for obj in (f, g):
            for i in range(20):
                obj.create_group(f"sub_{19 - i:04}")
                obj.attrs.create(f"att_{19 - i:04}", ints(i, -i))


def describe(name, value):
    v = np.asarray(value, dtype=np.int64).ravel()
    if len(v) <= 16:
        return f"  @{name} {len(v)}: " + " ".join(str(x) for x in v)
    return f"  @{name} {len(v)}: {v[0]} .. {v[-1]} sum {v.sum()}"


def listing(path):
    out = []
    with h5py.File(path, "r") as f:
        groups = [("/", f)] + [
            (k, f[k]) for k in f if isinstance(f.get(k, getlink=True), h5py.HardLink)
            and isinstance(f[k], h5py.Group)
        ]
        for name, g in groups:
            out.append(name)
            for k in g:
                out.append(f"  {k}")
            for k in g.attrs:
                out.append(describe(k, g.attrs[k]))
    print("\n".join(out))


if __name__ == "__main__":
    {"modify": modify, "list": listing, "untracked": untracked}[sys.argv[1]](sys.argv[2])
