// The convolutions parse, pass the verifier, print, and the printed form parses again
// (roundtrip.mlir holds the other ops).
// RUN: braze-opt --cpu=x86-64-v4 %s | braze-opt --cpu=x86-64-v4 | FileCheck %s

// CHECK-LABEL: func.func @convs
// CHECK: "graph.conv"(%{{.*}}, %{{.*}}) {dilations = array<i64: 1, 2>, groups = 1 : i64, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x5x3xf32>
// CHECK: "graph.conv"(%{{.*}}, %{{.*}}) {dilations = array<i64: 1>, groups = 4 : i64, pads = array<i64: 1, 1>, strides = array<i64: 1>} : (tensor<2x4x7xbf16>, tensor<4x1x3xbf16>) -> tensor<2x4x7xbf16>
// CHECK: "graph.conv_transpose"(%{{.*}}, %{{.*}}) {dilations = array<i64: 1, 1, 1>, groups = 1 : i64, output_padding = array<i64: 1, 0, 0>, pads = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 2, 1, 1>} : (tensor<1x2x3x3x3xf16>, tensor<2x5x2x2x2xf16>) -> tensor<1x5x7x4x4xf16>
func.func @convs(%x: tensor<1x3x9x9xf32>, %w: tensor<8x3x3x3xf32>, %x1: tensor<2x4x7xbf16>, %w1: tensor<4x1x3xbf16>,
                 %x3: tensor<1x2x3x3x3xf16>, %w3: tensor<2x5x2x2x2xf16>)
    -> (tensor<1x8x5x3xf32>, tensor<2x4x7xbf16>, tensor<1x5x7x4x4xf16>) {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 2>, groups = 1 : i64}
      : (tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x5x3xf32>
  %1 = "graph.conv"(%x1, %w1) {strides = array<i64: 1>, pads = array<i64: 1, 1>, dilations = array<i64: 1>, groups = 4 : i64}
      : (tensor<2x4x7xbf16>, tensor<4x1x3xbf16>) -> tensor<2x4x7xbf16>
  %2 = "graph.conv_transpose"(%x3, %w3) {strides = array<i64: 2, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64, output_padding = array<i64: 1, 0, 0>}
      : (tensor<1x2x3x3x3xf16>, tensor<2x5x2x2x2xf16>) -> tensor<1x5x7x4x4xf16>
  return %0, %1, %2 : tensor<1x8x5x3xf32>, tensor<2x4x7xbf16>, tensor<1x5x7x4x4xf16>
}
