"""Plain HDF5 files whose names and dimension scales netcdf-c 4.9.0 maps in unusual ways.
Run with h5py (any recent version) in this folder: `python gen_wild.py`. The expected dumps
beside them (`STEM.dmp`: `ncdump -s` standard output; `STEM.err`: first line of standard
error and the exit status) come from netcdf-c 4.9.0's ncdump: see README.md.
"""
import h5py
import numpy as np


def objs(dt, *xs):
    a = np.empty(len(xs), dtype=object)
    for i, x in enumerate(xs):
        a[i] = np.array(x, dt)
    return a


# Group names netcdf-c takes as they are and ncdump escapes.
with h5py.File('wild_names_groups.h5', 'w') as f:
    for i, n in enumerate(['c\x02x', 'tab\tg', 'del\x7f', '#h', '{}', '.d', '..', '-m',
                           'sp ', '=x;', 'a:b']):
        g = f.create_group(n)
        g.attrs['i'] = np.int16(i)
    f['#h'].create_dataset('v', data=np.arange(2, dtype='i2'))
    f['a:b'].create_dataset('w\x03', data=np.arange(3, dtype='u1'))

# Dimension and type names with control and CDL-special characters.
with h5py.File('wild_names_dims_types.h5', 'w') as f:
    f['#c'] = np.dtype([('x y', 'i2'), ('{z}', 'f4')])
    f['{e}'] = h5py.enum_dtype({'a b': 0, 'c\tx': 1}, basetype='u1')
    f['v\tl'] = h5py.vlen_dtype('i4')
    for i, n in enumerate(['d\tt', 'q\x7f', '0lead']):
        s = f.create_dataset(n, data=np.arange(i + 2, dtype='f4'))
        s.make_scale(n)
        v = f.create_dataset('var%d' % i, data=np.arange(i + 2, dtype='i4'))
        v.dims[0].attach_scale(s)
    f.create_dataset('ce', data=np.array([(1, 2.5)], f['#c'].dtype), dtype=f['#c'])
    f.create_dataset('en', data=np.array([0, 1], 'u1'), dtype=f['{e}'])
    d = f.create_dataset('vl', shape=(2,), dtype=f['v\tl'])
    d[0] = np.array([1, 2], 'i4')

# Names that are not UTF-8: a committed type, a variable, a group, a dimension scale (ncdump
# stops at the first variable using it).
with h5py.File('wild_utf8_names.h5', 'w') as f:
    f[b'T\xe9'] = np.dtype([('ok', 'i2'), ('b\xe4d', 'i2')])
    g = f.create_group(b'g\xff\xfe')
    g.create_dataset(b'v\xc3', data=np.arange(2, dtype='i2'))
    s = f.create_dataset(b'd\x80', data=np.arange(3.0))
    s.make_scale()
    v = f.create_dataset(b'x\xe9y', data=np.arange(3, dtype='i4'))
    v.dims[0].attach_scale(s)

# A variable attribute whose name is not UTF-8: ncdump stops at it.
with h5py.File('wild_utf8_var_attr.h5', 'w') as f:
    v = f.create_dataset('v', data=np.arange(2, dtype='i4'))
    v.attrs['first'] = np.int32(1)
    v.attrs[b'bad\xc0'] = np.int32(2)

# An attribute name not in NFC (e + combining acute): the lookup by its NFC form fails.
with h5py.File('wild_nfd_attr.h5', 'w') as f:
    f.create_dataset('v', data=np.arange(2, dtype='i4'))
    f.attrs['caf\u00e9'] = np.int32(1)
    f.attrs['cafe\u0301'] = np.int32(2)

# Long names: variables of 255, 256 and more bytes; a long attribute name.
with h5py.File('wild_long_var.h5', 'w') as f:
    f.create_dataset('A1', data=np.arange(2, dtype='i2'))
    f.create_dataset('A2', data=np.arange(2, dtype='i2'))
    f.create_dataset('a' * 255, data=np.arange(2, dtype='i2'))
    f.create_dataset('b' * 256, data=np.arange(2, dtype='f4'))
    f.create_dataset('c' * 270, data=np.arange(2, dtype='f8'))
    f.create_dataset('\u00e9' * 140, data=np.arange(2, dtype='i8'))
    g = f.create_group('g')
    g.create_dataset('D', data=np.arange(3, dtype='u2'))
    g.create_dataset('d' * 300, data=np.arange(3, dtype='u2'))
    g['d' * 300].attrs['u'] = np.int8(1)

with h5py.File('wild_long_attr.h5', 'w') as f:
    v = f.create_dataset('v', data=np.arange(2, dtype='i4'))
    v.attrs['x' * 256] = np.int32(1)
    v.attrs['y' * 257] = np.int32(2)

