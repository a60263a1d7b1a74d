#!/usr/bin/env bash
# Side-by-side benchmark: purecdf vs netcdf-c 4.9 on the same files, in one run.
#
#   benches/run.sh            # N=3 rounds, 1 GiB variable (64 x 2048 x 2048 floats)
#   N=5 SHAPE="16 1024 1024" benches/run.sh
#
# Builds benches/c/ncbench.c (cc -O2 ... -lnetcdf) and the Rust twin
# crates/purecdf/benches/ncbench.rs (release profile), then for each operation
#   create   new CDF-2 file with one float variable, fill on
#   write    write the whole variable into that file, one t-slab per call
#   read     read the whole variable in one call
#   strided  read every 2nd element of the last two dimensions
# runs both programs N times, alternating which goes first, and keeps the best time of each.
# The page cache cannot be dropped here, so both are warmed equally: every read round starts by
# reading the file once untimed. Reads of both programs use the same file (written by netcdf-c,
# checked byte-identical to purecdf's). Then it times `ncdump` of a ~100 MB classic file and of a
# file of 157,201 small records, ours vs /usr/bin/ncdump, output to /dev/null (outputs checked
# identical first).
# Prints one line per operation with the ratio netcdf-c time / purecdf time (> 1: we are faster).
# Data files go to bench-data/ (git-ignored). Exits non-zero if a checksum or output differs.
set -euo pipefail

cd "$(dirname "$0")/.."
N=${N:-3}
read -r NT NY NX <<<"${SHAPE:-64 2048 2048}"
DATA=${BENCH_DATA:-bench-data}
mkdir -p "$DATA"
export CARGO_TERM_COLOR=never

echo "building netcdf-c side: benches/c/ncbench.c"
NC_FLAGS=$(nc-config --cflags --libs 2>/dev/null || echo "-lnetcdf")
# shellcheck disable=SC2086
cc -O2 -Wall -o "$DATA/ncbench-c" benches/c/ncbench.c $NC_FLAGS
C_BIN="$DATA/ncbench-c"

echo "building purecdf side: crates/purecdf/benches/ncbench.rs and ncdump (release)"
executable() { grep -o '"executable":"[^"]*"' | sed 's/"executable":"//; s/"$//' | grep -v '^$' | tail -1; }
RS_BIN=$(cargo bench -p purecdf --bench ncbench --no-run --message-format=json 2>/dev/null | executable)
OUR_NCDUMP=$(cargo build --release -p purecdf-cli --bin ncdump --message-format=json 2>/dev/null | executable)
REF_NCDUMP=${REF_NCDUMP:-/usr/bin/ncdump}
[ -x "$RS_BIN" ] && [ -x "$OUR_NCDUMP" ] || { echo "build failed"; exit 1; }

now() { date +%s.%N; }
best() { awk 'NR == 1 || $1 < m { m = $1 } END { printf "%.4f", m }'; }
ratio() { awk -v c="$1" -v r="$2" 'BEGIN { if (r > 0) printf "%.2f", c / r; else print "n/a" }'; }

RESULTS=()
FAIL=0

