// W4 rms_norm: y = x * rsqrt(mean(x^2, -1) + eps) * w, eps 1e-6.
func.func @W4(%x: tensor<4096x1024xf32>, %w: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}
