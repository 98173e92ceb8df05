"""An MLP whose weights exceed 1024 elements: the importer keeps them as
dense_resource blobs, which cpu-codegen turns into globals (onnx-resource.test)."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)
inits = [numpy_helper.from_array((rng.standard_normal(s) / 8).astype(np.float32), n)
         for n, s in (("w1", (64, 64)), ("b1", (64,)), ("w2", (64, 40)), ("b2", (40,)))]
nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1, name="fc1"),
         helper.make_node("Relu", ["h"], ["r"], name="act"),
         helper.make_node("MatMul", ["r", "w2"], ["m"], name="fc2"),
         helper.make_node("Add", ["m", "b2"], ["y"], name="bias2")]
graph = helper.make_graph(nodes, "mlp64", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 40])], initializer=inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
