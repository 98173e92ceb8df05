// Not a test: input for test/tools (a verifier error on line 4, column 8).
func.func @bad(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  // the next op's shapes do not broadcast
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
