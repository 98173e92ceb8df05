#!/usr/bin/python3
"""Compare two directories of `braze run --save-outputs` results.

usage: compare_outputs.py BEFORE_DIR AFTER_DIR RTOL ATOL

Every outN.npy in BEFORE_DIR must exist in AFTER_DIR with the same dtype and shape,
and |after - before| <= ATOL + RTOL * |before| elementwise (NaN only where NaN).
Prints one line per output and exits 1 on the first mismatch.
"""
import os
import sys

import numpy as np


def main():
    before_dir, after_dir = sys.argv[1], sys.argv[2]
    rtol, atol = float(sys.argv[3]), float(sys.argv[4])
    names = sorted((n for n in os.listdir(before_dir) if n.startswith("out") and n.endswith(".npy")),
                   key=lambda n: int(n[3:-4]))
    if not names:
        print("no outputs in", before_dir)
        return 1
    for name in names:
        before = np.load(os.path.join(before_dir, name))
        after = np.load(os.path.join(after_dir, name))
        if before.dtype != after.dtype or before.shape != after.shape:
            print(f"{name}: {before.dtype}{before.shape} vs {after.dtype}{after.shape}")
            return 1
        b, a = before.astype(np.float64), after.astype(np.float64)
        err = np.abs(a - b)
        bad = ~(err <= atol + rtol * np.abs(b)) & ~(np.isnan(a) & np.isnan(b))
        worst = float(np.nanmax(err / (atol + rtol * np.abs(b)))) if b.size else 0.0
        if bad.any():
            i = np.argwhere(bad)[0]
            print(f"{name}: mismatch at {tuple(i)}: {b[tuple(i)]} vs {a[tuple(i)]}")
            return 1
        print(f"ok {name} {before.dtype}{list(before.shape)} worst error/bound {worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
