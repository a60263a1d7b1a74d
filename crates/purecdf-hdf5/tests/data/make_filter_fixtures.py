"""Makes h5py_nbit.h5 and h5py_scaleoffset.h5 (h5py, HDF5 2.0.0): datasets stored through the
n-bit (5) and scale-offset (6) filters, and expected.txt: for every dataset, HDF5's own reading of
the elements in the file datatype (no conversion), as hex, one line per dataset."""
import h5py, numpy as np
from h5py import h5t, h5p, h5s, h5d, h5z

def nbit_int(base, prec, off):
    t = base.copy(); t.set_precision(prec); t.set_offset(off); return t

def lowlevel(f, name, ftype, data, chunks, nbit=False, so=None, fill=None, extra=(), shape=None, mtype=None):
    space = h5s.create_simple(shape or data.shape)
    dcpl = h5p.create(h5p.DATASET_CREATE)
    dcpl.set_chunk(chunks)
    if fill is not None:
        dcpl.set_fill_value(np.array(fill, dtype=data.dtype))
    if nbit:
        dcpl.set_filter(h5z.FILTER_NBIT, h5z.FLAG_OPTIONAL)  # what H5Pset_nbit does
    if so is not None:
        dcpl.set_scaleoffset(*so)
    for e in extra:
        e(dcpl)
    d = h5d.create(f.id, name.encode(), ftype, space, dcpl=dcpl)
    d.write(h5s.ALL, h5s.ALL, np.ascontiguousarray(data), mtype=mtype)
    return d

with h5py.File("h5py_nbit.h5", "w") as f:
    a = (np.arange(40, dtype="<i4") * 37 % 2000) - 1000          # fits 12 signed bits
    lowlevel(f, "i32_p12_o4", nbit_int(h5t.STD_I32LE, 12, 4), a.reshape(5, 8), (2, 8), nbit=True)
    lowlevel(f, "i32be_p12_o4", nbit_int(h5t.STD_I32BE, 12, 4), a.reshape(5, 8), (2, 8), nbit=True)
    u = (np.arange(30, dtype="<u2") * 17) % 512                  # 9 unsigned bits
    lowlevel(f, "u16_p9_o3", nbit_int(h5t.STD_U16LE, 9, 3), u, (7,), nbit=True)
    lowlevel(f, "u16be_p9_o3", nbit_int(h5t.STD_U16BE, 9, 3), u, (7,), nbit=True)
    b = (np.arange(20, dtype="i1") % 32) - 16                    # 5 signed bits
    lowlevel(f, "i8_p5_o1", nbit_int(h5t.STD_I8LE, 5, 1), b, (6,), nbit=True)
    l = (np.arange(12, dtype="<i8") * 123456789) - 700000000    # 40 signed bits
    lowlevel(f, "i64_p40_o7", nbit_int(h5t.STD_I64LE, 40, 7), l, (5,), nbit=True)
    lowlevel(f, "i64be_p40_o7", nbit_int(h5t.STD_I64BE, 40, 7), l, (5,), nbit=True)
    # A full-precision type: the filter records that nothing needs packing.
    lowlevel(f, "i32_full", h5t.STD_I32LE.copy(), a, (16,), nbit=True)
    # A float with 20 significant bits at offset 7 (HDF5's own n-bit test type): sign at 26,
    # exponent 6 bits at 20, mantissa 13 bits at 7, bias 31.
    for order, nm in ((h5t.ORDER_LE, "f32_p20_o7"), (h5t.ORDER_BE, "f32be_p20_o7")):
        ft = h5t.IEEE_F32LE.copy(); ft.set_order(order)
        ft.set_fields(26, 20, 6, 7, 13); ft.set_offset(7); ft.set_precision(20); ft.set_size(4); ft.set_ebias(31)
        fv = np.array([0.0, 1.0, -1.5, 3.25, 100.5, -0.125, 1e-3, 2.0**20, 7.0, -8.0], dtype="<f4")
        lowlevel(f, nm, ft, fv, (4,), nbit=True)
    # Compound: an n-bit int, an n-bit float, a plain byte string (copied whole) and an array of n-bit shorts.
    ct = h5t.create(h5t.COMPOUND, 20)
    ct.insert(b"i", 0, nbit_int(h5t.STD_I32LE, 12, 4))
    ft = h5t.IEEE_F32LE.copy(); ft.set_fields(26, 20, 6, 7, 13); ft.set_offset(7); ft.set_precision(20); ft.set_size(4); ft.set_ebias(31)
    ct.insert(b"f", 4, ft)
    st = h5t.C_S1.copy(); st.set_size(3)
    ct.insert(b"s", 8, st)
    ct.insert(b"a", 12, h5t.array_create(nbit_int(h5t.STD_I16LE, 10, 2), (4,)))
    mt = np.dtype([("i", "<i4"), ("f", "<f4"), ("s", "S3"), ("a", "<i2", (4,))], align=False)
    mt = np.dtype({"names": ["i", "f", "s", "a"], "formats": ["<i4", "<f4", "S3", ("<i2", (4,))], "offsets": [0, 4, 8, 12], "itemsize": 20})
    cv = np.zeros(9, dtype=mt)
    cv["i"] = np.arange(9) * 100 - 400
    cv["f"] = np.arange(9) * 0.5 - 2
    cv["s"] = [b"ab", b"xyz", b"", b"q", b"rst", b"uv", b"w", b"ccc", b"d"]
    cv["a"] = (np.arange(36).reshape(9, 4) * 7) % 500 - 250
    lowlevel(f, "compound", ct, cv, (4,), nbit=True)
    # Array type at the top level: 3 n-bit unsigned ints per element.
    at = h5t.array_create(nbit_int(h5t.STD_U32BE, 17, 5), (3,))
    av = (np.arange(21, dtype="<u4").reshape(7, 3) * 4099) % (1 << 17)
    lowlevel(f, "array_u32be", at, av, (3,), nbit=True, shape=(7,),
             mtype=h5t.array_create(h5t.NATIVE_UINT32, (3,)))
    # n-bit then deflate.
    lowlevel(f, "i32_nbit_deflate", nbit_int(h5t.STD_I32LE, 12, 4), a, (16,), nbit=True,
             extra=(lambda p: p.set_deflate(4),))

