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
#
# A second reference, when PYTHON has the netCDF4 wheel: netcdf-c 4.10, the wheel's own library
# with its own filter plugins (nc4bench.c linked against the wheel's libnetcdf; HDF5_PLUGIN_PATH
# the wheel's plugin folder). Its zstd plugin uses zstd 1.5.7 as purecdf's encoder does (same
# output size); hdf5plugin's uses zstd 1.5.6, whose level 3 compresses less and faster. The
# wheel has no lz4 plugin (netcdf-c ships none), so that row has no 4.10 column. Columns: the
# times of netcdf-c 4.9 with hdf5plugin's plugins, of netcdf-c 4.10 and of purecdf, then the
# ratios netcdf-c 4.9 / purecdf (`ratio`) and netcdf-c 4.10 / purecdf (`r-4.10`).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3}
DATA=bench-data
mkdir -p "$DATA"
PYTHON=${PYTHON:-target/ci-venv/bin/python}
HDF5_PLUGIN_PATH=$("$PYTHON" -c 'import hdf5plugin; print(hdf5plugin.PLUGINS_PATH)')
export HDF5_PLUGIN_PATH
cc -O2 -ffp-contract=off -o "$DATA/nc4bench" benches/c/nc4bench.c -lnetcdf
cargo build --release -q -p purecdf --example nc_bench ${FEATURES:+--features "$FEATURES"}
OURS=target/release/examples/nc_bench
THEIRS=$DATA/nc4bench
# netcdf-c 4.10 from the netCDF4 wheel, when there is one.
WHEEL_LIBS=$("$PYTHON" -c 'import netCDF4, os; print(os.path.join(os.path.dirname(os.path.dirname(netCDF4.__file__)), "netcdf4.libs"))' 2>/dev/null || true)
WHEEL_PLUGINS=$("$PYTHON" -c 'import netCDF4, os; print(os.path.join(os.path.dirname(netCDF4.__file__), "plugins"))' 2>/dev/null || true)
THEIRS410=
if [[ -d $WHEEL_PLUGINS ]] && compgen -G "$WHEEL_LIBS/libnetcdf-*.so*" > /dev/null; then
    THEIRS410=$DATA/nc4bench410
    cc -O2 -ffp-contract=off -o "$THEIRS410" benches/c/nc4bench.c "$(compgen -G "$WHEEL_LIBS/libnetcdf-*.so*" | head -1)" -Wl,-rpath,"$WHEEL_LIBS"
fi
# with410 CMD...: CMD with the wheel's plugins instead of hdf5plugin's.
with410() { HDF5_PLUGIN_PATH=$WHEEL_PLUGINS "$@"; }

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
# r410 OTHER OURS: the 4.10 ratio, or - where there is no 4.10 time.
r410() { [[ $1 == - ]] && echo - || ratio "$1" "$2"; }
printf '%-18s %-6s %9s %9s %9s %6s %6s   %s\n' filter op netcdf-c 4.10 purecdf ratio r-4.10 "sizes (netcdf-c / 4.10 / purecdf)"
for entry in "${SPECS[@]}"; do
    name=${entry%%|*}
    spec=${entry#*|}
    [[ $name == *"${ONLY:-}"* ]] || continue
    fc="$DATA/filter-c.nc"
    f4="$DATA/filter-410.nc"
    fr="$DATA/filter-rs.nc"
    export NC4BENCH_FILTERS=$spec
    # write-made: the values made before the clock starts, on both sides (the library alone).
    # Each write makes a new file (best_fresh): overwriting the last run's file would add the
    # filesystem's freeing of it to both sides' times (OVERWRITE=1 keeps that, as before).
    run=best_fresh
    [[ -z ${OVERWRITE:-} ]] || run=best_overwrite
    m4=- w4=- r4=- s4=-
    mc=$($run "$fc" "$THEIRS" write-made "$fc")
    mr=$($run "$fr" "$OURS" write-made "$fr")
    wc=$($run "$fc" "$THEIRS" write "$fc")
    wr=$($run "$fr" "$OURS" write "$fr")
    if [[ -n $THEIRS410 && $name != lz4 ]]; then
        m4=$($run "$f4" with410 "$THEIRS410" write-made "$f4")
        w4=$($run "$f4" with410 "$THEIRS410" write "$f4")
        s4=$(size "$f4")
    fi
    sizes="$(size "$fc") / $s4 / $(size "$fr")"
    cat "$fc" > /dev/null
    rc=$(best "$THEIRS" read "$fc" data)
    rr=$(best "$OURS" read "$fc" data)
    [[ $w4 == - ]] || r4=$(best with410 "$THEIRS410" read "$fc" data)
    printf '%-18s %-6s %9s %9s %9s %6s %6s   %s\n' "$name" write "$wc" "$w4" "$wr" "$(ratio "$wc" "$wr")" "$(r410 "$w4" "$wr")" "$sizes"
    printf '%-18s %-6s %9s %9s %9s %6s %6s\n' "$name" w-made "$mc" "$m4" "$mr" "$(ratio "$mc" "$mr")" "$(r410 "$m4" "$mr")"
    printf '%-18s %-6s %9s %9s %9s %6s %6s   load %s\n' "$name" read "$rc" "$r4" "$rr" "$(ratio "$rc" "$rr")" "$(r410 "$r4" "$rr")" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
    rm -f "$fc" "$f4" "$fr"
done
