// G8 = G7 with long rows: softmax(q @ k^T / sqrt(128)) @ v, B*H = 16, S = 8192, D = 128, bf16
// (a row of scores is 32 KiB in f32: only the online form keeps it out of memory).
func.func @G8(%q: tensor<16x8192x128xbf16>, %k: tensor<16x8192x128xbf16>, %v: tensor<16x8192x128xbf16>) -> tensor<16x8192x128xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<16x8192x128xbf16>) -> tensor<16x128x8192xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<16x8192x128xbf16>, tensor<16x128x8192xbf16>) -> tensor<16x8192x8192xbf16>
  %c = "graph.constant"() {value = dense<0.08838834764> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<16x8192x8192xbf16>, tensor<bf16>) -> tensor<16x8192x8192xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<16x8192x8192xbf16>) -> tensor<16x8192x8192xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<16x8192x8192xbf16>, tensor<16x8192x128xbf16>) -> tensor<16x8192x128xbf16>
  return %y : tensor<16x8192x128xbf16>
}
