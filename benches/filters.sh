#!/usr/bin/env bash
# Compression filters, purecdf against netcdf-c with libhdf5 filter plugins, in one run.
#
#   benches/filters.sh            # N=3 rounds per side
#   FEATURES=zstd-c ONLY=zstd benches/filters.sh   # zstd through the C library, zstd only
#   OVERWRITE=1 benches/filters.sh   # each write over the last run's file (as before session 13)
#
# For each filter list below, writes the 256 MiB float variable of benches/netcdf4.sh (256 x 512 x
# 512, chunks 1 x 512 x 512, the same smooth field plus noise) with netcdf-c (benches/c/nc4bench.c,
# NC4BENCH_FILTERS) and with purecdf (the nc_bench example, same variable), close included, each
# slab's values made as it is written (`write`, the issue's benchmark) and all made before the
# clock starts (`w-made`: the library alone), then reads netcdf-c's file whole with both. The plugins come from the Python venv's hdf5plugin
# (HDF5_PLUGIN_PATH; Debian has no zstd plugin); PYTHON names that Python (default: the CI venv).
# Prints times, ratios (netcdf-c time / purecdf time; > 1 means purecdf is faster) and file sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3}
DATA=bench-data
mkdir -p "$DATA"
PYTHON=${PYTHON:-target/ci-venv/bin/python}
HDF5_PLUGIN_PATH=$("$PYTHON" -c 'import hdf5plugin; print(hdf5plugin.PLUGINS_PATH)')
export HDF5_PLUGIN_PATH
cc -O2 -o "$DATA/nc4bench" benches/c/nc4bench.c -lnetcdf
cargo build --release -q -p purecdf --example nc_bench ${FEATURES:+--features "$FEATURES"}
OURS=target/release/examples/nc_bench
THEIRS=$DATA/nc4bench

source benches/lib.sh
best_overwrite() { shift; best "$@"; }

# name, filter list (blosc: filter version, blosc version, type size, chunk bytes (the first four
# filled in on write), level 5, byte shuffle 1, compressor 1 = lz4).
SPECS=(
    "zstd-3|32015,3"
    "blosc-lz4+shuffle|32001,0,0,0,0,5,1,1"
    "bzip2-9|307,9"
    "lz4|32004,0"
)
printf '%-18s %-6s %9s %9s %6s   %s\n' filter op netcdf-c purecdf ratio "sizes (netcdf-c / purecdf)"
for entry in "${SPECS[@]}"; do
    name=${entry%%|*}
    spec=${entry#*|}
    [[ $name == *"${ONLY:-}"* ]] || continue
    fc="$DATA/filter-c.nc"
    fr="$DATA/filter-rs.nc"
    export NC4BENCH_FILTERS=$spec
    # write-made: the values made before the clock starts, on both sides (the library alone).
    # Each write makes a new file (best_fresh): overwriting the last run's file would add the
    # filesystem's freeing of it to both sides' times (OVERWRITE=1 keeps that, as before).
    run=best_fresh
    [[ -z ${OVERWRITE:-} ]] || run=best_overwrite
    mc=$($run "$fc" "$THEIRS" write-made "$fc")
    mr=$($run "$fr" "$OURS" write-made "$fr")
    wc=$($run "$fc" "$THEIRS" write "$fc")
    wr=$($run "$fr" "$OURS" write "$fr")
    sizes="$(size "$fc") / $(size "$fr")"
    cat "$fc" > /dev/null
    rc=$(best "$THEIRS" read "$fc" data)
    rr=$(best "$OURS" read "$fc" data)
    printf '%-18s %-6s %9s %9s %6s   %s\n' "$name" write "$wc" "$wr" "$(ratio "$wc" "$wr")" "$sizes"
    printf '%-18s %-6s %9s %9s %6s\n' "$name" w-made "$mc" "$mr" "$(ratio "$mc" "$mr")"
    printf '%-18s %-6s %9s %9s %6s   load %s\n' "$name" read "$rc" "$rr" "$(ratio "$rc" "$rr")" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
    rm -f "$fc" "$fr"
done
