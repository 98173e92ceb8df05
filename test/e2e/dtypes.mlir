// Element types other than f32 through the whole pipeline: f16 and bf16 (bounds 1e-2
// and 5e-2: the reference rounds every op to the type, compiled code may not), i32
// and i64 arithmetic (exact), i1 logic via cmp/select (exact).
// RUN: braze check %s --seed 29 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @half out1 7xf16
// CHECK: PASS @bfloat out0 37x7xbf16
// CHECK: PASS @ints out2 1000x37xi64
// CHECK: PASS @bools out0 7x37xi1
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
