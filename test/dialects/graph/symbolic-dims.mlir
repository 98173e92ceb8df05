// Symbolic dims (docs/dialect-graph.md "Symbolic dims", decision 0029): `?` dims of
// arguments bound to symbols with bounds; op results inferred as shape expressions
// (broadcasting, matmul, reductions, norms, transpose, reshape products); the module
// prints back unchanged.
// RUN: braze-opt --cpu=x86-64-v4 %s | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s | braze-opt --cpu=x86-64-v4 | FileCheck %s

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: tensor<?x64xf32> {graph.dims = ["s0"]}
// CHECK-SAME: graph.symbols = {s0 = array<i64: 1, 4096, 1>}
func.func @mlp(%x: tensor<?x64xf32> {graph.dims = ["s0"]}, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x64xf32>) -> tensor<?x64xf32> attributes {graph.symbols = {s0 = array<i64: 1, 4096, 1>}} {
  // CHECK: "graph.matmul"{{.*}} -> tensor<?x128xf32>
  %h = "graph.matmul"(%x, %w1) : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x128xf32>
  %a = "graph.add"(%h, %b1) : (tensor<?x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>
  %g = "graph.gelu"(%a) {approximate = "none"} : (tensor<?x128xf32>) -> tensor<?x128xf32>
  %y = "graph.matmul"(%g, %w2) : (tensor<?x128xf32>, tensor<128x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// Two symbols, a divisor, reductions over the static and the symbolic dim, softmax,
// layer_norm, transpose, a reshape that splits s1*4 back out and one that merges.
// CHECK-LABEL: func.func @block
func.func @block(%x: tensor<?x?x32xf32> {graph.dims = ["b", "s"]}, %g: tensor<32xf32>, %be: tensor<32xf32>)
    -> (tensor<?x?x32xf32>, tensor<?x32xf32>, tensor<?x1xf32>, tensor<?x?xf32>, tensor<?x8xf32>)
    attributes {graph.symbols = {b = array<i64: 1, 64>, s = array<i64: 8, 2048, 8>}} {
  %n = "graph.layer_norm"(%x, %g, %be) {axis = 2 : i64, eps = 1.0e-05 : f32} : (tensor<?x?x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x?x32xf32>
  %p = "graph.softmax"(%n) {dim = 2 : i64} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  // CHECK: "graph.reduce_sum"{{.*}} -> tensor<?x32xf32>
  %r = "graph.reduce_sum"(%p) {dims = array<i64: 1>, keepdim = false} : (tensor<?x?x32xf32>) -> tensor<?x32xf32>
  %m = "graph.reduce_max"(%r) {dims = array<i64: 1>, keepdim = true} : (tensor<?x32xf32>) -> tensor<?x1xf32>
  %t = "graph.transpose"(%p) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  %f = "graph.reshape"(%t) : (tensor<?x?x32xf32>) -> tensor<?x32xf32>
  %q = "graph.reshape"(%f) : (tensor<?x32xf32>) -> tensor<?x8xf32>
  %s0 = "graph.reduce_sum"(%t) {dims = array<i64: 2>, keepdim = false} : (tensor<?x?x32xf32>) -> tensor<?x?xf32>
  return %p, %r, %m, %s0, %q : tensor<?x?x32xf32>, tensor<?x32xf32>, tensor<?x1xf32>, tensor<?x?xf32>, tensor<?x8xf32>
}

// A static function is untouched by the symbolic rules.
// CHECK-LABEL: func.func @static
func.func @static(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
