// Composites the pass cannot expand are reported at their location and the pass
// fails (the graph verifier is off so that the pass's own checks are reached).
// RUN: braze-opt %s --no-verify-graph --graph-decompose --split-input-file --verify-diagnostics

func.func @bad_gelu(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{graph-decompose: gelu: approximate must be "none" or "tanh", got "fast"}}
  %0 = "graph.gelu"(%x) {approximate = "fast"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @bad_var(%x: tensor<4x2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{graph-decompose: reduce_var: n - correction must be > 0 (n = 2, correction = 2)}}
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 2 : i64} : (tensor<4x2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_axis(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{graph-decompose: rms_norm: axis 2 out of range for rank 2}}
  %0 = "graph.rms_norm"(%x, %w) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @bad_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{graph-decompose: softmax: dim 5 out of range for rank 2}}
  %0 = "graph.softmax"(%x) {dim = 5 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
