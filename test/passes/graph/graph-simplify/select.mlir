// select-const: a select whose condition is a splat constant is the chosen operand
// (broadcast to the result shape when it is smaller).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s

// CHECK-LABEL: func.func @select_true
// CHECK-NEXT: return %arg0
func.func @select_true(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = "graph.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0 = "graph.select"(%c, %a, %b) : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @select_false_broadcast
// CHECK-NEXT: %[[B:.*]] = "graph.broadcast_to"(%arg1) : (tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[B]]
func.func @select_false_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %c = "graph.constant"() {value = dense<false> : tensor<4x8xi1>} : () -> tensor<4x8xi1>
  %0 = "graph.select"(%c, %a, %b) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Negative: a condition that is not a splat, and one that is not a constant.
// CHECK-LABEL: func.func @select_unknown
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<[true, false]> : tensor<2xi1>}
// CHECK-NEXT: %[[S:.*]] = "graph.select"(%[[C]], %arg0, %arg1)
// CHECK-NEXT: %[[S2:.*]] = "graph.select"(%arg2, %arg0, %arg1)
// CHECK-NEXT: return %[[S]], %[[S2]]
func.func @select_unknown(%a: tensor<2xf32>, %b: tensor<2xf32>, %c2: tensor<2xi1>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c = "graph.constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %0 = "graph.select"(%c, %a, %b) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.select"(%c2, %a, %b) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}
