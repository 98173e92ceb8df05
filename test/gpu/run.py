#!/usr/bin/env python3
"""braze's GPU correctness harness, run on the GPU machine (PyTorch, numpy; no MLIR,
no braze): every case test/gpu/prepare.sh built on the development machine is run on
the GPU and compared with the outputs braze's reference interpreter computed there.

    python3 test/gpu/run.py CASEDIR [--only SUBSTRING]

CASEDIR/STEM/lib.so is one compiled module (compile.log when it did not compile);
CASEDIR/STEM/FUNC/in*.npy, out*.npy are one entry's inputs and expected outputs
(bf16 as '<u2' bits, as braze writes them). Inputs go to torch CUDA tensors; the
outputs are poisoned (every byte 0xFF: NaN for floats) before the call, which gets
the tensors' data_ptr() (device pointers) through ctypes. Metric as `braze check`:
err = max|got - want| / max(|want|, 1e-2 * max|want|), NaN must meet NaN; bounds
f32 1e-4, f64 1e-9, f16 1e-2, bf16 5e-2, integers exact. Prints a table, then
`N passed, N failed`; exits 1 when anything failed."""
import argparse
import ctypes
import os
import sys

import numpy as np
import torch

BOUNDS = {"f32": 1e-4, "f64": 1e-9, "f16": 1e-2, "bf16": 5e-2}
# Modules whose source says `// gpu-metric: norm` (prepare.sh writes CASEDIR/STEM/metric.txt) are checked
# norm-wise, ||got - want|| / ||want||: attention chains in the online form keep scores and
# probabilities in f32 where the graph's types round them to bf16/f16 (as the reference
# does), and an output that averages thousands of values has elements near zero whose
# elementwise error is the reference's own rounding.
NORM_BOUNDS = {"f32": 1e-4, "f64": 1e-9, "f16": 5e-3, "bf16": 2e-2}


def norm_metric(case):
    metric = os.path.join(case, "metric.txt")
    return os.path.exists(metric) and open(metric).read().strip() == "norm"


def norm_error(got, want, kind):
    g, w = as_float(got, kind).ravel(), as_float(want, kind).ravel()
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return float("inf")
    ok = ~np.isnan(w)
    n = np.linalg.norm(w[ok])
    return float(np.linalg.norm(g[ok] - w[ok]) / n) if n > 0 else float(np.abs(g[ok]).max(initial=0.0))


def kind_of(arr, declared=None):
    """The element type: as declared in the signature (prepare.sh's types.txt) when
    known, else from the .npy dtype ('<u2' then reads as bf16)."""
    if declared:
        return declared
    return {"<f4": "f32", "<f8": "f64", "<f2": "f16", "<u2": "bf16", "<i4": "i32", "<i8": "i64", "|i1": "i8",
            "|b1": "i1", "|u1": "ui8", "<i2": "i16", "<u4": "ui32", "<u8": "ui64"}.get(arr.dtype.str, "?")


def as_float(arr, kind):
    if kind == "bf16":
        return (arr.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return arr.astype(np.float64)


def rel_error(got, want, kind):
    """`braze check`'s metric; inf on a NaN/inf mismatch."""
    if kind not in BOUNDS:
        return 0.0 if np.array_equal(got, want) else float("inf")
    g, w = as_float(got, kind).ravel(), as_float(want, kind).ravel()
    if g.size == 0:
        return 0.0
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return float("inf")
    inf = np.isinf(w) | np.isinf(g)
    if inf.any() and not np.array_equal(g[inf], w[inf]):
        return float("inf")
    ok = ~(np.isnan(w) | inf)
    if not ok.any():
        return 0.0
    scale = np.abs(w[ok]).max()
    denom = np.maximum(np.abs(w[ok]), 1e-2 * scale if scale > 0 else 1e-30)
    return float((np.abs(g[ok] - w[ok]) / denom).max())


def load_npys(d, prefix):
    arrs, i = [], 0
    while os.path.exists(os.path.join(d, "%s%d.npy" % (prefix, i))):
        arrs.append(np.load(os.path.join(d, "%s%d.npy" % (prefix, i))))
        i += 1
    return arrs


def to_device(arr):
    raw = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)
    return torch.from_numpy(raw.copy()).cuda()


def run_entry(lib, name, d, norm=False):
    """[(label, kind, shape, err)] for one entry, or a string saying what went wrong."""
    ins, wants = load_npys(d, "in"), load_npys(d, "out")
    if not wants:
        return "no reference outputs"
    types = os.path.join(d, "types.txt")
    declared = open(types).read().split() if os.path.exists(types) else []
    try:
        fn = getattr(lib, name)
    except AttributeError:
        return "library has no entry %s" % name
    fn.restype = ctypes.c_int
    dev_in = [to_device(a) for a in ins]
    dev_out = [torch.full((w.nbytes,), 0xFF, dtype=torch.uint8, device="cuda") for w in wants]
    args = [ctypes.c_void_p(t.data_ptr()) for t in dev_in + dev_out]
    rc = fn(*args)
    torch.cuda.synchronize()
    if rc != 0:
        return "returned %d: %s" % (rc, lib.braze_cuda_last_error().decode())
    rows = []
    for o, (t, w) in enumerate(zip(dev_out, wants)):
        got = t.cpu().numpy().view(w.dtype).reshape(w.shape)
        kind = kind_of(w, declared[o] if o < len(declared) else None)
        rows.append(("out%d" % o, kind, "x".join(map(str, w.shape)) or "scalar", (norm_error if norm else rel_error)(got, w, kind)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("casedir")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    passed = failed = 0
    print("%-22s %-22s %-5s %-5s %-16s %-10s %s" % ("module", "entry", "out", "dtype", "shape", "rel err", "result"))
    for stem in sorted(os.listdir(a.casedir)):
        case = os.path.join(a.casedir, stem)
        if not os.path.isdir(case) or a.only not in stem:
            continue
        entries = sorted(e for e in os.listdir(case) if os.path.isdir(os.path.join(case, e)))
        so = os.path.join(case, "lib.so")
        norm = norm_metric(case)
        lib = None
        if os.path.exists(so):
            lib = ctypes.CDLL(so)
            lib.braze_cuda_last_error.restype = ctypes.c_char_p
        for name in entries:
            result = run_entry(lib, name, os.path.join(case, name), norm) if lib else "not compiled (see compile.log)"
            if isinstance(result, str):
                failed += 1
                print("%-22s %-22s %-5s %-5s %-16s %-10s FAIL: %s" % (stem, name, "-", "-", "-", "-", result))
                continue
            for label, kind, shape, err in result:
                bound = (NORM_BOUNDS if norm else BOUNDS).get(kind, 0.0)
                ok = err <= bound
                passed += ok
                failed += not ok
                print("%-22s %-22s %-5s %-5s %-16s %-10.3g %s" % (stem, name, label, kind, shape[:16], err,
                                                                 "PASS" if ok else "FAIL (bound %g)" % bound))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
