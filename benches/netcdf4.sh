#!/usr/bin/env bash
# netCDF-4 reading, purecdf against netcdf-c in one run (issue: "Reading netCDF-4 and HDF5").
# Builds benches/c/nc4bench.c against libnetcdf and the `nc_bench` example, creates the files with
# netcdf-c under bench-data/ (git-ignored), then alternates the two programs and keeps the best of
# N runs each. Prints ratios (netcdf-c time / purecdf time; > 1 means purecdf is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-5}
DATA=bench-data
mkdir -p "$DATA"
cc -O2 -o "$DATA/nc4bench" benches/c/nc4bench.c -lnetcdf
cargo build --release -q -p purecdf --example nc_bench
OURS=target/release/examples/nc_bench
THEIRS=$DATA/nc4bench
[ -f "$DATA/chunked.nc" ] || "$THEIRS" create "$DATA/chunked.nc" >/dev/null
[ -f "$DATA/many.nc" ] || "$THEIRS" create_many "$DATA/many.nc" 5000 >/dev/null

best() { # best of N runs of a command printing seconds
    local b=999999 t
    for _ in $(seq "$N"); do t=$("$@"); b=$(echo "$t $b" | awk '{print ($1 < $2) ? $1 : $2}'); done
    echo "$b"
}
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }

# Warm the page cache for both.
cat "$DATA/chunked.nc" "$DATA/many.nc" > /dev/null
r_c=$(best "$THEIRS" read "$DATA/chunked.nc" data 2>/dev/null); r_o=$(best "$OURS" read "$DATA/chunked.nc" data 2>/dev/null)
o_c=$(best "$THEIRS" open "$DATA/many.nc"); o_o=$(best "$OURS" open "$DATA/many.nc")
# Thread scaling with chunk decoding on the calling threads (one-worker pool): does a second
# reading thread of the same handle run in parallel, with no lock between them? (With the default
# pool a single read already decodes its chunks on every core.)
t1=$(RAYON_NUM_THREADS=1 best "$OURS" threads "$DATA/chunked.nc" 1 a b)
t2=$(RAYON_NUM_THREADS=1 best "$OURS" threads "$DATA/chunked.nc" 2 a b)
echo "read 256 MiB deflate+shuffle chunked float: netcdf-c ${r_c}s purecdf ${r_o}s ratio $(ratio "$r_c" "$r_o")x (target >= 2)"
echo "open 5000-variable file:                    netcdf-c ${o_c}s purecdf ${o_o}s ratio $(ratio "$o_c" "$o_o")x (target >= 5)"
echo "2 threads vs 1 reading two variables:        1 thread ${t1}s 2 threads ${t2}s speed-up $(ratio "$t1" "$t2")x (target >= 1.7)"
