// W7 attention: softmax(q @ k^T * (1/sqrt(64))) @ v, 8 heads, S=512, d=64.
func.func @W7(%q: tensor<8x512x64xf32>, %k: tensor<8x512x64xf32>, %v: tensor<8x512x64xf32>) -> tensor<8x512x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<8x512x64xf32>) -> tensor<8x64x512xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<8x512x64xf32>, tensor<8x64x512xf32>) -> tensor<8x512x512xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<8x512x512xf32>, tensor<f32>) -> tensor<8x512x512xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<8x512x512xf32>, tensor<8x512x64xf32>) -> tensor<8x512x64xf32>
  return %y : tensor<8x512x64xf32>
}
