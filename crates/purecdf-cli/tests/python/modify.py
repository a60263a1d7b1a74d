"""The Python turns of interop_append.rs: netCDF4-python and h5py modify a file purecdf wrote.

Usage: modify.py STEP FILE, STEP one of:
  nc-records   netCDF4-python: records 2 and 3 of time and temp(time, x), a global attribute
               "history", an attribute temp:comment, a new variable extra(x) of shorts;
  h5-modify    h5py: an int16 attribute h5_note on temp, extra[1] = 20, ten int32 global
               attributes a0..a9 (more than libhdf5 keeps in the object header);
  nc-more      netCDF4-python: one more record of time, temp and count, a global attribute "last";
  nc-attrs     netCDF4-python: a global attribute "pyatt", and on variable v a small attribute
               "pyv" and a 120 kB one "big2" (libhdf5 adds them to the dense storage);
  h5-plain     h5py: a group h5grp with a plain dataset "plain" (no dimension scales: netCDF sees
               a phony dimension, and netcdf-c no longer opens the file for writing).
"""
import sys

import numpy as np


def nc_records(path):
    import netCDF4

    with netCDF4.Dataset(path, "a") as d:
        d["time"][2:4] = [2.0, 3.0]
        d["temp"][2:4, :] = np.array([[7, 8, 9], [10, 11, 12]], dtype="f4")
        d.history = "records 2-3 by netCDF4-python"
        d["temp"].comment = "py"
        v = d.createVariable("extra", "i2", ("x",))
        v[:] = [1, 2, 3]


def h5_modify(path):
    import h5py

    with h5py.File(path, "r+") as f:
        f["temp"].attrs["h5_note"] = np.int16(7)
        f["extra"][1] = 20
        for i in range(10):
            f.attrs["a%d" % i] = np.int32(i)


def h5_plain(path):
    import h5py

    with h5py.File(path, "r+") as f:
        g = f.create_group("h5grp")
        g.create_dataset("plain", data=np.array([5, 6], dtype="i4"))


def nc_more(path):
    import netCDF4

    with netCDF4.Dataset(path, "a") as d:
        n = len(d.dimensions["time"])
        d["time"][n] = float(n)
        d["temp"][n, :] = np.array([n, n + 0.5, n + 0.25], dtype="f4")
        d["count"][n] = 100 + n
        d.last = "netCDF4-python"


def nc_attrs(path):
    import netCDF4

    with netCDF4.Dataset(path, "a") as d:
        d.pyatt = "hello"
        d["v"].pyv = np.arange(3, dtype="i4")
        d["v"].big2 = np.arange(30000, dtype="i4")


def main():
    step, path = sys.argv[1], sys.argv[2]
    steps = {"nc-records": nc_records, "h5-modify": h5_modify, "nc-more": nc_more, "h5-plain": h5_plain,
             "nc-attrs": nc_attrs}
    steps[step](path)


if __name__ == "__main__":
    main()
