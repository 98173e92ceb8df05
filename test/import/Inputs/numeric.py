"""Numerical oracle for the ONNX import tests: evaluates a models.py model with
numpy, node by node, straight from the ONNX operator definitions (float64), so
`braze run` of the imported module can be compared with it.
usage: numeric.py prepare CASE=DIR...  DIR/model.onnx, DIR/in<i>.npy (seeded random),
                                       DIR/inputs.txt (the --inputs list),
                                       DIR/expected<i>.npy
       numeric.py compare DIR...       DIR/out<i>.npy against DIR/expected<i>.npy;
                                       prints "NAME: compared N outputs: ok" per DIR
       numeric.py compare-ort DIR...   DIR/out<i>.npy against DIR/ort<i>.npy (ONNX Runtime)"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5
NP_DTYPES = {1: np.float32, 6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64, 3: np.int8,
             2: np.uint8, 4: np.uint16, 5: np.int16, 12: np.uint32, 13: np.uint64}
# f64 outputs are compared this tightly: both sides compute in double.
RTOL_F64, ATOL_F64 = 1e-12, 1e-12
erf = np.vectorize(math.erf)


def attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def axes_of(node, ins, a, index=1):
    if "axes" in a:
        return list(a["axes"])
    if len(ins) > index and ins[index] is not None:
        return [int(v) for v in ins[index]]
    return None


def reduce(fn):
    def run(node, ins, a):
        x = ins[0]
        axes = axes_of(node, ins, a)
        if not axes:
            if a.get("noop_with_empty_axes", 0):
                return x
            axes = list(range(x.ndim))
        return fn(x, axis=tuple(axes), keepdims=bool(a.get("keepdims", 1)))
    return run


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(node, ins, a):
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else 0.0
    axis = a.get("axis", -1) % x.ndim
    dims = tuple(range(axis, x.ndim))
    mean = x.mean(axis=dims, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=dims, keepdims=True)
    return (x - mean) / np.sqrt(var + a.get("epsilon", 1e-5)) * w + b


def batch_norm(node, ins, a):
    x, s, b, m, v = ins
    shape = (1, -1) + (1,) * (x.ndim - 2)
    r = lambda t: t.reshape(shape)
    return (x - r(m)) / np.sqrt(r(v) + a.get("epsilon", 1e-5)) * r(s) + r(b)


def gemm(node, ins, a):
    A = ins[0].T if a.get("transA", 0) else ins[0]
    B = ins[1].T if a.get("transB", 0) else ins[1]
    y = a.get("alpha", 1.0) * (A @ B)
    return y + a.get("beta", 1.0) * ins[2] if len(ins) > 2 else y


def reshape(node, ins, a):
    shape = [int(ins[0].shape[i]) if d == 0 else int(d) for i, d in enumerate(ins[1])]
    return ins[0].reshape(shape)


def unsqueeze(node, ins, a):
    axes = axes_of(node, ins, a)
    rank = ins[0].ndim + len(axes)
    return np.expand_dims(ins[0], tuple(ax % rank for ax in axes))


def squeeze(node, ins, a):
    axes = axes_of(node, ins, a)
    return np.squeeze(ins[0], axis=None if axes is None else tuple(axes))


def slice_(node, ins, a):
    x = ins[0]
    starts, ends = ins[1], ins[2]
    axes = ins[3] if len(ins) > 3 else range(len(starts))
    steps = ins[4] if len(ins) > 4 else [1] * len(starts)
    index = [slice(None)] * x.ndim
    for s, e, ax, st in zip(starts, ends, axes, steps):
        index[int(ax)] = slice(int(s), int(min(e, 2**62)), int(st))
    return x[tuple(index)]


def flatten(node, ins, a):
    x = ins[0]
    axis = a.get("axis", 1)
    axis = axis + x.ndim if axis < 0 else axis
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


def gelu(node, ins, a):
    x = ins[0]
    if a.get("approximate", b"none") in ("tanh", b"tanh"):
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def constant(node, ins, a):
    if "value" in a:
        return nh.to_array(a["value"])
    for k, dt in (("value_float", np.float32), ("value_floats", np.float32), ("value_int", np.int64),
                  ("value_ints", np.int64)):
        if k in a:
            return np.array(a[k], dt)
    raise ValueError("unsupported Constant")


def pad(node, ins, a):
    """Pad, constant mode, pads (and the value) as inputs (opset 11+)."""
    if a.get("mode", b"constant") not in (b"constant", "constant"):
        raise ValueError("unsupported Pad mode")
    p = [int(v) for v in ins[1]]
    r = len(p) // 2
    value = ins[2].item() if len(ins) > 2 else 0
    return np.pad(ins[0], list(zip(p[:r], p[r:])), constant_values=value)


def div(node, ins, a):
    """ONNX Div: integers truncate toward zero (exact in their own dtype)."""
    x, y = ins
    if x.dtype.kind == "u":
        return x // y
    if x.dtype.kind == "i":
        q = np.abs(x) // np.abs(y)
        return np.where((x < 0) != (y < 0), -q, q).astype(x.dtype)
    return x / y


def mod(node, ins, a):
    """ONNX Mod: fmod=0 takes the divisor's sign (numpy's mod), fmod=1 the dividend's."""
    return np.fmod(ins[0], ins[1]) if a.get("fmod", 0) else np.mod(ins[0], ins[1])


