// Composite ops evaluated directly, against numpy forms of their definitions.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 12 functions

// NUMPY @softmax_last: softmax(x, 1)
func.func @softmax_last(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x7xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}
// NUMPY @softmax_middle: softmax(x, 1)
func.func @softmax_middle(%x: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}
// Large inputs: the max subtraction keeps exp finite.
// NUMPY @softmax_large: softmax(x, 0)
// INPUTS @softmax_large: uniform 500 1000
func.func @softmax_large(%x: tensor<6x2xf32>) -> tensor<6x2xf32> {
  %0 = "graph.softmax"(%x) {dim = 0 : i64} : (tensor<6x2xf32>) -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}
// NUMPY @log_softmax_first: log_softmax(x, 0)
func.func @log_softmax_first(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0 = "graph.log_softmax"(%x) {dim = 0 : i64} : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
// NUMPY @layer_norm_last: layer_norm(x, w, b, 2, 1e-5)
func.func @layer_norm_last(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
// Normalizing over the last two dims.
// NUMPY @layer_norm_two: layer_norm(x, w, b, 1, 1e-3)
func.func @layer_norm_two(%x: tensor<2x3x4xf32>, %w: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-03 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// eps is read as an f32 attribute: 1e-5 in f32 differs from the double 1e-5.
// NUMPY @rms_norm: rms_norm(x, w, 1, float(np.float32(1e-5)))
func.func @rms_norm(%x: tensor<3x16xf32>, %w: tensor<16xf32>) -> tensor<3x16xf32> {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<3x16xf32>, tensor<16xf32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}
// NUMPY @rms_norm_all: rms_norm(x, w, 0, 1e-6)
func.func @rms_norm_all(%x: tensor<4x2xf32>, %w: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = "graph.rms_norm"(%x, %w) {axis = 0 : i64, eps = 1.0e-06 : f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
// NUMPY @batch_norm4: batch_norm(x, s, b, m, np.abs(v0) + 0.1, 1e-5)
func.func @batch_norm4(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v0: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %v1 = "graph.abs"(%v0) : (tensor<3xf32>) -> tensor<3xf32>
  %c = "graph.constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %v = "graph.add"(%v1, %c) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {eps = 1.0e-05 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}
// Rank-2 batch norm (no spatial dims).
// NUMPY @batch_norm2: batch_norm(x, s, b, m, v, 1e-5)
// INPUTS @batch_norm2: uniform 0.5 2
func.func @batch_norm2(%x: tensor<4x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {eps = 1.0e-05 : f32} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// NUMPY @linear3: x @ w.T + b
func.func @linear3(%x: tensor<2x3x5xf32>, %w: tensor<4x5xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<2x3x5xf32>, tensor<4x5xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// NUMPY @linear1: x @ w.T + b
func.func @linear1(%x: tensor<5xf32>, %w: tensor<2x5xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<5xf32>, tensor<2x5xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
