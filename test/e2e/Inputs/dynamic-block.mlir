// layer_norm + softmax + a row max over a dynamic sequence dim (a multiple of 8).
func.func @block(%x: tensor<?x48xf32> {graph.dims = ["seq"]}, %g: tensor<48xf32>, %b: tensor<48xf32>) -> (tensor<?x48xf32>, tensor<?x1xf32>)
    attributes {graph.symbols = {seq = array<i64: 8, 2048, 8>}} {
  %n = "graph.layer_norm"(%x, %g, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<?x48xf32>, tensor<48xf32>, tensor<48xf32>) -> tensor<?x48xf32>
  %p = "graph.softmax"(%n) {dim = 1 : i64} : (tensor<?x48xf32>) -> tensor<?x48xf32>
  %m = "graph.reduce_max"(%n) {dims = array<i64: 1>, keepdim = true} : (tensor<?x48xf32>) -> tensor<?x1xf32>
  return %p, %m : tensor<?x48xf32>, tensor<?x1xf32>
}
