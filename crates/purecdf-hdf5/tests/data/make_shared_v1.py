"""Writes shared_v1.h5: a dataset whose datatype message is a version 1 shared message (HDF5
1.4-1.6's form: version, type, 6 reserved bytes, then a symbol table entry whose link name
offset, a length-sized field, precedes the committed datatype's object header address; HDF5
File Format Specification v3.0, IV.A.2 "Shared Messages"). HDF5 >= 1.8 writes version 2, so
h5py (libver "earliest") writes the file and this script rewrites the message: its 16-byte v2
body becomes a 24-byte v1 body, the messages after it move up 8 bytes and the trailing null
message gives up 8 bytes, the header keeping its size. h5dump 1.10 reads the result.
Usage: python3 make_shared_v1.py"""
import os
import struct

import h5py
import numpy as np

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shared_v1.h5")
t = np.dtype([("a", "<i4"), ("b", "<f8")])
with h5py.File(path, "w", libver="earliest") as f:
    f["t"] = t
    f.create_dataset("d", data=np.array([(1, 0.5), (-2, 1.5), (3, -2.25)], dtype=t), dtype=f["t"])
    addr = h5py.h5o.get_info(f["d"].id).addr

data = bytearray(open(path, "rb").read())
ver, _, nmsg, _, hsize = struct.unpack("<BBHII", data[addr : addr + 12])
assert ver == 1, "a version 1 object header"
start = addr + 16
msgs = []
p = start
while p < start + hsize:
    mtype, size, flags = struct.unpack("<HHB", data[p : p + 5])
    msgs.append([mtype, size, flags, bytes(data[p + 8 : p + 8 + size])])
    p += 8 + size
dt = next(m for m in msgs if m[0] == 3)
assert dt[2] & 2 and dt[3][0] == 2, "a shared version 2 datatype message"
target = dt[3][2:10]
# Version 1: version, type (2: in another object header), 6 reserved bytes, link name offset
# (8 bytes, unused), object header address.
dt[3] = bytes([1, 2]) + bytes(6) + bytes(8) + target
dt[1] = 24
null = msgs[-1]
assert null[0] == 0 and null[1] >= 8, "a trailing null message to take the bytes from"
null[1] -= 8
null[3] = bytes(null[1])
out = bytearray()
for mtype, size, flags, body in msgs:
    out += struct.pack("<HHB3x", mtype, size, flags) + body
assert len(out) == hsize
data[start : start + hsize] = out
open(path, "wb").write(bytes(data))
