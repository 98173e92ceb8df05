// G2 = W2 at GPU size: softmax over the last dim of x[16384, 8192] f32.
func.func @G2(%x: tensor<16384x8192xf32>) -> tensor<16384x8192xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  return %0 : tensor<16384x8192xf32>
}
