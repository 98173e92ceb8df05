// gpu-metric: norm
// cuda-codegen's tiled element kernels on the device (targets/cuda/codegen/tiled.c;
// the IR in test/targets/cuda/codegen/transpose-tiles.mlir), checked against the
// reference interpreter by test/gpu/run.sh: a conv weight as the template's B (bf16,
// whole tiles), a 2-D transpose with an add (f32, guarded edges on both dims), a batched
// transpose with a cast and an exp (the tile at each batch index), and ResNet's stage-4
// weight layout (4608 x 512).
// RUN: braze compile %s --target=cuda -o %t.so
// REQUIRES: cuda
func.func @weight_layout(%w: tensor<64x32x3x3xbf16>) -> tensor<288x64xbf16> {
  %t = "graph.transpose"(%w) {perm = array<i64: 2, 3, 1, 0>} : (tensor<64x32x3x3xbf16>) -> tensor<3x3x32x64xbf16>
  %b = "graph.reshape"(%t) : (tensor<3x3x32x64xbf16>) -> tensor<288x64xbf16>
  return %b : tensor<288x64xbf16>
}

func.func @transpose_add(%x: tensor<100x70xf32>, %y: tensor<70x100xf32>) -> tensor<70x100xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<100x70xf32>) -> tensor<70x100xf32>
  %s = "graph.add"(%t, %y) : (tensor<70x100xf32>, tensor<70x100xf32>) -> tensor<70x100xf32>
  return %s : tensor<70x100xf32>
}

func.func @batched_cast(%x: tensor<3x45x37xf32>) -> tensor<3x37x45xbf16> {
  %t = "graph.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<3x45x37xf32>) -> tensor<3x37x45xf32>
  %e = "graph.exp"(%t) : (tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %c = "graph.cast"(%e) : (tensor<3x37x45xf32>) -> tensor<3x37x45xbf16>
  return %c : tensor<3x37x45xbf16>
}

func.func @stage4_weight(%w: tensor<512x512x3x3xbf16>) -> tensor<4608x512xbf16> {
  %t = "graph.transpose"(%w) {perm = array<i64: 2, 3, 1, 0>} : (tensor<512x512x3x3xbf16>) -> tensor<3x3x512x512xbf16>
  %b = "graph.reshape"(%t) : (tensor<3x3x512x512xbf16>) -> tensor<4608x512xbf16>
  return %b : tensor<4608x512xbf16>
}
