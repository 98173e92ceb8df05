// G7-heads: G7 (attention, B*H = 64, S = 2048, D = 128, bf16) with its heads split over
// the mesh: q, k, v and the result split on the head dim, every op local, no collective.
// The same file compiles for any device count: `--mesh=tp:1` or `--mesh=tp:2`.
func.func @G7(%q: tensor<64x2048x128xbf16> {braze.sharding = [["tp"], [], []]},
              %k: tensor<64x2048x128xbf16> {braze.sharding = [["tp"], [], []]},
              %v: tensor<64x2048x128xbf16> {braze.sharding = [["tp"], [], []]})
    -> (tensor<64x2048x128xbf16> {braze.sharding = [["tp"], [], []]}) attributes {braze.mesh = [["tp", 2]]} {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<64x2048x128xbf16>) -> tensor<64x128x2048xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<64x2048x128xbf16>, tensor<64x128x2048xbf16>) -> tensor<64x2048x2048xbf16>
  %c = "graph.constant"() {value = dense<0.08838834764> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<64x2048x2048xbf16>, tensor<bf16>) -> tensor<64x2048x2048xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<64x2048x2048xbf16>) -> tensor<64x2048x2048xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<64x2048x2048xbf16>, tensor<64x2048x128xbf16>) -> tensor<64x2048x128xbf16>
  return %y : tensor<64x2048x128xbf16>
}
