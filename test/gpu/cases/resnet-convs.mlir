// gpu-metric: norm
// ResNet's conv paths on the GPU (issue 22, decision 0021), checked on the device against
// the reference interpreter by test/gpu/run.sh: a 7x7 stride-2 stem on 3 channels, whose
// K = 147 cuda-default pads to 152 (graph-decompose{conv-half-k-align=8}) so that the
// tensor-core template takes it with its bias and relu; a 3x3 stride-2 max pool over a
// padding written as concats of zeros (graph-simplify's window-zero-pad: one gather
// fused into the pool's reduction); a basic block with a 3x3 stride-2 conv, a 3x3 conv
// and a strided 1x1 downsample as the residual. Sums over hundreds of bf16 products:
// checked norm-wise. And a matmul narrower than 64 columns (the 128x64 tile).
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: cuda

// The stem's product on the template, bias and relu its epilogue; no concat kernel.
// CHECK-NOT: kernel @cuda_poi_fused_concat
// CHECK-DAG: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_add_relu_{{[0-9]+}}: matmul kernel, grid (8, 2, 1), block 256, vector width 8, tensor-core template: 128x64 tiles
// CHECK-DAG: :[[@LINE+13]]:10: remark: cuda-codegen: kernel @cuda_per_fused_reshape_gather_select_window_reduce_max_{{[0-9]+}}: element kernel
func.func @stem_pool(%x: tensor<2x3x64x64xbf16>, %w: tensor<64x3x7x7xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x16x16xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x64x64xbf16>, tensor<64x3x7x7xbf16>) -> tensor<2x64x32x32xbf16>
  %br = "graph.reshape"(%b) : (tensor<64xbf16>) -> tensor<64x1x1xbf16>
  %ya = "graph.add"(%y, %br) : (tensor<2x64x32x32xbf16>, tensor<64x1x1xbf16>) -> tensor<2x64x32x32xbf16>
  %r = "graph.relu"(%ya) : (tensor<2x64x32x32xbf16>) -> tensor<2x64x32x32xbf16>
  %t = "graph.transpose"(%r) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x64x32x32xbf16>) -> tensor<2x32x32x64xbf16>
  %z1 = "graph.constant"() {value = dense<0.0> : tensor<2x1x32x64xbf16>} : () -> tensor<2x1x32x64xbf16>
  %p1 = "graph.concat"(%z1, %t) {dim = 1 : i64} : (tensor<2x1x32x64xbf16>, tensor<2x32x32x64xbf16>) -> tensor<2x33x32x64xbf16>
  %p2 = "graph.concat"(%p1, %z1) {dim = 1 : i64} : (tensor<2x33x32x64xbf16>, tensor<2x1x32x64xbf16>) -> tensor<2x34x32x64xbf16>
  %z2 = "graph.constant"() {value = dense<0.0> : tensor<2x34x1x64xbf16>} : () -> tensor<2x34x1x64xbf16>
  %p3 = "graph.concat"(%z2, %p2) {dim = 2 : i64} : (tensor<2x34x1x64xbf16>, tensor<2x34x32x64xbf16>) -> tensor<2x34x33x64xbf16>
  %p4 = "graph.concat"(%p3, %z2) {dim = 2 : i64} : (tensor<2x34x33x64xbf16>, tensor<2x34x1x64xbf16>) -> tensor<2x34x34x64xbf16>
  %win = "graph.window"(%p4) {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<2x34x34x64xbf16>) -> tensor<2x16x16x3x3x64xbf16>
  %m = "graph.reduce_max"(%win) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<2x16x16x3x3x64xbf16>) -> tensor<2x16x16x64xbf16>
  %o = "graph.transpose"(%m) {perm = array<i64: 0, 3, 1, 2>} : (tensor<2x16x16x64xbf16>) -> tensor<2x64x16x16xbf16>
  return %o : tensor<2x64x16x16xbf16>
}

