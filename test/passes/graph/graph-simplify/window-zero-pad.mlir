// window-zero-pad: a window over x [B, S.., C] zero-padded by a chain of concats with
// zero splat constants (a hand-written pool's padding) reads the gather-select form:
// x viewed [B, L, C], one gather at a constant [Lp] table of padded positions (-1 in
// the padding), a select on the constant [Lp, 1] mask, viewed [B, Sp.., C]; the
// concats are gone. Refused (left alone): a concat along the channel dim, a non-zero
// constant, a padded tensor with another use; disable=window-zero-pad.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=remarks 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=disable=window-zero-pad | FileCheck %s --check-prefix=OFF
// RUN: braze check %s --func pool --seed 3

// 2 x 2 input, padded by one on each side of both spatial dims: positions of the 4 x 4
// padded grid in x's 2 x 2, -1 outside.
// CHECK: remark: graph-simplify: window-zero-pad
// CHECK-LABEL: func.func @pool
// CHECK-NOT: "graph.concat"
// CHECK-DAG: %[[POS:.*]] = "graph.constant"() {value = dense<[-1, -1, -1, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1, -1, -1, -1]> : tensor<16xi32>}
// CHECK-DAG: %[[IN:.*]] = "graph.constant"() {value = dense<{{\[}}[false], [false], [false], [false], [false], [true], [true], [false], [false], [true], [true], [false], [false], [false], [false], [false]]> : tensor<16x1xi1>}
// CHECK-DAG: %[[FLAT:.*]] = "graph.reshape"(%arg0) : (tensor<2x2x2x3xf32>) -> tensor<2x4x3xf32>
// CHECK: %[[G:.*]] = "graph.gather"(%[[FLAT]], %[[POS]]) {axis = 1 : i64} : (tensor<2x4x3xf32>, tensor<16xi32>) -> tensor<2x16x3xf32>
// CHECK: %[[S:.*]] = "graph.select"(%[[IN]], %[[G]], %{{.*}}) : (tensor<16x1xi1>, tensor<2x16x3xf32>, tensor<f32>) -> tensor<2x16x3xf32>
// CHECK: %[[P:.*]] = "graph.reshape"(%[[S]]) : (tensor<2x16x3xf32>) -> tensor<2x4x4x3xf32>
// CHECK: "graph.window"(%[[P]]) {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<2x4x4x3xf32>) -> tensor<2x2x2x3x3x3xf32>
// OFF-LABEL: func.func @pool
// OFF-COUNT-4: "graph.concat"
func.func @pool(%x: tensor<2x2x2x3xf32>) -> tensor<2x2x2x3xf32> {
  %z1 = "graph.constant"() {value = dense<0.0> : tensor<2x1x2x3xf32>} : () -> tensor<2x1x2x3xf32>
  %a = "graph.concat"(%z1, %x) {dim = 1 : i64} : (tensor<2x1x2x3xf32>, tensor<2x2x2x3xf32>) -> tensor<2x3x2x3xf32>
  %b = "graph.concat"(%a, %z1) {dim = 1 : i64} : (tensor<2x3x2x3xf32>, tensor<2x1x2x3xf32>) -> tensor<2x4x2x3xf32>
  %z2 = "graph.constant"() {value = dense<0.0> : tensor<2x4x1x3xf32>} : () -> tensor<2x4x1x3xf32>
  %c = "graph.concat"(%z2, %b) {dim = 2 : i64} : (tensor<2x4x1x3xf32>, tensor<2x4x2x3xf32>) -> tensor<2x4x3x3xf32>
  %d = "graph.concat"(%c, %z2) {dim = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<2x4x1x3xf32>) -> tensor<2x4x4x3xf32>
  %w = "graph.window"(%d) {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<2x4x4x3xf32>) -> tensor<2x2x2x3x3x3xf32>
  %m = "graph.reduce_max"(%w) {dims = array<i64: 3, 4>, keepdim = false} : (tensor<2x2x2x3x3x3xf32>) -> tensor<2x2x2x3xf32>
  return %m : tensor<2x2x2x3xf32>
}

// One-sided padding of one dim (the end only): a 1-D window.
// CHECK-LABEL: func.func @one_side
// CHECK-NOT: "graph.concat"
// CHECK: "graph.constant"() {value = dense<[0, 1, 2, -1, -1]> : tensor<5xi32>}
// CHECK: "graph.window"({{.*}} : (tensor<1x5x2xf32>) -> tensor<1x3x3x2xf32>
func.func @one_side(%x: tensor<1x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %z = "graph.constant"() {value = dense<0.0> : tensor<1x2x2xf32>} : () -> tensor<1x2x2xf32>
  %p = "graph.concat"(%x, %z) {dim = 1 : i64} : (tensor<1x3x2xf32>, tensor<1x2x2xf32>) -> tensor<1x5x2xf32>
  %w = "graph.window"(%p) {kernel = array<i64: 3>, strides = array<i64: 1>, dilations = array<i64: 1>} : (tensor<1x5x2xf32>) -> tensor<1x3x3x2xf32>
  return %w : tensor<1x3x3x2xf32>
}

// Left alone: zeros concatenated along the channel dim (not a spatial pad), a constant
// that is not zero, and a padded tensor that something else reads too.
// CHECK-LABEL: func.func @refused
// CHECK-COUNT-3: "graph.concat"
// CHECK-NOT: "graph.gather"
func.func @refused(%x: tensor<1x3x2xf32>) -> (tensor<1x2x2x3xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x5x2xf32>) {
  %z = "graph.constant"() {value = dense<0.0> : tensor<1x3x1xf32>} : () -> tensor<1x3x1xf32>
  %c = "graph.concat"(%x, %z) {dim = 2 : i64} : (tensor<1x3x2xf32>, tensor<1x3x1xf32>) -> tensor<1x3x3xf32>
  %w = "graph.window"(%c) {kernel = array<i64: 2>, strides = array<i64: 1>, dilations = array<i64: 1>} : (tensor<1x3x3xf32>) -> tensor<1x2x2x3xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<1x2x2xf32>} : () -> tensor<1x2x2xf32>
  %p = "graph.concat"(%x, %one) {dim = 1 : i64} : (tensor<1x3x2xf32>, tensor<1x2x2xf32>) -> tensor<1x5x2xf32>
  %w2 = "graph.window"(%p) {kernel = array<i64: 3>, strides = array<i64: 1>, dilations = array<i64: 1>} : (tensor<1x5x2xf32>) -> tensor<1x3x3x2xf32>
  %zz = "graph.constant"() {value = dense<0.0> : tensor<1x2x2xf32>} : () -> tensor<1x2x2xf32>
  %q = "graph.concat"(%x, %zz) {dim = 1 : i64} : (tensor<1x3x2xf32>, tensor<1x2x2xf32>) -> tensor<1x5x2xf32>
  %w3 = "graph.window"(%q) {kernel = array<i64: 3>, strides = array<i64: 1>, dilations = array<i64: 1>} : (tensor<1x5x2xf32>) -> tensor<1x3x3x2xf32>
  return %w, %w2, %w3, %q : tensor<1x2x2x3xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x5x2xf32>
}