def bitshift(node, ins, a):
    """ONNX BitShift on unsigned integers; shifts of the bit width or more give 0."""
    x, y = ins
    bits = x.dtype.itemsize * 8
    shift = np.minimum(y, bits - 1).astype(x.dtype)
    out = np.left_shift(x, shift) if a["direction"] == b"LEFT" else np.right_shift(x, shift)
    return np.where(y < bits, out, 0).astype(x.dtype)


def cast(node, ins, a):
    return ins[0].astype(NP_DTYPES[a["to"]])


OPS = {
    "Add": lambda n, i, a: i[0] + i[1], "Sub": lambda n, i, a: i[0] - i[1],
    "Mul": lambda n, i, a: i[0] * i[1], "Div": div, "Mod": mod, "BitShift": bitshift,
    "BitwiseAnd": lambda n, i, a: np.bitwise_and(i[0], i[1]), "BitwiseOr": lambda n, i, a: np.bitwise_or(i[0], i[1]),
    "BitwiseXor": lambda n, i, a: np.bitwise_xor(i[0], i[1]), "BitwiseNot": lambda n, i, a: np.invert(i[0]),
    "Clip": lambda n, i, a: np.minimum(np.maximum(i[0], i[1]), i[2]),
    "CastLike": lambda n, i, a: i[0].astype(i[1].dtype),
    "Pow": lambda n, i, a: np.power(i[0], i[1].astype(i[0].dtype)),
    "Neg": lambda n, i, a: -i[0], "Abs": lambda n, i, a: np.abs(i[0]), "Exp": lambda n, i, a: np.exp(i[0]),
    "Log": lambda n, i, a: np.log(i[0]), "Sqrt": lambda n, i, a: np.sqrt(i[0]),
    "Erf": lambda n, i, a: erf(i[0]), "Tanh": lambda n, i, a: np.tanh(i[0]),
    "Sigmoid": lambda n, i, a: 1 / (1 + np.exp(-i[0])), "Relu": lambda n, i, a: np.maximum(i[0], 0),
    "Reciprocal": lambda n, i, a: 1 / i[0], "Gelu": gelu,
    "Equal": lambda n, i, a: i[0] == i[1], "Less": lambda n, i, a: i[0] < i[1],
    "Greater": lambda n, i, a: i[0] > i[1], "LessOrEqual": lambda n, i, a: i[0] <= i[1],
    "GreaterOrEqual": lambda n, i, a: i[0] >= i[1], "Where": lambda n, i, a: np.where(i[0], i[1], i[2]),
    "Max": lambda n, i, a: np.maximum.reduce(np.broadcast_arrays(*i)),
    "Min": lambda n, i, a: np.minimum.reduce(np.broadcast_arrays(*i)),
    "Cast": cast, "Identity": lambda n, i, a: i[0], "Constant": constant,
    "ReduceSum": reduce(np.sum), "ReduceMean": reduce(np.mean), "ReduceMax": reduce(np.max),
    "ReduceMin": reduce(np.min),
    "Softmax": lambda n, i, a: softmax(i[0], a.get("axis", -1)),
    "LogSoftmax": lambda n, i, a: np.log(softmax(i[0], a.get("axis", -1))),
    "LayerNormalization": layer_norm, "BatchNormalization": batch_norm,
    "MatMul": lambda n, i, a: np.matmul(i[0], i[1]), "Gemm": gemm,
    "Transpose": lambda n, i, a: np.transpose(i[0], a.get("perm")), "Reshape": reshape,
    "Unsqueeze": unsqueeze, "Squeeze": squeeze,
    "Expand": lambda n, i, a: i[0] * np.ones([int(d) for d in i[1]], i[0].dtype),
    "Concat": lambda n, i, a: np.concatenate(i, axis=a["axis"]), "Slice": slice_, "Flatten": flatten,
    "Round": lambda n, i, a: np.round(i[0]), "Pad": pad,
}


