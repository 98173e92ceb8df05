"""A two-layer MLP (Gemm, Relu, MatMul, Add, Softmax) as an ONNX model, for onnx-check.test."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
inits = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
         for n, s in (("w1", (4, 6)), ("b1", (6,)), ("w2", (6, 3)), ("b2", (3,)))]
nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1"),
         helper.make_node("Relu", ["h"], ["r"], name="act"),
         helper.make_node("MatMul", ["r", "w2"], ["m"], name="fc2"),
         helper.make_node("Add", ["m", "b2"], ["a"], name="bias2"),
         helper.make_node("Softmax", ["a"], ["y"], axis=-1, name="probs")]
graph = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [5, 3])], initializer=inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
