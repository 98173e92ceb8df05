// W7 (bench/workloads/W7.mlir) with its 8 heads split over the mesh: q, k, v and the
// result split on the head dim, so every op is local and the per-device program has
// no collective. The mesh is the only thing to change for another device count.
func.func @W7(%q: tensor<8x512x64xf32> {braze.sharding = [["tp"], [], []]},
              %k: tensor<8x512x64xf32> {braze.sharding = [["tp"], [], []]},
              %v: tensor<8x512x64xf32> {braze.sharding = [["tp"], [], []]})
    -> (tensor<8x512x64xf32> {braze.sharding = [["tp"], [], []]}) attributes {braze.mesh = [["tp", 2]]} {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<8x512x64xf32>) -> tensor<8x64x512xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<8x512x64xf32>, tensor<8x64x512xf32>) -> tensor<8x512x512xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<8x512x512xf32>, tensor<f32>) -> tensor<8x512x512xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<8x512x512xf32>, tensor<8x512x64xf32>) -> tensor<8x512x64xf32>
  return %y : tensor<8x512x64xf32>
}
