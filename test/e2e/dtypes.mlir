// Element types other than f32 through the whole pipeline: f16 and bf16 (bounds 1e-2
// and 5e-2: the reference rounds every op to the type, compiled code may not), i32
// and i64 arithmetic (exact), i1 logic via cmp/select (exact), f64 (bound 1e-9: the
// reference computes in double as well; math-approx leaves f64 math to libm, and the
// matmul template refuses f64 products, which stay loop nests computed in f64), i8
// (exact: random inputs in [-8, 8], so the products' row sums wrap around 2^8).
// RUN: braze check %s --seed 29 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @half out1 7xf16
// CHECK: PASS @bfloat out0 37x7xbf16
// CHECK: PASS @ints out2 1000x37xi64
// CHECK: PASS @bools out0 7x37xi1
// CHECK: PASS @double_pointwise out1 7xf64 {{.*}}(bound 1e-09)
// CHECK: PASS @double_norms out1 100x37xf64
// CHECK: PASS @double_matmul out0 50x70xf64
// CHECK: PASS @double_casts out0 9x5xf64
// CHECK: PASS @double_casts out1 9x5xf32
// CHECK: PASS @double_casts out2 9x5xi32
// CHECK: PASS @int8 out0 7x37xi8
// CHECK: PASS @int8 out1 7xi8
// CHECK: PASS @int8 out2 7x37xi32
// CHECK: PASS @int8 out3 7x37xf32
// CHECK: PASS @int8 out4 7x37xi8
// CHECK: PASS @int8 out5 7x37xi1
// CHECK: PASS @int8_div out0 9x5xi8
// CHECK: check passed

func.func @half(%a: tensor<7x37xf16>, %b: tensor<37xf16>) -> (tensor<7x37xf16>, tensor<7xf16>) {
  %0 = "graph.mul"(%a, %b) : (tensor<7x37xf16>, tensor<37xf16>) -> tensor<7x37xf16>
  %1 = "graph.reduce_max"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<7x37xf16>) -> tensor<7xf16>
  return %0, %1 : tensor<7x37xf16>, tensor<7xf16>
}

func.func @bfloat(%a: tensor<37x7xbf16>) -> tensor<37x7xbf16> {
  %0 = "graph.exp"(%a) : (tensor<37x7xbf16>) -> tensor<37x7xbf16>
  %1 = "graph.add"(%0, %a) : (tensor<37x7xbf16>, tensor<37x7xbf16>) -> tensor<37x7xbf16>
  return %1 : tensor<37x7xbf16>
}

func.func @ints(%a: tensor<1000x37xi32>, %b: tensor<37xi32>, %c: tensor<1000x37xi64>)
    -> (tensor<1000x37xi32>, tensor<1000xi32>, tensor<1000x37xi64>) {
  %0 = "graph.mul"(%a, %b) : (tensor<1000x37xi32>, tensor<37xi32>) -> tensor<1000x37xi32>
  %1 = "graph.reduce_sum"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<1000x37xi32>) -> tensor<1000xi32>
  %2 = "graph.sub"(%c, %c) : (tensor<1000x37xi64>, tensor<1000x37xi64>) -> tensor<1000x37xi64>
  %3 = "graph.max"(%2, %c) : (tensor<1000x37xi64>, tensor<1000x37xi64>) -> tensor<1000x37xi64>
  return %0, %1, %3 : tensor<1000x37xi32>, tensor<1000xi32>, tensor<1000x37xi64>
}

func.func @bools(%p: tensor<7x37xi1>, %a: tensor<7x37xf32>) -> (tensor<7x37xi1>, tensor<7x37xf32>) {
  %z = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %q = "graph.cmp"(%a, %z) {predicate = "gt"} : (tensor<7x37xf32>, tensor<f32>) -> tensor<7x37xi1>
  %both = "graph.select"(%p, %q, %p) : (tensor<7x37xi1>, tensor<7x37xi1>, tensor<7x37xi1>) -> tensor<7x37xi1>
  %r = "graph.select"(%both, %a, %z) : (tensor<7x37xi1>, tensor<7x37xf32>, tensor<f32>) -> tensor<7x37xf32>
  return %both, %r : tensor<7x37xi1>, tensor<7x37xf32>
}

