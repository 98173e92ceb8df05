#!/usr/bin/python3
"""Models for ops braze imports as compositions or folds in forms ONNX's conformance
tests do not reach (they feed pads, repeats, split sizes, k, depth as run-time inputs):
constant-input Pad (constant, edge, reflect; opset 2 attributes), Tile, Split, Trilu,
OneHot, CumSum, Clip-6 attributes, pre-13 Softmax/Hardmax coercion, Mish (opset 18)
and LpNormalization (no conformance test in onnx 1.12), TopK (constant k) and Einsum,
Sin/Cos/Tan of constant tables (rotary embeddings), folded Slice with
negative steps, Transpose/Range/ConstantOfShape of constants.

usage: compositions.py CASE=DIR...   DIR/model.onnx, in<i>.npy (seeded), inputs.txt and
                                     expected<i>.npy (numpy), as numeric.py compare reads"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

F = T.FLOAT
RNG = np.random.default_rng(7)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def const(name, array):
    return h.make_node("Constant", [], [name], name=name + "_c", value=nh.from_array(np.asarray(array), name))


def model(nodes, inputs, outputs, opset=13):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                     [h.make_tensor_value_info(n, t, s) for n, t, s in outputs])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 7 if opset <= 17 else 8
    if opset <= 17:  # the installed onnx (1.12) knows opsets up to 17
        onnx.checker.check_model(m)
    return m


def pads_np(x, pads, mode, value=0.0):
    n = x.ndim
    width = [(pads[i], pads[i + n]) for i in range(n)]
    return np.pad(x, width, mode=mode, constant_values=value) if mode == "constant" else np.pad(x, width, mode=mode)


def pad_case(mode, shape, pads, value=None, opset=13):
    x = rand(*shape)
    y = pads_np(x, pads, mode, 0.0 if value is None else value)
    if opset < 11:
        nodes = [h.make_node("Pad", ["x"], ["y"], name="pad", mode=mode, pads=pads,
                             **({"value": value} if value is not None else {}))]
    else:
        ins = ["x", "pads"] + (["v"] if value is not None else [])
        nodes = [const("pads", np.array(pads, np.int64))] + \
                ([const("v", np.array(value, np.float32))] if value is not None else []) + \
                [h.make_node("Pad", ins, ["y"], name="pad", mode=mode)]
    return model(nodes, [("x", F, shape)], [("y", F, list(y.shape))], opset), [x], [y]


def softmax_np(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def coerced(x, axis, f):
    rows = int(np.prod(x.shape[:axis]))
    return f(x.reshape(rows, -1)).reshape(x.shape)


def hardmax_rows(r):
    out = np.zeros_like(r)
    out[np.arange(r.shape[0]), r.argmax(axis=1)] = 1
    return out


def case(name):
    if name == "pad_constant":
        return pad_case("constant", [2, 3, 4], [0, 1, 2, 1, 0, 3], value=1.5)
    if name == "pad_edge":
        return pad_case("edge", [2, 3, 4], [1, 2, 0, 2, 1, 3])
    if name == "pad_reflect":
        return pad_case("reflect", [3, 5], [1, 2, 2, 4])
    if name == "pad_opset2":
        return pad_case("reflect", [4, 5], [0, 2, 3, 1], opset=2)
    if name == "tile":
        x = rand(2, 3)
        m = model([const("r", np.array([2, 3], np.int64)), h.make_node("Tile", ["x", "r"], ["y"], name="tile")],
                  [("x", F, [2, 3])], [("y", F, [4, 9])])
        return m, [x], [np.tile(x, (2, 3))]
    if name == "split":
        x = rand(2, 5)
        m = model([const("s", np.array([1, 4], np.int64)),
                   h.make_node("Split", ["x", "s"], ["a", "b"], name="split", axis=1)],
                  [("x", F, [2, 5])], [("a", F, [2, 1]), ("b", F, [2, 4])])
        return m, [x], [x[:, :1], x[:, 1:]]
    if name == "split_opset2":
        x = rand(6, 3)
        m = model([h.make_node("Split", ["x"], ["a", "b"], name="split", axis=0, split=[2, 4])],
                  [("x", F, [6, 3])], [("a", F, [2, 3]), ("b", F, [4, 3])], opset=2)
        return m, [x], [x[:2], x[2:]]
    if name == "trilu":
        x = rand(2, 3, 4)
        m = model([const("k", np.array(-1, np.int64)), h.make_node("Trilu", ["x", "k"], ["y"], name="tril", upper=0)],
                  [("x", F, [2, 3, 4])], [("y", F, [2, 3, 4])], opset=14)
        return m, [x], [np.tril(x, -1)]
    if name == "one_hot":
        i = np.array([[0, 3, -1], [4, 2, 7]], np.int64)
        m = model([const("d", np.array(5, np.int64)), const("v", np.array([-2.0, 3.0], np.float32)),
                   h.make_node("OneHot", ["i", "d", "v"], ["y"], name="onehot", axis=1)],
                  [("i", T.INT64, [2, 3])], [("y", F, [2, 5, 3])], opset=11)
        eye = np.where(np.arange(5)[None, :, None] == np.where(i < 0, i + 5, i)[:, None, :], 3.0, -2.0)
        return m, [i], [eye.astype(np.float32)]
    if name == "cumsum":
        x = RNG.integers(-50, 50, (3, 7)).astype(np.int64)
        xf = rand(4, 5)
        nodes = [const("a1", np.array(1, np.int64)), const("a0", np.array(0, np.int64)),
                 h.make_node("CumSum", ["x", "a1"], ["y0"], name="plain"),
                 h.make_node("CumSum", ["x", "a1"], ["y1"], name="excl_rev", exclusive=1, reverse=1),
                 h.make_node("CumSum", ["xf", "a0"], ["y2"], name="float_rev", reverse=1)]
        m = model(nodes, [("x", T.INT64, [3, 7]), ("xf", F, [4, 5])],
                  [("y0", T.INT64, [3, 7]), ("y1", T.INT64, [3, 7]), ("y2", F, [4, 5])], opset=14)
        rev = np.flip(np.cumsum(np.flip(x, 1), 1), 1)
        excl_rev = np.concatenate([rev[:, 1:], np.zeros((3, 1), np.int64)], 1)
        return m, [x, xf], [np.cumsum(x, 1), excl_rev, np.flip(np.cumsum(np.flip(xf, 0), 0), 0)]
    if name == "clip_opset6":
        x = rand(3, 4)
        m = model([h.make_node("Clip", ["x"], ["y"], name="clip", min=-0.5, max=0.25)],
                  [("x", F, [3, 4])], [("y", F, [3, 4])], opset=6)
        return m, [x], [np.clip(x, -0.5, 0.25)]
    if name == "softmax_opset11":
        x = rand(2, 3, 4)
        nodes = [h.make_node("Softmax", ["x"], ["s"], name="softmax"),
                 h.make_node("Hardmax", ["x"], ["hm"], name="hardmax", axis=2)]
        m = model(nodes, [("x", F, [2, 3, 4])], [("s", F, [2, 3, 4]), ("hm", F, [2, 3, 4])], opset=11)
        return m, [x], [coerced(x, 1, lambda r: softmax_np(r, 1)), coerced(x, 2, hardmax_rows)]
    if name == "folded_shapes":
        # Slice with a negative step, Transpose, Range and ConstantOfShape of constants
        c = np.arange(12, dtype=np.float32).reshape(3, 4)
        x = rand(3, 4)
        nodes = [const("c", c), const("st", np.array([-1], np.int64)), const("en", np.array([-100], np.int64)),
                 const("ax", np.array([0], np.int64)), const("stp", np.array([-1], np.int64)),
                 h.make_node("Slice", ["c", "st", "en", "ax", "stp"], ["rc"], name="reverse"),
                 h.make_node("Add", ["x", "rc"], ["y0"], name="add_rev"),
                 const("small", np.arange(6, dtype=np.float32).reshape(2, 3)),
                 h.make_node("Transpose", ["small"], ["tr"], name="transpose_c"),
                 const("r0", np.array(1, np.int64)), const("r1", np.array(8, np.int64)),
                 const("r2", np.array(3, np.int64)),
                 h.make_node("Range", ["r0", "r1", "r2"], ["rg"], name="range"),
                 h.make_node("ConstantOfShape", ["rg"], ["zeros"], name="cos",
                             value=nh.from_array(np.array([2.5], np.float32))),
                 h.make_node("ReduceSum", ["zeros"], ["zs"], name="sum_zeros", keepdims=0),
                 h.make_node("Cast", ["rg"], ["rgf"], name="cast_rg", to=F),
                 h.make_node("Add", ["rgf", "zs"], ["y2"], name="add_rg")]
        m = model(nodes, [("x", F, [3, 4])], [("y0", F, [3, 4]), ("tr", F, [3, 2]), ("y2", F, [3])])
        # Range(1, 8, 3) = [1, 4, 7]; ConstantOfShape of it sums to 2.5 * 28
        return m, [x], [x + c[::-1], np.arange(6, dtype=np.float32).reshape(2, 3).T,
                        np.arange(1, 8, 3).astype(np.float32) + 2.5 * 28]
    if name == "mish_lpnorm":
        x = rand(3, 6) * 4
        nodes = [h.make_node("Mish", ["x"], ["m"], name="mish"),
                 h.make_node("LpNormalization", ["x"], ["l1"], name="lp1", axis=0, p=1),
                 h.make_node("LpNormalization", ["x"], ["l2"], name="lp2")]
        m = model(nodes, [("x", F, [3, 6])], [("m", F, [3, 6]), ("l1", F, [3, 6]), ("l2", F, [3, 6])], opset=18)
        xd = x.astype(np.float64)
        mish = xd * np.tanh(np.logaddexp(0.0, xd))
        return m, [x], [mish.astype(np.float32), (xd / np.abs(xd).sum(0, keepdims=True)).astype(np.float32),
                        (xd / np.sqrt((xd * xd).sum(1, keepdims=True))).astype(np.float32)]
    if name == "topk":
        x = RNG.integers(-3, 4, (3, 7)).astype(np.int64)  # many ties: lower index first
        xf = rand(2, 6)
        nodes = [const("k3", np.array([3], np.int64)), const("k2", np.array([2], np.int64)),
                 h.make_node("TopK", ["x", "k3"], ["v0", "i0"], name="top3"),
                 h.make_node("TopK", ["xf", "k2"], ["v1", "i1"], name="bottom2", axis=0, largest=0)]
        m = model(nodes, [("x", T.INT64, [3, 7]), ("xf", F, [2, 6])],
                  [("v0", T.INT64, [3, 3]), ("i0", T.INT64, [3, 3]), ("v1", F, [2, 6]), ("i1", T.INT64, [2, 6])], opset=11)
        i0 = np.argsort(-x, axis=1, kind="stable")[:, :3]
        i1 = np.argsort(xf, axis=0, kind="stable")[:2]
        return m, [x, xf], [np.take_along_axis(x, i0, 1), i0, np.take_along_axis(xf, i1, 0), i1]
    if name == "einsum":
        a, b, c, v = rand(3, 4), rand(4, 5), rand(2, 3, 4), rand(4)
        eqs = [("ij,jk->ik", ["a", "b"]), ("bij,kj->bik", ["c", "b5"]), ("i,i", ["v", "v"]), ("ij->ji", ["a"]),
               ("ij->", ["a"]), ("ij,ij->ij", ["a", "a"]), ("bij->bj", ["c"])]
        b5 = rand(5, 4)
        env = {"a": a, "b": b, "c": c, "v": v, "b5": b5}
        nodes, outs, want = [], [], []
        for i, (eq, ins) in enumerate(eqs):
            nodes.append(h.make_node("Einsum", ins, [f"y{i}"], name=f"einsum_{i}", equation=eq))
            y = np.einsum(eq, *[env[n].astype(np.float64) for n in ins]).astype(np.float32)
            outs.append((f"y{i}", F, list(y.shape)))
            want.append(y)
        m = model(nodes, [("a", F, [3, 4]), ("b", F, [4, 5]), ("c", F, [2, 3, 4]), ("v", F, [4]), ("b5", F, [5, 4])],
                  outs, opset=12)
        return m, [a, b, c, v, b5], want
    if name == "rotary":
        # sin/cos tables of constant positions (a rotary embedding): folded at import
        x = rand(8, 4)
        inv = np.array([1.0, 0.1, 0.01, 100.0], np.float32)
        nodes = [const("r0", np.array(0, np.int64)), const("r1", np.array(8, np.int64)),
                 const("r2", np.array(1, np.int64)), const("inv", inv), const("ax", np.array([1], np.int64)),
                 h.make_node("Range", ["r0", "r1", "r2"], ["pos"], name="positions"),
                 h.make_node("Cast", ["pos"], ["posf"], name="cast_pos", to=F),
                 h.make_node("Unsqueeze", ["posf", "ax"], ["col"], name="column"),
                 h.make_node("Mul", ["col", "inv"], ["ang"], name="angles"),
                 h.make_node("Sin", ["ang"], ["s"], name="sin"), h.make_node("Cos", ["ang"], ["c"], name="cos"),
                 h.make_node("Tan", ["ang"], ["t"], name="tan"),
                 h.make_node("Mul", ["x", "c"], ["xc"], name="x_cos"), h.make_node("Add", ["xc", "s"], ["y0"], name="rot"),
                 h.make_node("Add", ["x", "t"], ["y1"], name="x_tan")]
        m = model(nodes, [("x", F, [8, 4])], [("y0", F, [8, 4]), ("y1", F, [8, 4])])
        ang = (np.arange(8, dtype=np.float32)[:, None] * inv).astype(np.float64)
        return m, [x], [(x * np.cos(ang) + np.sin(ang)).astype(np.float32), (x + np.tan(ang)).astype(np.float32)]
    raise SystemExit(f"unknown case {name}")


def save_cases(case, args):
    """CASE=DIR arguments: DIR/model.onnx, in<i>.npy, inputs.txt and expected<i>.npy of
    case(CASE) (also gather.py's)."""
    for arg in args:
        name, out = arg.split("=", 1)
        m, ins, outs = case(name)
        os.makedirs(out, exist_ok=True)
        onnx.save(m, os.path.join(out, "model.onnx"))
        paths = []
        for i, x in enumerate(ins):
            paths.append(os.path.join(out, f"in{i}.npy"))
            np.save(paths[-1], x)
        with open(os.path.join(out, "inputs.txt"), "w") as f:
            f.write(",".join(paths))
        for i, y in enumerate(outs):
            np.save(os.path.join(out, f"expected{i}.npy"), y)


if __name__ == "__main__":
    save_cases(case, sys.argv[1:])
