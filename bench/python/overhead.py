#!/usr/bin/python3
"""Per-call overhead of braze.Compiled against a direct ctypes call of the same entry and
against eager PyTorch (under no_grad), for the default front end (fx) and ONNX, a library
with a symbolic batch dim, and the cache-hit compile time.
usage: PYTHONPATH=python BRAZE_BIN=build/braze /usr/bin/python3 bench/python/overhead.py"""
import ctypes
import os
import tempfile
import time

import torch

import braze

os.environ.setdefault("BRAZE_CACHE_DIR", tempfile.mkdtemp(prefix="braze-cache-"))
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU()).eval()
x = torch.randn(4, 16)
braze.cache.clear()
t = time.perf_counter(); c = braze.compile(m, (x,), quiet=True); cold = time.perf_counter() - t
hits = []
for _ in range(5):
    t = time.perf_counter(); braze.compile(m, (x,), quiet=True); hits.append(time.perf_counter() - t)
print("compile (%s): cold %.1f ms, cache hit median %.1f ms (of 5; the trace included)"
      % (c.frontend, cold * 1e3, sorted(hits)[2] * 1e3))
onnx = braze.compile(m, (x,), frontend="onnx", quiet=True)
dyn = braze.compile(m, (x,), quiet=True, dynamic={"input": {0: ("batch", 1, 64)}})

N = 20000
y = torch.empty(4, 32)
lib = ctypes.CDLL(c.path)
fn = getattr(lib, c.manifest["entry"])
fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]
px, py = x.data_ptr(), y.data_ptr()


def timeit(f):
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(N):
            f()
        best = min(best, (time.perf_counter() - t) / N)
    return best * 1e6


direct = timeit(lambda: fn(px, py))
dfn = getattr(ctypes.CDLL(dyn.path), dyn.manifest["entry"])
dfn.restype, dfn.argtypes = ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
direct_dyn = timeit(lambda: dfn(px, py, 4))
out = timeit(lambda: c(x, out=y))
alloc = timeit(lambda: c(x))
xn = x.numpy()
numpy = timeit(lambda: c(xn))
alloc_onnx = timeit(lambda: onnx(x))
alloc_dyn = timeit(lambda: dyn(x))


def eager_call():
    with torch.no_grad():
        m(x)


eager = timeit(eager_call)
print("per call (Linear 16->32 + GELU, 4 rows): direct ctypes %.2f us, Compiled(x, out=y) %.2f us (+%.2f), "
      "Compiled(x) %.2f us (+%.2f), numpy in/out %.2f us (+%.2f); onnx's Compiled(x) %.2f us; "
      "symbolic batch: direct ctypes %.2f us, Compiled(x) %.2f us (+%.2f); eager (no_grad) %.2f us"
      % (direct, out, out - direct, alloc, alloc - direct, numpy, numpy - direct, alloc_onnx,
         direct_dyn, alloc_dyn, alloc_dyn - direct_dyn, eager))
