#!/bin/sh
# Regenerates nc490/: NCZarr stores written by netcdf-c 4.9.0's ncgen from cdl/*.cdl, each in
# both modes (<name>_nczarr.zarr with `#mode=nczarr,file`, <name>_zarr.zarr with
# `#mode=zarr,file`), and 4.9.0's ncdump output for each under nc490/expected/:
# <store>.cdl (plain), <store>.s.cdl (-s) and <store>.h.cdl (-h), dumped through the store's
# file:// URL in the mode it was written in. dimsep.cdl is written with
# ZARR.DIMENSION_SEPARATOR=/ in the .ncrc of a scratch HOME, so its chunk keys are v/0/0, ...
#
# 4.9.0 cannot open a store given as a plain directory path ("Unknown file format"), and its
# ncdump names the dataset after the last path component up to its last dot, the same for the
# URL and for a path: "types_nczarr" for .../types_nczarr.zarr. It has no unlimited dimensions
# in NCZarr and its ncdump crashes on NCZarr scalars, so the CDL has neither.
#
# Where 4.9.0's ncdump fails on a store it wrote, expected/<store>.fails holds its message
# (paths made relative) instead of the dumps.
#
# Usage: sh crates/purecdf/tests/data/nczarr/make_nc490.sh   (needs netcdf-bin 4.9.0 on PATH)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/nc490
ncdump 2>&1 | grep -q 'netcdf library version 4\.9\.0 ' ||
    { echo "make_nc490.sh: needs netcdf-c 4.9.0's ncgen and ncdump" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home"
echo "ZARR.DIMENSION_SEPARATOR=/" > "$scratch/home/.ncrc"
rm -rf "$out"
mkdir -p "$out/expected"
for cdl in "$here"/cdl/*.cdl; do
    name=$(basename "$cdl" .cdl)
    for mode in nczarr zarr; do
        store=${name}_$mode.zarr
        url="file://$out/$store#mode=$mode,file"
        if [ "$name" = dimsep ]; then
            (cd "$scratch/home" && HOME=$scratch/home ncgen -4 -b -o "$url" "$cdl")
        else
            (cd "$scratch" && HOME=$scratch ncgen -4 -b -o "$url" "$cdl")
        fi
        for flag in "" -s -h; do
            expected=$out/expected/$store${flag:+.${flag#-}}.cdl
            # shellcheck disable=SC2086 # $flag is one word or none
            if ! ncdump $flag "$url" > "$expected" 2> "$scratch/err"; then
                # 4.9.0 cannot read some stores it wrote itself: keep its message instead.
                rm -f "$expected"
                sed "s|$out/||" "$scratch/err" > "$out/expected/$store.fails"
                break
            fi
        done
    done
done
