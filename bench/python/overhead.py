#!/usr/bin/python3
"""Per-call overhead of braze.Compiled against a direct ctypes call of the same entry,
and the cache-hit compile time. usage: PYTHONPATH=python bench/python/overhead.py"""
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
t = time.perf_counter(); c = braze.compile(m, (x,)); cold = time.perf_counter() - t
hits = []
for _ in range(5):
    t = time.perf_counter(); braze.compile(m, (x,)); hits.append(time.perf_counter() - t)
print("compile: cold %.1f ms, cache hit median %.1f ms (of 5; export included)" % (cold * 1e3, sorted(hits)[2] * 1e3))

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
out = timeit(lambda: c(x, out=y))
alloc = timeit(lambda: c(x))
xn = x.numpy()
numpy = timeit(lambda: c(xn))
print("per call (Linear 16->32 + GELU, 4 rows): direct ctypes %.2f us, Compiled(x, out=y) %.2f us (+%.2f), "
      "Compiled(x) %.2f us (+%.2f), numpy in/out %.2f us (+%.2f)"
      % (direct, out, out - direct, alloc, alloc - direct, numpy, numpy - direct))
