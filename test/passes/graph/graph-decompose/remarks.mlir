// With `remarks`, every composite is reported at its location: expanded (with the
// number of primitive ops), erased because unused, or kept by keep=.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose{remarks keep=silu})' --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: "graph.silu"
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-remark @+1 {{graph-decompose: expanded softmax into 5 primitive ops}}
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{graph-decompose: erased unused gelu}}
  %1 = "graph.gelu"(%x) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{graph-decompose: kept silu (keep=)}}
  %2 = "graph.silu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{graph-decompose: expanded gelu into 8 primitive ops}}
  %3 = "graph.gelu"(%x) {approximate = "none"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = "graph.add"(%0, %3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %4, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}
