// cuda-codegen's tensor-core template reading a conv's A through its window (decision
// 0021, targets/cuda/matmul/window.c): graph-to-loops leaves the columns a window view of
// the zero-padded channels-last input [N, Hp Wp, C] (it copies the weight instead), and
// the plan, evaluating A's map over the whole (m, k) domain, finds the window's geometry:
// the TMA descriptor is 4-D over the padded input ([C, Wp, Hp, N] innermost first), the
// k loop loads one [1][bh][bw][64] box per (tap, 64 channels) at 4 coordinates, a
// strided conv's boxes span bw sw x bh sh elements with element strides (1, sw, sh, 1),
// and the epilogue maps tile row r to output pixel (oh0 + r / bw, ow0 + r mod bw),
// masked outside the image; 3 stages by default (3 blocks of 128x64 a multiprocessor;
// cuda-codegen{stages=4} still gives 4). Refusals keep the other paths: taps whose rows step by more
// than TMA's element strides allow (the SIMT kernel, the remark naming why), channels
// not a multiple of 64 (form-row-chains copies the im2col columns for the template;
// with window-channels=32 it leaves them and the template refuses).
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half window-channels=32},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen,canonicalize,cse)' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen,canonicalize,cse)' | FileCheck %s --check-prefix=KERNEL
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen{remarks stages=4})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/cuda_tem_fused_conv_6.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_tem_fused_conv_6.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: cuda

// REMARK: conv-window.mlir:[[@LINE+5]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_2: matmul kernel, grid (2, 2, 1), {{.*}} tensor-core template: 128x64 tiles, 2 warpgroups, 3 stages, 73728 bytes of shared memory, A by window boxes 8x16 pixels x 1 image(s) (taps 3x3, strides 1x1)
// STAGES: kernel @cuda_tem_fused_conv_2: matmul kernel, {{.*}} 128x64 tiles, 2 warpgroups, 4 stages, 98304 bytes of shared memory, A by window boxes
// CHECK-LABEL: func.func @same(
// CHECK: "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 16, 8, 1>, dims = array<i64: 64, 16, 16, 2>, element_strides = array<i64: 1, 1, 1, 1>} : (memref<2x256x64xbf16>) -> !llvm.ptr
func.func @same(%x: tensor<2x64x14x14xbf16>, %w: tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16>
  return %y : tensor<2x64x14x14xbf16>
}

// A stride-2 conv on a non-square input: 10x15 output pixels in 8x16 tiles (2 per image),
// 64 columns a tile (128 would give 4 blocks, under half of 132 multiprocessors).
// REMARK: conv-window.mlir:[[@LINE+6]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_6: matmul kernel, grid (4, 2, 1), {{.*}} tensor-core template: 128x64 tiles, {{.*}}, A by window boxes 8x16 pixels x 1 image(s) (taps 3x3, strides 2x2)
// CHECK-LABEL: func.func @strided(
// CHECK: %[[MA:.*]] = "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 32, 16, 1>, dims = array<i64: 64, 32, 22, 2>, element_strides = array<i64: 1, 2, 2, 1>} : (memref<2x704x64xbf16>) -> !llvm.ptr
// CHECK: %[[MB:.*]] = "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 64>} : (memref<1x576x128xbf16>) -> !llvm.ptr
// CHECK: gpu.launch_func @braze_kernels::@cuda_tem_fused_conv_6 {{.*}}, %[[MA]] : !llvm.ptr, %[[MB]] : !llvm.ptr)
func.func @strided(%x: tensor<2x64x20x30xbf16>, %w: tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x20x30xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16>
  return %y : tensor<2x128x10x15xbf16>
}

// One output column: consecutive m step by whole input rows (3 Wp), past TMA's strides.
// REMARK: conv-window.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_10: matmul kernel, {{.*}} SIMT: {{.*}}; template refused: window-stride-not-1-to-8
func.func @tall(%x: tensor<1x64x11x2xbf16>, %w: tensor<64x64x4x4xbf16>) -> tensor<1x64x4x1xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x64x11x2xbf16>, tensor<64x64x4x4xbf16>) -> tensor<1x64x4x1xbf16>
  return %y : tensor<1x64x4x1xbf16>
}

// 32 channels: the im2col columns (form-row-chains' copy) on the template, or with
// window-channels=32 the window left to a template that loads 64 channels per box.
// REMARK: conv-window.mlir:[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_14: matmul kernel, grid (1, 2, 1), {{.*}} tensor-core template: 128x64 tiles, 2 warpgroups, 4 stages, 98304 bytes of shared memory{{$}}
// NARROW: conv-window.mlir:[[@LINE+2]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_14: matmul kernel, {{.*}} SIMT: {{.*}}; template refused: window-channels-not-a-multiple-of-64
func.func @narrow(%x: tensor<2x32x8x8xbf16>, %w: tensor<64x32x3x3xbf16>) -> tensor<2x64x8x8xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x8x8xbf16>, tensor<64x32x3x3xbf16>) -> tensor<2x64x8x8xbf16>
  return %y : tensor<2x64x8x8xbf16>
}

// ResNet's last stage: 7x7 images, two per tile (2 x 8 x 8 pixels, 98 of 128 rows
// real, not 49), and 256 output channels in 64-column tiles (256 would give 1 block).
// REMARK: conv-window.mlir:[[@LINE+4]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, grid (4, 1, 1), {{.*}} tensor-core template: 128x64 tiles, {{.*}}, A by window boxes 8x8 pixels x 2 image(s) (taps 3x3, strides 1x1)
// CHECK-LABEL: func.func @late(
// CHECK: "kernel.tensor_map"(%{{.*}}) {box = array<i64: 64, 8, 8, 2>, dims = array<i64: 256, 9, 9, 2>, element_strides = array<i64: 1, 1, 1, 1>} : (memref<2x81x256xbf16>) -> !llvm.ptr
func.func @late(%x: tensor<2x256x7x7xbf16>, %w: tensor<256x256x3x3xbf16>) -> tensor<2x256x7x7xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x256x7x7xbf16>, tensor<256x256x3x3xbf16>) -> tensor<2x256x7x7xbf16>
  return %y : tensor<2x256x7x7xbf16>
}

// The strided conv's kernel: the 4-D descriptor, the tile's origin (tile %pm of 1 tile
// column: oh0 = 8 th, ow0 = 16 tw, input row and column times the stride), the k step's
// tap and channels, a 4-coordinate box load; the epilogue's pixel map and mask.
// KERNEL: gpu.func @cuda_tem_fused_conv_6({{.*}}) kernel attributes {{{.*}}braze.tma_boxes = [array<i64: 0, 64, 32, 16, 1, 64, 32, 22, 2, 1, 2, 2, 1>, array<i64: 1, 64, 64>]
// KERNEL: %[[DA:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<1x8x16x64xbf16, 3>, swizzle = swizzle_128b
// KERNEL: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c24576
// KERNEL: nvgpu.tma.async.load %[[DA]][%c0, %{{.*}}, %{{.*}}, %block_id_y], %{{.*}} to %{{.*}} : <tensor = memref<1x8x16x64xbf16, 3>, {{.*}} -> memref<1x8x16x64xbf16, 3>
// KERNEL: nvgpu.warpgroup.mma
// KERNEL: scf.for %{{.*}} = %thread_id_x to %c2048 step %c256 {
// KERNEL: arith.cmpi ult, %{{.*}}, %c10 : index
// KERNEL: arith.cmpi ult, %{{.*}}, %c15 : index

// PTX: .param .align 64 .b8 cuda_tem_fused_conv_6_param_3[128]
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
