// conv-depthwise=window: a depthwise conv (groups = C = OC) becomes a window reduction
// over its zero-padded channels-last input, sum over taps of window(xl) [N, O.., KK, C]
// times the weight read as [KK, C], transposed back to [N, C, O..]; no batch_matmul.
// A grouped conv with several channels per group, or two outputs per channel, keeps
// the product form (remark); without the option every conv does. The reference
// interpreter gives the same outputs before and after (f32, a few ulps): padded and
// strided 2-D, dilated, 1-D and 3-D depthwise convs.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-depthwise=window}))' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-depthwise=window remarks}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s --check-prefix=OFF
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-depthwise=direct}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t/before %t/after
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-decompose{conv-depthwise=window}))' -o %t/decomposed.mlir
// RUN: for f in padded_strided dilated one_d three_d grouped; do \
// RUN:   braze run %s --func $f --seed 1 --save-outputs %t/before/$f --quiet && \
// RUN:   braze run %t/decomposed.mlir --func $f --seed 1 --save-outputs %t/after/$f --quiet && \
// RUN:   %python %S/Inputs/compare_outputs.py %t/before/$f %t/after/$f 1e-5 1e-6 || exit 1; done | FileCheck %s --check-prefix=SAME

// CHECK-LABEL: func.func @padded_strided(
// CHECK: "graph.gather"
// CHECK: %[[P:[0-9]+]] = "graph.reshape"(%{{[0-9]+}}) : (tensor<2x49x4xf32>) -> tensor<2x7x7x4xf32>
// CHECK: %[[W:[0-9]+]] = "graph.window"(%[[P]]) {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x7x7x4xf32>) -> tensor<2x3x3x3x3x4xf32>
// CHECK: %[[V:[0-9]+]] = "graph.reshape"(%[[W]]) : (tensor<2x3x3x3x3x4xf32>) -> tensor<2x3x3x9x4xf32>
// CHECK: %[[R:[0-9]+]] = "graph.reshape"(%arg1) : (tensor<4x1x3x3xf32>) -> tensor<4x9xf32>
// CHECK: %[[T:[0-9]+]] = "graph.transpose"(%[[R]]) {perm = array<i64: 1, 0>} : (tensor<4x9xf32>) -> tensor<9x4xf32>
// CHECK: %[[M:[0-9]+]] = "graph.mul"(%[[V]], %[[T]])
// CHECK: %[[S:[0-9]+]] = "graph.reduce_sum"(%[[M]]) {dims = array<i64: 3>, keepdim = false} : (tensor<2x3x3x9x4xf32>) -> tensor<2x3x3x4xf32>
// CHECK: "graph.transpose"(%[[S]]) {perm = array<i64: 0, 3, 1, 2>} : (tensor<2x3x3x4xf32>) -> tensor<2x4x3x3xf32>
// CHECK-NOT: batch_matmul
// CHECK-LABEL: func.func @dilated(
// CHECK-NOT: batch_matmul
// CHECK: "graph.reduce_sum"
// CHECK-LABEL: func.func @one_d(
// CHECK-NOT: batch_matmul
// CHECK: "graph.reduce_sum"{{.*}} : (tensor<1x6x5x8xf32>) -> tensor<1x6x8xf32>
// CHECK-LABEL: func.func @three_d(
// CHECK-NOT: batch_matmul
// CHECK: "graph.reduce_sum"{{.*}} : (tensor<1x2x2x2x8x3xf32>) -> tensor<1x2x2x2x3xf32>
// CHECK-LABEL: func.func @grouped(
// CHECK: "graph.batch_matmul"
// CHECK-LABEL: func.func @multiplier(
// CHECK: "graph.batch_matmul"
// OFF-LABEL: func.func @padded_strided(
// OFF: "graph.batch_matmul"
// REMARK: conv-depthwise.mlir:[[@LINE+5]]:8: remark: graph-decompose: depthwise conv as a window reduction over the channels-last input (conv-depthwise=window)
// REMARK: conv-depthwise.mlir:[[@LINE+20]]:8: remark: graph-decompose: conv im2col as a window view (implicit GEMM)
// BAD: graph-decompose: option 'conv-depthwise' expects matmul or window, got 'direct'
// SAME-COUNT-5: ok out0.npy float32
func.func @padded_strided(%x: tensor<2x4x6x6xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<2x4x3x3xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>, groups = 4 : i64} : (tensor<2x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}
func.func @dilated(%x: tensor<1x6x9x9xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x9x9xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 6 : i64} : (tensor<1x6x9x9xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x9x9xf32>
  return %y : tensor<1x6x9x9xf32>
}
func.func @one_d(%x: tensor<1x8x10xf32>, %w: tensor<8x1x5xf32>) -> tensor<1x8x6xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, groups = 8 : i64} : (tensor<1x8x10xf32>, tensor<8x1x5xf32>) -> tensor<1x8x6xf32>
  return %y : tensor<1x8x6xf32>
}
func.func @three_d(%x: tensor<1x3x3x3x3xf32>, %w: tensor<3x1x2x2x2xf32>) -> tensor<1x3x2x2x2xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 3 : i64} : (tensor<1x3x3x3x3xf32>, tensor<3x1x2x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  return %y : tensor<1x3x2x2x2xf32>
}
func.func @grouped(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %y : tensor<1x4x3x3xf32>
}
func.func @multiplier(%x: tensor<1x2x5x5xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %y : tensor<1x4x3x3xf32>
}