func.func @double_pointwise(%a: tensor<7x37xf64>, %b: tensor<37xf64>) -> (tensor<7x37xf64>, tensor<7xf64>) {
  %0 = "graph.mul"(%a, %b) : (tensor<7x37xf64>, tensor<37xf64>) -> tensor<7x37xf64>
  %e = "graph.exp"(%0) : (tensor<7x37xf64>) -> tensor<7x37xf64>
  %t = "graph.tanh"(%e) : (tensor<7x37xf64>) -> tensor<7x37xf64>
  %d = "graph.div"(%t, %b) : (tensor<7x37xf64>, tensor<37xf64>) -> tensor<7x37xf64>
  %1 = "graph.reduce_sum"(%d) {dims = array<i64: 1>, keepdim = false} : (tensor<7x37xf64>) -> tensor<7xf64>
  return %d, %1 : tensor<7x37xf64>, tensor<7xf64>
}

func.func @double_norms(%x: tensor<100x37xf64>, %w: tensor<37xf64>, %b: tensor<37xf64>) -> (tensor<100x37xf64>, tensor<100x37xf64>) {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<100x37xf64>) -> tensor<100x37xf64>
  %1 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<100x37xf64>, tensor<37xf64>, tensor<37xf64>) -> tensor<100x37xf64>
  return %0, %1 : tensor<100x37xf64>, tensor<100x37xf64>
}

func.func @double_matmul(%a: tensor<50x45xf64>, %b: tensor<45x70xf64>) -> tensor<50x70xf64> {
  %0 = "graph.matmul"(%a, %b) : (tensor<50x45xf64>, tensor<45x70xf64>) -> tensor<50x70xf64>
  %1 = "graph.sigmoid"(%0) : (tensor<50x70xf64>) -> tensor<50x70xf64>
  return %1 : tensor<50x70xf64>
}

// f32 -> f64 is exact; f64 -> f32 rounds once; f64 -> i32 truncates.
func.func @double_casts(%a: tensor<9x5xf32>, %b: tensor<9x5xf64>) -> (tensor<9x5xf64>, tensor<9x5xf32>, tensor<9x5xi32>) {
  %0 = "graph.cast"(%a) : (tensor<9x5xf32>) -> tensor<9x5xf64>
  %1 = "graph.cast"(%b) : (tensor<9x5xf64>) -> tensor<9x5xf32>
  %2 = "graph.cast"(%b) : (tensor<9x5xf64>) -> tensor<9x5xi32>
  return %0, %1, %2 : tensor<9x5xf64>, tensor<9x5xf32>, tensor<9x5xi32>
}

// i8: wrapping products and row sums, max, casts to/from i32 and f32 (f32 -> i8
// truncates; the inputs are within i8), a comparison with broadcasting.
func.func @int8(%a: tensor<7x37xi8>, %b: tensor<37xi8>, %f: tensor<7x37xf32>)
    -> (tensor<7x37xi8>, tensor<7xi8>, tensor<7x37xi32>, tensor<7x37xf32>, tensor<7x37xi8>, tensor<7x37xi1>) {
  %0 = "graph.mul"(%a, %b) : (tensor<7x37xi8>, tensor<37xi8>) -> tensor<7x37xi8>
  %m = "graph.max"(%0, %a) : (tensor<7x37xi8>, tensor<7x37xi8>) -> tensor<7x37xi8>
  %1 = "graph.reduce_sum"(%m) {dims = array<i64: 1>, keepdim = false} : (tensor<7x37xi8>) -> tensor<7xi8>
  %2 = "graph.cast"(%a) : (tensor<7x37xi8>) -> tensor<7x37xi32>
  %3 = "graph.cast"(%a) : (tensor<7x37xi8>) -> tensor<7x37xf32>
  %4 = "graph.cast"(%f) : (tensor<7x37xf32>) -> tensor<7x37xi8>
  %5 = "graph.cmp"(%a, %b) {predicate = "lt"} : (tensor<7x37xi8>, tensor<37xi8>) -> tensor<7x37xi1>
  return %m, %1, %2, %3, %4, %5 : tensor<7x37xi8>, tensor<7xi8>, tensor<7x37xi32>, tensor<7x37xf32>, tensor<7x37xi8>, tensor<7x37xi1>
}

// i8 division truncates toward zero (the divisor is kept >= 1).
func.func @int8_div(%a: tensor<9x5xi8>, %b: tensor<9x5xi8>) -> tensor<9x5xi8> {
  %one = "graph.constant"() {value = dense<1> : tensor<i8>} : () -> tensor<i8>
  %d = "graph.max"(%b, %one) : (tensor<9x5xi8>, tensor<i8>) -> tensor<9x5xi8>
  %0 = "graph.div"(%a, %d) : (tensor<9x5xi8>, tensor<9x5xi8>) -> tensor<9x5xi8>
  return %0 : tensor<9x5xi8>
}
