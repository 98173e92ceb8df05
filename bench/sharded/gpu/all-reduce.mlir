// The all_reduce of G6-tp's per-device program alone (8192 x 4096 bf16, 64 MiB), and one
// of 1 GiB (bf16, 2^29 elements): hand-written per-device programs over tp=2, for the
// communication time and bus bandwidth (bench/sharded/gpu/bench.py).
func.func @ar64m(%x: tensor<8192x4096xbf16>) -> tensor<8192x4096xbf16>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8192x4096xbf16>) -> tensor<8192x4096xbf16>
  return %r : tensor<8192x4096xbf16>
}
func.func @ar1g(%x: tensor<32768x16384xbf16>) -> tensor<32768x16384xbf16>
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<32768x16384xbf16>) -> tensor<32768x16384xbf16>
  return %r : tensor<32768x16384xbf16>
}
