// W5 linear + gelu: y = gelu(x @ W + b).
func.func @W5(%x: tensor<512x1024xf32>, %w: tensor<1024x1024xf32>, %b: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<512x1024xf32>, tensor<1024x1024xf32>) -> tensor<512x1024xf32>
  %1 = "graph.add"(%0, %b) : (tensor<512x1024xf32>, tensor<1024xf32>) -> tensor<512x1024xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %2 : tensor<512x1024xf32>
}
