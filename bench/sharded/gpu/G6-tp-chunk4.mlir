// G6-tp-chunk4: G6-tp with its 8192 tokens in four chunks of 2048 (written out by hand:
// no pass chunks a graph yet), the same annotations. Each chunk's down projection ends in
// its own all_reduce, which the CUDA entry runs on a second stream while the next chunk
// computes (decision 0018, "overlap"); the four residual adds and the concat are one
// kernel at the end. Compiled like G6-tp: `--mesh=tp:1` or `--mesh=tp:2`.
func.func @G6(%x: tensor<8192x4096xbf16>, %g: tensor<4096xbf16>,
              %wg: tensor<4096x11008xbf16> {braze.sharding = [[], ["tp"]]},
              %wu: tensor<4096x11008xbf16> {braze.sharding = [[], ["tp"]]},
              %wd: tensor<11008x4096xbf16> {braze.sharding = [["tp"], []]}) -> tensor<8192x4096xbf16>
    attributes {braze.mesh = [["tp", 2]]} {
  %x0 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 2048, 4096>, strides = array<i64: 1, 1>} : (tensor<8192x4096xbf16>) -> tensor<2048x4096xbf16>
  %h0 = "graph.rms_norm"(%x0, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<2048x4096xbf16>, tensor<4096xbf16>) -> tensor<2048x4096xbf16>
  %a0 = "graph.matmul"(%h0, %wg) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %sa0 = "graph.silu"(%a0) : (tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %u0 = "graph.matmul"(%h0, %wu) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %p0 = "graph.mul"(%sa0, %u0) : (tensor<2048x11008xbf16>, tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %d0 = "graph.matmul"(%p0, %wd) : (tensor<2048x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<2048x4096xbf16>
  %y0 = "graph.add"(%x0, %d0) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
  %x1 = "graph.slice"(%x) {starts = array<i64: 2048, 0>, limits = array<i64: 4096, 4096>, strides = array<i64: 1, 1>} : (tensor<8192x4096xbf16>) -> tensor<2048x4096xbf16>
  %h1 = "graph.rms_norm"(%x1, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<2048x4096xbf16>, tensor<4096xbf16>) -> tensor<2048x4096xbf16>
  %a1 = "graph.matmul"(%h1, %wg) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %sa1 = "graph.silu"(%a1) : (tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %u1 = "graph.matmul"(%h1, %wu) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %p1 = "graph.mul"(%sa1, %u1) : (tensor<2048x11008xbf16>, tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %d1 = "graph.matmul"(%p1, %wd) : (tensor<2048x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<2048x4096xbf16>
  %y1 = "graph.add"(%x1, %d1) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
  %x2 = "graph.slice"(%x) {starts = array<i64: 4096, 0>, limits = array<i64: 6144, 4096>, strides = array<i64: 1, 1>} : (tensor<8192x4096xbf16>) -> tensor<2048x4096xbf16>
  %h2 = "graph.rms_norm"(%x2, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<2048x4096xbf16>, tensor<4096xbf16>) -> tensor<2048x4096xbf16>
  %a2 = "graph.matmul"(%h2, %wg) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %sa2 = "graph.silu"(%a2) : (tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %u2 = "graph.matmul"(%h2, %wu) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %p2 = "graph.mul"(%sa2, %u2) : (tensor<2048x11008xbf16>, tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %d2 = "graph.matmul"(%p2, %wd) : (tensor<2048x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<2048x4096xbf16>
  %y2 = "graph.add"(%x2, %d2) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
  %x3 = "graph.slice"(%x) {starts = array<i64: 6144, 0>, limits = array<i64: 8192, 4096>, strides = array<i64: 1, 1>} : (tensor<8192x4096xbf16>) -> tensor<2048x4096xbf16>
  %h3 = "graph.rms_norm"(%x3, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<2048x4096xbf16>, tensor<4096xbf16>) -> tensor<2048x4096xbf16>
  %a3 = "graph.matmul"(%h3, %wg) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %sa3 = "graph.silu"(%a3) : (tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %u3 = "graph.matmul"(%h3, %wu) : (tensor<2048x4096xbf16>, tensor<4096x11008xbf16>) -> tensor<2048x11008xbf16>
  %p3 = "graph.mul"(%sa3, %u3) : (tensor<2048x11008xbf16>, tensor<2048x11008xbf16>) -> tensor<2048x11008xbf16>
  %d3 = "graph.matmul"(%p3, %wd) : (tensor<2048x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<2048x4096xbf16>
  %y3 = "graph.add"(%x3, %d3) : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<2048x4096xbf16>
  %c1 = "graph.concat"(%y0, %y1) {dim = 0 : i64} : (tensor<2048x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<4096x4096xbf16>
  %c2 = "graph.concat"(%c1, %y2) {dim = 0 : i64} : (tensor<4096x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<6144x4096xbf16>
  %c3 = "graph.concat"(%c2, %y3) {dim = 0 : i64} : (tensor<6144x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<8192x4096xbf16>
  return %c3 : tensor<8192x4096xbf16>
}
