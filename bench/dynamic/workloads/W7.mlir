// W7 attention: softmax(q @ k^T * (1/sqrt(64))) @ v, 8 heads, S=512, d=64. (sequence length: dynamic, in [1, 4096]; generated from bench/workloads/W7.mlir)
func.func @W7(%q: tensor<8x?x64xf32> {graph.dims = ["s"]}, %k: tensor<8x?x64xf32> {graph.dims = ["s"]}, %v: tensor<8x?x64xf32> {graph.dims = ["s"]}) -> tensor<8x?x64xf32> attributes {graph.symbols = {s = array<i64: 1, 4096>}} {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<8x?x64xf32>) -> tensor<8x64x?xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<8x?x64xf32>, tensor<8x64x?xf32>) -> tensor<8x?x?xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<8x?x?xf32>, tensor<f32>) -> tensor<8x?x?xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<8x?x?xf32>, tensor<8x?x64xf32>) -> tensor<8x?x64xf32>
  return %y : tensor<8x?x64xf32>
}
