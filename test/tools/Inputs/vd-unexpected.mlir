// Not a test: an error nobody expected (line 3, column 8).
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
