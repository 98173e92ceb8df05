// double-transpose, transpose-of-broadcast, reshape-chain, broadcast-noop.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s

// Composed permutations that give the identity disappear.
// CHECK-LABEL: func.func @double_transpose_identity
// CHECK-NEXT: return %arg0
func.func @double_transpose_identity(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// Otherwise they become one transpose.
// CHECK-LABEL: func.func @double_transpose
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @double_transpose(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x4x2xf32>
  return %1 : tensor<3x4x2xf32>
}

// An identity transpose alone goes too; a single real one stays (negative).
// CHECK-LABEL: func.func @single_transpose
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 1, 0>}
// CHECK-NEXT: return %arg0, %[[T]]
func.func @single_transpose(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = "graph.transpose"(%x) {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>
}

// The transpose moves onto the smaller, un-broadcast tensor.
// CHECK-LABEL: func.func @transpose_of_broadcast
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<3x1xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[B:.*]] = "graph.broadcast_to"(%[[T]]) : (tensor<1x3xf32>) -> tensor<5x4x3xf32>
// CHECK-NEXT: return %[[B]]
func.func @transpose_of_broadcast(%x: tensor<3x1xf32>) -> tensor<5x4x3xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<3x1xf32>) -> tensor<5x3x4xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 0, 2, 1>} : (tensor<5x3x4xf32>) -> tensor<5x4x3xf32>
  return %1 : tensor<5x4x3xf32>
}

// Permuting only the new leading dims needs no transpose at all.
// CHECK-LABEL: func.func @transpose_of_broadcast_leading
// CHECK-NEXT: %[[B:.*]] = "graph.broadcast_to"(%arg0) : (tensor<4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: return %[[B]]
func.func @transpose_of_broadcast_leading(%x: tensor<4xf32>) -> tensor<3x2x4xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<4xf32>) -> tensor<2x3x4xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}

// Negative: a new leading dim would land after one of x's dims.
// CHECK-LABEL: func.func @transpose_of_broadcast_illegal
// CHECK-NEXT: %[[B:.*]] = "graph.broadcast_to"(%arg0) : (tensor<3x4xf32>) -> tensor<5x3x4xf32>
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%[[B]]) {perm = array<i64: 1, 0, 2>}
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_broadcast_illegal(%x: tensor<3x4xf32>) -> tensor<3x5x4xf32> {
  %0 = "graph.broadcast_to"(%x) : (tensor<3x4xf32>) -> tensor<5x3x4xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 1, 0, 2>} : (tensor<5x3x4xf32>) -> tensor<3x5x4xf32>
  return %1 : tensor<3x5x4xf32>
}

// CHECK-LABEL: func.func @reshape_chain
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%arg0) : (tensor<4x6xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<4x6xf32>) -> tensor<2x12xf32> {
  %0 = "graph.reshape"(%x) : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = "graph.reshape"(%0) : (tensor<24xf32>) -> tensor<2x12xf32>
  return %1 : tensor<2x12xf32>
}

// A chain back to the input's shape, and an identity reshape, vanish; a single
// real reshape stays (negative).
// CHECK-LABEL: func.func @reshape_identity
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%arg0) : (tensor<4x6xf32>) -> tensor<24xf32>
// CHECK-NEXT: return %arg0, %arg0, %[[R]]
func.func @reshape_identity(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<24xf32>) {
  %0 = "graph.reshape"(%x) : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = "graph.reshape"(%0) : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = "graph.reshape"(%x) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %1, %2, %0 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<24xf32>
}

// CHECK-LABEL: func.func @broadcast_noop
// CHECK-NEXT: %[[B:.*]] = "graph.broadcast_to"(%arg0) : (tensor<4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %arg0, %[[B]]
func.func @broadcast_noop(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<2x4x8xf32>) {
  %0 = "graph.broadcast_to"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // Negative: a real broadcast.
  %1 = "graph.broadcast_to"(%x) : (tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<2x4x8xf32>
}
