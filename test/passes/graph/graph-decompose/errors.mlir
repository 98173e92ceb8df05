// Composites the pass cannot expand are reported at their location and the pass
// fails (the graph verifier is off so that the pass's own checks are reached).
// RUN: braze-opt --cpu=x86-64-v4 %s --no-verify-graph --graph-decompose --split-input-file --verify-diagnostics

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

// -----

func.func @bad_linear(%x: tensor<2x3xf32>, %w: tensor<5x4xf32>, %b: tensor<5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{graph-decompose: linear: expects x [..., K] and weight [N, K]}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<2x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @bad_batch_norm(%v: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{graph-decompose: batch_norm: input rank must be >= 2, got 1}}
  %0 = "graph.batch_norm"(%v, %v, %v, %v, %v) {eps = 1.0e-05 : f32} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @bad_layer_norm_bias(%x: tensor<2x3xf32>, %w: tensor<3xf32>, %b: tensor<5xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{graph-decompose: layer_norm: operand 2 does not broadcast to the result shape}}
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<5xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @bad_silu(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{graph-decompose: silu: result type must equal the input type}}
  %0 = "graph.silu"(%x) : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @bad_var_dims(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{graph-decompose: reduce_var: dim 1 repeated in dims}}
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1, 1>, keepdim = false, correction = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_int_softmax(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{graph-decompose: softmax: expects a ranked float tensor input}}
  %0 = "graph.softmax"(%x) {dim = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The window form's padding copy reads x at a table of the padded positions: above
// 2^26 entries the conv is refused (8202 x 8202 here).
func.func @padding_table(%x: tensor<1x1x8200x8200xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x8200x8200xf32> {
  // expected-error @+1 {{graph-decompose: conv: the padding position table (more than 67108864 entries) is above the limit}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x8200x8200xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x8200x8200xf32>
  return %0 : tensor<1x1x8200x8200xf32>
}
