// gpu-metric: norm
// ResNet's downsampling convs (1x1, stride 2) reading the channels-last output of another
// conv: form-row-chains leaves their input a view (a window of one tap, 64-channel rows)
// instead of copying the strided rows for the template, and the template loads A by
// 4-D TMA boxes with element strides 2 (targets/cuda/matmul/window.c). Checked on the
// device against the reference interpreter by test/gpu/run.sh: R1's downsampling block
// (x -> conv3x3 -> the block, its residual the 1x1/2 conv), an odd image (15x13: the
// last box of each row reads past the image, zero-filled and masked) in an odd batch,
// and a stride-3 conv at stage 4's width. Only the weights get copies.
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/cuda_tem_fused_conv_7.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_tem_fused_conv_7.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half pad-templates pad-channels=64},form-row-chains{target=cuda online=cuda remarks},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half pad-templates pad-channels=64},form-row-chains{target=cuda online=cuda remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=COPIES
// REQUIRES: cuda
// The downsampling conv's kernel: its A by one 4-D box per k step (element strides 2),
// no spills.
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: wgmma.mma_async.sync.aligned
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// Every template kernel here copies its weight alone (no A copies).
// COPIES-NOT: reads 2 operand(s)
// COPIES-COUNT-3: reads 1 operand(s) through a view
// COPIES-NOT: reads 2 operand(s)

// The block's downsampling conv: its weight copied ([C, OC]), its input read in place.
// CHECK-DAG: :[[@LINE+8]]:{{[0-9]+}}: remark: form-row-chains: @cuda_tem_fused_conv_{{[_a-z0-9]+}} reads 1 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: :[[@LINE+7]]:{{[0-9]+}}: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[_a-z0-9]+}}: matmul kernel, {{.*}} tensor-core template: {{.*}}, A by window boxes 8x8 pixels x 2 image(s) (taps 1x1, strides 2x2)
func.func @ds_block(%x: tensor<2x64x16x16xbf16>, %w0: tensor<64x64x3x3xbf16>, %w1: tensor<128x64x3x3xbf16>, %w2: tensor<128x128x3x3xbf16>, %wd: tensor<128x64x1x1xbf16>, %bd: tensor<128x1x1xbf16>) -> tensor<2x128x8x8xbf16> {
  %y0 = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x16x16xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x16x16xbf16>
  %y = "graph.relu"(%y0) : (tensor<2x64x16x16xbf16>) -> tensor<2x64x16x16xbf16>
  %h0 = "graph.conv"(%y, %w1) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x16x16xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x8x8xbf16>
  %h1 = "graph.relu"(%h0) : (tensor<2x128x8x8xbf16>) -> tensor<2x128x8x8xbf16>
  %h2 = "graph.conv"(%h1, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x128x8x8xbf16>, tensor<128x128x3x3xbf16>) -> tensor<2x128x8x8xbf16>
  %d0 = "graph.conv"(%y, %wd) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x16x16xbf16>, tensor<128x64x1x1xbf16>) -> tensor<2x128x8x8xbf16>
  %d = "graph.add"(%d0, %bd) : (tensor<2x128x8x8xbf16>, tensor<128x1x1xbf16>) -> tensor<2x128x8x8xbf16>
  %s = "graph.add"(%h2, %d) : (tensor<2x128x8x8xbf16>, tensor<2x128x8x8xbf16>) -> tensor<2x128x8x8xbf16>
  %r = "graph.relu"(%s) : (tensor<2x128x8x8xbf16>) -> tensor<2x128x8x8xbf16>
  return %r : tensor<2x128x8x8xbf16>
}

// 15x13 -> 8x7 in an odd batch of 3: boxes of 8 output columns (16 input columns, the
// last past the 13) and rows past the image, zero-filled by TMA and masked at the store.
// CHECK-DAG: :[[@LINE+4]]:{{[0-9]+}}: remark: form-row-chains: @cuda_tem_fused_conv_{{[_a-z0-9]+}} reads 1 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: :[[@LINE+3]]:{{[0-9]+}}: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[_a-z0-9]+}}: matmul kernel, {{.*}} A by window boxes 8x8 pixels x 2 image(s) (taps 1x1, strides 2x2)
func.func @ds_odd(%x: tensor<3x64x15x13xbf16>, %w0: tensor<64x64x3x3xbf16>, %wd: tensor<128x64x1x1xbf16>) -> tensor<3x128x8x7xbf16> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x64x15x13xbf16>, tensor<64x64x3x3xbf16>) -> tensor<3x64x15x13xbf16>
  %d = "graph.conv"(%y, %wd) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x64x15x13xbf16>, tensor<128x64x1x1xbf16>) -> tensor<3x128x8x7xbf16>
  return %d : tensor<3x128x8x7xbf16>
}

// Stride 3 over 256 channels (12x12 -> 4x4), its product's relu in the epilogue.
// CHECK-DAG: :[[@LINE+4]]:{{[0-9]+}}: remark: form-row-chains: @cuda_tem_fused_conv_{{[_a-z0-9]+}} reads 1 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: :[[@LINE+3]]:{{[0-9]+}}: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[_a-z0-9]+}}: matmul kernel, {{.*}} A by window boxes {{.*}} (taps 1x1, strides 3x3)
func.func @ds_stride3(%x: tensor<2x256x12x12xbf16>, %w0: tensor<256x256x3x3xbf16>, %wd: tensor<128x256x1x1xbf16>) -> tensor<2x128x4x4xbf16> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x256x12x12xbf16>, tensor<256x256x3x3xbf16>) -> tensor<2x256x12x12xbf16>
  %d0 = "graph.conv"(%y, %wd) {strides = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x256x12x12xbf16>, tensor<128x256x1x1xbf16>) -> tensor<2x128x4x4xbf16>
  %d = "graph.relu"(%d0) : (tensor<2x128x4x4xbf16>) -> tensor<2x128x4x4xbf16>
  return %d : tensor<2x128x4x4xbf16>
}
