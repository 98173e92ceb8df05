#!/usr/bin/env python3
"""Smoke test of the CUDA runtime on a GPU machine (no MLIR, no braze, no torch):
the library built from test/targets/cuda/Inputs/contract.mlir (three hand-written
kernels: 128-bit vector loads, gpu.all_reduce, warp shuffles; a constant, a
workspace, a scalar argument, 64 KiB of dynamic shared memory, device copies),
called through its own braze_cuda_* helpers with NaN-poisoned outputs:

    python3 test/gpu/check_contract.py LIB.so [LIB.so ...]

Prints one line per library and call variant, exits 1 on any mismatch. With
BRAZE_CUDA_PTX=1 in the environment the runtime loads the PTX (driver JIT) instead of
the sm_90a cubin: the fallback other GPUs take."""
import ctypes
import math
import sys

ROWS, COLS = 8, 16
NAN_BITS = 0xFFFFFFFF


def floats(n, values=None):
    arr = (ctypes.c_float * n)()
    if values is not None:
        for i, v in enumerate(values):
            arr[i] = v
    return arr


def expected(x):
    bias = [float(c) for c in range(COLS)]
    y = [[x[r * COLS + c] + bias[c] for c in range(COLS)] for r in range(ROWS)]
    sums = [0.5 * sum(row) for row in y]
    return sums, [max(sums)], list(x)


class Lib:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.braze_cuda_last_error.restype = ctypes.c_char_p
        for name in ["braze_cuda_malloc", "braze_cuda_free", "braze_cuda_memcpy_htod", "braze_cuda_memcpy_dtoh",
                     "braze_cuda_synchronize", "f", "f_ws", "f_stream", "f_ws_stream"]:
            getattr(self.lib, name).restype = ctypes.c_int
        self.lib.braze_cuda_malloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
        self.lib.braze_cuda_memcpy_htod.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        self.lib.braze_cuda_memcpy_dtoh.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]

    def check(self, rc, what):
        if rc != 0:
            raise RuntimeError("%s: %s" % (what, self.lib.braze_cuda_last_error().decode()))

    def alloc(self, nbytes):
        p = ctypes.c_void_p()
        self.check(self.lib.braze_cuda_malloc(ctypes.byref(p), nbytes), "braze_cuda_malloc")
        return p

    def put(self, dev, host):
        self.check(self.lib.braze_cuda_memcpy_htod(dev, host, ctypes.sizeof(host)), "htod")

    def get(self, dev, n):
        host = floats(n)
        self.check(self.lib.braze_cuda_memcpy_dtoh(host, dev, ctypes.sizeof(host)), "dtoh")
        return list(host)


def close(got, want):
    return len(got) == len(want) and all(
        not math.isnan(g) and abs(g - w) <= 1e-5 * max(1.0, abs(w)) for g, w in zip(got, want))


def run(path):
    lib = Lib(path)
    x_host = floats(ROWS * COLS, [math.sin(i) * 3.0 for i in range(ROWS * COLS)])
    want = expected(list(x_host))
    x = lib.alloc(4 * ROWS * COLS)
    outs = [lib.alloc(4 * ROWS), lib.alloc(4), lib.alloc(4 * ROWS * COLS)]
    ws = lib.alloc(1024)
    lib.put(x, x_host)
    variants = [("f", lambda: lib.lib.f(x, *outs)),
                ("f again", lambda: lib.lib.f(x, *outs)),
                ("f_ws", lambda: lib.lib.f_ws(x, *outs, ws)),
                ("f_stream(NULL)", lambda: lib.lib.f_stream(x, *outs, None)),
                ("f_ws_stream", lambda: lib.lib.f_ws_stream(x, *outs, ws, None))]
    failures = 0
    for name, call in variants:
        for dev, n in zip(outs, [ROWS, 1, ROWS * COLS]):  # poison: NaN everywhere
            lib.put(dev, (ctypes.c_uint32 * n)(*([NAN_BITS] * n)))
        lib.check(call(), name)
        lib.check(lib.lib.braze_cuda_synchronize(), name + " (synchronize)")
        got = [lib.get(dev, n) for dev, n in zip(outs, [ROWS, 1, ROWS * COLS])]
        ok = all(close(g, w) for g, w in zip(got, want))
        failures += not ok
        print("%-4s %s %s: sums %s max %s" % ("PASS" if ok else "FAIL", path, name,
                                               ["%.4g" % v for v in got[0][:3]], "%.4g" % got[1][0]))
    return failures


def main():
    failures = sum(run(p) for p in sys.argv[1:])
    print("contract smoke: %d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
