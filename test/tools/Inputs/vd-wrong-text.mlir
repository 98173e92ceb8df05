// Not a test: the expected text is not in the message.
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.exp' op operand #1}}
  %0 = "graph.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
