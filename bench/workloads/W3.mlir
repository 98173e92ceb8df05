// W3 layer_norm over the last dim, eps 1e-5.
func.func @W3(%x: tensor<4096x1024xf32>, %w: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<4096x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
