// conv-half-k-align=N (decision 0021): a bf16/f16 conv whose K = C/groups x kernel
// size is not a multiple of N gets K padded with zero columns: its columns are a gather
// at a [P, Kp] position table with -1 (read as zero by the select) past K, and its
// weight matrix gets zero rows ([K, OC] padded and viewed [1, Kp, OC] for one group, so
// that B stays a plain matrix). Left alone: f32, a K that is a multiple of N, a
// pointwise conv, and the default (0: off). Bad values are errors.
// RUN: braze-opt %s --graph-decompose=conv-half-k-align=8 | FileCheck %s
// RUN: braze-opt %s --pass-pipeline='builtin.module(graph-decompose{conv-half-k-align=8 remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt %s --graph-decompose | FileCheck %s --check-prefix=OFF
// RUN: braze check %s --pipeline=%S/Inputs/half-k-align.pipeline --rtol 2e-2
// RUN: not braze-opt %s --graph-decompose=conv-half-k-align=65 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not braze-opt %s --graph-decompose=conv-half-k-align=many 2>&1 | FileCheck %s --check-prefix=NAN
// RANGE: graph-decompose: conv-half-k-align must be in [0, 64], got 65
// NAN: option 'conv-half-k-align' expects an integer, got 'many'

// K = 3 x 3 x 3 = 27 -> 32: a [4, 32] table, five -1 columns per row.
// CHECK-LABEL: func.func @stem
// CHECK: %[[POS:.*]] = "graph.constant"() {value = dense<{{.*}}> : tensor<4x32xi32>}
// CHECK: %[[G:.*]] = "graph.gather"(%{{.*}}, %[[POS]]) {axis = 2 : i64} : (tensor<2x1x48xbf16>, tensor<4x32xi32>) -> tensor<2x1x4x32xbf16>
// CHECK: %[[COLS:.*]] = "graph.select"(%{{.*}}, %[[G]], %{{.*}}) : (tensor<4x32xi1>, tensor<2x1x4x32xbf16>, tensor<bf16>) -> tensor<2x1x4x32xbf16>
// CHECK: %[[W:.*]] = "graph.reshape"(%{{.*}}) : (tensor<1x27x5xbf16>) -> tensor<27x5xbf16>
// CHECK: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<5x5xbf16>}
// CHECK: %[[WP:.*]] = "graph.concat"(%[[W]], %[[Z]]) {dim = 0 : i64} : (tensor<27x5xbf16>, tensor<5x5xbf16>) -> tensor<32x5xbf16>
// CHECK: %[[B:.*]] = "graph.reshape"(%[[WP]]) : (tensor<32x5xbf16>) -> tensor<1x32x5xbf16>
// CHECK: "graph.batch_matmul"(%[[COLS]], %[[B]]) : (tensor<2x1x4x32xbf16>, tensor<1x32x5xbf16>) -> tensor<2x1x4x5xbf16>
// REMARK: conv-half-k-align.mlir:[[@LINE+4]]:8: remark: graph-decompose: conv im2col as a gather, K padded with zero columns to 32 (conv-half-k-align=8)
// OFF-LABEL: func.func @stem
// OFF: "graph.window"
func.func @stem(%x: tensor<2x3x4x4xbf16>, %w: tensor<5x3x3x3xbf16>) -> tensor<2x5x2x2xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x4x4xbf16>, tensor<5x3x3x3xbf16>) -> tensor<2x5x2x2xbf16>
  return %y : tensor<2x5x2x2xbf16>
}

// Two groups: the weight is padded per group ([2, 9, 2] -> [2, 16, 2]).
// CHECK-LABEL: func.func @grouped
// CHECK: "graph.concat"(%{{.*}}, %{{.*}}) {dim = 1 : i64} : (tensor<2x9x2xf16>, tensor<2x7x2xf16>) -> tensor<2x16x2xf16>
// CHECK: "graph.batch_matmul"(%{{.*}}, %{{.*}}) : (tensor<1x2x9x16xf16>, tensor<2x16x2xf16>) -> tensor<1x2x9x2xf16>
func.func @grouped(%x: tensor<1x2x3x3xf16>, %w: tensor<4x1x3x3xf16>) -> tensor<1x4x3x3xf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x3x3xf16>, tensor<4x1x3x3xf16>) -> tensor<1x4x3x3xf16>
  return %y : tensor<1x4x3x3xf16>
}

// Left alone: f32 (K = 27), a bf16 K that is a multiple of 8 (8 x 3 x 3 = 72), and a
// pointwise bf16 conv (K = 3, read as a view).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: "graph.concat"
// CHECK: "graph.window"
// CHECK: "graph.window"
// CHECK-NOT: "graph.concat"
// CHECK: return
func.func @kept(%x: tensor<1x3x4x4xf32>, %w: tensor<5x3x3x3xf32>, %x8: tensor<1x8x4x4xbf16>, %w8: tensor<2x8x3x3xbf16>, %w1: tensor<2x3x1x1xbf16>, %x3: tensor<1x3x4x4xbf16>) -> (tensor<1x5x2x2xf32>, tensor<1x2x4x4xbf16>, tensor<1x2x4x4xbf16>) {
  %a = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<5x3x3x3xf32>) -> tensor<1x5x2x2xf32>
  %b = "graph.conv"(%x8, %w8) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x4x4xbf16>, tensor<2x8x3x3xbf16>) -> tensor<1x2x4x4xbf16>
  %c = "graph.conv"(%x3, %w1) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x4x4xbf16>, tensor<2x3x1x1xbf16>) -> tensor<1x2x4x4xbf16>
  return %a, %b, %c : tensor<1x5x2x2xf32>, tensor<1x2x4x4xbf16>, tensor<1x2x4x4xbf16>
}
