#!/usr/bin/env bash
# Remote reading (`#mode=bytes`): purecdf against netCDF4-python (netcdf-c 4.10's byte-range
# reader) over the same HTTP server on 127.0.0.1, in one run.
#
#   benches/remote.sh              # N=3 rounds per side, LATENCY_MS=5 per request
#
# The server (benches/range_server.py) adds LATENCY_MS to every request, as a network does, and
# counts requests. Workloads, each side opening the file and reading every variable whole:
#   classic: a CDF-2 file of 2,000 records (int t, float b, double c[1000]): 16 MB;
#   netcdf4: a netCDF-4 file of 100 chunked double variables of 10 x 2,000: 16 MB;
#   header:  opening the netCDF-4 file and listing its variables.
# Prints best times, request counts and ratios (netCDF4-python time / purecdf time; > 1 means
# purecdf is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3}
DATA=$PWD/bench-data/remote
mkdir -p "$DATA"
PYTHON=${PYTHON:-target/ci-venv/bin/python}
cargo build --release -q -p purecdf --example nc_bench --features remote
OURS=target/release/examples/nc_bench
source benches/lib.sh

if [ ! -f "$DATA/classic.nc" ]; then
    "$PYTHON" - "$DATA" <<'PY'
import sys, numpy as np, netCDF4
d = sys.argv[1]
with netCDF4.Dataset(f"{d}/classic.nc", "w", format="NETCDF3_64BIT_OFFSET") as f:
    f.createDimension("t", None); f.createDimension("y", 1000)
    f.createVariable("t", "i4", ("t",))[:] = np.arange(2000)
    f.createVariable("b", "f4", ("t",))[:] = np.arange(2000) % 97
    f.createVariable("c", "f8", ("t", "y"))[:] = np.arange(2000000).reshape(2000, 1000) % 1001
with netCDF4.Dataset(f"{d}/netcdf4.nc", "w", format="NETCDF4") as f:
    f.createDimension("t", None); f.createDimension("x", 2000)
    for i in range(100):
        v = f.createVariable(f"v{i}", "f8", ("t", "x"), chunksizes=(1, 2000))
        v.units = "K"
        v[:] = (np.arange(20000).reshape(10, 2000) + i) % 513
PY
fi

"$PYTHON" benches/range_server.py "$DATA" > "$DATA/port" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 50); do [ -s "$DATA/port" ] && break; sleep 0.1; done
BASE="http://127.0.0.1:$(cat "$DATA/port")"
requests() { curl -s "$BASE/__count"; }

ours() { # URL MODE: prints seconds
    if [ "$2" = all ]; then "$OURS" readall "$1"; else "$OURS" open "$1"; fi
}

py_read() { # URL MODE: prints seconds
    "$PYTHON" - "$1" "$2" <<'PY'
import sys, time, netCDF4
t = time.time()
d = netCDF4.Dataset(sys.argv[1])
if sys.argv[2] == "all":
    for v in d.variables.values():
        v[...]
else:
    list(d.variables)
print(f"{time.time() - t:.4f}")
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); latency ${LATENCY_MS:-5} ms per request"
printf '%-9s %15s %15s %9s %9s %6s\n' workload "python requests" "purecdf requests" python purecdf ratio
for w in classic netcdf4 header; do
    file=$w.nc; mode=all
    [ "$w" = header ] && { file=netcdf4.nc; mode=open; }
    url="$BASE/$file#mode=bytes"
    requests >/dev/null
    py_read "$url" "$mode" >/dev/null; pr=$(requests)
    ours "$url" "$mode" >/dev/null 2>&1; orq=$(requests)
    tp=$(best py_read "$url" "$mode")
    to=$(best ours "$url" "$mode")
    printf '%-9s %15s %15s %9s %9s %6s\n' "$w" "$pr" "$orq" "$tp" "$to" "$(ratio "$tp" "$to")"
done
