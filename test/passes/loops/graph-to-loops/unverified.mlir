// On IR the graph verifier did not see, ops graph-to-loops cannot index safely are
// reported at the op instead of crashing.
// RUN: braze-opt --cpu=x86-64-v4 %s --no-verify-graph --split-input-file --graph-to-loops --verify-diagnostics

func.func @bad_perm(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{graph-to-loops: 'graph.transpose' has operands, results or attributes it cannot lower (run graph-verify)}}
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 5>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// -----

func.func @bad_dims(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{graph-to-loops: 'graph.reduce_sum' has operands, results or attributes it cannot lower (run graph-verify)}}
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 2>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_broadcast(%x: tensor<2x4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{graph-to-loops: 'graph.exp' has operands, results or attributes it cannot lower (run graph-verify)}}
  %0 = "graph.exp"(%x) : (tensor<2x4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
