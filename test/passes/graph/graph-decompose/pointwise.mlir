// gelu (erf and tanh forms) and silu expand to pointwise primitives with rank-0
// constants of the element type.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s

// 0.5 * x * (1 + erf(x / sqrt(2))), the division as a multiplication by 1/sqrt(2).
// CHECK-LABEL: func.func @gelu_erf
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<0.707106769> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[T:.*]] = "graph.mul"(%arg0, %[[C]]) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = "graph.erf"(%[[T]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[ONE:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[E]], %[[ONE]]) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[M:.*]] = "graph.mul"(%arg0, %[[A]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[HALF:.*]] = "graph.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%[[M]], %[[HALF]]) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @gelu_erf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.gelu"(%x) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-NEXT: %[[X2:.*]] = "graph.mul"(%arg0, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[X3:.*]] = "graph.mul"(%[[X2]], %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[K:.*]] = "graph.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[T:.*]] = "graph.mul"(%[[X3]], %[[K]]) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %[[U:.*]] = "graph.add"(%arg0, %[[T]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[S:.*]] = "graph.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[V:.*]] = "graph.mul"(%[[U]], %[[S]]) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %[[TH:.*]] = "graph.tanh"(%[[V]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[ONE:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[TH]], %[[ONE]]) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %[[M:.*]] = "graph.mul"(%arg0, %[[A]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[HALF:.*]] = "graph.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%[[M]], %[[HALF]]) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[R]]
func.func @gelu_tanh(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @silu
// CHECK-NEXT: %[[S:.*]] = "graph.sigmoid"(%arg0) : (tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%arg0, %[[S]]) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT: return %[[R]]
func.func @silu(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %0 = "graph.silu"(%x) : (tensor<2x3xf16>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}
