// G3 = W3 at GPU size: layer_norm over the last dim of x[16384, 8192] f32, eps 1e-5.
func.func @G3(%x: tensor<16384x8192xf32>, %w: tensor<8192xf32>, %b: tensor<8192xf32>) -> tensor<16384x8192xf32> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<16384x8192xf32>, tensor<8192xf32>, tensor<8192xf32>) -> tensor<16384x8192xf32>
  return %0 : tensor<16384x8192xf32>
}
