// The differential fuzz target's finding (test/fuzz/layer-norm-constant-row.test):
// @f as generated, where a layer_norm over all of a 33x2x5x5 tensor broadcast from
// one element (every row constant) came out wrong by 3e-3; @constant_row the
// layer_norm alone; @constant_var reduce_var of constant rows (the reference: 0).
func.func @f(%a0: tensor<4x17x2xf32>, %a1: tensor<1xf32>, %a2: tensor<1xf32>, %a3: tensor<33x2x5x5xf32>, %a4: tensor<33x2x5x5xf32>, %a5: tensor<2x5x1xf32>) -> (tensor<33x2x5x5xf32>, tensor<33x2x5x5xf32>) {
  %0 = "graph.slice"(%a0) {starts = array<i64: 2, 0, 0>, limits = array<i64: 4, 1, 1>, strides = array<i64: 2, 1, 1>} : (tensor<4x17x2xf32>) -> tensor<1x1x1xf32>
  %1 = "graph.slice"(%a0) {starts = array<i64: 2, 0, 0>, limits = array<i64: 3, 1, 1>, strides = array<i64: 1, 1, 1>} : (tensor<4x17x2xf32>) -> tensor<1x1x1xf32>
  %2 = "graph.abs"(%1) : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %3 = "graph.log"(%2) : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %4 = "graph.layer_norm"(%1, %a1, %a2) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<1x1x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1xf32>
  %5 = "graph.broadcast_to"(%0) : (tensor<1x1x1xf32>) -> tensor<33x2x5x5xf32>
  %6 = "graph.layer_norm"(%5, %a3, %a4) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<33x2x5x5xf32>, tensor<33x2x5x5xf32>, tensor<33x2x5x5xf32>) -> tensor<33x2x5x5xf32>
  %7 = "graph.softmax"(%6) {dim = 2 : i64} : (tensor<33x2x5x5xf32>) -> tensor<33x2x5x5xf32>
  %8 = "graph.max"(%a5, %7) : (tensor<2x5x1xf32>, tensor<33x2x5x5xf32>) -> tensor<33x2x5x5xf32>
  return %8, %a3 : tensor<33x2x5x5xf32>, tensor<33x2x5x5xf32>
}

func.func @constant_row(%x: tensor<1x1x1xf32>, %w: tensor<33x2x5x5xf32>, %b: tensor<33x2x5x5xf32>) -> tensor<33x2x5x5xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<1x1x1xf32>) -> tensor<33x2x5x5xf32>
  %1 = "graph.layer_norm"(%0, %w, %b) {axis = 0 : i64, eps = 1.0e-05 : f32} : (tensor<33x2x5x5xf32>, tensor<33x2x5x5xf32>, tensor<33x2x5x5xf32>) -> tensor<33x2x5x5xf32>
  return %1 : tensor<33x2x5x5xf32>
}

func.func @constant_var(%x: tensor<1x1xf32>) -> tensor<33x1xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<1x1xf32>) -> tensor<33x50xf32>
  %1 = "graph.reduce_var"(%0) {dims = array<i64: 1>, keepdim = true, correction = 0 : i64} : (tensor<33x50xf32>) -> tensor<33x1xf32>
  return %1 : tensor<33x1xf32>
}
