// gpu-metric: norm
// cuda-codegen's flat runs on the device (targets/cuda/codegen/flat-runs.c; the IR in
// test/targets/cuda/codegen/flat-runs.mlir), checked against the reference interpreter
// by test/gpu/run.sh: window columns over 3 channels (one load of four lanes at an
// element-aligned position), a reshape merging the batch into the rows (aligned vector
// loads), a transposed read and a reshape of it (per-lane loads), and a 7x7 stride-2
// stem on 3 channels whose window cuda-default widens to 7 x 8 taps (K = 168) and whose
// columns are copied through flat runs for the tensor-core template.
// RUN: braze compile %s --target=cuda -o %t.so
// REQUIRES: cuda
func.func @window_columns(%x: tensor<2x10x10x3xbf16>) -> tensor<2x12x24xbf16> {
  %w = "graph.window"(%x) {kernel = array<i64: 1, 8>, strides = array<i64: 3, 1>, dilations = array<i64: 1, 1>} : (tensor<2x10x10x3xbf16>) -> tensor<2x4x3x1x8x3xbf16>
  %c = "graph.reshape"(%w) : (tensor<2x4x3x1x8x3xbf16>) -> tensor<2x12x24xbf16>
  %e = "graph.exp"(%c) : (tensor<2x12x24xbf16>) -> tensor<2x12x24xbf16>
  return %e : tensor<2x12x24xbf16>
}

func.func @merged_rows(%x: tensor<2x6x4xf32>) -> tensor<3x16xf32> {
  %r = "graph.reshape"(%x) : (tensor<2x6x4xf32>) -> tensor<3x16xf32>
  %e = "graph.exp"(%r) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  return %e : tensor<3x16xf32>
}

func.func @strided(%x: tensor<2x4x6xf32>) -> (tensor<2x6x4xf32>, tensor<3x16xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x6xf32>) -> tensor<2x6x4xf32>
  %e = "graph.exp"(%t) : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %r = "graph.reshape"(%t) : (tensor<2x6x4xf32>) -> tensor<3x16xf32>
  %f = "graph.exp"(%r) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  return %e, %f : tensor<2x6x4xf32>, tensor<3x16xf32>
}

func.func @stem(%x: tensor<3x3x40x40xbf16>, %w: tensor<64x3x7x7xbf16>) -> tensor<3x64x20x20xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x3x40x40xbf16>, tensor<64x3x7x7xbf16>) -> tensor<3x64x20x20xbf16>
  %r = "graph.relu"(%y) : (tensor<3x64x20x20xbf16>) -> tensor<3x64x20x20xbf16>
  return %r : tensor<3x64x20x20xbf16>
}
