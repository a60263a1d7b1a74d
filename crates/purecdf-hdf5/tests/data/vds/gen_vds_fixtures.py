"""Fixtures for virtual datasets and external links (run in this folder: /work/venv/bin/python
gen_vds_fixtures.py). Files are small; the bytes change between runs (timestamps), the values
do not.

printf.h5        VDS `frames` (unlimited × 4) whose blocks of 2 rows come from
                 printf_src_%b.h5:/data, %b = 0, 1, 2 (3 sources: extent 6 rows).
unlim.h5         VDS `grow` (unlimited) interleaving unlim_src.h5:/a (5 elements, even places)
                 and unlim_src.h5:/b (3 elements, odd places) with unlimited selections.
missing.h5       VDS `part` (8) from a present source, a missing file and a missing dataset:
                 the missing parts read as the fill value 7.
shapes.h5        VDS `mixed` (3×4 f8) from a big-endian int16 source: a union of blocks
                 (irregular hyperslab), strided blocks, type conversion.
nested.h5        VDS `outer` reading VDS `inner` reading dataset `base` (same file).
bad/self_ref.h5  VDS `loop` whose source is itself (an error, not a hang).
bad/heap_v1.h5   VDS written with the newest format bounds (heap block version 1 where the
                 writing library knows it).
elink_chain_a.h5 external link `hop` -> elink_chain_b.h5:/g, where g holds an external link
                 `last` -> elink_chain_c.h5:/v (a dataset) and a soft link.
bad/elink_cycle_a.h5 external link to elink_cycle_b.h5:/, whose root links back to
                 elink_cycle_a.h5:/ (a cycle).
elink_missing.h5 external link to a file that does not exist.
elink_nc4.h5     external link to the root of elink_nc4_target.nc (netCDF-4, by netCDF4-python).
elink_abs.h5     external link naming /nonexistent/dir/elink_chain_c.h5: HDF5 falls back to
                 the last component, found beside the linking file.

The files under bad/ are not compared with netcdf-c (the reference tests skip folders named
bad): HDF5 1.10.8 crashes on self_ref.h5, loops on elink_cycle_a.h5 and cannot read
heap_v1.h5 (written by a newer library).
"""
import os

import h5py
import netCDF4
import numpy as np
from h5py import h5d, h5p, h5s, h5t

V110 = ('v110', 'v110')
os.makedirs('bad', exist_ok=True)
U = h5s.UNLIMITED


def virtual(f, name, shape, maxshape, dtype, fill, maps):
    """maps: (file, dataset, source space, virtual selection callback)."""
    dcpl = h5p.create(h5p.DATASET_CREATE)
    dcpl.set_fill_value(np.array(fill, dtype=dtype))
    for fname, dname, sspace, vsel in maps:
        vspace = h5s.create_simple(shape, maxshape)
        vsel(vspace)
        dcpl.set_virtual(vspace, fname.encode(), dname.encode(), sspace)
    space = h5s.create_simple(shape, maxshape)
    tid = h5t.py_create(np.dtype(dtype))
    h5d.create(f.id, name.encode(), tid, space, dcpl=dcpl).close()


def whole(shape, maxshape=None):
    s = h5s.create_simple(shape, maxshape)
    s.select_all()
    return s


# printf-style source names
for i in range(3):
    with h5py.File('printf_src_%d.h5' % i, 'w', libver=V110) as f:
        f['data'] = np.arange(8, dtype='i4').reshape(2, 4) + 100 * i
with h5py.File('printf.h5', 'w', libver=V110) as f:
    virtual(f, 'frames', (0, 4), (U, 4), 'i4', -1, [
        ('printf_src_%b.h5', 'data', whole((2, 4)),
         lambda s: s.select_hyperslab((0, 0), (U, 1), (2, 1), (2, 4))),
    ])

# unlimited selections on both sides
with h5py.File('unlim_src.h5', 'w', libver=V110) as f:
    f.create_dataset('a', data=np.arange(10, 15, dtype='i2'), maxshape=(None,), chunks=(4,))
    f.create_dataset('b', data=np.arange(20, 23, dtype='i2'), maxshape=(None,), chunks=(4,))


def src_unlim(n):
    s = h5s.create_simple((n,), (U,))
    s.select_hyperslab((0,), (U,), (1,), (1,))
    return s


with h5py.File('unlim.h5', 'w', libver=V110) as f:
    virtual(f, 'grow', (0,), (U,), 'i2', -9, [
        ('unlim_src.h5', 'a', src_unlim(5), lambda s: s.select_hyperslab((0,), (U,), (2,), (1,))),
        ('unlim_src.h5', 'b', src_unlim(3), lambda s: s.select_hyperslab((1,), (U,), (2,), (1,))),
    ])

