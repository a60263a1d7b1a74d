#!/usr/bin/env bash
# nccopy, purecdf against netcdf-c 4.9 in one run: `nccopy -k nc4 -d1 -s` of a 1 GiB classic
# file (and, for reference, the same copy of a record-variable file and a plain `-k nc4` copy).
#
#   benches/nccopy.sh              # N=3 rounds, 64 x 2048 x 2048 floats
#   N=5 SHAPE="16 1024 1024" benches/nccopy.sh
#
# Builds benches/c/nccopy_input.c (cc -O2 ... -lnetcdf), which writes the CDF-2 inputs with
# libnetcdf under bench-data/ (git-ignored): a smooth field plus noise, which deflate + shuffle
# compress about 2:1. Builds our nccopy (release), checks that both tools' outputs print the same
# `ncdump -h -s` (less `_NCProperties`) and hold the same data (each copied back to CDF-2 by
# /usr/bin/nccopy and compared byte for byte), then runs each copy N times per tool, alternating
# which goes first, and keeps the best wall time and the peak resident memory of each
# (/usr/bin/time -v). Prints ratio = netcdf-c time / purecdf time (> 1: we are faster).
# Exits non-zero if the outputs differ.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-3}
read -r NT NY NX <<<"${SHAPE:-64 2048 2048}"
DATA=${BENCH_DATA:-bench-data}
mkdir -p "$DATA"
export CARGO_TERM_COLOR=never

cc -O2 -Wall -o "$DATA/nccopy_input" benches/c/nccopy_input.c -lnetcdf
cargo build --release -q -p purecdf-cli --bin nccopy
OURS=target/release/nccopy
REF=${REF_NCCOPY:-/usr/bin/nccopy}
IN="$DATA/copy-${NT}x${NY}x${NX}.nc"
IN_REC="$DATA/copy-rec-${NT}x${NY}x${NX}.nc"
[ -f "$IN" ] || "$DATA/nccopy_input" "$IN" "$NT" "$NY" "$NX"
[ -f "$IN_REC" ] || "$DATA/nccopy_input" "$IN_REC" "$NT" "$NY" "$NX" rec
SIZE_MB=$((NT * NY * NX * 4 / 1048576))
FAIL=0
RESULTS=()

# run TOOL OUT ARGS...: prints "seconds peak_kB" of one copy.
run() {
    local tool=$1 out=$2
    shift 2
    rm -f "$out"
    /usr/bin/time -f "%e %M" -o "$DATA/time.txt" "$tool" "$@" "$out" >/dev/null
    cat "$DATA/time.txt"
}

# same OUT_REF OUT_OURS: the two outputs describe and hold the same thing.
same() {
    local a=$1 b=$2
    if ! diff <(ncdump -h -s "$a" | grep -v _NCProperties | tail -n +2) \
        <(ncdump -h -s "$b" | grep -v _NCProperties | tail -n +2) >/dev/null; then
        echo "HEADERS DIFFER: $a $b"
        return 1
    fi
    "$REF" -k nc6 "$a" "$DATA/back-ref.nc" && "$REF" -k nc6 "$b" "$DATA/back-ours.nc"
    if ! cmp -s "$DATA/back-ref.nc" "$DATA/back-ours.nc"; then
        echo "DATA DIFFERS: $a $b"
        return 1
    fi
    rm -f "$DATA/back-ref.nc" "$DATA/back-ours.nc"
}

# bench NAME INPUT ARGS...: N alternating rounds of both tools.
bench() {
    local name=$1 input=$2
    shift 2
    local i tc=() tr=() mc=0 mr=0 line
    cat "$input" >/dev/null
    for ((i = 0; i < N; i++)); do
        for who in $( ((i % 2 == 0)) && echo "ref ours" || echo "ours ref"); do
            if [ "$who" = ref ]; then
                read -r t m <<<"$(run "$REF" "$DATA/out-ref.nc" "$@" "$input")"
                tc+=("$t"); ((m > mc)) && mc=$m
            else
                read -r t m <<<"$(run "$OURS" "$DATA/out-ours.nc" "$@" "$input")"
                tr+=("$t"); ((m > mr)) && mr=$m
            fi
        done
    done
    same "$DATA/out-ref.nc" "$DATA/out-ours.nc" || FAIL=1
    local bc br
    bc=$(printf '%s\n' "${tc[@]}" | sort -g | head -1)
    br=$(printf '%s\n' "${tr[@]}" | sort -g | head -1)
    line=$(printf '%-28s netcdf-c %6.2fs %5d MiB  purecdf %6.2fs %5d MiB  ratio %s' "$name" \
        "$bc" $((mc / 1024)) "$br" $((mr / 1024)) \
        "$(awk -v c="$bc" -v r="$br" 'BEGIN { if (r > 0) printf "%.2f", c / r; else print "n/a" }')")
    RESULTS+=("$line")
    echo "$line"
}

echo "== ${NT}x${NY}x${NX} float variable (${SIZE_MB} MiB, CDF-2), best of $N"
bench "-k nc4 -d1 -s" "$IN" -k nc4 -d1 -s
bench "-k nc4 -d1 -s (record var)" "$IN_REC" -k nc4 -d1 -s
bench "-k nc4" "$IN" -k nc4
rm -f "$DATA/out-ref.nc" "$DATA/out-ours.nc" "$DATA/time.txt"
echo
echo "== summary (ratio = netcdf-c time / purecdf time; > 1 means purecdf is faster)"
printf '%s\n' "${RESULTS[@]}"
exit $FAIL
