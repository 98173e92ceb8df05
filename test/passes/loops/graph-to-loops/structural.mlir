// concat, constant and user kernels (func.call).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// concat: tensor.insert_slice of each input into a tensor.empty; a view input is
// materialized first. Inputs may differ in size along dim.
// CHECK-LABEL: func.func @concat(
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<4x7xf32>
// CHECK-DAG: %[[T:.*]] = linalg.generic {{.*}}braze.ops = ["transpose"]
// CHECK: %[[S0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [4, 3] [1, 1] {braze.ops = ["concat"]} : tensor<4x3xf32> into tensor<4x7xf32>
// CHECK-NEXT: %[[S1:.*]] = tensor.insert_slice %[[T]] into %[[S0]][0, 3] [4, 4] [1, 1] {braze.ops = ["concat"]} : tensor<4x4xf32> into tensor<4x7xf32>
// CHECK-NEXT: return %[[S1]]
func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x4xf32>) -> tensor<4x7xf32> {
  %t = "graph.transpose"(%b) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = "graph.concat"(%a, %t) {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x4xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

// A chain of single-use concats along one dim (a 4-input concat, nested both
// ways) becomes ONE tensor.empty and one insert_slice per leaf, left to right.
// CHECK-LABEL: func.func @chain(
// CHECK-NOT: graph.concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<10x2xf32>
// CHECK-NEXT: %[[S0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [1, 2]
// CHECK-NEXT: %[[S1:.*]] = tensor.insert_slice %arg1 into %[[S0]][1, 0] [2, 2]
// CHECK-NEXT: %[[S2:.*]] = tensor.insert_slice %arg2 into %[[S1]][3, 0] [3, 2]
// CHECK-NEXT: %[[S3:.*]] = tensor.insert_slice %arg3 into %[[S2]][6, 0] [4, 2]
// CHECK-NEXT: return %[[S3]]
// CHECK-NOT: tensor.empty
func.func @chain(%a: tensor<1x2xf32>, %b: tensor<2x2xf32>, %c: tensor<3x2xf32>, %d: tensor<4x2xf32>) -> tensor<10x2xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 0 : i64} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %1 = "graph.concat"(%c, %d) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<7x2xf32>
  %2 = "graph.concat"(%0, %1) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<7x2xf32>) -> tensor<10x2xf32>
  return %2 : tensor<10x2xf32>
}

// -----

// Not flattened: an inner concat along another dim, and one with a second use.
// CHECK-LABEL: func.func @not_chains(
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK: %[[A:.*]] = tensor.insert_slice %arg1 into %{{.*}}[1, 0] [2, 2]
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<3x5xf32>
// CHECK: tensor.insert_slice %[[A]] into %[[E1]][0, 0] [3, 2]
// CHECK: %[[B:.*]] = tensor.insert_slice %arg2 into %{{.*}}[0, 2] [3, 3]
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<6x2xf32>
// CHECK: tensor.insert_slice %[[A]] into %[[E2]][0, 0] [3, 2]
// CHECK: %[[C:.*]] = tensor.insert_slice %[[A]] into %{{.*}}[3, 0] [3, 2]
// CHECK: return %[[B]], %[[C]]
func.func @not_chains(%a: tensor<1x2xf32>, %b: tensor<2x2xf32>, %c: tensor<3x3xf32>) -> (tensor<3x5xf32>, tensor<6x2xf32>) {
  %0 = "graph.concat"(%a, %b) {dim = 0 : i64} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %1 = "graph.concat"(%0, %c) {dim = 1 : i64} : (tensor<3x2xf32>, tensor<3x3xf32>) -> tensor<3x5xf32>
  %2 = "graph.concat"(%0, %0) {dim = 0 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<6x2xf32>
  return %1, %2 : tensor<3x5xf32>, tensor<6x2xf32>
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

// A user kernel is a func.call: it passes through unchanged (a view operand is
// materialized), its operands may have different types.
// CHECK-LABEL: func.func @user(
// CHECK: %[[T:.*]] = linalg.generic {{.*}}braze.ops = ["transpose"]
// CHECK: %[[K:.*]] = call @scale2(%[[T]], %arg1) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[K]] : tensor<4x4xf32>)
func.func private @scale2(%x: tensor<4x4xf32>, %y: tensor<4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
func.func @user(%x: tensor<4x4xf32>, %y: tensor<4xf32>) -> tensor<4x4xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = func.call @scale2(%t, %y) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %1 = "graph.exp"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