# missing sources
with h5py.File('missing.h5', 'w', libver=V110) as f:
    f['here'] = np.array([1, 2], dtype='i8')
    virtual(f, 'part', (8,), None, 'i8', 7, [
        ('.', 'here', whole((2,)), lambda s: s.select_hyperslab((0,), (1,), (1,), (2,))),
        ('no_such_file.h5', 'data', whole((2,)), lambda s: s.select_hyperslab((2,), (1,), (1,), (2,))),
        ('.', 'no_such_dataset', whole((2,)), lambda s: s.select_hyperslab((4,), (1,), (1,), (2,))),
        ('.', 'here', whole((2,)), lambda s: s.select_hyperslab((6,), (1,), (1,), (2,))),
    ])

# irregular hyperslabs (unions of blocks), strided blocks, conversion from big-endian int16
# to float64 (HDF5 refuses point selections in mappings)
with h5py.File('shapes.h5', 'w', libver=V110) as f:
    f.create_dataset('src', data=np.arange(12, dtype='>i2').reshape(3, 4))
    irr = h5s.create_simple((3, 4))
    irr.select_hyperslab((0, 2), (2, 2))
    irr.select_hyperslab((2, 0), (1, 1), op=h5s.SELECT_OR)
    blk = h5s.create_simple((3, 4))
    blk.select_hyperslab((1, 0), (1, 1), block=(1, 2))

    def virr(s):
        s.select_hyperslab((0, 0), (1, 2))
        s.select_hyperslab((1, 0), (1, 2), op=h5s.SELECT_OR)
        s.select_hyperslab((2, 2), (1, 1), op=h5s.SELECT_OR)

    def vblk(s):
        s.select_hyperslab((2, 0), (1, 2), stride=(1, 3), block=(1, 1))

    virtual(f, 'mixed', (3, 4), None, 'f8', 0.5, [
        ('.', 'src', irr, virr),
        ('.', 'src', blk, vblk),
    ])

# a virtual source that is itself virtual; a virtual dataset reading itself
with h5py.File('nested.h5', 'w', libver=V110) as f:
    f['base'] = np.arange(4, dtype='u1')
    virtual(f, 'inner', (4,), None, 'u1', 0, [('.', 'base', whole((4,)), lambda s: s.select_all())])
    virtual(f, 'outer', (4,), None, 'u1', 0, [('.', 'inner', whole((4,)), lambda s: s.select_all())])
with h5py.File('bad/self_ref.h5', 'w', libver=V110) as f:
    virtual(f, 'loop', (3,), None, 'i4', 0, [('.', 'loop', whole((3,)), lambda s: s.select_all())])

# newest format bounds
with h5py.File('bad/heap_v1.h5', 'w', libver='latest') as f:
    f['s'] = np.arange(3, dtype='i4')
    virtual(f, 'v', (6,), None, 'i4', 5, [
        ('.', 's', whole((3,)), lambda s: s.select_hyperslab((0,), (3,), (2,), (1,))),
        ('.', 's', whole((3,)), lambda s: s.select_hyperslab((1,), (3,), (2,), (1,))),
    ])

# external links
with h5py.File('elink_chain_c.h5', 'w') as f:
    f['v'] = np.array([1.5, 2.5], dtype='f4')
with h5py.File('elink_chain_b.h5', 'w') as f:
    g = f.create_group('g')
    g['last'] = h5py.ExternalLink('elink_chain_c.h5', '/v')
    g['soft'] = h5py.SoftLink('/g/last')
with h5py.File('elink_chain_a.h5', 'w') as f:
    f['hop'] = h5py.ExternalLink('elink_chain_b.h5', '/g')
with h5py.File('bad/elink_cycle_a.h5', 'w') as f:
    f['to_b'] = h5py.ExternalLink('elink_cycle_b.h5', '/')
with h5py.File('bad/elink_cycle_b.h5', 'w') as f:
    f['to_a'] = h5py.ExternalLink('elink_cycle_a.h5', '/')
with h5py.File('elink_missing.h5', 'w') as f:
    f['x'] = np.arange(2, dtype='i4')
    f['gone'] = h5py.ExternalLink('no_such_target.h5', '/')
with h5py.File('elink_abs.h5', 'w') as f:
    f['far'] = h5py.ExternalLink('/nonexistent/dir/elink_chain_c.h5', '/v')

# a netCDF-4 file seen through an external link: its dimensions and variables appear, its
# bookkeeping attributes do not make the linking file netCDF-4 (_IsNetcdf4 stays 0)
with netCDF4.Dataset('elink_nc4_target.nc', 'w') as d:
    d.createDimension('x', 3)
    d.createVariable('x', 'f4', ('x',))[:] = [1, 2, 3]
    d.createVariable('w', 'i4', ('x',))[:] = [4, 5, 6]
with h5py.File('elink_nc4.h5', 'w') as f:
    f['ext'] = h5py.ExternalLink('elink_nc4_target.nc', '/')
