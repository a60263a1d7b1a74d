# Shell helpers shared by the side-by-side benchmarks (filters.sh, nczarr.sh, netcdf4.sh).
# Source after setting N (rounds per measurement).

# smaller T B: the smaller of a new time T and the best B so far; a T that is not a number (the
# command failed) leaves B.
smaller() { echo "${1:-none} $2" | awk '{print ($1 ~ /^[0-9.]+$/ && $1 < $2) ? $1 : $2}'; }

# best CMD...: the smallest of N runs of a command that prints its seconds on its first line;
# `failed` when no run printed a time.
best() {
    local b=999999 t
    for _ in $(seq "$N"); do
        t=$("$@" 2>/dev/null | head -1)
        b=$(smaller "$t" "$b")
    done
    [[ $b == 999999 ]] && b=failed
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
        b=$(smaller "$t" "$b")
    done
    [[ $b == 999999 ]] && b=failed
    echo "$b"
}

# ratio OTHER OURS: OTHER / OURS to two decimals (> 1: purecdf is faster); - when either
# failed.
ratio() { echo "$1 $2" | awk '{if ($1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/ && $2 > 0) printf "%.2f", $1 / $2; else printf "-"}'; }

# size PATH: a file's or a directory tree's size in MB (- when there is none).
size() { [[ -e $1 ]] || { echo -; return; }; du -sb "$1" | awk '{printf "%.1f MB", $1 / 1e6}'; }
