#!/usr/bin/env bash
# NCZarr / Zarr v2 stores, purecdf against zarr-python and netcdf-c, in one run.
#
#   benches/nczarr.sh            # N=3 rounds per side
#
# The 256 MiB float array of benches/netcdf4.sh (256 x 512 x 512, chunks 1 x 512 x 512) in a
# directory store, compressed with blosc-lz4 (level 5, byte shuffle) and zstd level 3:
#   write: purecdf (the nc_bench example's `write-made`: values made before the clock starts,
#          close included) against zarr-python (values made beforehand, not timed) and netcdf-c
#          (nccopy of a netCDF-4 file holding the array to `#mode=nczarr,file`; Debian's 4.9.0
#          writes NCZarr without filters);
#   read:  the whole array of zarr-python's store by purecdf and by zarr-python, and of
#          netcdf-c's store by purecdf and netcdf-c (nc4bench read).
# Prints times, ratios (other time / purecdf time; > 1 means purecdf is faster) and store sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3}
DATA=$PWD/bench-data
mkdir -p "$DATA"
PYTHON=${PYTHON:-target/ci-venv/bin/python}
cc -O2 -ffp-contract=off -o "$DATA/nc4bench" benches/c/nc4bench.c -lnetcdf
# FEATURES=zstd-c builds purecdf with C zstd (the default pure-Rust encoder writes its fastest
# level only).
cargo build --release -q -p purecdf --example nc_bench ${FEATURES:+--features "$FEATURES"}
OURS=target/release/examples/nc_bench
THEIRS=$DATA/nc4bench

source benches/lib.sh
url() { echo "file://$1#mode=nczarr,file"; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-22s %9s %9s %6s   %s\n' codec operation other purecdf ratio "sizes (other / purecdf)"
for entry in "blosc-lz4|32001,0,0,0,0,5,1,1" "zstd-3|32015,3"; do
    name=${entry%%|*}
    export NC4BENCH_FILTERS=${entry#*|}
    ours="$DATA/ours.zarr"
    zp="$DATA/zarr-python.zarr"
    nc="$DATA/netcdf-c.zarr"
    wr=$(best bash -c "rm -rf '$ours'; '$OURS' write-made '$(url "$ours")'")
    wz=$(best bash -c "rm -rf '$zp'; '$PYTHON' benches/zarr_bench.py write '$zp' '$name'")
    printf '%-10s %-22s %9s %9s %6s   %s\n' "$name" "write vs zarr-python" "$wz" "$wr" "$(ratio "$wz" "$wr")" "$(size "$zp") / $(size "$ours")"
    # The netCDF-4 source of netcdf-c's copy, with deflate 1 + shuffle (Debian's plugins lack zstd).
    NC4BENCH_FILTERS= "$THEIRS" write "$DATA/src.nc" > /dev/null
    wc=$(best bash -c "rm -rf '$nc'; s=\$(date +%s.%N); nccopy '$DATA/src.nc' '$(url "$nc")'; e=\$(date +%s.%N); echo \"\$e \$s\" | awk '{printf \"%.4f\", \$1 - \$2}'")
    printf '%-10s %-22s %9s %9s %6s   %s\n' "$name" "write vs netcdf-c" "$wc" "$wr" "$(ratio "$wc" "$wr")" "$(size "$nc") / $(size "$ours")"
    rz=$(best "$PYTHON" benches/zarr_bench.py read "$zp")
    rr=$(best "$OURS" read "$zp" data)
    printf '%-10s %-22s %9s %9s %6s\n' "$name" "read vs zarr-python" "$rz" "$rr" "$(ratio "$rz" "$rr")"
    rc=$(best "$THEIRS" read "$(url "$nc")" data)
    rn=$(best "$OURS" read "$(url "$nc")" data)
    printf '%-10s %-22s %9s %9s %6s\n' "$name" "read vs netcdf-c" "$rc" "$rn" "$(ratio "$rc" "$rn")"
    rm -rf "$ours" "$zp" "$nc" "$DATA/src.nc"
done
