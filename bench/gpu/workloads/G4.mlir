// G4 = W4 at GPU size: rms_norm over the last dim of x[16384, 8192] f32, eps 1e-6.
func.func @G4(%x: tensor<16384x8192xf32>, %w: tensor<8192xf32>) -> tensor<16384x8192xf32> {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<16384x8192xf32>, tensor<8192xf32>) -> tensor<16384x8192xf32>
  return %0 : tensor<16384x8192xf32>
}
