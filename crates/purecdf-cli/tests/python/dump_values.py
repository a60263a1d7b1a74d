"""Prints what netCDF4-python (view `nc`) or h5py (view `h5`) reads from netCDF-4 files, one
canonical line per item, so that the Rust interop tests can compare it with what purecdf wrote.

Usage: dump_values.py nc|h5 FILE...

Each file's dump starts with `== FILE`; a file that cannot be read prints `ERROR <message>`.
Lines are sorted. Values are rendered the same way in both views:
  integers in decimal; floats as their IEEE bits (`0x3fc00000` for a float, 16 hex digits for a
  double); strings and text as JSON strings; chars and opaque values as `x:<hex>` (a NUL char as
  `x:`); vlen values as `[a b]`; compound values as `{name:value,...}`.

Line kinds (both views unless noted):
  var  PATH TYPE shape=[..] STORAGE [dims=(a,b)]   dims in the nc view only
  data PATH = v v ...                               the variable's values, flattened
  att  PATH@NAME = TYPE v v ...                     text attributes have TYPE str
  dim  PATH LEN [unlimited]                         nc view only
  type PATH DESCRIPTION                             nc view only
  group PATH                                        nc view only
STORAGE is `contiguous`, `compact` (h5 view only; netCDF4-python calls it contiguous) or
`chunks=[..]`, then ` gzip=L`, ` shuffle`, ` fletcher32`, and ` be` for big-endian numbers.
The h5 view leaves out netCDF-4's bookkeeping: dimension-only datasets and the attributes
CLASS, NAME, REFERENCE_LIST, DIMENSION_LIST, _Netcdf4Dimid, _Netcdf4Coordinates,
_NCProperties, _nc3_strict.
"""
import json
import struct
import sys
import warnings

import numpy as np

HIDDEN_H5 = {
    "CLASS",
    "NAME",
    "REFERENCE_LIST",
    "DIMENSION_LIST",
    "_Netcdf4Dimid",
    "_Netcdf4Coordinates",
    "_NCProperties",
    "_nc3_strict",
}
PURE_DIM = b"This is a netCDF dimension but not a netCDF variable."


def js(s):
    return json.dumps(s, ensure_ascii=False)


def code(dt):
    """Numpy dtype of a number as kind+size: i4, u8, f4 (byte order left out)."""
    return dt.kind + str(dt.itemsize)


def render(x):
    """One value, in the canonical form."""
    if isinstance(x, (bytes, np.bytes_)):
        return "x:" + bytes(x).hex()
    if isinstance(x, str):
        return js(x)
    if isinstance(x, np.void):
        if x.dtype.names:
            return "{" + ",".join(n + ":" + render_nested(x[n]) for n in x.dtype.names) + "}"
        return "x:" + bytes(x).hex()
    if isinstance(x, np.ndarray):
        return render_nested(x)
    if isinstance(x, (np.floating, float)):
        if isinstance(x, np.float32):
            return "0x%08x" % struct.unpack("<I", struct.pack("<f", x))[0]
        return "0x%016x" % struct.unpack("<Q", struct.pack("<d", float(x)))[0]
    if isinstance(x, (np.integer, int, np.bool_)):
        return str(int(x))
    if x is None:
        return "null"
    return "?" + repr(x)


def render_nested(a):
    """A nested array (vlen element, compound member array) as `[a b]`; scalars as themselves."""
    if isinstance(a, np.ndarray):
        if a.shape == () and a.dtype != object:
            return render(a[()])
        return "[" + " ".join(render(v) for v in a.reshape(-1)) + "]"
    return render(a)


def flat(a):
    a = np.asarray(a) if not isinstance(a, np.ndarray) else a
    return " ".join(render(v) for v in a.reshape(-1))


def storage(layout, chunks, gzip, shuffle, fletcher32, big):
    s = layout if chunks is None else "chunks=[" + ",".join(str(c) for c in chunks) + "]"
    if gzip is not None:
        s += " gzip=%d" % gzip
    if shuffle:
        s += " shuffle"
    if fletcher32:
        s += " fletcher32"
    if big:
        s += " be"
    return s


# ---------------------------------------------------------------------------------------------
# netCDF4-python


def nc_type(t):
    import netCDF4

    if isinstance(t, netCDF4.CompoundType):
        return "compound"
    if isinstance(t, netCDF4.EnumType):
        return "enum:" + code(t.dtype)
    if isinstance(t, netCDF4.VLType):
        return "str" if t.dtype == str else "vlen:" + code(t.dtype)
    if t == str:
        return "str"
    dt = np.dtype(t)
    return "S1" if dt.kind == "S" else code(dt)


def nc_type_desc(t):
    import netCDF4

    if isinstance(t, netCDF4.CompoundType):
        dt = t.dtype
        fields = []
        for n in dt.names:
            fdt, off = dt.fields[n][:2]
            shape = "" if fdt.shape == () else "(" + ",".join(map(str, fdt.shape)) + ")"
            base = fdt.base
            fields.append("%s:%s%s@%d" % (n, "S1" if base.kind == "S" else code(base), shape, off))
        return "compound size=%d {%s}" % (dt.itemsize, ",".join(fields))
    if isinstance(t, netCDF4.EnumType):
        members = ",".join("%s=%d" % kv for kv in sorted(t.enum_dict.items()))
        return "enum %s {%s}" % (code(t.dtype), members)
    if isinstance(t, netCDF4.VLType):
        return "vlen " + nc_type(t.dtype)
    return "?" + repr(t)


