// W3 layer_norm over the last dim, eps 1e-5. (batch rows: dynamic, in [1, 4096]; generated from bench/workloads/W3.mlir)
func.func @W3(%x: tensor<?x1024xf32> {graph.dims = ["b"]}, %w: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> attributes {graph.symbols = {b = array<i64: 1, 4096>}} {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<?x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}
