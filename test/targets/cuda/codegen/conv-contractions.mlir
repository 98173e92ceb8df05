// Convolutions on CUDA (graph-decompose: the padded input's window and a contraction):
// graph-to-loops copies the smaller of the two operands a contraction's k needs bound,
// the weight (a depthwise conv's 54 elements), and leaves the columns a window view of
// the padded input, so both contractions take the matmul kernel (f32: the SIMT one,
// reading A through the window map).
// (Correctness on a GPU: test/e2e/conv.mlir through test/gpu/prepare.sh.)
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// RUN: braze compile %s --target=cuda --no-header -o %t.so
// CHECK: conv-contractions.mlir:[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel
// CHECK: conv-contractions.mlir:[[@LINE+8]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel
func.func @depthwise(%x: tensor<2x6x8x8xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<2x6x8x8xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 6 : i64}
      : (tensor<2x6x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x8x8xf32>
  return %y : tensor<2x6x8x8xf32>
}

func.func @dense(%x: tensor<2x3x9x8xf32>, %w: tensor<8x3x3x2xf32>) -> tensor<2x8x4x4xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>, groups = 1 : i64}
      : (tensor<2x3x9x8xf32>, tensor<8x3x3x2xf32>) -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}