def nc_att_value(v):
    if isinstance(v, str):
        return "str " + js(v)
    if isinstance(v, list):  # NC_STRING attributes of several values
        return "str " + " ".join(js(s) for s in v)
    a = np.asarray(v)
    if a.dtype == object:
        return "str " + flat(a)
    if a.dtype.names:
        return "compound " + flat(a)
    return code(a.dtype) + " " + flat(a)


def nc_dump(path, out):
    import netCDF4

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = netCDF4.Dataset(path)
    try:
        d.set_auto_maskandscale(False)
        d.set_auto_chartostring(False)
        d.set_always_mask(False)
        nc_group(d, "/", out)
    finally:
        d.close()


def nc_group(g, prefix, out):
    if prefix != "/":
        out.append("group " + prefix.rstrip("/"))
    for name, dim in g.dimensions.items():
        out.append("dim %s%s %d%s" % (prefix, name, len(dim), " unlimited" if dim.isunlimited() else ""))
    for kind in (g.cmptypes, g.enumtypes, g.vltypes):
        for name, t in kind.items():
            out.append("type %s%s %s" % (prefix, name, nc_type_desc(t)))
    for name in g.ncattrs():
        out.append("att %s@%s = %s" % (prefix, name, nc_att_value(g.getncattr(name))))
    for name, v in g.variables.items():
        p = prefix + name
        chunking = v.chunking()
        f = v.filters() or {}
        st = storage(
            "contiguous",
            None if chunking == "contiguous" else chunking,
            f.get("complevel") if f.get("zlib") else None,
            f.get("shuffle"),
            f.get("fletcher32"),
            v.endian() == "big",
        )
        out.append(
            "var %s %s shape=[%s] %s dims=(%s)"
            % (p, nc_type(v.datatype), ",".join(map(str, v.shape)), st, ",".join(v.dimensions))
        )
        out.append("data %s = %s" % (p, flat(np.asarray(v[...]))))
        for a in v.ncattrs():
            out.append("att %s@%s = %s" % (p, a, nc_att_value(v.getncattr(a))))
    for name, sub in g.groups.items():
        nc_group(sub, prefix + name + "/", out)


# ---------------------------------------------------------------------------------------------
# h5py


def h5_type(dt):
    import h5py

    s = h5py.check_string_dtype(dt)
    if s is not None:
        return "str" if s.length is None else ("S1" if s.length == 1 else "S%d" % s.length)
    vl = h5py.check_vlen_dtype(dt)
    if vl is not None:
        return "vlen:" + h5_type(np.dtype(vl))
    e = h5py.check_enum_dtype(dt)
    if e is not None:
        return "enum:" + code(dt)
    if dt.names:
        return "compound"
    if dt.kind == "V":
        return "opaque:%d" % dt.itemsize
    return code(dt)


def h5_att_value(a):
    if isinstance(a, (bytes, np.bytes_)):
        return "str " + js(bytes(a).decode("utf-8", "replace"))
    if isinstance(a, str):
        return "str " + js(a)
    a = np.asarray(a)
    if a.dtype == object or a.dtype.kind == "S":
        vals = [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in a.reshape(-1)]
        if all(isinstance(v, str) for v in vals):
            return "str " + " ".join(js(v) for v in vals)
    if a.dtype.names:
        return "compound " + flat(a)
    if a.dtype.kind == "V":
        return "opaque:%d " % a.dtype.itemsize + flat(a)
    return code(a.dtype) + " " + flat(a)


def h5_dump(path, out):
    import h5py

    with h5py.File(path, "r") as f:
        h5_object(f, "/", out)
        f.visititems(lambda name, obj: h5_object(obj, "/" + name, out))


def h5_object(obj, path, out):
    import h5py

    if isinstance(obj, h5py.Dataset):
        name_att = obj.attrs.get("NAME") if "NAME" in obj.attrs else None
        if isinstance(name_att, (bytes, np.bytes_)) and bytes(name_att).startswith(PURE_DIM):
            return
        plist = obj.id.get_create_plist()
        layout = {h5py.h5d.COMPACT: "compact", h5py.h5d.CONTIGUOUS: "contiguous"}.get(
            plist.get_layout(), "chunked"
        )
        st = storage(
            layout,
            obj.chunks,
            obj.compression_opts if obj.compression == "gzip" else None,
            obj.shuffle,
            obj.fletcher32,
            obj.dtype.byteorder == ">" or any(
                obj.dtype.fields[n][0].byteorder == ">" for n in (obj.dtype.names or ())
            ),
        )
        out.append(
            "var %s %s shape=[%s] %s" % (path, h5_type(obj.dtype), ",".join(map(str, obj.shape)), st)
        )
        data = obj[()]
        if h5py.check_string_dtype(obj.dtype) is not None and obj.dtype.kind == "O":
            data = np.asarray(data, dtype=object)
            data = np.vectorize(lambda b: b.decode("utf-8") if isinstance(b, bytes) else b, otypes=[object])(data) if data.size else data
        out.append("data %s = %s" % (path, flat(np.asarray(data))))
    elif not isinstance(obj, h5py.Group):
        return
    prefix = path if path.endswith("/") else path + "/"
    for a in obj.attrs:
        if a in HIDDEN_H5:
            continue
        at = prefix[:-1] if isinstance(obj, h5py.Dataset) else prefix
        out.append("att %s@%s = %s" % (at, a, h5_att_value(obj.attrs[a])))


def main():
    view, files = sys.argv[1], sys.argv[2:]
    dump = {"nc": nc_dump, "h5": h5_dump}[view]
    for path in files:
        out = []
        try:
            dump(path, out)
        except Exception as e:  # report and carry on with the next file
            out = ["ERROR %s: %s" % (type(e).__name__, str(e).replace("\n", " "))]
        print("== " + path)
        for line in sorted(out):
            print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
