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
# purecdf time; > 1 means purecdf is faster). netcdf-c with HDF4 is not built on this machine.
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
printf '%-8s %9s %9s %6s\n' what hdp purecdf ratio
th=$(best timed hdp dumpsds -h "$FILE"); to=$(best timed "$OURS" -h "$FILE")
printf '%-8s %9s %9s %6s\n' header "$th" "$to" "$(ratio "$th" "$to")"
th=$(best timed hdp dumpsds -d "$FILE"); to=$(best timed "$OURS" "$FILE")
printf '%-8s %9s %9s %6s\n' data "$th" "$to" "$(ratio "$th" "$to")"
