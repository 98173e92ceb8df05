// G6-tp: W6 (llama FFN with residual) at GPU size in bf16, 8192 tokens, d 4096, d_ff 11008,
// annotated for tensor parallelism: gate and up split by columns, down by rows (Megatron),
// so the per-device program needs one all_reduce before the residual add. The same file
// compiles for any device count: `braze compile --mesh=tp:1` (one GPU) or `--mesh=tp:2`.
func.func @G6(%x: tensor<8192x4096xbf16>, %g: tensor<4096xbf16>,
              %wg: tensor<4096x11008xbf16> {braze.sharding = [[], ["tp"]]},
              %wu: tensor<4096x11008xbf16> {braze.sharding = [[], ["tp"]]},
              %wd: tensor<11008x4096xbf16> {braze.sharding = [["tp"], []]}) -> tensor<8192x4096xbf16>
    attributes {braze.mesh = [["tp", 2]]} {
  %h = "graph.rms_norm"(%x, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<8192x4096xbf16>, tensor<4096xbf16>) -> tensor<8192x4096xbf16>
  %a = "graph.matmul"(%h, %wg) : (tensor<8192x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<8192x11008xbf16>
  %sa = "graph.silu"(%a) : (tensor<8192x11008xbf16>) -> tensor<8192x11008xbf16>
  %u = "graph.matmul"(%h, %wu) : (tensor<8192x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<8192x11008xbf16>
  %p = "graph.mul"(%sa, %u) : (tensor<8192x11008xbf16>, tensor<8192x11008xbf16>) -> tensor<8192x11008xbf16>
  %d = "graph.matmul"(%p, %wd) : (tensor<8192x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<8192x4096xbf16>
  %y = "graph.add"(%x, %d) : (tensor<8192x4096xbf16>, tensor<8192x4096xbf16>) -> tensor<8192x4096xbf16>
  return %y : tensor<8192x4096xbf16>
}
