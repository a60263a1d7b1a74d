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

# best_fresh PATH CMD...: as best, with PATH (the command's output file or store) removed before
# each run, outside the timing: a write then never pays for the filesystem freeing the previous
# run's output (an O_TRUNC of a 160 MB file took 34 ms in session 13, on both sides).
best_fresh() {
    local path=$1 b=999999 t
    shift
    for _ in $(seq "$N"); do
        rm -rf "$path"
        t=$("$@" 2>/dev/null | head -1)
        b=$(echo "$t $b" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    echo "$b"
}

# ratio OTHER OURS: OTHER / OURS to two decimals (> 1: purecdf is faster).
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1 / $2}'; }

# size PATH: a file's or a directory tree's size in MB.
size() { du -sb "$1" | awk '{printf "%.1f MB", $1 / 1e6}'; }
