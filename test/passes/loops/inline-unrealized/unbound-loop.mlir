// A producer is not inlined into a consumer where a loop would then be indexed by
// no bare dim (linalg takes a loop's extent from one: "invalid indexing maps are
// non-invertible"): here the reduced loop d1 is read only through exp(broadcast(c)),
// whose own read of c is (d0, 0). The reduction keeps reading the realized tensor.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized | mlir-opt --verify-each -o /dev/null

// CHECK-LABEL: func.func @f(
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x1xf32>){{.*}}braze.ops = ["exp"]
// CHECK: linalg.generic {{.*}} ins(%[[E]] : tensor<4x8xf32>){{.*}}braze.ops = ["reduce_sum"]
func.func @f(%c: tensor<4x1xf32>) -> tensor<4xf32> {
  %b = "graph.broadcast_to"(%c) : (tensor<4x1xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{inlined into 0 consumers, realized for 1 (a loop would be indexed by no operand dim)}}
  %e = "graph.exp"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @+1 {{realized: reduction}}
  %s = "graph.reduce_sum"(%e) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
