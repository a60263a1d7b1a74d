"""short_attr.h5: attributes whose messages hold fewer value bytes than their shape needs.

Written by h5py (earliest format: version 1 object headers and attribute messages, no
checksums), then each attribute's dataspace dimension is raised in place. HDF5 1.10.8 (so
netcdf-c 4.9.0) copies the value from the message's place in the object header for the whole
shape, so the extra values are the bytes that follow the message.

  /           int16 "pair": 2 stored, dataspace says 5.
  /v          float32 "gain": 1 stored, dataspace says 2.

Run in this directory: python gen_short_attr.py (h5py, numpy).
"""
import struct

import h5py
import numpy as np


def raise_dim(fname, attr_name, new_dim):
    buf = bytearray(open(fname, 'rb').read())
    key = attr_name.encode() + b'\0'
    i = -1
    while True:
        i = buf.find(key, i + 1)
        if i < 0:
            raise SystemExit('attribute %s not found' % attr_name)
        hdr = i - 8  # version 1 attribute message: 8 bytes before the name
        ver, _, nsz, tsz, _ = struct.unpack_from('<BBHHH', buf, hdr)
        if ver == 1 and nsz == len(key):
            break
    pad8 = lambda n: (n + 7) // 8 * 8
    space = hdr + 8 + pad8(nsz) + pad8(tsz)
    assert buf[space] == 1 and buf[space + 1] == 1
    struct.pack_into('<Q', buf, space + 8, new_dim)
    open(fname, 'wb').write(bytes(buf))


with h5py.File('short_attr.h5', 'w', libver='earliest') as f:
    f.attrs['pair'] = np.array([-3, 11], 'i2')
    f.attrs['after'] = np.int32(77)
    v = f.create_dataset('v', data=np.arange(4, dtype='i4'))
    v.attrs['gain'] = np.array([0.5], 'f4')
    v.attrs['units'] = np.bytes_('K')
raise_dim('short_attr.h5', 'pair', 5)
raise_dim('short_attr.h5', 'gain', 2)
