// func.call of graph-dialect functions (user kernels are func.call).
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: ok @caller
// CHECK: ok @kernel_user
// CHECK: checked 3 functions

func.func private @scale_add(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %c = "graph.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%x, %c) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = "graph.add"(%0, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
func.func private @two_results(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>) {
  %0 = "graph.relu"(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = "graph.reduce_sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  return %0, %s : tensor<3x4xf32>, tensor<3xf32>
}
// A callee that itself calls.
func.func private @nested(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = func.call @scale_add(%x, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = "graph.tanh"(%0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
func.func private @kernel(%x: tensor<3x4xf32>, %b: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %s = "graph.reduce_sum"(%b) {dims = array<i64: 0>, keepdim = false} : (tensor<5x4xf32>) -> tensor<4xf32>
  %0 = func.call @nested(%x, %s) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// NUMPY @caller: (np.maximum(2 * x + b, 0), np.sum(np.maximum(2 * x + b, 0), axis=1))
func.func @caller(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>) {
  %0 = func.call @scale_add(%x, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1:2 = func.call @two_results(%0) : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>)
  return %1#0, %1#1 : tensor<3x4xf32>, tensor<3xf32>
}
// A user kernel whose arguments have different types.
// NUMPY @kernel_user: np.tanh(2 * x + np.sum(b, axis=0)) - x
func.func @kernel_user(%x: tensor<3x4xf32>, %b: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %0 = func.call @kernel(%x, %b) : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  %1 = "graph.sub"(%0, %x) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
// The same callee called twice.
// NUMPY @twice: 2 * (2 * x + b) + b
func.func @twice(%x: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = func.call @scale_add(%x, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = func.call @scale_add(%0, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
