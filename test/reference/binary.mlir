// Binary ops, cmp and select with numpy broadcasting edge cases.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 17 functions

// Same shapes.
// NUMPY @add: a + b
func.func @add(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// Trailing-dim broadcast (rank 2 with rank 1).
// NUMPY @sub_row: a - b
func.func @sub_row(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = "graph.sub"(%a, %b) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// Size-1 dims on both sides: [3,1] * [1,4] -> [3,4].
// NUMPY @mul_outer: a * b
func.func @mul_outer(%a: tensor<3x1xf32>, %b: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %0 = "graph.mul"(%a, %b) : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// Rank 0 with rank 3, scalar on the left.
// NUMPY @div_scalar: a / b
// INPUTS @div_scalar: uniform 0.5 2
func.func @div_scalar(%a: tensor<f32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.div"(%a, %b) : (tensor<f32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// Both rank 0.
// NUMPY @max_scalars: np.maximum(a, b)
func.func @max_scalars(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = "graph.max"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// Middle size-1 dim broadcast against a lower-rank operand: [2,1,4] vs [3,1].
// NUMPY @min_mixed: np.minimum(a, b)
func.func @min_mixed(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = "graph.min"(%a, %b) : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// Rank 5 with rank 5, size-1 dims in several places.
// NUMPY @add_rank5: a + b
func.func @add_rank5(%a: tensor<2x1x3x1x2xf32>, %b: tensor<1x2x1x4x2xf32>) -> tensor<2x2x3x4x2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2x1x3x1x2xf32>, tensor<1x2x1x4x2xf32>) -> tensor<2x2x3x4x2xf32>
  return %0 : tensor<2x2x3x4x2xf32>
}
// Rank 6.
// NUMPY @mul_rank6: a * b
func.func @mul_rank6(%a: tensor<2x1x2x1x2x3xf32>, %b: tensor<3xf32>) -> tensor<2x1x2x1x2x3xf32> {
  %0 = "graph.mul"(%a, %b) : (tensor<2x1x2x1x2x3xf32>, tensor<3xf32>) -> tensor<2x1x2x1x2x3xf32>
  return %0 : tensor<2x1x2x1x2x3xf32>
}
// NUMPY @pow: np.power(a, b)
// INPUTS @pow: uniform 0.1 3
func.func @pow(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.pow"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// NUMPY @cmp_lt: a < b
func.func @cmp_lt(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xi1> {
  %0 = "graph.cmp"(%a, %b) {predicate = "lt"} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  return %0 : tensor<3x4xi1>
}
// NUMPY @cmp_all: (a == b, a != b, a <= b, a > b, a >= b)
func.func @cmp_all(%a: tensor<5xi32>, %b: tensor<5xi32>) -> (tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>) {
  %0 = "graph.cmp"(%a, %b) {predicate = "eq"} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %1 = "graph.cmp"(%a, %b) {predicate = "ne"} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %2 = "graph.cmp"(%a, %b) {predicate = "le"} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %3 = "graph.cmp"(%a, %b) {predicate = "gt"} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %4 = "graph.cmp"(%a, %b) {predicate = "ge"} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  return %0, %1, %2, %3, %4 : tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>
}
// Equal compares of a value with itself and with a rounded copy.
// NUMPY @cmp_eq_self: (a == a, a != a)
func.func @cmp_eq_self(%a: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "graph.cmp"(%a, %a) {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "graph.cmp"(%a, %a) {predicate = "ne"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}
// select broadcasting all three operands.
// NUMPY @select: np.where(c, a, b)
func.func @select(%c: tensor<3x1xi1>, %a: tensor<4xf32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %0 = "graph.select"(%c, %a, %b) : (tensor<3x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// select from a compare.
// NUMPY @select_cmp: np.where(a > b, a, b)
func.func @select_cmp(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = "graph.cmp"(%a, %b) {predicate = "gt"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %0 = "graph.select"(%c, %a, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// Integer arithmetic: div truncates toward zero.
// NUMPY @int_ops: (a + b, a - b, a * b, tdiv(a, b), np.maximum(a, b), np.minimum(a, b))
// INPUTS @int_ops: nonzero
func.func @int_ops(%a: tensor<4x5xi32>, %b: tensor<5xi32>) -> (tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>) {
  %0 = "graph.add"(%a, %b) : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  %1 = "graph.sub"(%a, %b) : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  %2 = "graph.mul"(%a, %b) : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  %3 = "graph.div"(%a, %b) : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  %4 = "graph.max"(%a, %b) : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  %5 = "graph.min"(%a, %b) : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<4x5xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>, tensor<4x5xi32>
}
// i64 and the integer unary ops.
// NUMPY @int64_ops: (-a, np.abs(a), np.maximum(a, 0), tdiv(a, b))
// INPUTS @int64_ops: nonzero
func.func @int64_ops(%a: tensor<3x3xi64>, %b: tensor<3x1xi64>) -> (tensor<3x3xi64>, tensor<3x3xi64>, tensor<3x3xi64>, tensor<3x3xi64>) {
  %0 = "graph.neg"(%a) : (tensor<3x3xi64>) -> tensor<3x3xi64>
  %1 = "graph.abs"(%a) : (tensor<3x3xi64>) -> tensor<3x3xi64>
  %2 = "graph.relu"(%a) : (tensor<3x3xi64>) -> tensor<3x3xi64>
  %3 = "graph.div"(%a, %b) : (tensor<3x3xi64>, tensor<3x1xi64>) -> tensor<3x3xi64>
  return %0, %1, %2, %3 : tensor<3x3xi64>, tensor<3x3xi64>, tensor<3x3xi64>, tensor<3x3xi64>
}
// Size-0 dims broadcast and compute nothing.
// NUMPY @empty: a + b
func.func @empty(%a: tensor<0x3xf32>, %b: tensor<3xf32>) -> tensor<0x3xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<0x3xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}
