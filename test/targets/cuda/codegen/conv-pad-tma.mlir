// A conv's zero pad inside its tem kernel on CUDA (form-kernels pad-templates, which
// cuda-default asks for; decision 0024): cuda-codegen moves the pad generic after the
// contraction (targets/cuda/codegen/kernel.c, find_pad_prologue), and the tensor-core
// template's window plan, made over the padded tensor, reads the pad's input instead
// (targets/cuda/matmul/window.c, pad_origin): the TMA descriptor is 4-D over the
// unpadded input ([C, W, H, N] innermost first: 64, 14, 14, 2 here, not the padded
// 16 x 16) and the window's origin moves up and left by the padding (-1, -1), so the
// boxes at the border start at negative coordinates and TMA fills them with zeros. The
// table and mask stay kernel arguments (the template does not read them). Without
// pad-templates the pad is its own kernel and the descriptor the padded tensor's. A pad
// of fewer than 64 channels stays a kernel (pad-channels=64, as in cuda-default): the
// template loads 64 channels per box, and a 32-channel conv reads form-row-chains'
// im2col copy instead, which needs the padded tensor.
// Numerics on the device: test/gpu/cases/conv-pad-tma.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half pad-templates pad-channels=64},form-row-chains{target=cuda online=half},cuda-codegen,canonicalize,cse)' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half pad-templates pad-channels=64 remarks},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen,canonicalize,cse)' | FileCheck %s --check-prefix=OFF
// REQUIRES: cuda

// CHECK-LABEL: func.func @chain(
// CHECK: "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 16, 8, 1>, dims = array<i64: 64, 16, 16, 2>, {{.*}}} : (memref<2x256x64xbf16>)
// CHECK: %[[XA:.*]] = "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 16, 8, 1>, dims = array<i64: 64, 14, 14, 2>, element_strides = array<i64: 1, 1, 1, 1>} : (memref<2x1x196x64xbf16>) -> !llvm.ptr
// CHECK: gpu.launch_func @braze_kernels::@[[K:cuda_tem_fused_conv_[0-9]+]] {{.*}}, %[[XA]] : !llvm.ptr
// CHECK: gpu.func @[[K]](%arg0: memref<256x1xi1>, %arg1: memref<256xi32>, %arg2: memref<2x1x196x64xbf16>,
// CHECK: %[[M1:.*]] = arith.constant -1 : index
// CHECK: arith.addi %{{.*}}, %[[M1]] : index
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], {{.*}} -> memref<1x8x16x64xbf16, 3>
// OFF-LABEL: func.func @chain(
// OFF: "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 16, 8, 1>, dims = array<i64: 64, 16, 16, 2>, {{.*}}} : (memref<2x256x64xbf16>)
// OFF: "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 16, 8, 1>, dims = array<i64: 64, 16, 16, 2>, {{.*}}} : (memref<2x256x64xbf16>)
func.func @chain(%x: tensor<2x64x14x14xbf16>, %w: tensor<64x64x3x3xbf16>, %w2: tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16>
  %r = "graph.relu"(%y) : (tensor<2x64x14x14xbf16>) -> tensor<2x64x14x14xbf16>
  %z = "graph.conv"(%r, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16>
  return %z : tensor<2x64x14x14xbf16>
}

// REMARK: conv-pad-tma.mlir:[[@LINE+4]]:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: its channels are not a multiple of pad-channels
// REMARK: conv-pad-tma.mlir:[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} tensor-core template: 128x64 tiles, 2 warpgroups, 4 stages, 98304 bytes of shared memory{{$}}
func.func @narrow(%x: tensor<2x32x8x8xbf16>, %w: tensor<32x32x1x1xbf16>, %w2: tensor<64x32x3x3xbf16>) -> tensor<2x64x8x8xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x8x8xbf16>, tensor<32x32x1x1xbf16>) -> tensor<2x32x8x8xbf16>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x8x8xbf16>, tensor<64x32x3x3xbf16>) -> tensor<2x64x8x8xbf16>
  return %z : tensor<2x64x8x8xbf16>
}
