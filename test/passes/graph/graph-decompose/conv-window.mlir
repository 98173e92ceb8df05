// conv's default expansion (conv-im2col=window, decision 0019): the columns are a view,
// reshape(window(xl)), of the channels-last input xl, zero-padded by one gather at a
// constant position table and a select on a constant mask when the conv pads; the
// product and the view back to NCHW are as in the gather form (conv.mlir). Groups are
// moved before P by a transpose of the view. Four spatial dims would give the window
// a rank above 8: that conv is a gather (remark). A bad conv-im2col value is an error.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-im2col=direct 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: graph-decompose: option 'conv-im2col' expects window or gather, got 'direct'

// CHECK-LABEL: func.func @padded
// CHECK-NEXT: %[[XL:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x5x5x2xf32>
// CHECK-NEXT: %[[FLAT:.*]] = "graph.reshape"(%[[XL]]) : (tensor<1x5x5x2xf32>) -> tensor<1x25x2xf32>
// CHECK-NEXT: %[[POS:.*]] = "graph.constant"() {value = dense<[-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, -1, -1, 5, 6, 7, 8, 9, -1, -1, 10, 11, 12, 13, 14, -1, -1, 15, 16, 17, 18, 19, -1, -1, 20, 21, 22, 23, 24, -1, -1, -1, -1, -1, -1, -1, -1]> : tensor<49xi32>}
// CHECK-NEXT: %[[IN:.*]] = "graph.constant"() {value = dense<{{\[}}[false], [false], [false], [false], [false], [false], [false], [false], [true], {{.*}}> : tensor<49x1xi1>}
// CHECK-NEXT: %[[G:.*]] = "graph.gather"(%[[FLAT]], %[[POS]]) {axis = 1 : i64} : (tensor<1x25x2xf32>, tensor<49xi32>) -> tensor<1x49x2xf32>
// CHECK-NEXT: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[P:.*]] = "graph.select"(%[[IN]], %[[G]], %[[Z]]) : (tensor<49x1xi1>, tensor<1x49x2xf32>, tensor<f32>) -> tensor<1x49x2xf32>
// CHECK-NEXT: %[[XP:.*]] = "graph.reshape"(%[[P]]) : (tensor<1x49x2xf32>) -> tensor<1x7x7x2xf32>
// CHECK-NEXT: %[[WIN:.*]] = "graph.window"(%[[XP]]) {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>) -> tensor<1x3x3x3x3x2xf32>
// CHECK-NEXT: %[[COLS:.*]] = "graph.reshape"(%[[WIN]]) : (tensor<1x3x3x3x3x2xf32>) -> tensor<1x1x9x18xf32>
// CHECK-NEXT: %[[W1:.*]] = "graph.reshape"(%arg1) : (tensor<4x2x3x3xf32>) -> tensor<1x4x2x9xf32>
// CHECK-NEXT: %[[W2:.*]] = "graph.transpose"(%[[W1]]) {perm = array<i64: 0, 3, 2, 1>} : (tensor<1x4x2x9xf32>) -> tensor<1x9x2x4xf32>
// CHECK-NEXT: %[[W:.*]] = "graph.reshape"(%[[W2]]) : (tensor<1x9x2x4xf32>) -> tensor<1x18x4xf32>
// CHECK-NEXT: %[[Y:.*]] = "graph.batch_matmul"(%[[COLS]], %[[W]]) : (tensor<1x1x9x18xf32>, tensor<1x18x4xf32>) -> tensor<1x1x9x4xf32>
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%[[Y]]) {perm = array<i64: 0, 1, 3, 2>}
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%[[T]]) : (tensor<1x1x4x9xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @padded(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %y : tensor<1x4x3x3xf32>
}

// No padding: no copy, the window reads the transposed view of x. Groups: the window
// [N, O, K, G Cg] is read as [N, P, KK, G, Cg] and G moved before P.
// CHECK-LABEL: func.func @grouped_dilated
// CHECK-NEXT: %[[XL:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x9xf32>) -> tensor<2x9x4xf32>
// CHECK-NEXT: %[[WIN:.*]] = "graph.window"(%[[XL]]) {dilations = array<i64: 3>, kernel = array<i64: 2>, strides = array<i64: 2>} : (tensor<2x9x4xf32>) -> tensor<2x3x2x4xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.reshape"(%[[WIN]]) : (tensor<2x3x2x4xf32>) -> tensor<2x3x2x2x2xf32>
// CHECK-NEXT: %[[GT:.*]] = "graph.transpose"(%[[S]]) {perm = array<i64: 0, 3, 1, 2, 4>} : (tensor<2x3x2x2x2xf32>) -> tensor<2x2x3x2x2xf32>
// CHECK-NEXT: %[[COLS:.*]] = "graph.reshape"(%[[GT]]) : (tensor<2x2x3x2x2xf32>) -> tensor<2x2x3x4xf32>
// CHECK: "graph.batch_matmul"(%[[COLS]], %{{.*}}) : (tensor<2x2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x2x3x3xf32>
func.func @grouped_dilated(%x: tensor<2x4x9xf32>, %w: tensor<6x2x2xf32>) -> tensor<2x6x3xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 3>, groups = 2 : i64} : (tensor<2x4x9xf32>, tensor<6x2x2xf32>) -> tensor<2x6x3xf32>
  return %y : tensor<2x6x3xf32>
}

// CHECK-LABEL: func.func @four_spatial
// CHECK-NOT: graph.window
// CHECK: "graph.gather"({{.*}}) {axis = 2 : i64} : (tensor<1x1x81xf32>, tensor<16x16xi32>) -> tensor<1x1x16x16xf32>
func.func @four_spatial(%x: tensor<1x1x3x3x3x3xf32>, %w: tensor<1x1x2x2x2x2xf32>) -> tensor<1x1x2x2x2x2xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1, 1>, groups = 1 : i64} : (tensor<1x1x3x3x3x3xf32>, tensor<1x1x2x2x2x2xf32>) -> tensor<1x1x2x2x2x2xf32>
  return %y : tensor<1x1x2x2x2x2xf32>
}

// REMARK: :[[@LINE-12]]:8: remark: graph-decompose: conv im2col as a window view (implicit GEMM)
// REMARK: :[[@LINE-5]]:8: remark: graph-decompose: conv im2col as a gather: a window view has at most 3 spatial dims
