// conv expands, with conv-im2col=gather, into an im2col gather + batch_matmul
// (passes/graph/decompose-conv.c; the default window form: conv-window.mlir),
// conv_transpose into a conv of the zero-stuffed input with the flipped weight, and a
// batch_norm over a constant-weight conv folds into the conv's weight and a bias add
// (passes/graph/fold-batch-norm.c). Refused folds: a weight that is not a constant, a
// conv read twice, parameters that are not constants, fold-batch-norm=false, a
// batch_norm kept whole (keep=batch_norm: its conv is expanded as usual).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=conv-im2col=gather | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=fold-batch-norm=false | FileCheck %s --check-prefix=NOFOLD
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{keep=batch_norm})' | FileCheck %s --check-prefix=KEEP
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Padded windows: positions -1 in the table, zeroed by select(idx >= 0). The product
// is channels-last: cols [N, G, P, KK Cg] times the weight permuted to [G, KK Cg, OCg],
// transposed back by a view.
// CHECK-LABEL: func.func @padded
// CHECK-NEXT: %[[IDX:.*]] = "graph.constant"() {value = dense<{{.*}}> : tensor<9x18xi32>} : () -> tensor<9x18xi32>
// CHECK-NEXT: %[[X:.*]] = "graph.reshape"(%arg0) : (tensor<1x2x5x5xf32>) -> tensor<1x1x50xf32>
// CHECK-NEXT: %[[G:.*]] = "graph.gather"(%[[X]], %[[IDX]]) {axis = 2 : i64} : (tensor<1x1x50xf32>, tensor<9x18xi32>) -> tensor<1x1x9x18xf32>
// CHECK-NEXT: %[[ZERO:.*]] = "graph.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[IN:.*]] = "graph.cmp"(%[[IDX]], %[[ZERO]]) {predicate = "ge"} : (tensor<9x18xi32>, tensor<i32>) -> tensor<9x18xi1>
// CHECK-NEXT: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[COLS:.*]] = "graph.select"(%[[IN]], %[[G]], %[[Z]]) : (tensor<9x18xi1>, tensor<1x1x9x18xf32>, tensor<f32>) -> tensor<1x1x9x18xf32>
// CHECK-NEXT: %[[W1:.*]] = "graph.reshape"(%arg1) : (tensor<4x2x3x3xf32>) -> tensor<1x4x2x9xf32>
// CHECK-NEXT: %[[W2:.*]] = "graph.transpose"(%[[W1]]) {perm = array<i64: 0, 3, 2, 1>} : (tensor<1x4x2x9xf32>) -> tensor<1x9x2x4xf32>
// CHECK-NEXT: %[[W:.*]] = "graph.reshape"(%[[W2]]) : (tensor<1x9x2x4xf32>) -> tensor<1x18x4xf32>
// CHECK-NEXT: %[[Y:.*]] = "graph.batch_matmul"(%[[COLS]], %[[W]]) : (tensor<1x1x9x18xf32>, tensor<1x18x4xf32>) -> tensor<1x1x9x4xf32>
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%[[Y]]) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x1x9x4xf32>) -> tensor<1x1x4x9xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%[[T]]) : (tensor<1x1x4x9xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @padded(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// No padding: no select. Groups: the group is a batch dim of the product; a row of the
// table is one result position's window, channels innermost (stride 2, dilation 2:
// positions 0 and 2 of channels 0 and 1, at 0 and 7 in the group's [Cg L] view).
// CHECK-LABEL: func.func @grouped_valid
// CHECK: "graph.constant"() {value = dense<{{\[}}[0, 7, 2, 9], [2, 9, 4, 11], [4, 11, 6, 13]]> : tensor<3x4xi32>}
// CHECK: "graph.gather"(%{{.*}}, %{{.*}}) {axis = 2 : i64} : (tensor<2x2x14xf32>, tensor<3x4xi32>) -> tensor<2x2x3x4xf32>
// CHECK-NOT: "graph.select"
// CHECK: "graph.batch_matmul"(%{{.*}}, %{{.*}}) : (tensor<2x2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x2x3x3xf32>
func.func @grouped_valid(%x: tensor<2x4x7xf32>, %w: tensor<6x2x2xf32>) -> tensor<2x6x3xf32> {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 2>, groups = 2 : i64}
      : (tensor<2x4x7xf32>, tensor<6x2x2xf32>) -> tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// A 1x1 conv with unit strides and no padding reads x itself (a transposed view): no gather.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: "graph.gather"
// CHECK: "graph.batch_matmul"(%{{.*}}, %{{.*}}) : (tensor<2x1x36x4xf32>, tensor<1x4x8xf32>) -> tensor<2x1x36x8xf32>
func.func @pointwise(%x: tensor<2x4x6x6xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<2x8x6x6xf32> {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x4x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<2x8x6x6xf32>
  return %0 : tensor<2x8x6x6xf32>
}

// conv_transpose: stuff stride - 1 zeros (reshape, concat, reshape, slice), crop the
// pads beyond dilation (k - 1), flip the kernel (a gather at [2, 1, 0]), then a conv
// with unit strides, itself expanded.
// CHECK-LABEL: func.func @transposed
// CHECK: "graph.concat"
// CHECK: "graph.slice"
// CHECK: "graph.transpose"
// CHECK: "graph.constant"() {value = dense<[2, 1, 0]> : tensor<3xi32>}
// CHECK: "graph.gather"(%{{.*}}, %{{.*}}) {axis = 2 : i64} : (tensor<2x2x3xf32>, tensor<3xi32>) -> tensor<2x2x3xf32>
// CHECK: "graph.batch_matmul"
// CHECK-NOT: "graph.conv
func.func @transposed(%x: tensor<1x2x4xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x2x8xf32> {
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 2>, pads = array<i64: 1, 0>, dilations = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>}
      : (tensor<1x2x4xf32>, tensor<2x2x3xf32>) -> tensor<1x2x8xf32>
  return %0 : tensor<1x2x8xf32>
}

// The fold: w' = w * k with k = scale / sqrt(var + eps) = [2, 0.5] (var + eps = 1, 16:
// eps 0), bias' = (b - mean) k + beta = [(1 - 0) 2 + 0, (0 - 4) 0.5 + 1] = [2, -1]; the
// product's B is w' permuted to [G, C, OC] at compile time.
// CHECK-LABEL: func.func @fold
// CHECK: "graph.constant"() {value = dense<{{\[}}[{{\[}}2.000000e+00, 1.500000e+00], [4.000000e+00, 2.000000e+00]]]> : tensor<1x2x2xf32>}
// CHECK: "graph.batch_matmul"
// CHECK: %[[B:.*]] = "graph.constant"() {value = dense<{{\[}}[{{\[}}[2.000000e+00]], {{\[}}[-1.000000e+00]]]]> : tensor<1x2x1x1xf32>}
// CHECK: "graph.add"(%{{.*}}, %[[B]]) : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NOT: "graph.rsqrt"
// CHECK: return
// NOFOLD-LABEL: func.func @fold
// NOFOLD: "graph.rsqrt"
// KEEP-LABEL: func.func @fold
// KEEP: "graph.batch_matmul"
// KEEP: "graph.batch_norm"
// REMARK: conv.mlir:[[@LINE+12]]:8: remark: graph-decompose: folded batch_norm into the constant weights and bias of the conv it reads
func.func @fold(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = "graph.constant"() {value = dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %b = "graph.constant"() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %scale = "graph.constant"() {value = dense<[2.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %beta = "graph.constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean = "graph.constant"() {value = dense<[0.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %var = "graph.constant"() {value = dense<[1.0, 16.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %b3 = "graph.reshape"(%b) : (tensor<2xf32>) -> tensor<2x1x1xf32>
  %cb = "graph.add"(%c, %b3) : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n = "graph.batch_norm"(%cb, %scale, %beta, %mean, %var) {eps = 0.0 : f32}
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n : tensor<1x2x3x3xf32>
}

// Not folded: the weight is an argument; the conv is read twice; the mean is an argument.
// CHECK-LABEL: func.func @no_fold
// CHECK-COUNT-3: "graph.rsqrt"
func.func @no_fold(%x: tensor<1x2x3x3xf32>, %wa: tensor<2x2x1x1xf32>, %p: tensor<2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = "graph.constant"() {value = dense<1.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %c0 = "graph.conv"(%x, %wa) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n0 = "graph.batch_norm"(%c0, %one, %one, %one, %one) {eps = 0.0 : f32}
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c1 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n1 = "graph.batch_norm"(%c1, %one, %one, %one, %one) {eps = 0.0 : f32}
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c2 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %n2 = "graph.batch_norm"(%c2, %one, %one, %p, %one) {eps = 0.0 : f32}
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %n0, %n1, %c1, %n2 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
