// Element types: f16/bf16 arithmetic rounds to nearest even on store (bit-exact
// against numpy's own conversions), casts between every kind of type, i1.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 12 functions

// NUMPY @f16_add: (a + b).astype(np.float16)
// TOLERANCE @f16_add: 0 0
func.func @f16_add(%a: tensor<4x8xf16>, %b: tensor<8xf16>) -> tensor<4x8xf16> {
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
// NUMPY @f16_mul_div: ((a * b).astype(np.float16), (a / b).astype(np.float16))
// TOLERANCE @f16_mul_div: 0 0
func.func @f16_mul_div(%a: tensor<16xf16>, %b: tensor<16xf16>) -> (tensor<16xf16>, tensor<16xf16>) {
  %0 = "graph.mul"(%a, %b) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  %1 = "graph.div"(%a, %b) : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xf16>
  return %0, %1 : tensor<16xf16>, tensor<16xf16>
}
// exp overflows f16 above ~11.09: +inf.
// NUMPY @f16_exp_overflow: np.exp(x).astype(np.float16)
// INPUTS @f16_exp_overflow: uniform 9 13
// TOLERANCE @f16_exp_overflow: 0 0
func.func @f16_exp_overflow(%x: tensor<32xf16>) -> tensor<32xf16> {
  %0 = "graph.exp"(%x) : (tensor<32xf16>) -> tensor<32xf16>
  return %0 : tensor<32xf16>
}
// bf16: products of bf16 values are exact in double, then round once.
// NUMPY @bf16_mul: bf16_values(bf16_bits(a * b))
// TOLERANCE @bf16_mul: 0 0
func.func @bf16_mul(%a: tensor<4x8xbf16>, %b: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = "graph.mul"(%a, %b) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}
// Composites on 16-bit floats stay in double inside the op.
// NUMPY @bf16_softmax: softmax(x, 1)
func.func @bf16_softmax(%x: tensor<3x16xbf16>) -> tensor<3x16xbf16> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<3x16xbf16>) -> tensor<3x16xbf16>
  return %0 : tensor<3x16xbf16>
}
// NUMPY @f16_layer_norm: layer_norm(x, w, b, 1, float(np.float32(1e-5)))
func.func @f16_layer_norm(%x: tensor<4x32xf16>, %w: tensor<32xf16>, %b: tensor<32xf16>) -> tensor<4x32xf16> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4x32xf16>, tensor<32xf16>, tensor<32xf16>) -> tensor<4x32xf16>
  return %0 : tensor<4x32xf16>
}
// float -> float casts round to nearest even.
// NUMPY @cast_floats: (x.astype(np.float16), bf16_values(bf16_bits(x)), x.astype(np.float16).astype(np.float64))
// INPUTS @cast_floats: uniform -70000 70000
// TOLERANCE @cast_floats: 0 0
func.func @cast_floats(%x: tensor<64xf32>) -> (tensor<64xf16>, tensor<64xbf16>, tensor<64xf32>) {
  %0 = "graph.cast"(%x) : (tensor<64xf32>) -> tensor<64xf16>
  %1 = "graph.cast"(%x) : (tensor<64xf32>) -> tensor<64xbf16>
  %2 = "graph.cast"(%0) : (tensor<64xf16>) -> tensor<64xf32>
  return %0, %1, %2 : tensor<64xf16>, tensor<64xbf16>, tensor<64xf32>
}
// float -> int truncates toward zero; -> i1 is x != 0.
// NUMPY @cast_to_ints: (np.trunc(x), np.trunc(x), x != 0)
// INPUTS @cast_to_ints: uniform -100 100
func.func @cast_to_ints(%x: tensor<5x5xf32>) -> (tensor<5x5xi32>, tensor<5x5xi64>, tensor<5x5xi1>) {
  %0 = "graph.cast"(%x) : (tensor<5x5xf32>) -> tensor<5x5xi32>
  %1 = "graph.cast"(%x) : (tensor<5x5xf32>) -> tensor<5x5xi64>
  %2 = "graph.cast"(%x) : (tensor<5x5xf32>) -> tensor<5x5xi1>
  return %0, %1, %2 : tensor<5x5xi32>, tensor<5x5xi64>, tensor<5x5xi1>
}
// int -> float, int -> int, int -> i1, i1 -> int and float.
// NUMPY @cast_from_ints: (a.astype(np.float64), a, a != 0, (a != 0).astype(np.float64), (a != 0).astype(np.int64))
func.func @cast_from_ints(%a: tensor<12xi32>) -> (tensor<12xf32>, tensor<12xi64>, tensor<12xi1>, tensor<12xf16>, tensor<12xi32>) {
  %0 = "graph.cast"(%a) : (tensor<12xi32>) -> tensor<12xf32>
  %1 = "graph.cast"(%a) : (tensor<12xi32>) -> tensor<12xi64>
  %2 = "graph.cast"(%a) : (tensor<12xi32>) -> tensor<12xi1>
  %3 = "graph.cast"(%2) : (tensor<12xi1>) -> tensor<12xf16>
  %4 = "graph.cast"(%2) : (tensor<12xi1>) -> tensor<12xi32>
  return %0, %1, %2, %3, %4 : tensor<12xf32>, tensor<12xi64>, tensor<12xi1>, tensor<12xf16>, tensor<12xi32>
}
// i64 -> i32 wraps; i32 arithmetic wraps both ways; integer div truncates toward zero.
// NUMPY @int_wrap: (np.array([5, -1, -2147483648, 2147483647]), np.array([-2147483648, 2147483647]), np.array([-3, 3, -3]))
func.func @int_wrap() -> (tensor<4xi32>, tensor<2xi32>, tensor<3xi32>) {
  %c = "graph.constant"() {value = dense<[4294967301, 4294967295, 2147483648, -2147483649]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "graph.cast"(%c) : (tensor<4xi64>) -> tensor<4xi32>
  %m = "graph.constant"() {value = dense<[2147483647, -2147483648]> : tensor<2xi32>} : () -> tensor<2xi32>
  %one = "graph.constant"() {value = dense<[1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "graph.add"(%m, %one) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %n = "graph.constant"() {value = dense<[-7, 7, 7]> : tensor<3xi32>} : () -> tensor<3xi32>
  %d = "graph.constant"() {value = dense<[2, 2, -2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %2 = "graph.div"(%n, %d) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<2xi32>, tensor<3xi32>
}
// i1 inputs through select and compare.
// NUMPY @bools: (np.where(c, a, b), c == d)
func.func @bools(%c: tensor<6xi1>, %d: tensor<6xi1>, %a: tensor<6xi64>, %b: tensor<6xi64>) -> (tensor<6xi64>, tensor<6xi1>) {
  %0 = "graph.select"(%c, %a, %b) : (tensor<6xi1>, tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>
  %1 = "graph.cmp"(%c, %d) {predicate = "eq"} : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
  return %0, %1 : tensor<6xi64>, tensor<6xi1>
}
// max/min propagate NaN; NaN compares false except ne; 1/0 is inf.
// NUMPY @nan_rules: (np.array([np.nan, np.nan, 2.0, np.inf]), np.array([np.nan, np.nan, 1.0, 1.0]), np.array([False, False, True, True]), np.array([True, True, False, False]), np.array([False, False, False, False]))
func.func @nan_rules() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = "graph.constant"() {value = dense<[0.0, 0.0, 2.0, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %b = "graph.constant"() {value = dense<[0.0, 0.0, 1.0, 0.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %o = "graph.constant"() {value = dense<[1.0, -1.0, 1.0, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %n = "graph.div"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = "graph.max"(%n, %o) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.min"(%n, %o) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "graph.cmp"(%n, %n) {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = "graph.cmp"(%n, %n) {predicate = "ne"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = "graph.cmp"(%n, %o) {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}
