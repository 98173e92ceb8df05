// softmax and log_softmax expand to the max-subtracted primitive sequences.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[M:.*]] = "graph.reduce_max"(%arg0) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.sub"(%arg0, %[[M]]) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%[[S]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[Z:.*]] = "graph.reduce_sum"(%[[E]]) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.div"(%[[E]], %[[Z]]) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Along a leading dim, in f16: every step keeps the element type.
// CHECK-LABEL: func.func @softmax_dim0_f16
// CHECK-NEXT: %[[M:.*]] = "graph.reduce_max"(%arg0) {dims = array<i64: 0>, keepdim = true} : (tensor<3x5xf16>) -> tensor<1x5xf16>
// CHECK-NEXT: %[[S:.*]] = "graph.sub"(%arg0, %[[M]]) : (tensor<3x5xf16>, tensor<1x5xf16>) -> tensor<3x5xf16>
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%[[S]])
// CHECK-NEXT: %[[Z:.*]] = "graph.reduce_sum"(%[[E]]) {dims = array<i64: 0>, keepdim = true} : (tensor<3x5xf16>) -> tensor<1x5xf16>
// CHECK-NEXT: %[[R:.*]] = "graph.div"(%[[E]], %[[Z]])
// CHECK-NEXT: return %[[R]]
func.func @softmax_dim0_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %0 = "graph.softmax"(%x) {dim = 0 : i64} : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}

// log_softmax = x - max - log(sum(exp(x - max))).
// CHECK-LABEL: func.func @log_softmax
// CHECK-NEXT: %[[M:.*]] = "graph.reduce_max"(%arg0) {dims = array<i64: 2>, keepdim = true} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.sub"(%arg0, %[[M]]) : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%[[S]]) : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: %[[Z:.*]] = "graph.reduce_sum"(%[[E]]) {dims = array<i64: 2>, keepdim = true} : (tensor<2x3x8xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT: %[[L:.*]] = "graph.log"(%[[Z]]) : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.sub"(%[[S]], %[[L]]) : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @log_softmax(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = "graph.log_softmax"(%x) {dim = 2 : i64} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
