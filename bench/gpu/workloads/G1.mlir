// G1 = W1 at GPU size: y = gelu(x * s + b), x[16384, 8192] f32, s and b broadcast over rows.
func.func @G1(%x: tensor<16384x8192xf32>, %s: tensor<8192xf32>, %b: tensor<8192xf32>) -> tensor<16384x8192xf32> {
  %0 = "graph.mul"(%x, %s) : (tensor<16384x8192xf32>, tensor<8192xf32>) -> tensor<16384x8192xf32>
  %1 = "graph.add"(%0, %b) : (tensor<16384x8192xf32>, tensor<8192xf32>) -> tensor<16384x8192xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<16384x8192xf32>) -> tensor<16384x8192xf32>
  return %2 : tensor<16384x8192xf32>
}