# Dimension scales: two on one axis (the last attached names the dimension), hard links.
with h5py.File('wild_ds_links.h5', 'w') as f:
    a = f.create_dataset('a', data=np.arange(3.0)); a.make_scale('a')
    b = f.create_dataset('b', data=np.arange(3.0)); b.make_scale('b')
    v = f.create_dataset('v', data=np.arange(9, dtype='i4').reshape(3, 3))
    v.dims[0].attach_scale(a); v.dims[0].attach_scale(b)
    v.dims[1].attach_scale(b); v.dims[1].attach_scale(a)
    h = f.create_dataset('h', data=np.arange(2.0)); h.make_scale()
    f['h2'] = h
    g = f.create_group('g'); g['h_alias'] = h
    w = g.create_dataset('w', data=np.arange(4, dtype='i2').reshape(2, 2))
    w.dims[0].attach_scale(h); w.dims[1].attach_scale(f['h2'])
    r = f.create_dataset('r', data=np.arange(2, dtype='i2'))
    r.dims[0].attach_scale(g['h_alias'])

# Datasets without DIMENSION_LIST reuse any dimension of their group of the same length and
# kind, named or phony; axis 0 without a scale makes every axis phony.
with h5py.File('wild_ds_samelen.h5', 'w') as f:
    t = f.create_dataset('t', data=np.arange(4.0), maxshape=(None,)); t.make_scale('t')
    x = f.create_dataset('x', data=np.arange(4.0)); x.make_scale('x')
    f.create_dataset('a', data=np.arange(16, dtype='i4').reshape(4, 4))
    f.create_dataset('b', data=np.arange(4, dtype='i4'), maxshape=(None,))
    f.create_dataset('c', data=np.arange(12, dtype='i4').reshape(4, 3))
    d = f.create_dataset('d', data=np.arange(8, dtype='i4').reshape(2, 4))
    d.dims[1].attach_scale(x)
    g = f.create_group('g')
    g.create_dataset('e', data=np.arange(4, dtype='i4'))

# A scale outside the variable's group and its ancestors: ncdump stops at the variable.
with h5py.File('wild_ds_sibling.h5', 'w') as f:
    g1 = f.create_group('g1'); g2 = f.create_group('g2')
    x = g1.create_dataset('x', data=np.arange(3.0)); x.make_scale('x')
    y = f.create_dataset('y', data=np.arange(2.0)); y.make_scale('y')
    v = g2.create_dataset('v', data=np.arange(6, dtype='i4').reshape(2, 3))
    v.dims[0].attach_scale(y); v.dims[1].attach_scale(x)

# Axis 0 has a scale, axis 1 none.
with h5py.File('wild_ds_axis1_bare.h5', 'w') as f:
    y = f.create_dataset('y', data=np.arange(2.0)); y.make_scale('y')
    v = f.create_dataset('v', data=np.arange(6, dtype='i4').reshape(2, 3))
    v.dims[0].attach_scale(y)

# _FillValue attributes of user types with several elements, and the fill test of ncdump.
with h5py.File('wild_user_fill.h5', 'w') as f:
    f['T_vl'] = h5py.vlen_dtype('i2')
    f['T_c'] = np.dtype([('a', 'i4', (3,)), ('b', 'f8')])
    t = f['T_vl']
    d = f.create_dataset('a', shape=(4,), dtype=t)
    d[0] = np.array([7], 'i2'); d[1] = np.array([1, 2], 'i2'); d[2] = np.array([5], 'i2')
    d.attrs.create('_FillValue', objs('i2', [7], [5]), dtype=t)
    # (Vlens of two or more elements are left out: ncdump compares them reading past the end
    # of both element arrays, so the result depends on the heap's history.)
    d = f.create_dataset('e', shape=(2,), dtype=t)
    d[0] = np.array([9], 'i2')
    d.attrs.create('_FillValue', objs('i2', [9]), dtype=t)
    ct = f['T_c']
    d = f.create_dataset('k', shape=(4,), dtype=ct)
    d[0] = ((1, 2, 3), 0.5); d[1] = ((1, 9, 9), 0.5); d[2] = ((2, 2, 3), 0.5)
    d[3] = ((1, 2, 3), 0.25)
    d.attrs.create('_FillValue', np.array([((1, 2, 3), 0.5)], ct.dtype), dtype=ct)
    s = f.create_dataset('s', shape=(3,), dtype=h5py.string_dtype(), chunks=(2,))
    s[0] = 'x'
    s.attrs.create('_FillValue', ['x', 'y'], dtype=h5py.string_dtype())
