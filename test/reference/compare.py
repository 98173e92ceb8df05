#!/usr/bin/python3
"""Compare `braze run` (the reference interpreter) with numpy, function by function.

usage: compare.py FILE.mlir [--braze PATH] [--seed N] [--only NAME]

Every public func.func in FILE needs a comment giving its expected result as a numpy
expression over the argument names (float64 arithmetic; a tuple for several results):

    // NUMPY @f: np.maximum(a, b) + 1
    // INPUTS @f: uniform 0.1 3      (optional: float inputs uniform in [lo, hi];
    //                                 default standard normal)
    // INPUTS @f: nonzero            (optional: integer inputs in [-8, 8] without 0;
    //                                 unsigned ones in [1, 16])
    // INPUTS @f: full               (optional: unsigned inputs over their whole range;
    //                                 ui64 at multiples of 2^11, exact in double)
    // TOLERANCE @f: RTOL ATOL       (optional: instead of the per-dtype bounds;
    //                                 "0 0" demands bit-exact floats)

For each function the script makes inputs with numpy, saves them as .npy, runs
`braze run FILE --func NAME --inputs ... --save-outputs DIR --quiet`, loads the
outputs and checks dtype, shape and values: |got - want| <= atol + rtol * |want|
with per-dtype bounds (ints and bools exactly). It prints `ok @NAME` per function
and exits 1 on the first mismatch, after printing where the values differ.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

np.seterr(all="ignore")  # inf/NaN cases are intended

# (rtol, atol) per result dtype: a few ulps of the element type (each op rounds its
# result to the element type, numpy keeps float64 throughout).
TOLERANCE = {"f32": (2e-5, 1e-6), "f16": (4e-3, 1e-3), "bf16": (3e-2, 1e-2)}
NPY_DTYPE = {"f32": "<f4", "f16": "<f2", "bf16": "<u2", "i32": "<i4", "i64": "<i8", "i1": "|b1",
             "i16": "<i2", "ui8": "|u1", "ui16": "<u2", "ui32": "<u4", "ui64": "<u8"}
# Unsigned (and i16) inputs keep their numpy dtype: the NUMPY expressions compute in
# it (numpy's uint arithmetic wraps like braze's), exact for ui64 above 2^63 too.
NP_INT = {"i16": np.int16, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}


def parse_tensor_type(text):
    parts = text.split("x")
    dtype = parts[-1]
    return dtype, tuple(int(p) for p in parts[:-1])


def parse_functions(source):
    """[(name, public, [(arg, dtype, shape)])] in file order."""
    funcs = []
    for m in re.finditer(r"func\.func\s+(private\s+)?@(\w+)\s*\(", source):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(source[i], 0)
            i += 1
        sig = source[m.end():i - 1]
        args = [(a, *parse_tensor_type(t)) for a, t in re.findall(r"%(\w+)\s*:\s*tensor<([^>]*)>", sig)]
        funcs.append((m.group(2), m.group(1) is None, args))
    return funcs


def directives(source, kind):
    return {name: text.strip() for name, text in re.findall(r"^\s*//\s*%s\s+@(\w+)\s*:(.*)" % kind, source, re.M)}


def bf16_bits(values):
    """float32 -> bfloat16 bits, round to nearest even (NaN stays NaN)."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(values)
    return np.where(nan, 0x7FC0, rounded).astype(np.uint16)


def bf16_values(bits):
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32).astype(np.float64)


def make_input(rng, dtype, shape, how):
    """(array to save, float64/int view for numpy)."""
    if dtype == "i1":
        v = rng.random(shape) < 0.5
        return np.asarray(v, dtype=np.bool_), np.asarray(v)
    if dtype in ("i32", "i64"):
        v = rng.integers(-8, 9, size=shape)
        if how == "nonzero":
            v = np.where(v == 0, 3, v)
        v = np.asarray(v, dtype=np.int32 if dtype == "i32" else np.int64)
        return v, v.astype(np.int64)
    if dtype in NP_INT:
        t = NP_INT[dtype]
        if dtype == "ui64" and how == "full":
            v = (np.uint64(1) << np.uint64(63)) + rng.integers(0, 1 << 52, size=shape).astype(np.uint64) * np.uint64(2048)
        elif how == "full":
            v = rng.integers(0, np.iinfo(t).max, size=shape, endpoint=True)
        elif dtype == "i16":
            v = rng.integers(-8, 9, size=shape)
            if how == "nonzero":
                v = np.where(v == 0, 3, v)
        else:
            v = rng.integers(0 if how != "nonzero" else 1, 17, size=shape)
        v = np.asarray(v).astype(t)
        return v, v
    if how.startswith("uniform"):
        lo, hi = (float(x) for x in how.split()[1:3])
        v = rng.uniform(lo, hi, size=shape)
    else:
        v = rng.standard_normal(shape)
    if dtype == "bf16":
        bits = bf16_bits(v)
        return bits, bf16_values(bits)
    stored = np.asarray(v, dtype=np.float32 if dtype == "f32" else np.float16)
    return stored, stored.astype(np.float64)


def load_output(path, dtype):
    arr = np.load(path)
    if arr.dtype.str != NPY_DTYPE[dtype] and not (dtype == "i1" and arr.dtype == np.bool_):
        raise AssertionError("%s: dtype %s, expected %s" % (path, arr.dtype.str, NPY_DTYPE[dtype]))
    if dtype == "bf16":
        return bf16_values(arr)
    if dtype in NP_INT:
        return arr
    return arr.astype(np.float64) if dtype in TOLERANCE else arr.astype(np.int64)


