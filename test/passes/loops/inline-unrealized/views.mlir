// Inlining through views: the producer's maps are composed with the consumer's
// (which graph-to-loops already composed through transpose/broadcast_to/reshape).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized | mlir-opt --split-input-file --verify-each -o /dev/null

// transpose: exp(x) read transposed becomes a transposed read of x.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @through_transpose(
// CHECK: linalg.generic {indexing_maps = [#[[T]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x4xf32>)
// CHECK-SAME: braze.ops = ["exp", "add"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: arith.addf %[[E]], %[[Y]] : f32
// CHECK-NOT: linalg.generic
func.func @through_transpose(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "graph.transpose"(%0) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %1 = "graph.add"(%t, %y) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// broadcast_to: a producer over [8] (itself broadcasting a [1] operand) inlined
// into a [4, 8] consumer: both maps compose.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ZERO:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @through_broadcast(
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ZERO]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1, %arg2 : tensor<8xf32>, tensor<1xf32>, tensor<4x8xf32>)
// CHECK-SAME: braze.ops = ["sub", "mul"]
// CHECK-NOT: linalg.generic
func.func @through_broadcast(%v: tensor<8xf32>, %c: tensor<1xf32>, %m: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.sub"(%v, %c) : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
  %b = "graph.broadcast_to"(%0) : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = "graph.mul"(%b, %m) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// transpose of a producer that itself reads a transposed input: the two
// permutations cancel; reshape gives floordiv/mod reads of the producer's input.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[FLAT:.*]] = affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>
// CHECK-LABEL: func.func @cancel_and_reshape(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK-SAME: braze.ops = ["neg", "exp"]
// CHECK: linalg.generic {indexing_maps = [#[[FLAT]], #{{.*}}], iterator_types = ["parallel"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK-SAME: braze.ops = ["neg", "abs"]
func.func @cancel_and_reshape(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<32xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %0 = "graph.neg"(%t) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %t2 = "graph.transpose"(%0) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %1 = "graph.exp"(%t2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = "graph.neg"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "graph.reshape"(%n) : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = "graph.abs"(%r) : (tensor<32xf32>) -> tensor<32xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<32xf32>
}

// -----

// A pointwise producer read through a transpose by a reduction: a prologue.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @prologue_transposed(
// CHECK: linalg.generic {indexing_maps = [#[[T]], #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK-SAME: braze.ops = ["exp", "reduce_max"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT: arith.maximumf %[[E]], %[[ACC]] : f32
func.func @prologue_transposed(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "graph.transpose"(%0) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %1 = "graph.reduce_max"(%t) {dims = array<i64: 1>, keepdim = false} : (tensor<8x4xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
