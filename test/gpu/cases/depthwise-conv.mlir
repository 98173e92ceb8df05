// gpu-metric: norm
// Depthwise convs on CUDA (cuda-default's graph-decompose conv-depthwise=window): each
// is a window reduction over its channels-last input, one element kernel summing the
// taps of `vec` channels per thread with its bias and activation, instead of the SIMT
// kernel's batched product of one column per group (`template refused: batched-b`).
// Checked on the device against the reference interpreter by test/gpu/run.sh:
// MobileNetV2's inverted residual at a small size (expand 1x1, 3x3 depthwise, relu6,
// project 1x1, residual), a strided depthwise conv on an odd image, ConvNeXt's 7x7
// depthwise conv (pad 3) with its bias, and an f32 5x5 one.
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose{conv-half-k-align=8 conv-depthwise=window remarks},graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half pad-templates pad-channels=64},form-row-chains{target=cuda online=cuda},cuda-codegen{matmul=auto remarks})' -o /dev/null 2>&1 | FileCheck %s
// RUN: braze compile %s --target=cuda --no-header --emit=mlir -o - | grep -o 'gpu.func @[a-z_0-9]*' | sort | FileCheck %s --check-prefix=DEFAULT
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_per_fused_conv_2.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// REQUIRES: cuda

// CHECK-COUNT-4: remark: graph-decompose: depthwise conv as a window reduction over the channels-last input
// CHECK-NOT: batched-b
// CHECK: kernel @cuda_per_fused_conv_2: element kernel
// CHECK-NOT: batched-b
// cuda-default takes the window form too: the depthwise reductions are element kernels
// (`per`), the only template kernels the two 1x1 products.
// DEFAULT-COUNT-4: gpu.func @cuda_per_fused_conv_
// DEFAULT: gpu.func @cuda_tem_fused_conv_{{[0-9]+$}}
// DEFAULT-NEXT: gpu.func @cuda_tem_fused_conv_add_relu_min_{{[0-9]+$}}
// DEFAULT-NEXT: gpu.func @cuda_tem_fused_conv_add_relu_min_{{[0-9]+}}_extern
// DEFAULT-NOT: gpu.func
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @inverted_residual(%x: tensor<2x24x14x14xbf16>, %w1: tensor<144x24x1x1xbf16>, %b1: tensor<144x1x1xbf16>, %w2: tensor<144x1x3x3xbf16>, %b2: tensor<144x1x1xbf16>, %w3: tensor<24x144x1x1xbf16>) -> tensor<2x24x14x14xbf16> {
  %six = "graph.constant"() {value = dense<6.0> : tensor<bf16>} : () -> tensor<bf16>
  %e0 = "graph.conv"(%x, %w1) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x14x14xbf16>, tensor<144x24x1x1xbf16>) -> tensor<2x144x14x14xbf16>
  %e1 = "graph.add"(%e0, %b1) : (tensor<2x144x14x14xbf16>, tensor<144x1x1xbf16>) -> tensor<2x144x14x14xbf16>
  %e2 = "graph.relu"(%e1) : (tensor<2x144x14x14xbf16>) -> tensor<2x144x14x14xbf16>
  %e = "graph.min"(%e2, %six) : (tensor<2x144x14x14xbf16>, tensor<bf16>) -> tensor<2x144x14x14xbf16>
  %d0 = "graph.conv"(%e, %w2) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 144 : i64} : (tensor<2x144x14x14xbf16>, tensor<144x1x3x3xbf16>) -> tensor<2x144x14x14xbf16>
  %d1 = "graph.add"(%d0, %b2) : (tensor<2x144x14x14xbf16>, tensor<144x1x1xbf16>) -> tensor<2x144x14x14xbf16>
  %d2 = "graph.relu"(%d1) : (tensor<2x144x14x14xbf16>) -> tensor<2x144x14x14xbf16>
  %d = "graph.min"(%d2, %six) : (tensor<2x144x14x14xbf16>, tensor<bf16>) -> tensor<2x144x14x14xbf16>
  %p = "graph.conv"(%d, %w3) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x144x14x14xbf16>, tensor<24x144x1x1xbf16>) -> tensor<2x24x14x14xbf16>
  %y = "graph.add"(%x, %p) : (tensor<2x24x14x14xbf16>, tensor<2x24x14x14xbf16>) -> tensor<2x24x14x14xbf16>
  return %y : tensor<2x24x14x14xbf16>
}

func.func @strided_odd(%x: tensor<3x64x15x13xbf16>, %w: tensor<64x1x3x3xbf16>) -> tensor<3x64x8x7xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 64 : i64} : (tensor<3x64x15x13xbf16>, tensor<64x1x3x3xbf16>) -> tensor<3x64x8x7xbf16>
  return %y : tensor<3x64x8x7xbf16>
}

func.func @convnext_7x7(%x: tensor<2x96x14x14xbf16>, %w: tensor<96x1x7x7xbf16>, %b: tensor<96x1x1xbf16>) -> tensor<2x96x14x14xbf16> {
  %y0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 3, 3, 3, 3>, dilations = array<i64: 1, 1>, groups = 96 : i64} : (tensor<2x96x14x14xbf16>, tensor<96x1x7x7xbf16>) -> tensor<2x96x14x14xbf16>
  %y = "graph.add"(%y0, %b) : (tensor<2x96x14x14xbf16>, tensor<96x1x1xbf16>) -> tensor<2x96x14x14xbf16>
  return %y : tensor<2x96x14x14xbf16>
}

func.func @f32_5x5(%x: tensor<1x40x11x11xf32>, %w: tensor<40x1x5x5xf32>) -> tensor<1x40x11x11xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>, groups = 40 : i64} : (tensor<1x40x11x11xf32>, tensor<40x1x5x5xf32>) -> tensor<1x40x11x11xf32>
  return %y : tensor<1x40x11x11xf32>
}
