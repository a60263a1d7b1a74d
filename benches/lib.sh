# Shell helpers shared by the side-by-side benchmarks (filters.sh, nczarr.sh, netcdf4.sh).
# Source after setting N (rounds per measurement).

# best CMD...: the smallest of N runs of a command that prints its seconds on its first line.
best() {
    local b=999999 t
    for _ in $(seq "$N"); do
        t=$("$@" 2>/dev/null | head -1)
        b=$(echo "$t $b" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    echo "$b"
}

# ratio OTHER OURS: OTHER / OURS to two decimals (> 1: purecdf is faster).
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }

# size PATH: a file's or a directory tree's size in MB.
size() { du -sb "$1" | awk '{printf "%.1f MB", $1 / 1e6}'; }
