"""Hand-made fixtures for what only old HDF5 writers produce (used by tests/old_formats.rs).

  make_old_layouts.py OUTDIR

old_layouts.h5: HDF5 since 1.8 cannot write data layout messages of version 1 or 2 (HDF5
1.4-1.6 did), so this writes rank-1 datasets with h5py under libver "earliest" (version 1
object headers, layout message version 3) and rewrites each layout message in place. A rank-1
version 3 message is 18 bytes (contiguous: version, class, address, size) or 19 bytes (chunked:
version, class, dimensionality, address, two 4-byte sizes), padded to 24 in a version 1 object
header; a version 1 or 2 message of rank 1 is exactly 24 bytes: version, dimensionality (rank +
1), class, 5 reserved bytes, address, then rank + 1 four-byte sizes, the last the element size
(HDF5 File Format Specification, section IV.A.2.i). Datasets:
  contig_v1, contig_v2    int32, 5 values, contiguous, layout version 1 / 2
  chunked_v1, chunked_v2  float64, 10 values in chunks of 4 (the last partial), version 1 / 2
  chunked_v1_gzip         int16, 40 values in deflated chunks of 8, version 1

continuation_order.h5: the root group (version 1 object header) and dataset `var` carry
attributes spread over several continuation blocks, with three continuation messages in one
block, so that following the blocks first in, first out (as libhdf5 does) and last in, first
out give different attribute orders. Attributes are added and deleted with datasets created in
between, so libhdf5 cannot extend a block in place and puts continuation messages in the space
the deleted attributes left. The script checks that the two orders differ.

Needs h5py and numpy. The bytes change from run to run (timestamps), the values do not.
"""

import os
import struct
import sys

import h5py
import numpy as np


def v1_header_blocks(data, addr):
    """The blocks of the version 1 object header at addr, first in first out: each a list of
    (type, size, body offset)."""
    if data[addr] != 1:
        raise ValueError(f"no version 1 object header at {addr}")
    size = struct.unpack_from("<I", data, addr + 8)[0]
    queue = [(addr + 16, size)]
    blocks = []
    while len(blocks) < len(queue):
        start, size = queue[len(blocks)]
        msgs = []
        p = start
        while p + 8 <= start + size:
            mtype, msize = struct.unpack_from("<HH", data, p)
            msgs.append((mtype, msize, p + 8))
            if mtype == 0x10:
                queue.append(struct.unpack_from("<QQ", data, p + 8))
            p += 8 + msize
        blocks.append(msgs)
    return blocks


def patch_layout(path, name, version):
    """Rewrites the version 3 layout message of rank-1 dataset `name` as version 1 or 2."""
    with h5py.File(path, "r") as f:
        addr = h5py.h5o.get_info(f[name].id).addr
    with open(path, "r+b") as fh:
        data = fh.read()
        (found,) = [
            (size, off)
            for block in v1_header_blocks(data, addr)
            for (mtype, size, off) in block
            if mtype == 0x08
        ]
        size, off = found
        if size != 24 or data[off] != 3:
            raise ValueError(f"{name}: layout message of {size} bytes, version {data[off]}")
        cls = data[off + 1]
        if cls == 1:  # contiguous: address, size
            address = data[off + 2:off + 10]
            length = struct.unpack_from("<Q", data, off + 10)[0]
            with h5py.File(path, "r") as f:
                esize = f[name].dtype.itemsize
            dims = [length // esize, esize]
        elif cls == 2:  # chunked: rank + 1, address, sizes
            if data[off + 2] != 2:
                raise ValueError(f"{name}: not rank 1")
            address = data[off + 3:off + 11]
            dims = list(struct.unpack_from("<II", data, off + 11))
        else:
            raise ValueError(f"{name}: layout class {cls}")
        body = bytes([version, 2, cls]) + bytes(5) + address + struct.pack("<II", *dims)
        assert len(body) == 24
        fh.seek(off)
        fh.write(body)


def make_layouts(outdir):
    path = os.path.join(outdir, "old_layouts.h5")
    with h5py.File(path, "w", libver="earliest") as f:
        f.create_dataset("contig_v1", data=np.array([3, -1, 4, 1, -5], dtype="<i4"))
        f.create_dataset("contig_v2", data=np.array([9, 2, -6, 5, 3], dtype="<i4"))
        f.create_dataset("chunked_v1", data=np.arange(10) * 0.5 - 1, chunks=(4,))
        f.create_dataset("chunked_v2", data=np.arange(10) * -1.25, chunks=(4,))
        f.create_dataset(
            "chunked_v1_gzip", data=(np.arange(40, dtype="<i2") - 20) * 3, chunks=(8,),
            compression="gzip",
        )
    for name in ("contig_v1", "chunked_v1", "chunked_v1_gzip"):
        patch_layout(path, name, 1)
    for name in ("contig_v2", "chunked_v2"):
        patch_layout(path, name, 2)


def attribute_orders(path, name):
    """Attribute names of object `name` in first-in-first-out and last-in-first-out block order."""
    with h5py.File(path, "r") as f:
        addr = h5py.h5o.get_info(f[name].id).addr
    with open(path, "rb") as fh:
        data = fh.read()
    blocks = v1_header_blocks(data, addr)
    # Rebuild the tree: which block each continuation message points to, in FIFO numbering.
    children, n = {}, 1
    for i, block in enumerate(blocks):
        children[i] = []
        for mtype, _, _ in block:
            if mtype == 0x10:
                children[i].append(n)
                n += 1

    def attr_name(off):
        nlen = struct.unpack_from("<H", data, off + 2)[0]
        return data[off + 8:off + 7 + nlen].decode()

    def names(i):
        return [attr_name(off) for mtype, _, off in blocks[i] if mtype == 0x0C]

    fifo = [a for i in range(len(blocks)) for a in names(i)]
    lifo, stack = [], [0]
    while stack:
        i = stack.pop()
        lifo += names(i)
        stack += children[i]
    return fifo, lifo


def spread_attributes(f, obj, tag):
    """Adds and deletes attributes of obj with datasets created in between."""
    for i in range(8):
        obj.attrs[f"{tag}a{i}"] = np.int32(i)
    f.create_dataset(f"{tag}pad1", data=np.arange(4, dtype="<i4"))
    for i in range(3):
        del obj.attrs[f"{tag}a{i}"]
    for i in range(8):
        obj.attrs[f"{tag}b{i}"] = np.arange(6, dtype="<i4") + i
    f.create_dataset(f"{tag}pad2", data=np.arange(4, dtype="<i4"))
    for i in range(3, 6):
        del obj.attrs[f"{tag}a{i}"]
    for i in range(8):
        obj.attrs[f"{tag}c{i}"] = np.arange(6, dtype="<i4") + 10 * i


def make_continuations(outdir):
    path = os.path.join(outdir, "continuation_order.h5")
    with h5py.File(path, "w", libver="earliest") as f:
        spread_attributes(f, f, "g")
        var = f.create_dataset("var", data=np.arange(3, dtype="<f4"))
        spread_attributes(f, var, "v")
    for name in ("/", "var"):
        fifo, lifo = attribute_orders(path, name)
        if fifo == lifo or sorted(fifo) != sorted(lifo):
            raise SystemExit(f"{name}: the block order does not change the attribute order")


def main():
    outdir = sys.argv[1]
    make_layouts(outdir)
    make_continuations(outdir)


if __name__ == "__main__":
    main()
