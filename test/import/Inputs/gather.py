#!/usr/bin/python3
"""Models for the indexed reads (graph.gather / graph.gather_elements): Gather on
run-time data (an embedding table as input and as initializer, other axes, a scalar
index, int32 indices, booleans, negative indices), GatherElements (negative indices,
indices smaller than the data off the axis), GatherND (tuples of length 1 and 2,
negative components) and ReverseSequence. numpy is the oracle.

usage: gather.py CASE=DIR...   DIR/model.onnx, in<i>.npy (seeded), inputs.txt and
                               expected<i>.npy (numpy), as numeric.py compare reads"""
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from compositions import save_cases

F, I32, I64, B = T.FLOAT, T.INT32, T.INT64, T.BOOL
RNG = np.random.default_rng(11)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def ids(k, shape, dtype=np.int64):
    """Indices in [-k, k): negative ones count from the end."""
    return RNG.integers(-k, k, size=shape).astype(dtype)


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
                     [h.make_tensor_value_info(n, t, s) for n, t, s in outputs],
                     initializer=[nh.from_array(a, n) for n, a in inits])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m


def case(name):
    if name == "embedding":  # table * scale + position, gathered by token ids
        table, tok, scale, pos = rand(20, 8), ids(20, [3, 5]), rand(8), rand(5, 8)
        m = model([h.make_node("Gather", ["table", "tok"], ["e"], name="embed"),
                   h.make_node("Mul", ["e", "scale"], ["s"], name="scale"),
                   h.make_node("Add", ["s", "pos"], ["y"], name="pos")],
                  [("table", F, [20, 8]), ("tok", I64, [3, 5]), ("scale", F, [8]), ("pos", F, [5, 8])],
                  [("y", F, [3, 5, 8])])
        return m, [table, tok, scale, pos], [np.take(table, tok, axis=0) * scale + pos]
    if name == "embedding_init":  # the table an initializer, ids at run time
        table, tok = rand(30, 6), ids(30, [4, 3])
        m = model([h.make_node("Gather", ["table", "tok"], ["y"], name="embed")],
                  [("tok", I64, [4, 3])], [("y", F, [4, 3, 6])], inits=[("table", table)])
        return m, [tok], [np.take(table, tok, axis=0)]
    if name == "gather_axes":  # axis 1 with int32 indices of rank 2; axis 2 with a scalar index
        x, i, j = rand(3, 6, 4), ids(6, [2, 3], np.int32), np.array(-1, np.int64)
        m = model([h.make_node("Gather", ["x", "i"], ["y0"], name="g1", axis=1),
                   h.make_node("Gather", ["x", "j"], ["y1"], name="g2", axis=-1)],
                  [("x", F, [3, 6, 4]), ("i", I32, [2, 3]), ("j", I64, [])],
                  [("y0", F, [3, 2, 3, 4]), ("y1", F, [3, 6])])
        return m, [x, i, j], [np.take(x, i, axis=1), np.take(x, j, axis=2)]
    if name == "gather_bool":
        x, i = RNG.random((5, 4)) < 0.5, ids(5, [3])
        m = model([h.make_node("Gather", ["x", "i"], ["y"], name="g")],
                  [("x", B, [5, 4]), ("i", I64, [3])], [("y", B, [3, 4])])
        return m, [x, i], [np.take(x, i, axis=0)]
    if name == "gather_elements":  # axis 0 (indices smaller off the axis) and axis 1
        x, i0, i1 = rand(4, 5), ids(4, [6, 3]), ids(5, [4, 7], np.int32)
        m = model([h.make_node("GatherElements", ["x", "i0"], ["y0"], name="ge0", axis=0),
                   h.make_node("GatherElements", ["x", "i1"], ["y1"], name="ge1", axis=1)],
                  [("x", F, [4, 5]), ("i0", I64, [6, 3]), ("i1", I32, [4, 7])],
                  [("y0", F, [6, 3]), ("y1", F, [4, 7])])
        w0, w1 = np.where(i0 < 0, i0 + 4, i0), np.where(i1 < 0, i1 + 5, i1)
        return m, [x, i0, i1], [np.take_along_axis(x[:, :3], w0, axis=0), np.take_along_axis(x, w1, axis=1)]
    if name == "gather_nd":  # tuples of length 2 and 1
        x, i2, i1 = rand(4, 5, 3), np.stack([ids(4, [3, 2]), ids(5, [3, 2])], axis=-1), ids(4, [2, 1])
        m = model([h.make_node("GatherND", ["x", "i2"], ["y0"], name="gnd2"),
                   h.make_node("GatherND", ["x", "i1"], ["y1"], name="gnd1")],
                  [("x", F, [4, 5, 3]), ("i2", I64, [3, 2, 2]), ("i1", I64, [2, 1])],
                  [("y0", F, [3, 2, 3]), ("y1", F, [2, 5, 3])])
        return m, [x, i2, i1], [x[i2[..., 0], i2[..., 1]], x[i1[..., 0]]]
    if name == "reverse_sequence":
        x, lens = rand(5, 3, 2), np.array([5, 2, 3], np.int64)
        m = model([h.make_node("ReverseSequence", ["x", "lens"], ["y"], name="rev", time_axis=0, batch_axis=1)],
                  [("x", F, [5, 3, 2]), ("lens", I64, [3])], [("y", F, [5, 3, 2])])
        y = x.copy()
        for b, n in enumerate(lens):
            y[:n, b] = x[:n, b][::-1]
        return m, [x, lens], [y]
    raise SystemExit(f"unknown case {name}")


if __name__ == "__main__":
    save_cases(case, sys.argv[1:])