# bench OP FILE_C FILE_RS: N alternating rounds; checks checksums agree; records the ratio.
bench() {
    local op=$1 fc=$2 fr=$3 i tc=() tr=() sc sr line
    for ((i = 0; i < N; i++)); do
        if [ "$op" = read ] || [ "$op" = strided ]; then cat "$fc" >/dev/null; fi
        if ((i % 2 == 0)); then
            line=$("$C_BIN" "$op" "$fc" "$NT" "$NY" "$NX"); tc+=("$(cut -d' ' -f2 <<<"$line")"); sc=$(cut -d' ' -f3 <<<"$line")
            line=$("$RS_BIN" "$op" "$fr" "$NT" "$NY" "$NX"); tr+=("$(cut -d' ' -f2 <<<"$line")"); sr=$(cut -d' ' -f3 <<<"$line")
        else
            line=$("$RS_BIN" "$op" "$fr" "$NT" "$NY" "$NX"); tr+=("$(cut -d' ' -f2 <<<"$line")"); sr=$(cut -d' ' -f3 <<<"$line")
            line=$("$C_BIN" "$op" "$fc" "$NT" "$NY" "$NX"); tc+=("$(cut -d' ' -f2 <<<"$line")"); sc=$(cut -d' ' -f3 <<<"$line")
        fi
        if [ "$sc" != "$sr" ]; then
            echo "CHECKSUM MISMATCH in $op: netcdf-c $sc, purecdf $sr"
            FAIL=1
        fi
    done
    local bc br
    bc=$(printf '%s\n' "${tc[@]}" | best)
    br=$(printf '%s\n' "${tr[@]}" | best)
    RESULTS+=("$(printf '%-9s netcdf-c %8ss  purecdf %8ss  ratio %s' "$op" "$bc" "$br" "$(ratio "$bc" "$br")")")
    echo "${RESULTS[-1]}"
}

SIZE_MB=$(( NT * NY * NX * 4 / 1048576 ))
echo "== ${NT}x${NY}x${NX} float variable (${SIZE_MB} MiB), best of $N"
C_FILE="$DATA/bench-c.nc"
RS_FILE="$DATA/bench-rs.nc"
bench create "$C_FILE" "$RS_FILE"
bench write "$C_FILE" "$RS_FILE"
if ! cmp -s "$C_FILE" "$RS_FILE"; then
    echo "NOTE: purecdf's file differs from netcdf-c's (reads below use netcdf-c's file for both)"
fi
bench read "$C_FILE" "$C_FILE"
bench strided "$C_FILE" "$C_FILE"

# dump_bench LABEL FILE: ncdump of FILE, ours vs the reference, best of N (outputs checked equal).
dump_bench() {
    local label=$1 file=$2 h_ref h_ours i who bin t0 t1 t bc br tc=() tr=()
    ls -l "$file"
    h_ref=$("$REF_NCDUMP" "$file" | md5sum)
    h_ours=$("$OUR_NCDUMP" "$file" | md5sum) || h_ours="failed"
    if [ "$h_ref" != "$h_ours" ]; then
        echo "NCDUMP OUTPUT DIFFERS from /usr/bin/ncdump on $file"
        FAIL=1
    fi
    for ((i = 0; i < N; i++)); do
        for who in $( ((i % 2 == 0)) && echo "ref ours" || echo "ours ref"); do
            bin=$REF_NCDUMP; [ "$who" = ours ] && bin=$OUR_NCDUMP
            t0=$(now); "$bin" "$file" >/dev/null || FAIL=1; t1=$(now)
            t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
            if [ "$who" = ref ]; then tc+=("$t"); else tr+=("$t"); fi
        done
    done
    bc=$(printf '%s\n' "${tc[@]}" | best)
    br=$(printf '%s\n' "${tr[@]}" | best)
    RESULTS+=("$(printf '%-9s netcdf-c %8ss  purecdf %8ss  ratio %s' "$label" "$bc" "$br" "$(ratio "$bc" "$br")")")
    echo "${RESULTS[-1]}"
}

echo "== ncdump of a ~100 MB classic file, best of $N"
DUMP_FILE="$DATA/dump.nc"
[ -f "$DUMP_FILE" ] || "$C_BIN" mkdump "$DUMP_FILE" >/dev/null
dump_bench ncdump "$DUMP_FILE"

echo "== ncdump of 157,201 records of three float record variables, best of $N"
RECS_FILE="$DATA/records.nc"
[ -f "$RECS_FILE" ] || "$C_BIN" mkrecs "$RECS_FILE" >/dev/null
dump_bench ncdump-rec "$RECS_FILE"

echo
echo "== summary (ratio = netcdf-c time / purecdf time; > 1 means purecdf is faster)"
printf '%s\n' "${RESULTS[@]}"
exit $FAIL
