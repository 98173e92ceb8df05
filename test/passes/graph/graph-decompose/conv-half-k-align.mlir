// conv-half-k-align=N (decision 0021): a bf16/f16 conv whose K = C/groups x kernel
// size is not a multiple of N gets a K that is. Where widening the kernel's last
// spatial dim by zero-weight taps makes K a multiple of N and grows it by at most a
// quarter (a 7x7 stem: 7 x 7 x 3 = 147 -> 7 x 8 x 3 = 168), the columns are a window of
// the padded input (its end padding raised where the wider window passes it) with a
// select zeroing the extra taps' columns (they read real activations: an inf there
// times the zero weight would be NaN), and the weight gets the zero taps (a concat).
// Otherwise K is padded with zero columns: the columns are a gather at a [P, Kp] position table with -1 (read as zero
// by the select) past K, and the weight matrix gets zero rows ([K, OC] padded and
// viewed [1, Kp, OC] for one group, so that B stays a plain matrix). Left alone: f32,
// a K that is a multiple of N, a pointwise conv, and the default (0: off). Bad values
// are errors.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-half-k-align=8 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{conv-half-k-align=8 remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s --check-prefix=OFF
// RUN: braze check %s --pipeline=%S/Inputs/half-k-align.pipeline --rtol 2e-2
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-half-k-align=65 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-half-k-align=many 2>&1 | FileCheck %s --check-prefix=NAN
// RANGE: graph-decompose: conv-half-k-align must be in [0, 64], got 65
// NAN: option 'conv-half-k-align' expects an integer, got 'many'

// K = 3 x 3 x 3 = 27 -> 32: widening the window would take five taps (K = 72), so a
// [4, 32] table, five -1 columns per row.
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

// A 7x7 stem (K = 147): one zero tap more along the last kernel dim, K = 168, the
// columns a [7, 8] window of the padded input (14 = 8 + 3 + 3 reaches the widened
// window's last read: (4 - 1) x 2 + 8), the extra tap's 3 columns of every 24 zeroed
// by a select on a constant mask (the mask's bytes: 21 ones, 3 zeros, repeated), so an
// inf or NaN that the tap reads gives no NaN.
// CHECK-LABEL: func.func @stem7
// CHECK: %[[XP:.*]] = "graph.reshape"(%{{.*}}) : (tensor<2x196x3xbf16>) -> tensor<2x14x14x3xbf16>
// CHECK: %[[WIN:.*]] = "graph.window"(%[[XP]]) {dilations = array<i64: 1, 1>, kernel = array<i64: 7, 8>, strides = array<i64: 2, 2>} : (tensor<2x14x14x3xbf16>) -> tensor<2x4x4x7x8x3xbf16>
// CHECK: %[[WCOLS:.*]] = "graph.reshape"(%[[WIN]]) : (tensor<2x4x4x7x8x3xbf16>) -> tensor<2x1x16x168xbf16>
// CHECK: %[[KEEP:.*]] = "graph.constant"() {value = dense<"0xFFFF1FFFFF1FFFFF1FFFFF1FFFFF1FFFFF1FFFFF1F"> : tensor<168xi1>}
// CHECK: %[[COLS:.*]] = "graph.select"(%[[KEEP]], %[[WCOLS]], %{{.*}}) : (tensor<168xi1>, tensor<2x1x16x168xbf16>, tensor<bf16>) -> tensor<2x1x16x168xbf16>
// CHECK: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<4x3x7x1xbf16>}
// CHECK: "graph.concat"(%arg1, %[[Z]]) {dim = 3 : i64} : (tensor<4x3x7x7xbf16>, tensor<4x3x7x1xbf16>) -> tensor<4x3x7x8xbf16>
// CHECK: "graph.batch_matmul"(%[[COLS]], %{{.*}}) : (tensor<2x1x16x168xbf16>, tensor<1x168x4xbf16>) -> tensor<2x1x16x4xbf16>
// REMARK: conv-half-k-align.mlir:[[@LINE+2]]:8: remark: graph-decompose: conv im2col as a window view (implicit GEMM), its last kernel dim widened by zero-weight taps to K = 168 (conv-half-k-align=8)
func.func @stem7(%x: tensor<2x3x8x8xbf16>, %w: tensor<4x3x7x7xbf16>) -> tensor<2x4x4x4xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x8x8xbf16>, tensor<4x3x7x7xbf16>) -> tensor<2x4x4x4xbf16>
  return %y : tensor<2x4x4x4xbf16>
}

// No padding, and the widened window reads one column past the input: the input gets
// a zero column at its end (9 -> 10 wide), through the padding copy.
// CHECK-LABEL: func.func @widened_past_the_end
// CHECK: "graph.reshape"(%{{.*}}) : (tensor<1x90x3xbf16>) -> tensor<1x9x10x3xbf16>
// CHECK: "graph.window"(%{{.*}}) {dilations = array<i64: 1, 1>, kernel = array<i64: 7, 8>, strides = array<i64: 1, 1>} : (tensor<1x9x10x3xbf16>) -> tensor<1x3x3x7x8x3xbf16>
func.func @widened_past_the_end(%x: tensor<1x3x9x9xbf16>, %w: tensor<2x3x7x7xbf16>) -> tensor<1x2x3x3xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x9x9xbf16>, tensor<2x3x7x7xbf16>) -> tensor<1x2x3x3xbf16>
  return %y : tensor<1x2x3x3xbf16>
}
