// graph.bitwise_and/or/xor/not against the reference: i32 with a broadcast operand,
// NOT of ui8 (two's complement of 8 bits), i1 (logical), i64; one kernel.
// RUN: braze check %s --seed 4 | FileCheck %s
// CHECK-COUNT-8: PASS  @bw
// CHECK: check passed
func.func @bw(%a: tensor<4x37xi32>, %b: tensor<37xi32>, %c: tensor<4x37xui8>, %d: tensor<4x37xi1>, %e: tensor<4x37xi1>, %f: tensor<8xi64>)
    -> (tensor<4x37xi32>, tensor<4x37xi32>, tensor<4x37xi32>, tensor<4x37xi32>, tensor<4x37xui8>, tensor<4x37xi1>, tensor<4x37xi1>, tensor<8xi64>) {
  %0 = "graph.bitwise_and"(%a, %b) : (tensor<4x37xi32>, tensor<37xi32>) -> tensor<4x37xi32>
  %1 = "graph.bitwise_or"(%a, %b) : (tensor<4x37xi32>, tensor<37xi32>) -> tensor<4x37xi32>
  %2 = "graph.bitwise_xor"(%a, %b) : (tensor<4x37xi32>, tensor<37xi32>) -> tensor<4x37xi32>
  %3 = "graph.bitwise_not"(%a) : (tensor<4x37xi32>) -> tensor<4x37xi32>
  %4 = "graph.bitwise_not"(%c) : (tensor<4x37xui8>) -> tensor<4x37xui8>
  %5 = "graph.bitwise_not"(%d) : (tensor<4x37xi1>) -> tensor<4x37xi1>
  %6 = "graph.bitwise_xor"(%d, %e) : (tensor<4x37xi1>, tensor<4x37xi1>) -> tensor<4x37xi1>
  %7 = "graph.bitwise_not"(%f) : (tensor<8xi64>) -> tensor<8xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x37xi32>, tensor<4x37xi32>, tensor<4x37xi32>, tensor<4x37xi32>, tensor<4x37xui8>, tensor<4x37xi1>, tensor<4x37xi1>, tensor<8xi64>
}
