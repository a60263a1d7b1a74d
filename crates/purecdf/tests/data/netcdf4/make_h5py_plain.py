"""Makes plain HDF5 files with h5py (HDF5 2.0.0) exercising what netCDF has no type for, or
handles specially: object and region references, bitfields, committed (named) compound and enum
types, resizable datasets, empty (null-dataspace) datasets and attributes, and fixed-length
strings. Each feature in its own small file so a refusal by netcdf-c stays confined to one."""
import h5py, numpy as np

with h5py.File("h5py_refs.h5", "w") as f:
    a = f.create_dataset("a", data=np.arange(6, dtype="i4").reshape(2, 3))
    g = f.create_group("g")
    f.create_dataset("objrefs", data=[a.ref, g.ref, f.ref], dtype=h5py.ref_dtype)
    f.create_dataset("regrefs", data=[a.regionref[0:1, 1:3], a.regionref[1, :]], dtype=h5py.regionref_dtype)
    a.attrs["self"] = a.ref
    a.attrs["units"] = "m"
    f.attrs["root_ref"] = g.ref

with h5py.File("h5py_bitfield.h5", "w") as f:
    from h5py import h5t, h5s, h5d
    for name, bt in [("bits8", h5t.STD_B8LE), ("bits16be", h5t.STD_B16BE), ("bits32", h5t.STD_B32LE)]:
        sp = h5s.create_simple((4,))
        d = h5d.create(f.id, name.encode(), bt, sp)
        n = bt.get_size()
        d.write(h5s.ALL, h5s.ALL, np.arange(4, dtype=f"u{n}") * 3 + 1, mtype=getattr(h5t, f"NATIVE_B{8 * n}"))
    f.create_dataset("plain", data=np.arange(3, dtype="i2"))

with h5py.File("h5py_named_types.h5", "w") as f:
    f["point"] = np.dtype([("x", "<f4"), ("y", "<f4")])
    f["color"] = h5py.enum_dtype({"RED": 0, "GREEN": 1, "BLUE": 2}, basetype="u1")
    f["cplx"] = np.dtype([("re", "<f8"), ("im", "<f8"), ("tag", "<i2")], align=True)
    f.create_dataset("points", data=np.array([(1.5, 2.5), (3.0, -1.0)], dtype=f["point"].dtype), dtype=f["point"])
    f.create_dataset("colors", data=np.array([0, 2, 1, 2], dtype="u1"), dtype=f["color"])
    f.create_dataset("inline_enum", data=np.array([1, 0], dtype="i1"),
                     dtype=h5py.enum_dtype({"NO": 0, "YES": 1}, basetype="i1"))
    f.create_dataset("cplx_vals", data=np.zeros(2, dtype=f["cplx"].dtype), dtype=f["cplx"])
    g = f.create_group("sub")
    g["inner"] = np.dtype([("a", "<i4"), ("b", "<i4")])
    g.create_dataset("ab", data=np.array([(1, 2), (3, 4), (5, 6)], dtype=g["inner"].dtype), dtype=g["inner"])
    f.attrs["origin"] = np.array((0.0, 0.0), dtype=f["point"].dtype)

with h5py.File("h5py_resizable.h5", "w") as f:
    d = f.create_dataset("grow", data=np.arange(5, dtype="f8"), maxshape=(None,), chunks=(2,))
    d.resize((8,))
    d[5:8] = [50, 60, 70]
    e = f.create_dataset("grow2d", shape=(0, 3), maxshape=(None, 3), dtype="i4", chunks=(2, 3))
    e.resize((3, 3))
    e[:2] = [[1, 2, 3], [4, 5, 6]]
    f.create_dataset("limited", data=np.arange(4, dtype="i2"), maxshape=(10,), chunks=True)
    f.create_dataset("empty_unlim", shape=(0,), maxshape=(None,), dtype="f4", chunks=(4,))

with h5py.File("h5py_empty.h5", "w") as f:
    f.create_dataset("null_f4", data=h5py.Empty("f4"))
    f.create_dataset("zero_len", shape=(0,), dtype="i4")
    f.create_dataset("zero_2d", shape=(3, 0), dtype="f8")
    f.create_dataset("scalar", data=np.int32(7))
    f.attrs["empty_attr"] = h5py.Empty("i4")
    f.attrs["empty_str"] = h5py.Empty("S4")
    f.attrs["zero_len_attr"] = np.zeros(0, dtype="f8")
    f.attrs["ok"] = 1.5

with h5py.File("h5py_fixed_strings.h5", "w") as f:
    f.create_dataset("s5", data=np.array([b"ab", b"cde", b"fghij"], dtype="S5"))
    f.create_dataset("s1", data=np.array([b"x", b"y"], dtype="S1"))
    f.create_dataset("s3_2d", data=np.array([[b"a", b"bb"], [b"ccc", b""]], dtype="S3"))
    f.create_dataset("s4_scalar", data=np.array(b"wxyz", dtype="S4"))
    f.attrs["fixed_attr"] = np.array([b"one", b"two"], dtype="S3")

