// W1 pw-chain: y = gelu(x * s + b), s and b broadcast over rows. (batch rows: dynamic, in [1, 4096]; generated from bench/workloads/W1.mlir)
func.func @W1(%x: tensor<?x1024xf32> {graph.dims = ["b"]}, %s: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> attributes {graph.symbols = {b = array<i64: 1, 4096>}} {
  %0 = "graph.mul"(%x, %s) : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %1 = "graph.add"(%0, %b) : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %2 : tensor<?x1024xf32>
}
