// reduce_var always expands; reduce_mean only with decompose-mean (the loop level
// lowers reduce_mean itself as a sum generic plus a scale generic).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose=decompose-mean | FileCheck %s --check-prefix=MEAN

// var = sum((x - mean)^2) * (1 / (n - correction)); n = 4 * 8, correction 1. The
// mean is corrected: m + mean(x - m), m's rounding error added back.
// CHECK-LABEL: func.func @var_keepdim
// CHECK-NEXT: %[[ROUGH:.*]] = "graph.reduce_mean"(%arg0) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<4x3x8xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[D1:.*]] = "graph.sub"(%arg0, %[[ROUGH]]) : (tensor<4x3x8xf32>, tensor<1x3x1xf32>) -> tensor<4x3x8xf32>
// CHECK-NEXT: %[[ERR:.*]] = "graph.reduce_mean"(%[[D1]]) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<4x3x8xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[AVG:.*]] = "graph.add"(%[[ROUGH]], %[[ERR]]) : (tensor<1x3x1xf32>, tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[D:.*]] = "graph.sub"(%arg0, %[[AVG]]) : (tensor<4x3x8xf32>, tensor<1x3x1xf32>) -> tensor<4x3x8xf32>
// CHECK-NEXT: %[[SQ:.*]] = "graph.mul"(%[[D]], %[[D]]) : (tensor<4x3x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.reduce_sum"(%[[SQ]]) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<4x3x8xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<0.0322580636> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%[[S]], %[[C]]) : (tensor<1x3x1xf32>, tensor<f32>) -> tensor<1x3x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @var_keepdim(%x: tensor<4x3x8xf32>) -> tensor<1x3x1xf32> {
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 0, 2>, keepdim = true, correction = 1 : i64} : (tensor<4x3x8xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// Without keepdim the sum drops the reduced dims itself (no reshape needed).
// CHECK-LABEL: func.func @var_nokeepdim
// CHECK-NEXT: %[[ROUGH:.*]] = "graph.reduce_mean"(%arg0) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[D1:.*]] = "graph.sub"(%arg0, %[[ROUGH]])
// CHECK-NEXT: %[[ERR:.*]] = "graph.reduce_mean"(%[[D1]]) {dims = array<i64: 1>, keepdim = true}
// CHECK-NEXT: %[[AVG:.*]] = "graph.add"(%[[ROUGH]], %[[ERR]])
// CHECK-NEXT: %[[D:.*]] = "graph.sub"(%arg0, %[[AVG]])
// CHECK-NEXT: %[[SQ:.*]] = "graph.mul"(%[[D]], %[[D]])
// CHECK-NEXT: %[[S:.*]] = "graph.reduce_sum"(%[[SQ]]) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%[[S]], %[[C]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @var_nokeepdim(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "graph.reduce_var"(%x) {dims = array<i64: 1>, keepdim = false, correction = 0 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @mean
// CHECK-NEXT: %[[M:.*]] = "graph.reduce_mean"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[M]]
// MEAN-LABEL: func.func @mean
// MEAN-NEXT: %[[S:.*]] = "graph.reduce_sum"(%arg0) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<f32>
// MEAN-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<3.125000e-02> : tensor<f32>} : () -> tensor<f32>
// MEAN-NEXT: %[[R:.*]] = "graph.mul"(%[[S]], %[[C]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// MEAN-NEXT: return %[[R]]
func.func @mean(%x: tensor<4x8xf32>) -> tensor<f32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
