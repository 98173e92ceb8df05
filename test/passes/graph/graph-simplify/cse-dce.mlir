// cse merges graph ops with the same name, operands, attributes and result type
// (upstream cse skips IRDL ops: they carry no side-effect information); dce erases
// graph ops whose results are unused. Other dialects' ops are left alone.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=disable=cse,dce | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @cse
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%arg0)
// CHECK-NEXT: %[[S:.*]] = "graph.reduce_sum"(%[[E]]) {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[S0:.*]] = "graph.reduce_sum"(%[[E]]) {dims = array<i64: 0>, keepdim = true}
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[E]], %[[S]])
// CHECK-NEXT: %[[B:.*]] = "graph.add"(%[[S]], %[[E]])
// CHECK-NEXT: return %[[A]], %[[A]], %[[B]], %[[S0]]
// OFF-LABEL: func.func @cse
// OFF-COUNT-2: "graph.exp"
func.func @cse(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x8xf32>) {
  %e1 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s1 = "graph.reduce_sum"(%e1) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %s2 = "graph.reduce_sum"(%e2) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  // Negative: other attributes.
  %s3 = "graph.reduce_sum"(%e2) {dims = array<i64: 0>, keepdim = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %a1 = "graph.add"(%e1, %s1) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %a2 = "graph.add"(%e2, %s2) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  // Negative: operands in another order.
  %a3 = "graph.add"(%s2, %e2) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a1, %a2, %a3, %s3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x8xf32>
}

// Equal constants merge; different ones do not.
// CHECK-LABEL: func.func @cse_constants
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}
// CHECK-NEXT: %[[D:.*]] = "graph.constant"() {value = dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>}
// CHECK-NEXT: return %[[C]], %[[C]], %[[D]]
func.func @cse_constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.constant"() {value = dense<[1.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// A dead chain of graph ops goes. (MLIR's greedy driver, which applies the rules,
// also drops unused side-effect-free ops of other dialects, as canonicalize does.)
// CHECK-LABEL: func.func @dce
// CHECK-NEXT: return %arg0
// OFF-LABEL: func.func @dce
// OFF: "graph.exp"
// OFF: "graph.log"
func.func @dce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %0 = "graph.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.log"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
