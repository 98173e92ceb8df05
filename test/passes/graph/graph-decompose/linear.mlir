// linear: x[..., K] @ weight[N, K]^T + bias[N]. Inputs of rank other than 2 are
// flattened to [M, K] and the product reshaped back.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s

// CHECK-LABEL: func.func @linear2d
// CHECK-NEXT: %[[WT:.*]] = "graph.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %[[MM:.*]] = "graph.matmul"(%arg0, %[[WT]]) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.add"(%[[MM]], %arg2) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @linear2d(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @linear3d
// CHECK-NEXT: %[[WT:.*]] = "graph.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %[[X2:.*]] = "graph.reshape"(%arg0) : (tensor<2x3x8xf32>) -> tensor<6x8xf32>
// CHECK-NEXT: %[[MM:.*]] = "graph.matmul"(%[[X2]], %[[WT]]) : (tensor<6x8xf32>, tensor<8x16xf32>) -> tensor<6x16xf32>
// CHECK-NEXT: %[[MM3:.*]] = "graph.reshape"(%[[MM]]) : (tensor<6x16xf32>) -> tensor<2x3x16xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.add"(%[[MM3]], %arg2) : (tensor<2x3x16xf32>, tensor<16xf32>) -> tensor<2x3x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @linear3d(%x: tensor<2x3x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<2x3x16xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<2x3x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<2x3x16xf32>
  return %0 : tensor<2x3x16xf32>
}

// A vector input is a single row.
// CHECK-LABEL: func.func @linear1d
// CHECK-NEXT: %[[WT:.*]] = "graph.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<5x8xf32>) -> tensor<8x5xf32>
// CHECK-NEXT: %[[X2:.*]] = "graph.reshape"(%arg0) : (tensor<8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT: %[[MM:.*]] = "graph.matmul"(%[[X2]], %[[WT]]) : (tensor<1x8xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT: %[[MM1:.*]] = "graph.reshape"(%[[MM]]) : (tensor<1x5xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.add"(%[[MM1]], %arg2) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: return %[[R]]
func.func @linear1d(%x: tensor<8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
