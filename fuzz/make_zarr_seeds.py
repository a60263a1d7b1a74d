"""Packs Zarr stores (directories) into zarr_open fuzz inputs: for each file, a one-byte key
length, the key, a two-byte little-endian value length and the value (files over 64 KiB are
cut). Usage: python3 make_zarr_seeds.py OUTDIR STORE..."""
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for i, store in enumerate(sys.argv[2:]):
    blob = bytearray()
    for root, _, files in os.walk(store):
        for f in sorted(files):
            p = os.path.join(root, f)
            key = os.path.relpath(p, store).replace(os.sep, "/").encode()
            if len(key) > 255:
                continue
            value = open(p, "rb").read()[:65535]
            blob += bytes([len(key)]) + key + len(value).to_bytes(2, "little") + value
    open(os.path.join(out, "seed%03d" % i), "wb").write(bytes(blob))
