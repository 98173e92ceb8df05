// Indexed reads: gather (ONNX Gather) and gather_elements (ONNX GatherElements).
// An index i along an axis of size K reads i + K when i < 0, then clamped to
// [0, K - 1] (integer inputs are in [-8, 8]: axes smaller than 9 exercise the clamp).
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: ok @embedding
// CHECK: ok @axis1
// CHECK: ok @scalar_index
// CHECK: ok @clamped
// CHECK: ok @ints
// CHECK: ok @elements0
// CHECK: ok @elements1
// CHECK: checked 7 functions

// NUMPY @embedding: np.take(t, np.clip(np.where(i < 0, i + 20, i), 0, 19), axis=0)
func.func @embedding(%t: tensor<20x6xf32>, %i: tensor<3x4xi64>) -> tensor<3x4x6xf32> {
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<20x6xf32>, tensor<3x4xi64>) -> tensor<3x4x6xf32>
  return %0 : tensor<3x4x6xf32>
}
// NUMPY @axis1: np.take(x, np.clip(np.where(i < 0, i + 9, i), 0, 8), axis=1)
func.func @axis1(%x: tensor<2x9x3xf32>, %i: tensor<5x2xi32>) -> tensor<2x5x2x3xf32> {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<2x9x3xf32>, tensor<5x2xi32>) -> tensor<2x5x2x3xf32>
  return %0 : tensor<2x5x2x3xf32>
}
// NUMPY @scalar_index: np.take(x, np.clip(np.where(i < 0, i + 10, i), 0, 9), axis=1)
func.func @scalar_index(%x: tensor<4x10xf32>, %i: tensor<i64>) -> tensor<4xf32> {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<4x10xf32>, tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// NUMPY @clamped: np.take(x, np.clip(np.where(i < 0, i + 3, i), 0, 2), axis=0)
func.func @clamped(%x: tensor<3x5xf32>, %i: tensor<30xi64>) -> tensor<30x5xf32> {
  %0 = "graph.gather"(%x, %i) {axis = 0 : i64} : (tensor<3x5xf32>, tensor<30xi64>) -> tensor<30x5xf32>
  return %0 : tensor<30x5xf32>
}
// NUMPY @ints: np.take(x, np.clip(np.where(i < 0, i + 12, i), 0, 11), axis=0)
func.func @ints(%x: tensor<12x2xi64>, %i: tensor<7xi32>) -> tensor<7x2xi64> {
  %0 = "graph.gather"(%x, %i) {axis = 0 : i64} : (tensor<12x2xi64>, tensor<7xi32>) -> tensor<7x2xi64>
  return %0 : tensor<7x2xi64>
}
// NUMPY @elements0: np.take_along_axis(x[:, :3], np.clip(np.where(i < 0, i + 4, i), 0, 3), axis=0)
func.func @elements0(%x: tensor<4x5xf32>, %i: tensor<6x3xi64>) -> tensor<6x3xf32> {
  %0 = "graph.gather_elements"(%x, %i) {axis = 0 : i64} : (tensor<4x5xf32>, tensor<6x3xi64>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}
// NUMPY @elements1: np.take_along_axis(x, np.clip(np.where(i < 0, i + 10, i), 0, 9), axis=1)
func.func @elements1(%x: tensor<3x10xf32>, %i: tensor<3x4xi32>) -> tensor<3x4xf32> {
  %0 = "graph.gather_elements"(%x, %i) {axis = 1 : i64} : (tensor<3x10xf32>, tensor<3x4xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
