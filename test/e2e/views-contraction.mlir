// Contractions whose operands are views (attention's q/k/v split: slice, reshape to
// heads, transpose). linalg needs the k loop to be a bare dim of some operand, so an
// operand seen only through compound maps is copied first; loop-level IR:
// test/passes/loops/graph-to-loops/views-contraction.mlir.
// RUN: braze check %s --seed 23 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @heads out0 2x8x8xf32
// CHECK: PASS @transposed_b out0 5x6xf32
// CHECK: PASS @transposed_a out0 4x6xf32
// CHECK: PASS @strided_k out0 3x4xf32
// CHECK: check passed

// q = qkv[:, 0:16], k = qkv[:, 16:32] split into 2 heads of 8; scores = q @ k^T per head.
func.func @heads(%qkv: tensor<8x48xf32>) -> tensor<2x8x8xf32> {
  %q = "graph.slice"(%qkv) {starts = array<i64: 0, 0>, limits = array<i64: 8, 16>, strides = array<i64: 1, 1>} : (tensor<8x48xf32>) -> tensor<8x16xf32>
  %k = "graph.slice"(%qkv) {starts = array<i64: 0, 16>, limits = array<i64: 8, 32>, strides = array<i64: 1, 1>} : (tensor<8x48xf32>) -> tensor<8x16xf32>
  %qr = "graph.reshape"(%q) : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
  %kr = "graph.reshape"(%k) : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
  %qh = "graph.transpose"(%qr) {perm = array<i64: 1, 0, 2>} : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
  %kh = "graph.transpose"(%kr) {perm = array<i64: 1, 2, 0>} : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
  %s = "graph.batch_matmul"(%qh, %kh) : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %s : tensor<2x8x8xf32>
}

// linear's form: x @ transpose(W).
func.func @transposed_b(%x: tensor<5x7xf32>, %w: tensor<6x7xf32>) -> tensor<5x6xf32> {
  %t = "graph.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<6x7xf32>) -> tensor<7x6xf32>
  %0 = "graph.matmul"(%x, %t) : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

func.func @transposed_a(%a: tensor<9x4xf32>, %b: tensor<9x6xf32>) -> tensor<4x6xf32> {
  %t = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<9x4xf32>) -> tensor<4x9xf32>
  %0 = "graph.matmul"(%t, %b) : (tensor<4x9xf32>, tensor<9x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// k strided in both operands, and a partial start-0 slice on b's n.
func.func @strided_k(%a: tensor<3x10xf32>, %b: tensor<10x7xf32>) -> tensor<3x4xf32> {
  %as = "graph.slice"(%a) {starts = array<i64: 0, 1>, limits = array<i64: 3, 10>, strides = array<i64: 1, 2>} : (tensor<3x10xf32>) -> tensor<3x5xf32>
  %bs = "graph.slice"(%b) {starts = array<i64: 0, 0>, limits = array<i64: 10, 4>, strides = array<i64: 2, 1>} : (tensor<10x7xf32>) -> tensor<5x4xf32>
  %0 = "graph.matmul"(%as, %bs) : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
