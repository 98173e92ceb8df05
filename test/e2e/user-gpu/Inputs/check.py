"""Numpy expectations of the GPU-form user-kernel examples (test/e2e/user-gpu/*.mlir):
python check.py CASE INPUT_DIR OUTPUT_DIR compares braze run's saved outputs."""
import math
import sys

import numpy as np


def inputs(d, n):
    return [np.load(f"{d}/in{i}.npy") for i in range(n)]


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def matmul(d):
    a, b, bias = inputs(d, 3)
    return [gelu(a.astype(np.float64) @ b.astype(np.float64) + bias)]


def rowsum(d):
    (x,) = inputs(d, 1)
    return [np.maximum(x.astype(np.float64).sum(axis=1), 0.0)]


def softmax(d):
    (x,) = inputs(d, 1)
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return [e / e.sum(axis=1, keepdims=True) * 2.0]


def histogram(d):
    (x,) = inputs(d, 1)
    return [2 * np.bincount((x.reshape(-1) + 8).astype(np.int64), minlength=17).astype(np.int32)]


def elementwise(d):
    x, bias, res = inputs(d, 3)
    y = np.tanh(x.astype(np.float64)) * 3.0
    y = y.astype(np.float32).astype(np.float64) + bias + res
    return [y]


def dyn_sums(d):
    (x,) = inputs(d, 1)
    x = x.astype(np.float64)
    return [np.maximum(x.sum(axis=1) + (x * x).sum(axis=1), 0.0)]


def dyn_reverse(d):
    x, bias = inputs(d, 2)
    return [x[:, ::-1].astype(np.float64) + bias]


CASES = {"matmul": (matmul, 1e-5), "rowsum": (rowsum, 1e-5), "softmax": (softmax, 1e-6), "histogram": (histogram, 0),
         "elementwise": (elementwise, 1e-2), "elementwise_f32": (elementwise, 1e-6),
         "dyn_sums": (dyn_sums, 1e-5), "dyn_reverse": (dyn_reverse, 1e-6)}

want_bf16 = {"elementwise": True}
case, ind, outd = sys.argv[1:4]
fn, tol = CASES[case]
for i, want in enumerate(fn(ind)):
    got = np.load(f"{outd}/out{i}.npy")
    if want_bf16.get(case) and got.dtype == np.uint16:  # braze saves bf16 as its bits
        got = (got.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    assert got.shape == want.shape, (case, i, got.shape, want.shape)
    err = np.max(np.abs(got.astype(np.float64) - want) / (1.0 + np.abs(want)))
    assert err <= tol, f"{case} out{i}: max relative error {err} > {tol}"
    print(f"{case} out{i}: ok (max relative error {err:.3g})")
