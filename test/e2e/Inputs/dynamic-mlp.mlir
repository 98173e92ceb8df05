// W1-like MLP with a dynamic batch s0 (decision 0029): matmul + bias + GELU + matmul.
func.func @mlp(%x: tensor<?x64xf32> {graph.dims = ["s0"]}, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x64xf32>) -> tensor<?x64xf32> attributes {graph.symbols = {s0 = array<i64: 1, 4096, 1>}} {
  %h = "graph.matmul"(%x, %w1) : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x128xf32>
  %a = "graph.add"(%h, %b1) : (tensor<?x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>
  %g = "graph.gelu"(%a) {approximate = "none"} : (tensor<?x128xf32>) -> tensor<?x128xf32>
  %y = "graph.matmul"(%g, %w2) : (tensor<?x128xf32>, tensor<128x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
