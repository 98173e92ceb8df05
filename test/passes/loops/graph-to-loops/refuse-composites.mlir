// Composites and reduce_var are refused at the op, and nothing is rewritten.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --verify-diagnostics

func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-error@+1 {{'graph.softmax' is a composite op: run graph-decompose before graph-to-loops}}
  %1 = "graph.softmax"(%0) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

func.func @var(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.reduce_var' is a composite op: run graph-decompose before graph-to-loops}}
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gelu(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'graph.gelu' is a composite op: run graph-decompose before graph-to-loops}}
  %0 = "graph.gelu"(%x) {approximate = "none"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
