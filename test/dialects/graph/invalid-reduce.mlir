// Reductions (dims, keepdim, result shape, correction) and the normalizing
// composites (softmax dim, layer_norm/rms_norm axis and params, batch_norm).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @dim_out_of_range(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op dim 3 is out of range for rank 2}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 3>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dim_negative(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_max' op dim -1 is out of range for rank 2}}
  %0 = "graph.reduce_max"(%x) {dims = array<i64: -1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dims_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op dims must not be empty}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @dims_repeated(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_min' op dim 1 appears more than once in dims}}
  %0 = "graph.reduce_min"(%x) {dims = array<i64: 1, 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dims_too_many(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'graph.reduce_sum' op dims has 2 entries but the operand has rank 1}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0, 0>, keepdim = false} : (tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @dims_i32(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op expects 'dims' to be an array<i64: ...> attribute}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i32: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @keepdim_not_bool(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op keepdim must be a bool (keepdim = true or keepdim = false)}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = 0 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @result_shape_removed(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.reduce_sum' op result shape [8] must be [4] (reduced dims removed)}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @result_shape_kept(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_mean' op result shape [4] must be [4, 1] (reduced dims kept as 1)}}
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_elt(%x: tensor<4x8xi32>) -> tensor<4xi64> {
  // expected-error @+1 {{'graph.reduce_sum' op result element type i64 must equal the operand element type i32}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @correction_negative(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_var' op correction must be >= 0, got -1}}
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = -1 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @correction_too_big(%x: tensor<4x1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.reduce_var' op the reduced element count 1 minus correction 1 must be > 0}}
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 1 : i64} : (tensor<4x1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @softmax_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.softmax' op dim 2 is out of range for rank 2}}
  %0 = "graph.softmax"(%x) {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @log_softmax_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.log_softmax' op dim -1 is out of range for rank 2}}
  %0 = "graph.log_softmax"(%x) {dim = -1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @softmax_type(%x: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'graph.softmax' op result type tensor<4x8xbf16> must equal the operand type tensor<4x8xf32>}}
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @softmax_dim_bool(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.softmax' op expects an integer attribute 'dim' (e.g. dim = 1 : i64)}}
  %0 = "graph.softmax"(%x) {dim = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_axis(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.layer_norm' op axis 2 is out of range for rank 2}}
  %0 = "graph.layer_norm"(%x, %w, %w) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_weight(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.layer_norm' op weight shape [8] must be x.shape[axis:] = [4, 8]}}
  %0 = "graph.layer_norm"(%x, %w, %w) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_bias(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.layer_norm' op bias shape [1, 8] must be x.shape[axis:] = [8]}}
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_weight_elt(%x: tensor<4x8xf32>, %w: tensor<8xf16>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.layer_norm' op weight element type f16 must equal the x element type f32}}
  %0 = "graph.layer_norm"(%x, %w, %w) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf16>, tensor<8xf16>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_eps(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // IRDL checks that eps is a float attribute.
  // expected-error @+1 {{expected base attribute 'builtin.float' but got 'builtin.integer'}}
  %0 = "graph.layer_norm"(%x, %w, %w) {axis = 1 : i64, eps = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_result(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.layer_norm' op result type tensor<4xf32> must equal the x type tensor<4x8xf32>}}
  %0 = "graph.layer_norm"(%x, %w, %w) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @rms_norm_axis(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.rms_norm' op axis -1 is out of range for rank 2}}
  %0 = "graph.rms_norm"(%x, %w) {axis = -1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @rms_norm_weight(%x: tensor<4x8xf32>, %w: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.rms_norm' op weight shape [4] must be x.shape[axis:] = [8]}}
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @batch_norm_rank(%x: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.batch_norm' op x must have rank >= 2 (channel dim 1), got rank 1}}
  %0 = "graph.batch_norm"(%x, %c, %c, %c, %c) {eps = 1.0e-05 : f32} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @batch_norm_param(%x: tensor<2x3x4xf32>, %c: tensor<3xf32>, %bad: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'graph.batch_norm' op mean shape [4] must be [C] = [3] (x's dim 1)}}
  %0 = "graph.batch_norm"(%x, %c, %c, %bad, %c) {eps = 1.0e-05 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @batch_norm_elt(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %h: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'graph.batch_norm' op var element type f16 must equal the x element type f32}}
  %0 = "graph.batch_norm"(%x, %c, %c, %c, %h) {eps = 1.0e-05 : f32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
