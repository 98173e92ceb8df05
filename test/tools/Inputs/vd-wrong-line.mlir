// Not a test: the designator points one line too far (line 5 instead of 4).
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+2 {{'graph.exp' op}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
