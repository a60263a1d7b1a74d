"""szip_blocks.h5: SZIP with pixels_per_block 2, 4 and 6 (HDF5 accepts any even value up to 32).

  nn2   int16, NN mode, 2 pixels per block, chunks of 16 (a partial last chunk).
  ec4   uint16 2-D, entropy-coding mode, 4 pixels per block.
  nn6   float32, NN mode, 6 pixels per block.

Run in this directory: python gen_szip_blocks.py (h5py with SZIP/libaec, numpy).
"""
import h5py
import numpy as np

with h5py.File('szip_blocks.h5', 'w') as f:
    f.create_dataset('nn2', data=(np.arange(45, dtype='i2') * 37 % 500) - 250,
                     chunks=(16,), compression='szip', compression_opts=('nn', 2))
    f.create_dataset('ec4', data=(np.arange(60, dtype='u2') * 11 % 300).reshape(6, 10),
                     chunks=(3, 10), compression='szip', compression_opts=('ec', 4))
    f.create_dataset('nn6', data=np.sin(np.arange(40, dtype='f4') / 5),
                     chunks=(24,), compression='szip', compression_opts=('nn', 6))
