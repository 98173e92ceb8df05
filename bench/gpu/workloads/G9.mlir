// G9: attention as PyTorch's TransformerEncoderLayer exports it (batch_first, sequence-
// first inside): x [8, 1024, 1024] bf16, one in-projection to [S, B, 3E], q, k, v
// sliced, reshaped and transposed to 16 heads of 64, q scaled by a div, the heads back
// through a transpose and a reshape to the out-projection, and the residual
// (test/gpu/cases/attention-views.mlir at bench size; bench.py's encoder_attention).
func.func @G9(%x: tensor<8x1024x1024xbf16>, %win: tensor<1024x3072xbf16>, %wo: tensor<1024x1024xbf16>) -> tensor<8x1024x1024xbf16> {
  %xt = "graph.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<8x1024x1024xbf16>) -> tensor<1024x8x1024xbf16>
  %p = "graph.batch_matmul"(%xt, %win) : (tensor<1024x8x1024xbf16>, tensor<1024x3072xbf16>) -> tensor<1024x8x3072xbf16>
  %q0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 0>, limits = array<i64: 1024, 8, 1024>, strides = array<i64: 1, 1, 1>} : (tensor<1024x8x3072xbf16>) -> tensor<1024x8x1024xbf16>
  %k0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 1024>, limits = array<i64: 1024, 8, 2048>, strides = array<i64: 1, 1, 1>} : (tensor<1024x8x3072xbf16>) -> tensor<1024x8x1024xbf16>
  %v0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 2048>, limits = array<i64: 1024, 8, 3072>, strides = array<i64: 1, 1, 1>} : (tensor<1024x8x3072xbf16>) -> tensor<1024x8x1024xbf16>
  %q1 = "graph.reshape"(%q0) : (tensor<1024x8x1024xbf16>) -> tensor<1024x128x64xbf16>
  %q = "graph.transpose"(%q1) {perm = array<i64: 1, 0, 2>} : (tensor<1024x128x64xbf16>) -> tensor<128x1024x64xbf16>
  %k1 = "graph.reshape"(%k0) : (tensor<1024x8x1024xbf16>) -> tensor<1024x128x64xbf16>
  %kt = "graph.transpose"(%k1) {perm = array<i64: 1, 2, 0>} : (tensor<1024x128x64xbf16>) -> tensor<128x64x1024xbf16>
  %v1 = "graph.reshape"(%v0) : (tensor<1024x8x1024xbf16>) -> tensor<1024x128x64xbf16>
  %v = "graph.transpose"(%v1) {perm = array<i64: 1, 0, 2>} : (tensor<1024x128x64xbf16>) -> tensor<128x1024x64xbf16>
  %scale = "graph.constant"() {value = dense<8.0> : tensor<bf16>} : () -> tensor<bf16>
  %qs = "graph.div"(%q, %scale) : (tensor<128x1024x64xbf16>, tensor<bf16>) -> tensor<128x1024x64xbf16>
  %s = "graph.batch_matmul"(%qs, %kt) : (tensor<128x1024x64xbf16>, tensor<128x64x1024xbf16>) -> tensor<128x1024x1024xbf16>
  %pr = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<128x1024x1024xbf16>) -> tensor<128x1024x1024xbf16>
  %o = "graph.batch_matmul"(%pr, %v) : (tensor<128x1024x1024xbf16>, tensor<128x1024x64xbf16>) -> tensor<128x1024x64xbf16>
  %ot = "graph.transpose"(%o) {perm = array<i64: 1, 0, 2>} : (tensor<128x1024x64xbf16>) -> tensor<1024x128x64xbf16>
  %o2 = "graph.reshape"(%ot) : (tensor<1024x128x64xbf16>) -> tensor<8192x1024xbf16>
  %proj = "graph.matmul"(%o2, %wo) : (tensor<8192x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<8192x1024xbf16>
  %proj3 = "graph.reshape"(%proj) : (tensor<8192x1024xbf16>) -> tensor<1024x8x1024xbf16>
  %projt = "graph.transpose"(%proj3) {perm = array<i64: 1, 0, 2>} : (tensor<1024x8x1024xbf16>) -> tensor<8x1024x1024xbf16>
  %r1 = "graph.add"(%x, %projt) : (tensor<8x1024x1024xbf16>, tensor<8x1024x1024xbf16>) -> tensor<8x1024x1024xbf16>
  return %r1 : tensor<8x1024x1024xbf16>
}
