// The reference interpreter on i16 and the unsigned types (decision 0010) against
// numpy computing in the same dtypes: wrap-around modulo 2^N, unsigned division,
// compares, max/min and reductions, ui64 above 2^63 (inputs at multiples of 2^11,
// exact in double), casts from and to floats and between integer types.
// RUN: %python %S/compare.py %s | FileCheck %s
// CHECK: checked 7 functions

// NUMPY @u8_wrap: (a + b, a - b, a * b)
// INPUTS @u8_wrap: full
func.func @u8_wrap(%a: tensor<4x8xui8>, %b: tensor<8xui8>) -> (tensor<4x8xui8>, tensor<4x8xui8>, tensor<4x8xui8>) {
  %0 = "graph.add"(%a, %b) : (tensor<4x8xui8>, tensor<8xui8>) -> tensor<4x8xui8>
  %1 = "graph.sub"(%a, %b) : (tensor<4x8xui8>, tensor<8xui8>) -> tensor<4x8xui8>
  %2 = "graph.mul"(%a, %b) : (tensor<4x8xui8>, tensor<8xui8>) -> tensor<4x8xui8>
  return %0, %1, %2 : tensor<4x8xui8>, tensor<4x8xui8>, tensor<4x8xui8>
}
// NUMPY @u16_div: (a // b, a > b, np.maximum(a, b), np.minimum(a, b))
// INPUTS @u16_div: nonzero
func.func @u16_div(%a: tensor<16xui16>, %b: tensor<16xui16>) -> (tensor<16xui16>, tensor<16xi1>, tensor<16xui16>, tensor<16xui16>) {
  %0 = "graph.div"(%a, %b) : (tensor<16xui16>, tensor<16xui16>) -> tensor<16xui16>
  %1 = "graph.cmp"(%a, %b) {predicate = "gt"} : (tensor<16xui16>, tensor<16xui16>) -> tensor<16xi1>
  %2 = "graph.max"(%a, %b) : (tensor<16xui16>, tensor<16xui16>) -> tensor<16xui16>
  %3 = "graph.min"(%a, %b) : (tensor<16xui16>, tensor<16xui16>) -> tensor<16xui16>
  return %0, %1, %2, %3 : tensor<16xui16>, tensor<16xi1>, tensor<16xui16>, tensor<16xui16>
}
// NUMPY @u32_full: (a // np.maximum(b, np.uint32(1)), a <= b, np.sum(a - b, axis=1, dtype=np.uint32))
// INPUTS @u32_full: full
func.func @u32_full(%a: tensor<4x8xui32>, %b: tensor<4x8xui32>) -> (tensor<4x8xui32>, tensor<4x8xi1>, tensor<4xui32>) {
  %one = "graph.constant"() {value = dense<1> : tensor<ui32>} : () -> tensor<ui32>
  %d = "graph.max"(%b, %one) : (tensor<4x8xui32>, tensor<ui32>) -> tensor<4x8xui32>
  %0 = "graph.div"(%a, %d) : (tensor<4x8xui32>, tensor<4x8xui32>) -> tensor<4x8xui32>
  %1 = "graph.cmp"(%a, %b) {predicate = "le"} : (tensor<4x8xui32>, tensor<4x8xui32>) -> tensor<4x8xi1>
  %s = "graph.sub"(%a, %b) : (tensor<4x8xui32>, tensor<4x8xui32>) -> tensor<4x8xui32>
  %2 = "graph.reduce_sum"(%s) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xui32>) -> tensor<4xui32>
  return %0, %1, %2 : tensor<4x8xui32>, tensor<4x8xi1>, tensor<4xui32>
}
// NUMPY @u64_big: (a // np.uint64(2048), a > b, np.maximum(a, b), np.min(a, axis=1), a - b)
// INPUTS @u64_big: full
func.func @u64_big(%a: tensor<4x8xui64>, %b: tensor<4x8xui64>) -> (tensor<4x8xui64>, tensor<4x8xi1>, tensor<4x8xui64>, tensor<4xui64>, tensor<4x8xui64>) {
  %k = "graph.constant"() {value = dense<2048> : tensor<ui64>} : () -> tensor<ui64>
  %0 = "graph.div"(%a, %k) : (tensor<4x8xui64>, tensor<ui64>) -> tensor<4x8xui64>
  %1 = "graph.cmp"(%a, %b) {predicate = "gt"} : (tensor<4x8xui64>, tensor<4x8xui64>) -> tensor<4x8xi1>
  %2 = "graph.max"(%a, %b) : (tensor<4x8xui64>, tensor<4x8xui64>) -> tensor<4x8xui64>
  %3 = "graph.reduce_min"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xui64>) -> tensor<4xui64>
  %4 = "graph.sub"(%a, %b) : (tensor<4x8xui64>, tensor<4x8xui64>) -> tensor<4x8xui64>
  return %0, %1, %2, %3, %4 : tensor<4x8xui64>, tensor<4x8xi1>, tensor<4x8xui64>, tensor<4xui64>, tensor<4x8xui64>
}
// NUMPY @i16_ops: (a * b, np.trunc(a / b).astype(np.int16), np.sum(a * b, axis=1, dtype=np.int16))
// INPUTS @i16_ops: nonzero
func.func @i16_ops(%a: tensor<4x8xi16>, %b: tensor<8xi16>) -> (tensor<4x8xi16>, tensor<4x8xi16>, tensor<4xi16>) {
  %0 = "graph.mul"(%a, %b) : (tensor<4x8xi16>, tensor<8xi16>) -> tensor<4x8xi16>
  %1 = "graph.div"(%a, %b) : (tensor<4x8xi16>, tensor<8xi16>) -> tensor<4x8xi16>
  %2 = "graph.reduce_sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xi16>) -> tensor<4xi16>
  return %0, %1, %2 : tensor<4x8xi16>, tensor<4x8xi16>, tensor<4xi16>
}
// uitofp and fptoui: ui32 -> f32 rounds, f32 -> ui8 truncates.
// NUMPY @u_float_casts: (a.astype(np.float32), np.trunc(np.abs(x) * 30).astype(np.uint8))
// INPUTS @u_float_casts: full
func.func @u_float_casts(%a: tensor<16xui32>, %x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xui8>) {
  %0 = "graph.cast"(%a) : (tensor<16xui32>) -> tensor<16xf32>
  %ax = "graph.abs"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %k = "graph.constant"() {value = dense<30.0> : tensor<f32>} : () -> tensor<f32>
  %s = "graph.mul"(%ax, %k) : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %1 = "graph.cast"(%s) : (tensor<16xf32>) -> tensor<16xui8>
  return %0, %1 : tensor<16xf32>, tensor<16xui8>
}
// Integer casts: ui8 -> i16 zero-extends, i16 -> ui8 wraps, ui16 -> ui64 zero-extends.
// NUMPY @int_casts: (a.astype(np.int16), b.astype(np.uint8), c.astype(np.uint64))
// INPUTS @int_casts: full
func.func @int_casts(%a: tensor<16xui8>, %b: tensor<16xi16>, %c: tensor<16xui16>) -> (tensor<16xi16>, tensor<16xui8>, tensor<16xui64>) {
  %0 = "graph.cast"(%a) : (tensor<16xui8>) -> tensor<16xi16>
  %1 = "graph.cast"(%b) : (tensor<16xi16>) -> tensor<16xui8>
  %2 = "graph.cast"(%c) : (tensor<16xui16>) -> tensor<16xui64>
  return %0, %1, %2 : tensor<16xi16>, tensor<16xui8>, tensor<16xui64>
}
