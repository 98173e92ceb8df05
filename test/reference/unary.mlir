// Pointwise unary ops against numpy (float64), including gelu/silu composites.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 14 functions

// NUMPY @neg: -x
func.func @neg(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = "graph.neg"(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// NUMPY @abs: np.abs(x)
func.func @abs(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = "graph.abs"(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// NUMPY @exp: np.exp(x)
func.func @exp(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "graph.exp"(%x) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
// NUMPY @log: np.log(x)
// INPUTS @log: uniform 0.01 10
func.func @log(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.log"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// NUMPY @sqrt: np.sqrt(x)
// INPUTS @sqrt: uniform 0 10
func.func @sqrt(%x: tensor<7xf32>) -> tensor<7xf32> {
  %0 = "graph.sqrt"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
// NUMPY @rsqrt: 1 / np.sqrt(x)
// INPUTS @rsqrt: uniform 0.01 10
func.func @rsqrt(%x: tensor<7xf32>) -> tensor<7xf32> {
  %0 = "graph.rsqrt"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
// NUMPY @tanh: np.tanh(x)
func.func @tanh(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "graph.tanh"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// NUMPY @sigmoid: 1 / (1 + np.exp(-x))
// INPUTS @sigmoid: uniform -20 20
func.func @sigmoid(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "graph.sigmoid"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// NUMPY @relu: np.maximum(x, 0)
func.func @relu(%x: tensor<2x2x3xf32>) -> tensor<2x2x3xf32> {
  %0 = "graph.relu"(%x) : (tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}
// NUMPY @erf: erf(x)
func.func @erf(%x: tensor<9xf32>) -> tensor<9xf32> {
  %0 = "graph.erf"(%x) : (tensor<9xf32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}
// NUMPY @silu: x / (1 + np.exp(-x))
func.func @silu(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = "graph.silu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// NUMPY @gelu: 0.5 * x * (1 + erf(x / np.sqrt(2)))
func.func @gelu(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = "graph.gelu"(%x) {approximate = "none"} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// NUMPY @gelu_tanh: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
func.func @gelu_tanh(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// A chain: every op rounds to f32, numpy stays in float64.
// NUMPY @chain: np.tanh(np.exp(-np.abs(x)) * 2)
func.func @chain(%x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = "graph.abs"(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %1 = "graph.neg"(%0) : (tensor<6xf32>) -> tensor<6xf32>
  %2 = "graph.exp"(%1) : (tensor<6xf32>) -> tensor<6xf32>
  %3 = "graph.add"(%2, %2) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %4 = "graph.tanh"(%3) : (tensor<6xf32>) -> tensor<6xf32>
  return %4 : tensor<6xf32>
}