def widen(x):
    """Float tensors are evaluated in float64 (the interpreter's precision)."""
    return x.astype(np.float64) if x.dtype.kind == "f" else x


def evaluate(model, feeds):
    env = {t.name: widen(nh.to_array(t)) for t in model.graph.initializer}
    env.update({k: widen(v) for k, v in feeds.items()})
    for node in model.graph.node:
        ins = [env[n] if n else None for n in node.input]
        while ins and ins[-1] is None:
            ins.pop()
        out = OPS[node.op_type](node, ins, attrs(node))
        env[node.output[0]] = widen(np.asarray(out))
    return [env[o.name] for o in model.graph.output]


def prepare(case, out):
    os.makedirs(out, exist_ok=True)
    model = getattr(models, case)()
    onnx.save(model, os.path.join(out, "model.onnx"))
    rng = np.random.default_rng(5)
    inits = {t.name for t in model.graph.initializer}
    feeds, paths = {}, []
    for i, vi in enumerate(x for x in model.graph.input if x.name not in inits):
        tt = vi.type.tensor_type
        shape = [d.dim_value for d in tt.shape.dim]
        dtype = NP_DTYPES[tt.elem_type]
        if dtype in (np.uint8, np.uint16, np.uint32, np.uint64, np.int16):
            value = rng.integers(1, 17, size=shape).astype(dtype)  # non-zero divisors
        else:
            value = rng.standard_normal(shape).astype(dtype) if dtype != np.bool_ else rng.random(shape) < 0.5
        feeds[vi.name] = value
        paths.append(os.path.join(out, f"in{i}.npy"))
        np.save(paths[-1], value)
    with open(os.path.join(out, "inputs.txt"), "w") as f:
        f.write(",".join(paths))
    for i, value in enumerate(evaluate(model, feeds)):
        np.save(os.path.join(out, f"expected{i}.npy"), value)


def compare(out, ref="expected"):
    """True when every DIR/out<i>.npy matches DIR/<ref><i>.npy."""
    i, bad = 0, 0
    name = os.path.basename(out.rstrip("/"))
    while os.path.exists(os.path.join(out, f"{ref}{i}.npy")):
        want = widen(np.load(os.path.join(out, f"{ref}{i}.npy")))
        got_path = os.path.join(out, f"out{i}.npy")
        got = np.load(got_path) if os.path.exists(got_path) else None
        if got is None or got.shape != want.shape:
            print(f"{name}: out{i}: shape {None if got is None else got.shape}, expected {want.shape}")
            bad += 1
        elif want.dtype.kind == "f":
            rtol, atol = (RTOL_F64, ATOL_F64) if got.dtype == np.float64 else (RTOL, ATOL)
            err = np.abs(got.astype(np.float64) - want) - rtol * np.abs(want)
            worst = float(err.max(initial=-1.0))
            if worst > atol or not np.isfinite(got).all():
                print(f"{name}: out{i}: max excess error {worst:.3g} (rtol {rtol}, atol {atol})")
                bad += 1
        elif not np.array_equal(got.astype(want.dtype), want):
            print(f"{name}: out{i}: values differ")
            bad += 1
        i += 1
    print(f"{name}: compared {i} outputs: {'ok' if not bad and i else 'FAILED'}")
    return not bad and i > 0


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        for arg in sys.argv[2:]:
            prepare(*arg.split("=", 1))
    else:
        ref = "ort" if sys.argv[1] == "compare-ort" else "expected"
        results = [compare(d, ref) for d in sys.argv[2:]]
        sys.exit(0 if all(results) else 1)
