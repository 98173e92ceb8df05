// G6 = W6 at GPU size in bf16: llama FFN with residual, x[4096, 4096], d_ff 11008.
func.func @G6(%x: tensor<4096x4096xbf16>, %g: tensor<4096xbf16>, %wg: tensor<4096x11008xbf16>,
              %wu: tensor<4096x11008xbf16>, %wd: tensor<11008x4096xbf16>) -> tensor<4096x4096xbf16> {
  %h = "graph.rms_norm"(%x, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<4096x4096xbf16>, tensor<4096xbf16>) -> tensor<4096x4096xbf16>
  %a = "graph.matmul"(%h, %wg) : (tensor<4096x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<4096x11008xbf16>
  %sa = "graph.silu"(%a) : (tensor<4096x11008xbf16>) -> tensor<4096x11008xbf16>
  %u = "graph.matmul"(%h, %wu) : (tensor<4096x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<4096x11008xbf16>
  %p = "graph.mul"(%sa, %u) : (tensor<4096x11008xbf16>, tensor<4096x11008xbf16>) -> tensor<4096x11008xbf16>
  %d = "graph.matmul"(%p, %wd) : (tensor<4096x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<4096x4096xbf16>
  %y = "graph.add"(%x, %d) : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}
