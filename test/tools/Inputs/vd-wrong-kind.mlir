// Not a test: a warning is expected where an error comes (designator on line 3).
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-warning@+1 {{'graph.exp' op}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
