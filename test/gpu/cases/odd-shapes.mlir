// Shapes and types the GPU kernels must get right beyond the e2e tests: one element,
// 7 elements (no full vector), 1000x37 rows (odd row length), broadcast from rank 0,
// a non-last-dim reduction, reductions to a scalar, long softmax rows, f16/bf16
// normalizations, a rank-3 middle-dim softmax. Used by test/gpu/prepare.sh (on the GPU
// machine, compared with the reference interpreter) and checked to compile here.
// RUN: braze compile %s --target=cuda -o %t.so
// REQUIRES: cuda

func.func @one(%x: tensor<1xf32>, %y: tensor<1xf32>) -> tensor<1xf32> {
  %0 = "graph.mul"(%x, %y) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %1 = "graph.gelu"(%0) {approximate = "none"} : (tensor<1xf32>) -> tensor<1xf32>
  return %1 : tensor<1xf32>
}

func.func @seven(%x: tensor<7xf32>) -> (tensor<7xf32>, tensor<f32>) {
  %0 = "graph.tanh"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  %1 = "graph.reduce_sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<7xf32>) -> tensor<f32>
  return %0, %1 : tensor<7xf32>, tensor<f32>
}

func.func @rank0_broadcast(%x: tensor<1000x37xf32>, %s: tensor<f32>) -> tensor<1000x37xf32> {
  %0 = "graph.mul"(%x, %s) : (tensor<1000x37xf32>, tensor<f32>) -> tensor<1000x37xf32>
  %1 = "graph.exp"(%0) : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  return %1 : tensor<1000x37xf32>
}

func.func @odd_rows(%x: tensor<1000x37xf32>, %w: tensor<37xf32>, %b: tensor<37xf32>) -> (tensor<1000x37xf32>, tensor<1000x37xf32>) {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %1 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<1000x37xf32>, tensor<37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  return %0, %1 : tensor<1000x37xf32>, tensor<1000x37xf32>
}

func.func @first_dim(%x: tensor<1000x37xf32>) -> (tensor<37xf32>, tensor<37xf32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<37xf32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x37xf32>) -> tensor<37xf32>
  return %0, %1 : tensor<37xf32>, tensor<37xf32>
}

func.func @to_scalar(%x: tensor<256x1024xf32>) -> (tensor<f32>, tensor<f32>) {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<f32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<256x1024xf32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

func.func @long_rows(%x: tensor<16x20000xf32>) -> tensor<16x20000xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<16x20000xf32>) -> tensor<16x20000xf32>
  return %0 : tensor<16x20000xf32>
}

func.func @middle_softmax(%x: tensor<4x33x9xf32>) -> tensor<4x33x9xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x33x9xf32>) -> tensor<4x33x9xf32>
  return %0 : tensor<4x33x9xf32>
}

func.func @half_norm(%x: tensor<64x768xf16>, %w: tensor<768xf16>, %b: tensor<768xf16>) -> tensor<64x768xf16> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<64x768xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<64x768xf16>
  return %0 : tensor<64x768xf16>
}

func.func @bf16_rms(%x: tensor<64x1000xbf16>, %w: tensor<1000xbf16>) -> (tensor<64x1000xbf16>, tensor<64x1000xbf16>) {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<64x1000xbf16>, tensor<1000xbf16>) -> tensor<64x1000xbf16>
  %1 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<64x1000xbf16>) -> tensor<64x1000xbf16>
  return %0, %1 : tensor<64x1000xbf16>, tensor<64x1000xbf16>
}

func.func @bf16_matmul(%x: tensor<33x70xbf16>, %w: tensor<70x65xbf16>, %b: tensor<65xbf16>) -> tensor<33x65xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<33x70xbf16>, tensor<70x65xbf16>) -> tensor<33x65xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<33x65xbf16>, tensor<65xbf16>) -> tensor<33x65xbf16>
  %2 = "graph.gelu"(%1) {approximate = "tanh"} : (tensor<33x65xbf16>) -> tensor<33x65xbf16>
  return %2 : tensor<33x65xbf16>
}
