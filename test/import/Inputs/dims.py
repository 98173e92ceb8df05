"""ONNX models with dim_params for `braze import --dim` (decision 0029).
usage: dims.py mlp=OUT.onnx shape_dep=OUT.onnx"""
import sys

import numpy as np
from onnx import TensorProto, helper as h, numpy_helper as nh


def save(model, path):
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def mlp():
    rng = np.random.default_rng(3)
    w1 = nh.from_array(rng.standard_normal((16, 32)).astype(np.float32), "w1")
    b1 = nh.from_array(rng.standard_normal((32,)).astype(np.float32), "b1")
    w2 = nh.from_array(rng.standard_normal((32, 16)).astype(np.float32), "w2")
    nodes = [h.make_node("MatMul", ["x", "w1"], ["h"], name="mm1"),
             h.make_node("Add", ["h", "b1"], ["a"], name="bias"),
             h.make_node("Relu", ["a"], ["r"], name="relu"),
             h.make_node("MatMul", ["r", "w2"], ["m"], name="mm2"),
             h.make_node("Softmax", ["m"], ["y"], name="sm", axis=-1)]
    g = h.make_graph(nodes, "mlp", [h.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])],
                     [h.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 16])], [w1, b1, w2])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 13)])


def shape_dep():
    # A value computed from the dim (Shape, cast and added): folded to a constant per size.
    nodes = [h.make_node("Shape", ["x"], ["s"], name="shape"),
             h.make_node("Cast", ["s"], ["f"], name="cast", to=TensorProto.FLOAT),
             h.make_node("ReduceSum", ["x"], ["r"], name="sum", axes=[0], keepdims=0),
             h.make_node("Add", ["r", "f"], ["y"], name="add")]
    g = h.make_graph(nodes, "dep", [h.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2])],
                     [h.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    return h.make_model(g, opset_imports=[h.make_opsetid("", 13)])


for arg in sys.argv[1:]:
    name, path = arg.split("=", 1)
    save({"mlp": mlp, "shape_dep": shape_dep}[name](), path)