# netcdf-c reads a group's links in order (name order here) and registers a committed type when
# it meets it: a dataset met before its type is left out; an inline type equal to a type already
# met takes that type; types of a parent group are known in its children.
with h5py.File("h5py_type_order.h5", "w") as f:
    f["aaa"] = np.dtype([("p", "<i2"), ("q", "<f4")])
    f.create_dataset("comp_named", data=np.zeros(2, dtype=f["aaa"].dtype), dtype=f["aaa"])
    f["zzz"] = np.dtype([("p", "<i4"), ("q", "<f4")])
    f.create_dataset("bbb", data=np.zeros(2, dtype=f["zzz"].dtype), dtype=f["zzz"])
    f.create_dataset("ccc", data=np.zeros(2, dtype=f["zzz"].dtype))
    f.create_dataset("zzz_inline", data=np.ones(2, dtype=f["aaa"].dtype))
    f["enum_t"] = h5py.enum_dtype({"A": 0, "B": 1}, basetype="u1")
    f.create_dataset("zzz_inline_enum", data=np.array([1, 0], dtype="u1"),
                     dtype=h5py.enum_dtype({"A": 0, "B": 1}, basetype="u1"))
    g = f.create_group("g")
    g.create_dataset("uses_parent_type", data=np.zeros(2, dtype=f["zzz"].dtype), dtype=f["zzz"])
    f.attrs["att_uses_late_type"] = np.zeros(1, dtype=f["zzz"].dtype)

# Links: netcdf-c opens every link, so a soft link (absolute, relative, chained, through a
# soft-linked group) shows its object again under the link's name, as does a second hard link
# (a group linked twice is shown twice); the new-style group format has the same links.
for name, libver in (("h5py_links.h5", "earliest"), ("h5py_links_v2.h5", "latest")):
    with h5py.File(name, "w", libver=libver) as f:
        x = f.create_dataset("x", data=np.arange(3, dtype="i4"))
        f["hard2"] = x
        f["soft"] = h5py.SoftLink("/x")
        f["chain"] = h5py.SoftLink("/soft")
        g = f.create_group("g")
        g.create_dataset("v", data=np.arange(2, dtype="f4"))
        g["rel"] = h5py.SoftLink("v")
        f["g_again"] = g
        f["sg"] = h5py.SoftLink("/g")
        f["deep"] = h5py.SoftLink("/sg/v")

# An external link (here to a file that does not exist) makes netcdf-c's open fail.
with h5py.File("h5py_external_link.h5", "w") as f:
    f.create_dataset("x", data=np.arange(3))
    f["ext"] = h5py.ExternalLink("nowhere.h5", "/y")

# Half-precision floats are NC_FLOAT to netcdf-c (HDF5's native type for a 2-byte float).
with h5py.File("h5py_half.h5", "w") as f:
    f.create_dataset("f2", data=np.array([0.5, -1.25, 65504, 6e-8], dtype="f2"))
    f.create_dataset("f2be", data=np.array([0.5, -1.25, 3.0, 1e-3], dtype=">f2"))
    f.attrs["ha"] = np.array([1.5, 2.5], dtype="f2")

# netcdf-c cannot read a numeric attribute of more than one dimension (NC_EATTMETA): ncdump stops
# where it first reads that object's attributes (the variable's line, or the group's dimensions).
# Multi-dimensional string attributes are fine: flattened NC_STRING values.
with h5py.File("h5py_att2d.h5", "w") as f:
    f.create_dataset("a", data=np.arange(3))
    b = f.create_dataset("b", data=np.arange(2.0))
    b.attrs["m"] = np.arange(4).reshape(2, 2)
    b.attrs["ok"] = 1
    f.create_dataset("c", data=np.arange(3))
with h5py.File("h5py_att2d_group.h5", "w") as f:
    f.create_dataset("a", data=np.arange(3))
    f.attrs["fine"] = 2
    f.attrs["s2d"] = np.array([[b"ab", b"c"], [b"d", b"e"]])
    f.attrs["vs2d"] = np.array([["x", "yy"], ["z", ""]], dtype=h5py.string_dtype())
    g = f.create_group("g")
    g.create_dataset("v", data=np.arange(2))
    h = g.create_group("h")
    h.attrs["m3"] = np.zeros((2, 2, 2), dtype="f4")
    h.create_dataset("w", data=np.arange(2))

# netcdf-c compares a committed enum's base type as stored with the native integers: a big-endian
# base matches none and the open fails; used inline (not committed) the dataset and attribute are
# only left out.
from h5py import h5t, h5s, h5d, h5a
with h5py.File("h5py_enum_be.h5", "w") as f:
    f["t"] = h5py.enum_dtype({"LOW": -5, "HIGH": 100000}, basetype=">i4")
    f.create_dataset("v", data=np.array([-5, 100000], dtype=">i4"), dtype=f["t"])
with h5py.File("h5py_enum_be_inline.h5", "w") as f:
    t = h5t.enum_create(h5t.STD_I32BE)
    t.enum_insert(b"A", 0)
    t.enum_insert(b"B", 1)
    h5d.create(f.id, b"v", t, h5s.create_simple((2,)))
    f.create_dataset("plain", data=np.arange(2))
    a = h5a.create(f.id, b"ea", t, h5s.create_simple((1,)))
    a.write(np.array([1], dtype=">i4"), mtype=t)

# Raw data in external files (HDF5 resolves relative names against the current directory, so
# both ncdumps are run from this directory): two segments in two files, at offsets, the second
# file shorter than its segment (the missing bytes read as zeros).
with open("h5py_external_a.bin", "wb") as raw:
    raw.write(b"\xff" * 8 + np.arange(3, dtype="<i4").tobytes())
with open("h5py_external_b.bin", "wb") as raw:
    raw.write(np.arange(3, 5, dtype="<i4").tobytes())
with h5py.File("h5py_external.h5", "w") as f:
    f.create_dataset("ext", shape=(8,), dtype="<i4",
                     external=[("h5py_external_a.bin", 8, 12), ("h5py_external_b.bin", 0, 20)])
    f.create_dataset("plain", data=np.arange(2))