# Helpers for expected expressions: independent numpy forms of the definitions.
erf = np.vectorize(math.erf, otypes=[np.float64])


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softmax(x, dim):
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def log_softmax(x, dim):
    s = x - np.max(x, axis=dim, keepdims=True)
    return s - np.log(np.sum(np.exp(s), axis=dim, keepdims=True))


def layer_norm(x, w, b, axis, eps):
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def rms_norm(x, w, axis, eps):
    axes = tuple(range(axis, x.ndim))
    return x / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + eps) * w


def batch_norm(x, scale, bias, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    r = lambda v: v.reshape(shape)
    return (x - r(mean)) / np.sqrt(r(var) + eps) * r(scale) + r(bias)


def gelu(x):
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def wrap(v, bits):
    """Two's-complement wrap of int64 values to `bits`."""
    m = 1 << bits
    return ((np.asarray(v, dtype=np.int64) + (m >> 1)) % m) - (m >> 1)


def tdiv(a, b):
    """Integer division truncating toward zero."""
    return np.trunc(np.asarray(a, dtype=np.float64) / b).astype(np.int64)


def result_dtypes(source, name):
    m = re.search(r"func\.func\s+(?:private\s+)?@%s\s*\(" % name, source)
    rest = source[m.end():]
    arrow = re.search(r"\)\s*->\s*(\([^{]*\)|tensor<[^>]*>)", rest)
    return [parse_tensor_type(t)[0] for t in re.findall(r"tensor<([^>]*)>", arrow.group(1))]


def compare(name, got, want, dtype, tolerance):
    want = np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError("@%s: shape %s, numpy says %s" % (name, got.shape, want.shape))
    if dtype in NP_INT:  # exact, in the result's own dtype (ui64 above 2^63 included)
        bad = got != want.astype(got.dtype)
        if bad.any():
            i = tuple(np.argwhere(bad)[0])
            raise AssertionError("@%s: at %s got %s, numpy says %s" % (name, i, got[i], want[i]))
        return 0.0
    if dtype not in TOLERANCE:
        bad = got != want.astype(np.int64)
        if bad.any():
            i = np.argwhere(bad)[0]
            raise AssertionError("@%s: at %s got %s, numpy says %s" % (name, tuple(i), got[tuple(i)], want[tuple(i)]))
        return 0.0
    rtol, atol = tolerance or TOLERANCE[dtype]
    want = want.astype(np.float64)
    both_nan = np.isnan(got) & np.isnan(want)
    same_inf = np.isinf(want) & (got == want)
    err = np.abs(got - want)
    bad = ~(both_nan | same_inf | (err <= atol + rtol * np.abs(want)))
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        raise AssertionError("@%s: %d values differ; at %s got %r, numpy says %r" % (name, bad.sum(), i, got[i], want[i]))
    finite = np.isfinite(want) & ~bad
    return float(np.max(err[finite] / np.maximum(np.abs(want[finite]), 1e-30))) if finite.any() else 0.0


def check_function(path, source, name, args, expr, how, tolerance, braze, seed, tmp):
    rng = np.random.default_rng(seed)
    env = {"np": np, "math": math}
    env.update({k: v for k, v in globals().items() if callable(v)})
    files = []
    for i, (arg, dtype, shape) in enumerate(args):
        saved, value = make_input(rng, dtype, shape, how)
        f = os.path.join(tmp, "%s_in%d.npy" % (name, i))
        np.save(f, saved)
        files.append(f)
        env[arg] = value
    out_dir = os.path.join(tmp, name + "_out")
    cmd = [braze, "run", path, "--func", name, "--save-outputs", out_dir, "--quiet"]
    if files:
        cmd += ["--inputs", ",".join(files)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError("@%s: %s failed:\n%s" % (name, " ".join(cmd), proc.stderr))
    want = eval(expr, env)
    wants = list(want) if isinstance(want, tuple) else [want]
    dtypes = result_dtypes(source, name)
    if len(wants) != len(dtypes):
        raise AssertionError("@%s: numpy gives %d results, the function %d" % (name, len(wants), len(dtypes)))
    worst = 0.0
    for i, (w, dtype) in enumerate(zip(wants, dtypes)):
        got = load_output(os.path.join(out_dir, "out%d.npy" % i), dtype)
        worst = max(worst, compare(name, got, w, dtype, tolerance))
    return worst


def main():
    argv = sys.argv[1:]
    path = argv[0]
    braze = argv[argv.index("--braze") + 1] if "--braze" in argv else "braze"
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    source = open(path).read()
    expected, inputs = directives(source, "NUMPY"), directives(source, "INPUTS")
    tolerances = {k: tuple(float(x) for x in v.split()) for k, v in directives(source, "TOLERANCE").items()}
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, public, args in parse_functions(source):
            if not public or (only and name != only):
                continue
            if name not in expected:
                print("error: @%s has no '// NUMPY @%s: <expression>' line" % (name, name))
                return 1
            try:
                worst = check_function(path, source, name, args, expected[name], inputs.get(name, "normal"),
                                       tolerances.get(name), braze,
                                       seed, tmp)
            except AssertionError as e:
                print("FAIL %s" % e)
                return 1
            print("ok @%s (max rel err %.2g)" % (name, worst))
            checked += 1
    print("checked %d functions" % checked)
    return 0 if checked else 1


if __name__ == "__main__":
    sys.exit(main())
