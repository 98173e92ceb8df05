// add-zero, sub-zero, mul-one, div-one: an op with a splat identity operand is its
// other operand when that operand already has the result type.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify | FileCheck %s

// CHECK-LABEL: func.func @add_zero
// CHECK-NEXT: return %arg0, %arg0
func.func @add_zero(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %z = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.add"(%x, %z) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = "graph.add"(%z, %x) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Integers too.
// CHECK-LABEL: func.func @add_zero_i32
// CHECK-NEXT: return %arg0
func.func @add_zero_i32(%x: tensor<8xi32>) -> tensor<8xi32> {
  %z = "graph.constant"() {value = dense<0> : tensor<8xi32>} : () -> tensor<8xi32>
  %0 = "graph.add"(%x, %z) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// Negative: the zero broadcasts x to a larger shape; adding one is no identity.
// CHECK-LABEL: func.func @add_zero_broadcasting
// CHECK-NEXT: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<4x8xf32>}
// CHECK-NEXT: %[[R:.*]] = "graph.add"(%arg0, %[[Z]])
// CHECK-NEXT: %[[O:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[R2:.*]] = "graph.add"(%arg0, %[[O]])
// CHECK-NEXT: return %[[R]], %[[R2]]
func.func @add_zero_broadcasting(%x: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {
  %z = "graph.constant"() {value = dense<0.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %0 = "graph.add"(%x, %z) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %1 = "graph.add"(%x, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @sub_zero
// CHECK-NEXT: %[[Z:.*]] = "graph.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[R:.*]] = "graph.sub"(%[[Z]], %arg0)
// CHECK-NEXT: return %arg0, %[[R]]
func.func @sub_zero(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %z = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.sub"(%x, %z) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  // Negative: 0 - x is not x.
  %1 = "graph.sub"(%z, %x) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @mul_one
// CHECK-NEXT: %[[T:.*]] = "graph.constant"() {value = dense<2.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%arg0, %[[T]])
// CHECK-NEXT: return %arg0, %arg0, %[[R]]
func.func @mul_one(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %one = "graph.constant"() {value = dense<1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = "graph.mul"(%x, %one) : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
  %1 = "graph.mul"(%one, %x) : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  // Negative: x * 2.
  %two = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "graph.mul"(%x, %two) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @div_one
// CHECK-NEXT: %[[O:.*]] = "graph.constant"() {value = dense<1.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[R:.*]] = "graph.div"(%[[O]], %arg0)
// CHECK-NEXT: return %arg0, %[[R]]
func.func @div_one(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.div"(%x, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  // Negative: 1 / x is not x.
  %1 = "graph.div"(%one, %x) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
