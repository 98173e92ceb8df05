// W1 pw-chain: y = gelu(x * s + b), s and b broadcast over rows.
func.func @W1(%x: tensor<4096x1024xf32>, %s: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %0 = "graph.mul"(%x, %s) : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  %1 = "graph.add"(%0, %b) : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %2 : tensor<4096x1024xf32>
}
