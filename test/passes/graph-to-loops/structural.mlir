// concat, constant and user_kernel.
// RUN: braze-opt %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// concat: tensor.insert_slice of each input into a tensor.empty; a view input is
// materialized first. (The IRDL definition of concat currently forces all inputs to
// one type, so both inputs have the same shape here.)
// CHECK-LABEL: func.func @concat(
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-DAG: %[[T:.*]] = linalg.generic {{.*}}braze.ops = ["transpose"]
// CHECK: %[[S0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [4, 4] [1, 1] {braze.ops = ["concat"]} : tensor<4x4xf32> into tensor<4x8xf32>
// CHECK-NEXT: %[[S1:.*]] = tensor.insert_slice %[[T]] into %[[S0]][0, 4] [4, 4] [1, 1] {braze.ops = ["concat"]} : tensor<4x4xf32> into tensor<4x8xf32>
// CHECK-NEXT: return %[[S1]]
func.func @concat(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %t = "graph.transpose"(%b) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = "graph.concat"(%a, %t) {dim = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A non-splat constant stays a tensor (arith.constant dense) read by the generic.
// CHECK-LABEL: func.func @constant(
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[C]] : tensor<4x2xf32>, tensor<2xf32>)
// CHECK: %[[R:.*]] = arith.constant dense<3> : tensor<2xi32>
// CHECK: return %{{.*}}, %[[R]]
func.func @constant(%x: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2xi32>) {
  %c = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "graph.add"(%x, %c) : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %r = "graph.constant"() {value = dense<3> : tensor<2xi32>} : () -> tensor<2xi32>
  return %0, %r : tensor<4x2xf32>, tensor<2xi32>
}

// -----

// user_kernel: a func.call of the callee (view operands materialized).
// CHECK-LABEL: func.func @user(
// CHECK: %[[T:.*]] = linalg.generic {{.*}}braze.ops = ["transpose"]
// CHECK: %[[K:.*]] = call @scale2(%[[T]]) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[K]] : tensor<4x4xf32>)
func.func private @scale2(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
func.func @user(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = "graph.user_kernel"(%t) {callee = @scale2} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "graph.exp"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
