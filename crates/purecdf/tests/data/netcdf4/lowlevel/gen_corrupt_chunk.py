"""corrupt_chunk.h5: a deflate-compressed dataset whose second chunk holds garbage.

netcdf-c 4.9.0's ncdump prints the header and the variable's name, then fails reading its data
("NetCDF: HDF error", "Location: file ; line 478", exit status 1).

Run in this directory: python gen_corrupt_chunk.py (h5py, numpy).
"""
import h5py
import numpy as np

with h5py.File('corrupt_chunk.h5', 'w') as f:
    f.create_dataset('ok', data=np.arange(6, dtype='i4'))
    f.create_dataset('v', data=np.arange(40, dtype='i4'), chunks=(10,), compression='gzip')
with h5py.File('corrupt_chunk.h5', 'r') as f:
    info = f['v'].id.get_chunk_info(1)
buf = bytearray(open('corrupt_chunk.h5', 'rb').read())
for k in range(info.byte_offset + 2, info.byte_offset + info.size):
    buf[k] = 0x5A
open('corrupt_chunk.h5', 'wb').write(bytes(buf))
