// braze's passes take symbolic dims only through graph-verify (decision 0029): any
// other pass on a function with graph.symbols refuses, with a remark at the first op
// that reads a symbolic dim (naming the dim) and an error at the function; upstream
// passes and graph-verify run as before.
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline="builtin.module(graph-decompose)" 2>&1 | FileCheck %s
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline="builtin.module(graph-verify,graph-simplify)" 2>&1 | FileCheck %s --check-prefix=SIMP
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline="builtin.module(graph-verify,func.func(canonicalize,cse))" | FileCheck %s --check-prefix=OK

// CHECK: symbolic-dims-refusal.mlir:[[# @LINE + 5]]:8: remark: graph-decompose: 'graph.reshape' op operand #0 dim 0 is s0
// CHECK: symbolic-dims-refusal.mlir:[[# @LINE + 2]]:1: error: graph-decompose does not take symbolic dims: @ln has graph.symbols (braze compile takes them as row blocks; decision 0029)
// SIMP: error: graph-simplify does not take symbolic dims: @ln has graph.symbols
func.func @ln(%x: tensor<?x4x8xf32> {graph.dims = ["s0"]}, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32>
    attributes {graph.symbols = {s0 = array<i64: 1, 64>}} {
  %r = "graph.reshape"(%x) : (tensor<?x4x8xf32>) -> tensor<?x8xf32>
  %0 = "graph.layer_norm"(%r, %g, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
// OK: graph.symbols = {s0 = array<i64: 1, 64>}
// OK: "graph.layer_norm"
