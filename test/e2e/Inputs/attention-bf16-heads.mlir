// bf16 attention with two batch dims, for test/e2e/online-chains.mlir. Its elementwise
// error against the reference is large near zero for any fused form (the chains keep
// scores and sums in f32 where every graph op's bf16 result rounds them): seed 0 gives
// 0.198 in the online form and 0.256 with the default pipeline's whole-row chain.
func.func @attn_bf16_heads(%q: tensor<2x3x64x32xbf16>, %k: tensor<2x3x64x32xbf16>, %v: tensor<2x3x64x32xbf16>) -> tensor<2x3x64x32xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x3x64x32xbf16>) -> tensor<2x3x32x64xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x3x64x32xbf16>, tensor<2x3x32x64xbf16>) -> tensor<2x3x64x64xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x3x64x64xbf16>, tensor<bf16>) -> tensor<2x3x64x64xbf16>
  %p = "graph.softmax"(%ss) {dim = 3 : i64} : (tensor<2x3x64x64xbf16>) -> tensor<2x3x64x64xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x3x64x64xbf16>, tensor<2x3x64x32xbf16>) -> tensor<2x3x64x32xbf16>
  return %y : tensor<2x3x64x32xbf16>
}
