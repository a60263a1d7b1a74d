#!/bin/sh
# Regenerates filters.h5 and missing_filter.h5 with HDF5's own compiler wrapper (HDF5 1.10.8, Debian libhdf5-dev).
# The CDL files here are turned into netCDF-4 files by the reference ncgen at test time.
set -e
h5cc -o /tmp/make_filters make_filters.c
/tmp/make_filters
rm -f /tmp/make_filters make_filters.o
