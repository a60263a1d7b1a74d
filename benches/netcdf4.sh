#!/usr/bin/env bash
# netCDF-4 reading and writing, purecdf against netcdf-c in one run.
# Builds benches/c/nc4bench.c against libnetcdf and the `nc_bench` example, creates the files with
# netcdf-c under bench-data/ (git-ignored), then alternates the two programs and keeps the best of
# N runs each. Prints ratios (netcdf-c time / purecdf time; > 1 means purecdf is faster).
# The write benchmark writes a 256 MiB float variable (256x512x512, chunks 1x512x512, deflate 1 +
# shuffle) one 512x512 slab per call, close included, and checks that both files read back the
# same checksum.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-5}
DATA=bench-data
mkdir -p "$DATA"
cc -O2 -ffp-contract=off -o "$DATA/nc4bench" benches/c/nc4bench.c -lnetcdf
cargo build --release -q -p purecdf --example nc_bench
OURS=target/release/examples/nc_bench
THEIRS=$DATA/nc4bench
[ -f "$DATA/chunked.nc" ] || "$THEIRS" create "$DATA/chunked.nc" >/dev/null
[ -f "$DATA/many.nc" ] || "$THEIRS" create_many "$DATA/many.nc" 5000 >/dev/null

source benches/lib.sh

# Warm the page cache for both.
cat "$DATA/chunked.nc" "$DATA/many.nc" > /dev/null
r_c=$(best "$THEIRS" read "$DATA/chunked.nc" data 2>/dev/null); r_o=$(best "$OURS" read "$DATA/chunked.nc" data 2>/dev/null)
o_c=$(best "$THEIRS" open "$DATA/many.nc"); o_o=$(best "$OURS" open "$DATA/many.nc")
# Thread scaling with chunk decoding on the calling threads (one-worker pool): does a second
# reading thread of the same handle run in parallel, with no lock between them? (With the default
# pool a single read already decodes its chunks on every core.)
# Each run is about 0.1 s, so the machine's noise is large: TN (default 25) alternating runs of
# each, best and median reported.
TN=${TN:-25}
ts1=(); ts2=()
for _ in $(seq "$TN"); do
    ts1+=("$(RAYON_NUM_THREADS=1 "$OURS" threads "$DATA/chunked.nc" 1 a b)")
    ts2+=("$(RAYON_NUM_THREADS=1 "$OURS" threads "$DATA/chunked.nc" 2 a b)")
done
nth() { printf '%s\n' "${@:2}" | sort -g | sed -n "$1p"; }
mid=$(((TN + 1) / 2))
t1=$(nth 1 "${ts1[@]}"); t2=$(nth 1 "${ts2[@]}")
m1=$(nth "$mid" "${ts1[@]}"); m2=$(nth "$mid" "${ts2[@]}")
# Writes alternate netcdf-c and purecdf so both see the same machine load.
w_c=999999; w_o=999999
for _ in $(seq "$N"); do
    t=$("$THEIRS" write "$DATA/write_c.nc"); w_c=$(echo "$t $w_c" | awk '{print ($1 < $2) ? $1 : $2}')
    t=$("$OURS" write "$DATA/write_o.nc"); w_o=$(echo "$t $w_o" | awk '{print ($1 < $2) ? $1 : $2}')
done
sum_c=$("$THEIRS" read "$DATA/write_c.nc" data 2>&1 >/dev/null)
sum_o=$("$THEIRS" read "$DATA/write_o.nc" data 2>&1 >/dev/null)
[ "$sum_c" = "$sum_o" ] || { echo "write: checksums differ ($sum_c vs $sum_o)"; exit 1; }
size_c=$(stat -c %s "$DATA/write_c.nc"); size_o=$(stat -c %s "$DATA/write_o.nc")
rm -f "$DATA/write_c.nc" "$DATA/write_o.nc"
echo "read 256 MiB deflate+shuffle chunked float: netcdf-c ${r_c}s purecdf ${r_o}s ratio $(ratio "$r_c" "$r_o")x (target >= 2)"
echo "write 256 MiB deflate 1+shuffle, 1x512x512: netcdf-c ${w_c}s purecdf ${w_o}s ratio $(ratio "$w_c" "$w_o")x (target >= 2; files $size_c vs $size_o bytes)"
echo "open 5000-variable file:                    netcdf-c ${o_c}s purecdf ${o_o}s ratio $(ratio "$o_c" "$o_o")x (target >= 5)"
echo "2 threads vs 1 reading two variables:        1 thread ${t1}s 2 threads ${t2}s speed-up $(ratio "$t1" "$t2")x (target >= 1.7; best of $TN)"
echo "  same, medians of $TN:                        1 thread ${m1}s 2 threads ${m2}s speed-up $(ratio "$m1" "$m2")x"
