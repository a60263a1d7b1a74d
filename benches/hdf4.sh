#!/usr/bin/env bash
# HDF4 SD reading: purecdf's ncdump against HDF4's own `hdp dumpsds`, in one run.
#
#   benches/hdf4.sh             # N=3 rounds per side
#
# A ~100 MB deflate-compressed, chunked HDF4 file (made once with pyhdf and hrepack: one float32
# dataset of 100 x 1000 x 500, chunks of 1 x 1000 x 500, deflate level 6; values with two
# decimals) dumped
# whole as text to /dev/null: `ncdump FILE` against `hdp dumpsds -d FILE` (data only). Also the
# header alone: `ncdump -h` against `hdp dumpsds -h`. Prints best times and ratios (hdp time /
# purecdf time; > 1 means purecdf is faster).
#
#   NC_HDF4_NCDUMP=/path/to/ncdump benches/hdf4.sh
#
# adds netcdf-c's ncdump (a build with --enable-hdf4) as a third column, with its own ratio
# (netcdf-c time / purecdf time) on the same runs; without the variable that column is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3}
DATA=$PWD/bench-data/hdf4
mkdir -p "$DATA"
PYTHON=${PYTHON:-target/ci-venv/bin/python}
cargo build --release -q -p purecdf-cli --bin ncdump
OURS=target/release/ncdump
source benches/lib.sh
FILE=$DATA/big.hdf
if [ ! -f "$FILE" ]; then
    "$PYTHON" - "$DATA/raw.hdf" <<'PY'
import sys, numpy as np
from pyhdf.SD import SD, SDC, SDS
f = SD(sys.argv[1], SDC.WRITE | SDC.CREATE)
s = f.create("data", SDC.FLOAT32, (100, 1000, 500))
rng = np.random.default_rng(1)
for i in range(100):
    plane = np.round(rng.normal(280.0, 15.0, (1000, 500)), 2).astype(np.float32)
    s[i] = plane
s.endaccess()
f.end()
PY
    hrepack -i "$DATA/raw.hdf" -o "$FILE" -c "data:1x1000x500" -t "data:GZIP 6"
    rm "$DATA/raw.hdf"
fi
timed() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); echo "$t1 $t0" | awk '{printf "%.3f\n", $1 - $2}'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); file $(size "$FILE")"
NC=${NC_HDF4_NCDUMP:-}
if [ -n "$NC" ]; then
    printf '%-8s %9s %9s %9s %6s %6s\n' what hdp netcdf-c purecdf hdp/us nc/us
else
    printf '%-8s %9s %9s %6s\n' what hdp purecdf ratio
fi
row() { # row WHAT HDP-ARGS... -- OUR-ARGS...
    local what=$1 th tn to hargs=() oargs=()
    shift
    while [ "$1" != -- ]; do hargs+=("$1"); shift; done
    shift
    oargs=("$@")
    th=$(best timed hdp dumpsds "${hargs[@]}")
    to=$(best timed "$OURS" "${oargs[@]}")
    if [ -n "$NC" ]; then
        tn=$(best timed "$NC" "${oargs[@]}")
        printf '%-8s %9s %9s %9s %6s %6s\n' "$what" "$th" "$tn" "$to" "$(ratio "$th" "$to")" \
            "$(ratio "$tn" "$to")"
    else
        printf '%-8s %9s %9s %6s\n' "$what" "$th" "$to" "$(ratio "$th" "$to")"
    fi
}
row header -h "$FILE" -- -h "$FILE"
row data -d "$FILE" -- "$FILE"
