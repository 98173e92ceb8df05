// On targets with the online form, a bf16 matmul kernel whose contraction reads an
// operand in another layout than the tensor-core template's gets a plain copy of it in
// that layout: a strided 1x1 conv (ResNet's downsampling path) reads x through a strided
// view (A: [N, 1, P, C], its one group a dim of 1) and its weight [OC, C, 1, 1] by a plain
// but transposed map (B: [C, OC]). A 3x3 conv's columns are a window view of its padded
// input (graph-to-loops copied the weight, [1, K, OC], instead): with 16 channels the
// template cannot load the window by its 64-channel boxes, so the columns get the copy
// (im2col, [N, 1, P, K]); with 64 (window-channels, default 64) the window stays a view
// the template reads in place (decision 0021), and nothing is copied.
// The epilogue reads its operands through any view: a residual read as a row slice of
// an argument (a token chunk's x) is not copied (@chunk_residual, checked at the end).
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half remarks})' 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CODEGEN
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(form-row-chains{window-channels=-1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// REQUIRES: cuda

// CHECK-DAG: template-copies.mlir:[[@LINE+12]]:8: remark: form-row-chains: @cuda_tem_fused_conv_0 reads 2 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: template-copies.mlir:[[@LINE+16]]:8: remark: form-row-chains: @cuda_tem_fused_conv_4 reads 1 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: func.func private @cuda_poi_fused_heads_{{[0-9]+}}(%arg0: tensor<2x16x8x8xbf16>) -> tensor<2x1x16x16xbf16>
// CHECK-DAG: func.func private @cuda_poi_fused_heads_{{[0-9]+}}(%arg0: tensor<32x16x1x1xbf16>) -> tensor<16x32xbf16>
// CHECK-DAG: func.func private @cuda_poi_fused_heads_{{[0-9]+}}(%arg0: tensor<2x100x16xbf16>) -> tensor<2x1x64x144xbf16>
// CHECK-DAG: func.func private @cuda_tem_fused_conv_{{[0-9]+}}(%arg0: tensor<2x100x64xbf16>, %arg1: tensor<1x576x32xbf16>) -> tensor<2x1x64x32xf32>
// CHECK-NOT: remark: form-row-chains: @cuda_tem_fused_conv_{{[0-9]+}} reads
// CODEGEN: remark: cuda-codegen: kernel @cuda_tem_fused_conv_0: matmul kernel, {{.*}} tensor-core template
// CODEGEN: remark: cuda-codegen: kernel @cuda_tem_fused_conv_4: matmul kernel, {{.*}} tensor-core template
// CODEGEN: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} tensor-core template: {{.*}}, A by window boxes 8x8 pixels x 2 image(s) (taps 3x3, strides 1x1)
// BAD: rows, online-min-keys and window-channels must be >= 0
func.func @downsample(%x: tensor<2x16x8x8xbf16>, %w: tensor<32x16x1x1xbf16>) -> tensor<2x32x4x4xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x8xbf16>, tensor<32x16x1x1xbf16>) -> tensor<2x32x4x4xbf16>
  return %y : tensor<2x32x4x4xbf16>
}

func.func @three_by_three(%x: tensor<2x16x8x8xbf16>, %w: tensor<32x16x3x3xbf16>) -> tensor<2x32x8x8xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x8xbf16>, tensor<32x16x3x3xbf16>) -> tensor<2x32x8x8xbf16>
  return %y : tensor<2x32x8x8xbf16>
}

func.func @three_by_three_64(%x: tensor<2x64x8x8xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<2x32x8x8xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x8x8xbf16>, tensor<32x64x3x3xbf16>) -> tensor<2x32x8x8xbf16>
  return %y : tensor<2x32x8x8xbf16>
}

func.func @chunk_residual(%p: tensor<64x128xbf16>, %w: tensor<128x64xbf16>, %x: tensor<256x64xbf16>) -> tensor<64x64xbf16> {
  %d = "graph.matmul"(%p, %w) : (tensor<64x128xbf16>, tensor<128x64xbf16>) -> tensor<64x64xbf16>
  %xs = "graph.slice"(%x) {starts = array<i64: 128, 0>, limits = array<i64: 192, 64>, strides = array<i64: 1, 1>} : (tensor<256x64xbf16>) -> tensor<64x64xbf16>
  %y = "graph.add"(%d, %xs) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}

// CHECK-LABEL: func.func @chunk_residual(
// CHECK-NOT: heads
// CHECK: call @cuda_tem_fused_matmul_add_{{[0-9]+}}(%arg0, %arg1, %arg2)
// CHECK-NEXT: return
