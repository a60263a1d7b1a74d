#!/bin/sh
# Regenerates the fixtures in this directory with netcdf-c 4.9.0's tools (run from here).
set -e
for f in types emptyrec onerec norec; do ncgen -k classic -o $f.nc $f.cdl; done
ncgen -k nc6 -o types64.nc types.cdl
# netCDF-4 inputs for tests/nccopy_matrix.rs.
ncgen -k nc4 -o groups4.nc groups4.cdl
ncgen -k nc4 -o storage4.nc storage4.cdl
ncgen -k nc7 -o classic7.nc classic7.cdl
# ncgen 4.9.0 writes int64 variables as int with -k cdf5, so go through netCDF-4.
ncgen -k nc4 -o cdf5.tmp.nc4 cdf5.cdl && nccopy -k cdf5 cdf5.tmp.nc4 cdf5.nc && rm cdf5.tmp.nc4
mkdir -p expected
while read -r out in args; do
    # shellcheck disable=SC2086
    nccopy $args $in expected/$out
done <<'CASES'
types.nc types.nc
types_nc6_u.nc types.nc -k nc6 -u
types_cdf5_V.nc types.nc -k cdf5 -V sh,c,rc
types_v.nc types.nc -v i,rc,d
types64_3_u.nc types64.nc -3 -u -m 7
emptyrec_u.nc emptyrec.nc -u
onerec_6.nc onerec.nc -6 -m 3
norec_5.nc norec.nc -k cdf5
cdf5_m5.nc cdf5.nc -m 5
cdf5_V.nc cdf5.nc -V i64,us
CASES
