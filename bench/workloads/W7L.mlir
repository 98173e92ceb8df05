// W7L = W7 with long rows: S=4096 (a row of scores is 16 KiB, a block of 64 rows 1 MiB).
func.func @W7L(%q: tensor<8x4096x64xf32>, %k: tensor<8x4096x64xf32>, %v: tensor<8x4096x64xf32>) -> tensor<8x4096x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<8x4096x64xf32>) -> tensor<8x64x4096xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<8x4096x64xf32>, tensor<8x64x4096xf32>) -> tensor<8x4096x4096xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<8x4096x4096xf32>, tensor<f32>) -> tensor<8x4096x4096xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<8x4096x4096xf32>) -> tensor<8x4096x4096xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<8x4096x4096xf32>, tensor<8x4096x64xf32>) -> tensor<8x4096x64xf32>
  return %y : tensor<8x4096x64xf32>
}
