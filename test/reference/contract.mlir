// matmul and batch_matmul (numpy batch broadcasting).
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 6 functions

// NUMPY @matmul: a @ b
func.func @matmul(%a: tensor<3x5xf32>, %b: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// Degenerate sizes: M = N = K = 1.
// NUMPY @matmul_1x1: a @ b
func.func @matmul_1x1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
// NUMPY @bmm: a @ b
func.func @bmm(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
// A rank-2 rhs is shared by every batch.
// NUMPY @bmm_shared_rhs: a @ b
func.func @bmm_shared_rhs(%a: tensor<3x2x4xf32>, %b: tensor<4x6xf32>) -> tensor<3x2x6xf32> {
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<3x2x4xf32>, tensor<4x6xf32>) -> tensor<3x2x6xf32>
  return %0 : tensor<3x2x6xf32>
}
// Batch dims broadcast both ways: [2,1] x [1,3] -> [2,3].
// NUMPY @bmm_broadcast: a @ b
func.func @bmm_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<1x3x4x2xf32>) -> tensor<2x3x3x2xf32> {
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<1x3x4x2xf32>) -> tensor<2x3x3x2xf32>
  return %0 : tensor<2x3x3x2xf32>
}
// Attention-shaped: softmax(q @ k^T * s) @ v, rank 5 batch.
// NUMPY @attention: softmax(q @ np.swapaxes(k, -1, -2) * np.float32(0.125), 4) @ v
func.func @attention(%q: tensor<1x2x2x4x8xf32>, %k: tensor<1x2x2x4x8xf32>, %v: tensor<1x2x2x4x8xf32>) -> tensor<1x2x2x4x8xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 2, 4, 3>} : (tensor<1x2x2x4x8xf32>) -> tensor<1x2x2x8x4xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<1x2x2x4x8xf32>, tensor<1x2x2x8x4xf32>) -> tensor<1x2x2x4x4xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<1x2x2x4x4xf32>, tensor<f32>) -> tensor<1x2x2x4x4xf32>
  %p = "graph.softmax"(%ss) {dim = 4 : i64} : (tensor<1x2x2x4x4xf32>) -> tensor<1x2x2x4x4xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<1x2x2x4x4xf32>, tensor<1x2x2x4x8xf32>) -> tensor<1x2x2x4x8xf32>
  return %y : tensor<1x2x2x4x8xf32>
}
