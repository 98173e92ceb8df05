// Not a test: the first chunk is fine, the second misses its diagnostic.
func.func @ok(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.exp' op}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.exp' op}}
  %0 = "graph.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
