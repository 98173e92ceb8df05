#!/usr/bin/python3
"""Edge values (signed zeros, halves, 2^22/2^23 boundaries, huge, inf, NaN) through ops
braze imports as compositions (rounding, atan family, softplus, sign, predicates).

usage: edge_values.py prepare DIR   DIR/model.onnx, in0.npy, expected<i>.npy (numpy, float64
                                    rounded to float32)
       edge_values.py compare DIR   DIR/out<i>.npy against them: NaN where numpy has NaN,
                                    infinities equal, else |got - want| <= 1e-6 + 1e-6 |want|
                                    (a few float32 ulps); prints "NAME: N outputs ok"."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

X = np.array([-np.inf, -1e30, -3e7, -8388609.0, -4194305.0, -2.5, -1.5, -1.0, -0.75, -0.5, -0.49999997,
              -1e-30, -0.0, 0.0, 1e-30, 0.49999997, 0.5, 0.75, 1.0, 1.5, 2.5, 3.5, 4194303.5, 8388607.0,
              16777216.0, 3e7, 1e30, np.inf, np.nan, 511.5, 1023.5, 1025.0, 2047.0, -1025.0],
             dtype=np.float32)


def softplus(x):
    return np.logaddexp(0.0, x)


# op, attributes, numpy reference (float64), whether NaN/inf inputs are included
OPS = [
    ("Floor", {}, np.floor), ("Ceil", {}, np.ceil), ("Round", {}, np.round), ("Sign", {}, np.sign),
    ("Atan", {}, np.arctan), ("Softplus", {}, softplus), ("Softsign", {}, lambda x: x / (1 + np.abs(x))),
    ("IsNaN", {}, np.isnan), ("IsInf", {}, np.isinf),
    ("IsInf", {"detect_negative": 0}, lambda x: np.isposinf(x)),
    ("Asin", {}, np.arcsin), ("Acos", {}, np.arccos),
    # Round in float16 (between Casts): exact halves below 2^10, integers above
    ("RoundF16", {}, lambda x: np.round(x.astype(np.float16).astype(np.float64))),
]


def main(out):
    os.makedirs(out, exist_ok=True)
    nodes, outputs = [], []
    for i, (op, attrs, _) in enumerate(OPS):
        if op == "RoundF16":
            nodes += [h.make_node("Cast", ["x"], [f"h{i}"], name=f"to_f16_{i}", to=T.FLOAT16),
                      h.make_node("Round", [f"h{i}"], [f"r{i}"], name=f"round_f16_{i}"),
                      h.make_node("Cast", [f"r{i}"], [f"y{i}"], name=f"to_f32_{i}", to=T.FLOAT)]
        else:
            nodes.append(h.make_node(op, ["x"], [f"y{i}"], name=f"{op.lower()}_{i}", **attrs))
        dtype = T.BOOL if op.startswith("Is") else T.FLOAT
        outputs.append(h.make_tensor_value_info(f"y{i}", dtype, [len(X)]))
    g = h.make_graph(nodes, "edges", [h.make_tensor_value_info("x", T.FLOAT, [len(X)])], outputs)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, "model.onnx"))
    np.save(os.path.join(out, "in0.npy"), X)
    with np.errstate(all="ignore"):
        for i, (_, _, ref) in enumerate(OPS):
            y = ref(X.astype(np.float64))
            np.save(os.path.join(out, f"expected{i}.npy"), y if y.dtype == np.bool_ else y.astype(np.float32))


def compare(out):
    bad = 0
    for i, (op, _, _) in enumerate(OPS):
        want = np.load(os.path.join(out, f"expected{i}.npy"))
        got = np.load(os.path.join(out, f"out{i}.npy"))
        w, g = want.astype(np.float64), got.astype(np.float64)
        ok = got.shape == want.shape and np.array_equal(np.isnan(w), np.isnan(g))
        finite = np.isfinite(w)
        ok = ok and np.array_equal(w[np.isinf(w)], g[np.isinf(w)])
        ok = ok and bool(np.all(np.abs(g[finite] - w[finite]) <= 1e-6 + 1e-6 * np.abs(w[finite])))
        if not ok:
            bad += 1
            print(f"out{i} ({op}): got {got}, expected {want}")
    print(f"{os.path.basename(out.rstrip('/'))}: {len(OPS) - bad} of {len(OPS)} outputs ok")


if __name__ == "__main__":
    (main if sys.argv[1] == "prepare" else compare)(sys.argv[2])
