// On targets with the online form, a bf16 matmul kernel whose contraction reads an
// operand in another layout than the tensor-core template's gets a plain copy of it in
// that layout: a strided 1x1 conv (ResNet's downsampling path) reads x through a strided
// view (A: [N, 1, P, C], its one group a dim of 1) and its weight [OC, C, 1, 1] by a plain
// but transposed map (B: [C, OC]). A 3x3 conv's im2col columns (already [N, 1, P, K])
// are not copied again; only its weight is. The epilogue reads its operands through any
// view: a residual read as a row slice of an argument (a token chunk's x) is not
// copied (@chunk_residual's kernel reads %x through the slice).
// RUN: braze-opt %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half remarks})' 2>&1 | FileCheck %s
// RUN: braze-opt %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CODEGEN
// REQUIRES: cuda

// CHECK-DAG: template-copies.mlir:[[@LINE+13]]:8: remark: form-row-chains: @cuda_tem_fused_conv_0 reads 2 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: template-copies.mlir:[[@LINE+17]]:8: remark: form-row-chains: @cuda_tem_fused_conv_3 reads 1 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: func.func private @cuda_poi_fused_heads_{{[0-9]+}}(%arg0: tensor<2x16x8x8xbf16>) -> tensor<2x1x16x16xbf16>
// CHECK-DAG: func.func private @cuda_poi_fused_heads_{{[0-9]+}}(%arg0: tensor<32x16x1x1xbf16>) -> tensor<16x32xbf16>
// CHECK-DAG: func.func private @cuda_poi_fused_heads_{{[0-9]+}}(%arg0: tensor<32x16x3x3xbf16>) -> tensor<144x32xbf16>
// CHECK-NOT: -> tensor<2x1x64x144xbf16> attributes {kernel.kind = "poi", kernel.ops = ["copy"]
// CHECK-LABEL: func.func @chunk_residual(
// CHECK-NOT: heads
// CHECK: call @cuda_tem_fused_matmul_add_{{[0-9]+}}(%arg0, %arg1, %arg2)
// CHECK-NEXT: return
// CODEGEN: remark: cuda-codegen: kernel @cuda_tem_fused_conv_0: matmul kernel, {{.*}} tensor-core template
// CODEGEN: remark: cuda-codegen: kernel @cuda_tem_fused_conv_3: matmul kernel, {{.*}} tensor-core template
func.func @downsample(%x: tensor<2x16x8x8xbf16>, %w: tensor<32x16x1x1xbf16>) -> tensor<2x32x4x4xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x8xbf16>, tensor<32x16x1x1xbf16>) -> tensor<2x32x4x4xbf16>
  return %y : tensor<2x32x4x4xbf16>
}

func.func @three_by_three(%x: tensor<2x16x8x8xbf16>, %w: tensor<32x16x3x3xbf16>) -> tensor<2x32x8x8xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x8xbf16>, tensor<32x16x3x3xbf16>) -> tensor<2x32x8x8xbf16>
  return %y : tensor<2x32x8x8xbf16>
}

func.func @chunk_residual(%p: tensor<64x128xbf16>, %w: tensor<128x64xbf16>, %x: tensor<256x64xbf16>) -> tensor<64x64xbf16> {
  %d = "graph.matmul"(%p, %w) : (tensor<64x128xbf16>, tensor<128x64xbf16>) -> tensor<64x64xbf16>
  %xs = "graph.slice"(%x) {starts = array<i64: 128, 0>, limits = array<i64: 192, 64>, strides = array<i64: 1, 1>} : (tensor<256x64xbf16>) -> tensor<64x64xbf16>
  %y = "graph.add"(%d, %xs) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}
