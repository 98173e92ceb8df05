// gpu-metric: norm
// A conv's zero pad inside its template kernel on CUDA (form-kernels pad-templates in
// cuda-default, decision 0024's third update): the tensor-core template reads the
// unpadded input through its TMA boxes, the window's origin moved up and left by the
// padding, and TMA fills the border with zeros (targets/cuda/matmul/window.c,
// pad_origin); the pad kernel is gone. Each case is a 1x1 (or 3x3) conv whose
// channels-last product the padded conv reads (a conv on a graph argument reads NCHW
// data, whose pad stays a kernel): stride 1, asymmetric pads (2, 1 before; 0, 3
// after), stride 2 on a non-square image, 7x7 images two to a box, and the template's
// refusals, evaluating the pad in place: taps whose rows step past TMA's strides, f32.
// Checked on the device against the reference interpreter by test/gpu/run.sh.
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half pad-templates pad-channels=64},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: cuda

// CHECK: :[[@LINE+4]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} A by window boxes 8x16 pixels x 1 image(s) (taps 3x3, strides 1x1) from the unpadded input, TMA filling the padding
func.func @chain(%x: tensor<2x64x14x14xbf16>, %w: tensor<64x64x3x3xbf16>, %w2: tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16>
  %r = "graph.relu"(%y) : (tensor<2x64x14x14xbf16>) -> tensor<2x64x14x14xbf16>
  %z = "graph.conv"(%r, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16>
  return %z : tensor<2x64x14x14xbf16>
}

// CHECK: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} (taps 3x3, strides 1x1) from the unpadded input, TMA filling the padding
func.func @asym(%x: tensor<2x64x14x14xbf16>, %w: tensor<64x64x1x1xbf16>, %w2: tensor<128x64x3x3xbf16>) -> tensor<2x128x14x16xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x1x1xbf16>) -> tensor<2x64x14x14xbf16>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 2, 1, 0, 3>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x14x16xbf16>
  return %z : tensor<2x128x14x16xbf16>
}

// CHECK: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} (taps 3x3, strides 2x2) from the unpadded input, TMA filling the padding
func.func @strided(%x: tensor<2x64x20x30xbf16>, %w: tensor<64x64x1x1xbf16>, %w2: tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x20x30xbf16>, tensor<64x64x1x1xbf16>) -> tensor<2x64x20x30xbf16>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x20x30xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16>
  return %z : tensor<2x128x10x15xbf16>
}

// CHECK: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} A by window boxes 8x8 pixels x 2 image(s) (taps 3x3, strides 1x1) from the unpadded input, TMA filling the padding
func.func @late(%x: tensor<4x128x7x7xbf16>, %w: tensor<128x128x1x1xbf16>, %w2: tensor<128x128x3x3xbf16>) -> tensor<4x128x7x7xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x128x7x7xbf16>, tensor<128x128x1x1xbf16>) -> tensor<4x128x7x7xbf16>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x128x7x7xbf16>, tensor<128x128x3x3xbf16>) -> tensor<4x128x7x7xbf16>
  return %z : tensor<4x128x7x7xbf16>
}

// CHECK: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} SIMT: {{.*}}; template refused: window-stride-not-1-to-8
func.func @tall(%x: tensor<1x64x11x2xbf16>, %w: tensor<64x64x1x1xbf16>, %w2: tensor<64x64x4x4xbf16>) -> tensor<1x64x4x1xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x64x11x2xbf16>, tensor<64x64x1x1xbf16>) -> tensor<1x64x11x2xbf16>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x64x11x2xbf16>, tensor<64x64x4x4xbf16>) -> tensor<1x64x4x1xbf16>
  return %z : tensor<1x64x4x1xbf16>
}

// CHECK: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_{{[0-9]+}}: matmul kernel, {{.*}} SIMT: {{.*}}; template refused: inputs-not-bf16-or-f16
func.func @single(%x: tensor<2x64x14x14xf32>, %w: tensor<64x64x1x1xf32>, %w2: tensor<64x64x3x3xf32>) -> tensor<2x64x14x14xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xf32>, tensor<64x64x1x1xf32>) -> tensor<2x64x14x14xf32>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xf32>, tensor<64x64x3x3xf32>) -> tensor<2x64x14x14xf32>
  return %z : tensor<2x64x14x14xf32>
}

// The padded conv's input is also its residual: the kernel reads y by TMA boxes (A,
// the padding zero-filled) and as the epilogue's addend at each output element (the sum
// read channels-last by a 1x1 conv, so the add stays in the product's kernel).
// CHECK: :[[@LINE+3]]:8: remark: cuda-codegen: kernel @cuda_tem_fused_conv_add_{{[0-9]+}}: matmul kernel, {{.*}} (taps 3x3, strides 1x1) from the unpadded input, TMA filling the padding
func.func @self_residual(%x: tensor<2x64x14x14xbf16>, %w: tensor<64x64x1x1xbf16>, %w2: tensor<64x64x3x3xbf16>, %w3: tensor<64x64x1x1xbf16>) -> tensor<2x64x14x14xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x1x1xbf16>) -> tensor<2x64x14x14xbf16>
  %z = "graph.conv"(%y, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x3x3xbf16>) -> tensor<2x64x14x14xbf16>
  %s = "graph.add"(%z, %y) : (tensor<2x64x14x14xbf16>, tensor<2x64x14x14xbf16>) -> tensor<2x64x14x14xbf16>
  %t = "graph.conv"(%s, %w3) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x14x14xbf16>, tensor<64x64x1x1xbf16>) -> tensor<2x64x14x14xbf16>
  return %t : tensor<2x64x14x14xbf16>
}

// Six launches for @chain: the first conv's NCHW pad and weight layout, its product,
// the second's weight layout and product, the NCHW result; no second pad.
// CHECK: remark: cuda-codegen: entry @chain: {{.*}}, 6 kernel call(s)
