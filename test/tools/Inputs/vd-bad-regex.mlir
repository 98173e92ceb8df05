// Not a test: an expected-error-re whose regular expression does not compile.
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error-re@+1 {{'graph.exp' op {{[unclosed}}}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
