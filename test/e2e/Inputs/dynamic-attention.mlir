// W7-like attention with a dynamic sequence length s (decision 0032): q.k^T over the
// head dim, softmax over the keys (s), then the product with v, which contracts s.
func.func @attn(%q: tensor<4x?x16xf32> {graph.dims = ["s"]}, %k: tensor<4x?x16xf32> {graph.dims = ["s"]},
                %v: tensor<4x?x16xf32> {graph.dims = ["s"]}) -> tensor<4x?x16xf32>
    attributes {graph.symbols = {s = array<i64: 1, 1024>}} {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x?x16xf32>) -> tensor<4x16x?xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x?x16xf32>, tensor<4x16x?xf32>) -> tensor<4x?x?xf32>
  %c = "graph.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<4x?x?xf32>, tensor<f32>) -> tensor<4x?x?xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %o = "graph.batch_matmul"(%p, %v) : (tensor<4x?x?xf32>, tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  return %o : tensor<4x?x16xf32>
}
