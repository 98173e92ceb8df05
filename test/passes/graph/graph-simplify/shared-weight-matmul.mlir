// shared-weight-matmul: a batch_matmul of many products of few rows each, all with one
// 2-D weight (PyTorch's attention in-projection on sequence-first [S, B, E]
// activations: 512 products of B = 2 rows), becomes one matmul of all the rows between
// two reshapes (views). Fewer than 16 products, or at least 16 rows per product, keep
// the batch_matmul: its epilogues read it directly, where through the reshape they
// would not fuse. disable=shared-weight-matmul turns it off.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=remarks 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=disable=shared-weight-matmul | FileCheck %s --check-prefix=OFF
// RUN: braze check %s | FileCheck %s --check-prefix=NUM

// CHECK: shared-weight-matmul.mlir:[[@LINE+10]]:8: remark: graph-simplify: shared-weight-matmul
// CHECK-LABEL: func.func @in_projection
// CHECK-NEXT: %[[A:.*]] = "graph.reshape"(%arg0) : (tensor<32x2x16xf32>) -> tensor<64x16xf32>
// CHECK-NEXT: %[[P:.*]] = "graph.matmul"(%[[A]], %arg1) : (tensor<64x16xf32>, tensor<16x48xf32>) -> tensor<64x48xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.reshape"(%[[P]]) : (tensor<64x48xf32>) -> tensor<32x2x48xf32>
// CHECK-NEXT: return %[[R]]
// OFF-LABEL: func.func @in_projection
// OFF: "graph.batch_matmul"
// NUM: PASS  @in_projection
func.func @in_projection(%x: tensor<32x2x16xf32>, %w: tensor<16x48xf32>) -> tensor<32x2x48xf32> {
  %p = "graph.batch_matmul"(%x, %w) : (tensor<32x2x16xf32>, tensor<16x48xf32>) -> tensor<32x2x48xf32>
  return %p : tensor<32x2x48xf32>
}

// CHECK-LABEL: func.func @few_products
// CHECK: "graph.batch_matmul"
// NUM: PASS  @few_products
func.func @few_products(%x: tensor<4x2x16xf32>, %w: tensor<16x48xf32>) -> tensor<4x2x48xf32> {
  %p = "graph.batch_matmul"(%x, %w) : (tensor<4x2x16xf32>, tensor<16x48xf32>) -> tensor<4x2x48xf32>
  return %p : tensor<4x2x48xf32>
}

// CHECK-LABEL: func.func @tall_products
// CHECK: "graph.batch_matmul"
// NUM: PASS  @tall_products
func.func @tall_products(%x: tensor<32x16x16xf32>, %w: tensor<16x48xf32>) -> tensor<32x16x48xf32> {
  %p = "graph.batch_matmul"(%x, %w) : (tensor<32x16x16xf32>, tensor<16x48xf32>) -> tensor<32x16x48xf32>
  return %p : tensor<32x16x48xf32>
}

// A weight per batch is no shared weight.
// CHECK-LABEL: func.func @batched_weight
// CHECK: "graph.batch_matmul"
// NUM: PASS  @batched_weight
// NUM: check passed
func.func @batched_weight(%x: tensor<32x2x16xf32>, %w: tensor<32x16x48xf32>) -> tensor<32x2x48xf32> {
  %p = "graph.batch_matmul"(%x, %w) : (tensor<32x2x16xf32>, tensor<32x16x48xf32>) -> tensor<32x2x48xf32>
  return %p : tensor<32x2x48xf32>
}
