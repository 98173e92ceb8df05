"""The anchor workloads (bench/workloads/W*.mlir) as ONNX models with the same inputs
(weights are graph inputs, as in the .mlir files), for ONNX Runtime.
usage: /usr/bin/python3 make_onnx.py OUTDIR"""
import math
import os
import sys

import onnx
from onnx import TensorProto, helper, numpy_helper
import numpy as np

F = TensorProto.FLOAT


def value(name, shape):
    return helper.make_tensor_value_info(name, F, shape)


def scalar(name, v):
    return numpy_helper.from_array(np.array(v, dtype=np.float32), name)


def gelu(x, y, p):
    nodes = [helper.make_node("Div", [x, p + "sqrt2"], [p + "d"]),
             helper.make_node("Erf", [p + "d"], [p + "e"]),
             helper.make_node("Add", [p + "e", p + "one"], [p + "e1"]),
             helper.make_node("Mul", [x, p + "e1"], [p + "m"]),
             helper.make_node("Mul", [p + "m", p + "half"], [y])]
    return nodes, [scalar(p + "sqrt2", math.sqrt(2)), scalar(p + "one", 1.0), scalar(p + "half", 0.5)]


def rms_norm(x, w, y, p, eps):
    nodes = [helper.make_node("Mul", [x, x], [p + "sq"]),
             helper.make_node("ReduceMean", [p + "sq"], [p + "ms"], axes=[-1], keepdims=1),
             helper.make_node("Add", [p + "ms", p + "eps"], [p + "mse"]),
             helper.make_node("Sqrt", [p + "mse"], [p + "rt"]),
             helper.make_node("Div", [x, p + "rt"], [p + "n"]),
             helper.make_node("Mul", [p + "n", w], [y])]
    return nodes, [scalar(p + "eps", eps)]


def workloads():
    M, N = 4096, 1024
    g_nodes, g_inits = gelu("t", "y", "g_")
    yield "W1", [helper.make_node("Mul", ["x", "s"], ["u"]), helper.make_node("Add", ["u", "b"], ["t"])] + g_nodes, \
        [value("x", [M, N]), value("s", [N]), value("b", [N])], [value("y", [M, N])], g_inits
    yield "W2", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [value("x", [M, N])], [value("y", [M, N])], []
    yield "W3", [helper.make_node("LayerNormalization", ["x", "w", "b"], ["y"], axis=-1, epsilon=1e-5)], \
        [value("x", [M, N]), value("w", [N]), value("b", [N])], [value("y", [M, N])], []
    r_nodes, r_inits = rms_norm("x", "w", "y", "r_", 1e-6)
    yield "W4", r_nodes, [value("x", [M, N]), value("w", [N])], [value("y", [M, N])], r_inits
    g_nodes, g_inits = gelu("t", "y", "g_")
    yield "W5", [helper.make_node("MatMul", ["x", "w"], ["mm"]), helper.make_node("Add", ["mm", "b"], ["t"])] + g_nodes, \
        [value("x", [512, 1024]), value("w", [1024, 1024]), value("b", [1024])], [value("y", [512, 1024])], g_inits
    T, D, FF = 256, 1024, 2816
    r_nodes, r_inits = rms_norm("x", "g", "h", "r_", 1e-6)
    yield "W6", r_nodes + [helper.make_node("MatMul", ["h", "wg"], ["a"]), helper.make_node("Sigmoid", ["a"], ["sa"]),
                           helper.make_node("Mul", ["a", "sa"], ["silu"]), helper.make_node("MatMul", ["h", "wu"], ["u"]),
                           helper.make_node("Mul", ["silu", "u"], ["p"]), helper.make_node("MatMul", ["p", "wd"], ["d"]),
                           helper.make_node("Add", ["x", "d"], ["y"])], \
        [value("x", [T, D]), value("g", [D]), value("wg", [D, FF]), value("wu", [D, FF]), value("wd", [FF, D])], \
        [value("y", [T, D])], r_inits
    BH, S, Dh = 8, 512, 64
    yield "W7", [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]), helper.make_node("MatMul", ["q", "kt"], ["s"]),
                 helper.make_node("Mul", ["s", "scale"], ["ss"]), helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
                 helper.make_node("MatMul", ["p", "v"], ["y"])], \
        [value("q", [BH, S, Dh]), value("k", [BH, S, Dh]), value("v", [BH, S, Dh])], [value("y", [BH, S, Dh])], \
        [scalar("scale", 0.125)]
    for name, S in (("W7L", 4096),):
        yield name, [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]), helper.make_node("MatMul", ["q", "kt"], ["s"]),
                     helper.make_node("Mul", ["s", "scale"], ["ss"]), helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
                     helper.make_node("MatMul", ["p", "v"], ["y"])], \
            [value("q", [BH, S, Dh]), value("k", [BH, S, Dh]), value("v", [BH, S, Dh])], [value("y", [BH, S, Dh])], \
            [scalar("scale", 0.125)]


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, nodes, inputs, outputs, inits in workloads():
        graph = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(out, name + ".onnx"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/models")
