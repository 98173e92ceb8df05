// Attention of 4 heads, 256 rows, head dim 32, for form-row-chains' option tests
// (remarks.mlir): one chain candidate, refused by the option the RUN line sets.
func.func @attention(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>) -> tensor<4x256x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  // expected-remark-re@+1 {{form-row-chains: no chain @cpu_tem_fused_batch_matmul_0 -> @cpu_per_fused_softmax_1 -> @cpu_tem_fused_batch_matmul_2: {{operand-too-large-to-repack|rows-not-a-divisor}}}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  // expected-remark-re@+1 {{form-row-chains: {{.*}}}}
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}