with h5py.File("h5py_scaleoffset.h5", "w") as f:
    n = 50
    for t in ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", ">i2", ">u2", ">i4", ">u4", ">i8", ">u8"]:
        dt = np.dtype(t)
        lo = -40 if dt.kind == "i" else 1000 % (np.iinfo(dt).max)
        v = (np.arange(n) * 7 % 90 + lo).astype(dt)
        nm = "int_" + t.replace(">", "be")
        f.create_dataset(nm, data=v, chunks=(16,), scaleoffset=0)            # minbits computed
        f.create_dataset(nm + "_fill", data=np.where(np.arange(n) % 5 == 0, dt.type(3), v).astype(dt),
                         chunks=(16,), scaleoffset=0, fillvalue=3)         # fill value defined, 3
    # A user-set number of bits.
    f.create_dataset("int_i4_bits7", data=(np.arange(n) % 100).astype("i4"), chunks=(16,), scaleoffset=7)
    # Values spanning the whole range: minbits is the full width, values copied as they are.
    f.create_dataset("int_i2_full", data=np.array([-32768, 32767, 0, 5], dtype="i2"), chunks=(4,), scaleoffset=0)
    f.create_dataset("int_beu4_full", data=np.array([0, 2**32 - 1, 7, 9], dtype=">u4"), chunks=(4,), scaleoffset=0)
    # Two dimensions with a partial edge chunk, and scale-offset followed by deflate.
    f.create_dataset("int_2d_deflate", data=(np.arange(77).reshape(7, 11) * 3 - 100).astype("i4"),
                     chunks=(3, 4), scaleoffset=0, compression="gzip")
    for t, d in [("f4", 2), ("f8", 3), (">f4", 1), (">f8", 4)]:
        v = (np.arange(n) * 1.37 - 20.0).astype(t)
        nm = "float_" + t.replace(">", "be") + f"_d{d}"
        f.create_dataset(nm, data=v, chunks=(16,), scaleoffset=d)
        w = np.where(np.arange(n) % 6 == 0, -99.0, v).astype(t)
        f.create_dataset(nm + "_fill", data=w, chunks=(16,), scaleoffset=d, fillvalue=-99.0)
    # Decimal scale 0: values rounded to integers.
    f.create_dataset("float_f8_d0", data=np.arange(20) * 33.3, chunks=(8,), scaleoffset=0)

def dump_expected(paths, out):
    with open(out, "w") as o:
        for p in paths:
            with h5py.File(p, "r") as f:
                def visit(name, obj):
                    if isinstance(obj, h5py.Dataset):
                        ft = obj.id.get_type()
                        buf = np.zeros(obj.id.get_storage_size() * 0 + obj.size * ft.get_size(), dtype="u1")
                        obj.id.read(h5s.ALL, h5s.ALL, buf, mtype=ft)
                        o.write(f"{p} {name} {buf.tobytes().hex()}\n")
                f.visititems(visit)

# h5c_scaleoffset_nofill.h5 comes from make_scaleoffset_nofill.c (run it first).
dump_expected(["h5py_nbit.h5", "h5py_scaleoffset.h5", "h5c_scaleoffset_nofill.h5"], "filters_expected.txt")