// A downsampling basic block: relu(conv3x3(relu(conv3x3/2(x))) + conv1x1/2(x)).
func.func @block(%x: tensor<2x64x16x16xbf16>, %w1: tensor<128x64x3x3xbf16>, %w2: tensor<128x128x3x3xbf16>, %wd: tensor<128x64x1x1xbf16>) -> tensor<2x128x8x8xbf16> {
  %h = "graph.conv"(%x, %w1) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x16x16xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x8x8xbf16>
  %hr = "graph.relu"(%h) : (tensor<2x128x8x8xbf16>) -> tensor<2x128x8x8xbf16>
  %h2 = "graph.conv"(%hr, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x128x8x8xbf16>, tensor<128x128x3x3xbf16>) -> tensor<2x128x8x8xbf16>
  %d = "graph.conv"(%x, %wd) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x16x16xbf16>, tensor<128x64x1x1xbf16>) -> tensor<2x128x8x8xbf16>
  %s = "graph.add"(%h2, %d) : (tensor<2x128x8x8xbf16>, tensor<2x128x8x8xbf16>) -> tensor<2x128x8x8xbf16>
  %r = "graph.relu"(%s) : (tensor<2x128x8x8xbf16>) -> tensor<2x128x8x8xbf16>
  return %r : tensor<2x128x8x8xbf16>
}

// A product narrower than 64 columns (the template's 128x64 tile, its last 24 columns
// TMA's zero fill, masked at the store).
func.func @narrow_n(%x: tensor<300x200xbf16>, %w: tensor<200x40xbf16>, %b: tensor<40xbf16>) -> tensor<300x40xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<300x200xbf16>, tensor<200x40xbf16>) -> tensor<300x40xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<300x40xbf16>, tensor<40xbf16>) -> tensor<300x40xbf16>
  %2 = "graph.relu"(%1) : (tensor<300x40xbf16>) -> tensor<300x40xbf16>
  return %2 : tensor<300x40xbf16>
}

// The template's window boxes (decision 0021: A read by one 4-D TMA box per filter tap
// from the padded channels-last input): ResNet's stage-1 shape (56 output columns in
// 2x64-pixel tiles, the last 8 columns of each masked), a 7x7 output (8x16-pixel tiles,
// 9 of 16 rows masked), a dilated conv (taps 2 apart) and a strided conv on a
// non-square input (15 output columns in 8x16 tiles, element strides 2).
func.func @stage1(%x: tensor<2x64x56x56xbf16>, %w: tensor<64x64x3x3xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x56x56xbf16> {
  %h = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x56x56xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x56x56xbf16>
  %br = "graph.reshape"(%b) : (tensor<64xbf16>) -> tensor<64x1x1xbf16>
  %a = "graph.add"(%h, %br) : (tensor<2x64x56x56xbf16>, tensor<64x1x1xbf16>) -> tensor<2x64x56x56xbf16>
  %r = "graph.relu"(%a) : (tensor<2x64x56x56xbf16>) -> tensor<2x64x56x56xbf16>
  return %r : tensor<2x64x56x56xbf16>
}

func.func @stage4(%x: tensor<2x128x7x7xbf16>, %w: tensor<128x128x3x3xbf16>) -> tensor<2x128x7x7xbf16> {
  %h = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x128x7x7xbf16>, tensor<128x128x3x3xbf16>) -> tensor<2x128x7x7xbf16>
  return %h : tensor<2x128x7x7xbf16>
}

func.func @dilated(%x: tensor<2x64x12x12xbf16>, %w: tensor<64x64x3x3xbf16>) -> tensor<2x64x12x12xbf16> {
  %h = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 1 : i64} : (tensor<2x64x12x12xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x12x12xbf16>
  return %h : tensor<2x64x12x12xbf16>
}

func.func @strided_wide(%x: tensor<2x64x20x30xbf16>, %w: tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16> {
  %h = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x20x30xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16>
  return %h : tensor<2x128x10x15xbf16>
}

// Three 7x7 images in tiles of two (2 x 8 x 8 pixels): the second block's second image
// is past the batch, zero-filled by TMA and masked at the store.
func.func @odd_batch(%x: tensor<3x64x7x7xbf16>, %w: tensor<64x64x3x3xbf16>, %b: tensor<64xbf16>) -> tensor<3x64x7x7xbf16> {
  %h = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x64x7x7xbf16>, tensor<64x64x3x3xbf16>) -> tensor<3x64x7x7xbf16>
  %br = "graph.reshape"(%b) : (tensor<64xbf16>) -> tensor<64x1x1xbf16>
  %a = "graph.add"(%h, %br) : (tensor<3x64x7x7xbf16>, tensor<64x1x1xbf16>) -> tensor<3x64x7x7xbf16>
  return %a : tensor<3x64x7x7xbf16>
}
