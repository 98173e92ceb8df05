// graph.rem: the truncated remainder (the dividend's sign: C's fmod on floats, remsi /
// remui on integers) against the reference, on f32 with mixed signs and large
// quotients (fmod is exact: no a - trunc(a / b) * b rounding), f16, i32 and ui8.
// RUN: braze check %s --seed 2 | FileCheck %s
// CHECK-COUNT-4: PASS  @rem
// CHECK: check passed
func.func @rem(%a: tensor<37x64xf32>, %b: tensor<64xf32>, %h: tensor<64xf16>, %i: tensor<8xi32>, %u: tensor<8xui8>)
    -> (tensor<37x64xf32>, tensor<64xf16>, tensor<8xi32>, tensor<8xui8>) {
  %big = "graph.constant"() {value = dense<1.0e6> : tensor<f32>} : () -> tensor<f32>
  %a2 = "graph.mul"(%a, %big) : (tensor<37x64xf32>, tensor<f32>) -> tensor<37x64xf32>
  %0 = "graph.rem"(%a2, %b) : (tensor<37x64xf32>, tensor<64xf32>) -> tensor<37x64xf32>
  %three = "graph.constant"() {value = dense<0.75> : tensor<f16>} : () -> tensor<f16>
  %1 = "graph.rem"(%h, %three) : (tensor<64xf16>, tensor<f16>) -> tensor<64xf16>
  %d = "graph.constant"() {value = dense<[3, -3, 5, -5, 7, 2, -2, 1]> : tensor<8xi32>} : () -> tensor<8xi32>
  %2 = "graph.rem"(%i, %d) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %e = "graph.constant"() {value = dense<[3, 200, 5, 7, 9, 255, 2, 1]> : tensor<8xui8>} : () -> tensor<8xui8>
  %3 = "graph.rem"(%u, %e) : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  return %0, %1, %2, %3 : tensor<37x64xf32>, tensor<64xf16>, tensor<8xi32>, tensor<8xui8>
}
