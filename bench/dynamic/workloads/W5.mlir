// W5 linear + gelu: y = gelu(x @ W + b). (rows: dynamic, in [1, 4096]; generated from bench/workloads/W5.mlir)
func.func @W5(%x: tensor<?x1024xf32> {graph.dims = ["m"]}, %w: tensor<1024x1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> attributes {graph.symbols = {m = array<i64: 1, 4096>}} {
  %0 = "graph.matmul"(%x, %w) : (tensor<?x1024xf32>, tensor<1024x1024xf32>) -> tensor<?x1024xf32>
  %1 = "graph.add"(%0, %b) : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %2 : tensor<?x1024xf32>
}
