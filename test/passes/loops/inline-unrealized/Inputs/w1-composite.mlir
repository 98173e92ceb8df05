// W1 with the composite gelu (input for w1-gelu.mlir).
func.func @W1(%x: tensor<64x32xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %0 = "graph.mul"(%x, %s) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %1 = "graph.add"(%0, %b) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}
