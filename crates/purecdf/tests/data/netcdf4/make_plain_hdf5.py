"""Makes plain_dtypes.h5 (h5py, no netCDF conventions): every integer and float width, both byte
orders, fixed and variable-length strings, an enum (bool), inline and committed compounds, a
scalar, a resizable chunked dataset in a subgroup, string and short attributes."""
import h5py, numpy as np
with h5py.File("plain_dtypes.h5", "w") as f:
    for t in ["i1","u1","i2","u2","i4","u4","i8","u8","f4","f8",">i4",">f8"]:
        f.create_dataset("v_"+t.replace(">","be"), data=np.arange(6).astype(t).reshape(2,3))
    f.create_dataset("fixstr", data=np.array([b"ab", b"cde"], dtype="S5"))
    f.create_dataset("vstr", data=np.array(["x", "yz"], dtype=h5py.string_dtype()))
    f.create_dataset("boolean", data=np.array([True, False]))
    cmp = np.dtype([("a", "<i4"), ("b", "<f8", (2,))])
    f.create_dataset("comp", data=np.array([(1, (2.0, 3.0)), (4, (5.0, 6.0))], dtype=cmp))
    f["ctype"] = np.dtype([("p", "<i2"), ("q", "<f4")])
    f.create_dataset("comp_named", data=np.zeros(2, dtype=f["ctype"]))
    f.create_dataset("scalar", data=np.float64(3.5))
    f.attrs["title"] = "plain"
    f.attrs["nums"] = np.array([1, 2, 3], dtype="i2")
    f.attrs["vs"] = h5py.string_dtype() and np.array(["a", "b"], dtype=h5py.string_dtype())
    g = f.create_group("grp")
    g.create_dataset("x", data=np.arange(4.0))
    g.create_dataset("resizable", data=np.arange(6).reshape(3, 2), maxshape=(None, 2), chunks=(1, 2))
