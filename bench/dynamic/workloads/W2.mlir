// W2 softmax over the last dim. (batch rows: dynamic, in [1, 4096]; generated from bench/workloads/W2.mlir)
func.func @W2(%x: tensor<?x1024xf32> {graph.dims = ["b"]}) -> tensor<?x1024xf32> attributes {graph.symbols = {b = array<i64: 1, 4096>}} {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}
