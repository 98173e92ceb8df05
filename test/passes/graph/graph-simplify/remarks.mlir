// With `remarks`, every applied rewrite is reported at the op it rewrote, naming
// the rule.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-simplify=remarks --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[C:.*]] = "graph.constant"() {value = dense<6.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg1) {perm = array<i64: 1, 0>}
// CHECK-NEXT: return %arg0, %[[C]], %[[T]], %[[T]]
func.func @f(%x: tensor<2xf32>, %y: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  // expected-remark @+1 {{graph-simplify: dce: erased dead graph.constant}}
  %z = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  // expected-remark @+1 {{graph-simplify: add-zero}}
  %0 = "graph.add"(%x, %z) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  // expected-remark @+1 {{graph-simplify: dce: erased dead graph.constant}}
  %a = "graph.constant"() {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-remark @+1 {{graph-simplify: dce: erased dead graph.constant}}
  %b = "graph.constant"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-remark @+1 {{graph-simplify: const-fold}}
  %1 = "graph.mul"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t1 = "graph.transpose"(%y) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // expected-remark @+1 {{graph-simplify: cse: merged into an identical graph.transpose}}
  %t2 = "graph.transpose"(%y) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1, %t1, %t2 : tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}
