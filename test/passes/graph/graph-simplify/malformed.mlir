// Without the graph verifier, ill-formed ops reach the pass: the rules re-check what
// they rely on and leave such ops alone instead of reading out of bounds or
// building wrong IR.
// RUN: braze-opt --cpu=x86-64-v4 %s --no-verify-graph --graph-simplify | FileCheck %s

// CHECK-LABEL: func.func @bad_shapes
// Operands that do not broadcast to the result shape are not folded.
// CHECK: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
// CHECK: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<8xf32>) -> tensor<8xf32>
// A unary op that changes the shape is not folded.
// CHECK: "graph.cast"(%{{.*}}) : (tensor<i32>) -> tensor<3xf32>
// A perm that does not match the rank, or is out of range, is left alone.
// CHECK: "graph.transpose"(%arg0) {perm = array<i64: 1, 7>}
// CHECK: "graph.transpose"(%{{.*}}) {perm = array<i64: 0>}
func.func @bad_shapes(%x: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<8xf32>, tensor<3xf32>, tensor<3x2xf32>) {
  %c3 = "graph.constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %c4 = "graph.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %c8 = "graph.constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = "graph.add"(%c3, %c4) : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  %1 = "graph.add"(%c3, %c8) : (tensor<3xf32>, tensor<8xf32>) -> tensor<8xf32>
  %s = "graph.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %2 = "graph.cast"(%s) : (tensor<i32>) -> tensor<3xf32>
  %3 = "graph.transpose"(%x) {perm = array<i64: 1, 7>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = "graph.transpose"(%3) {perm = array<i64: 0>} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1, %2, %4 : tensor<3xf32>, tensor<8xf32>, tensor<3xf32>, tensor<3x2xf32>
}
