// Hand-written per-device programs over tp=2 whose entries are collectives only, so the
// stand-in driver and NCCL (mock_cuda.c, mock_nccl.c: kernels do not run, copies and
// collectives do) compute real outputs: test/targets/cuda/collectives.test.
func.func @ar(%x: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
func.func @gather1(%x: tensor<4x3xf32>) -> tensor<4x6xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_gather"(%x) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<4x3xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
func.func @scatter1(%x: tensor<4x6xf32>) -> tensor<4x3xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.reduce_scatter"(%x) {dim = 1 : i64, mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x6xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
func.func @a2a(%x: tensor<4x6xf32>) -> tensor<2x12xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_to_all"(%x) {concat_dim = 1 : i64, mesh_axes = ["tp"], split_dim = 0 : i64} : (tensor<4x6xf32>) -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}
func.func @slice1(%x: tensor<4x6xf32>) -> tensor<4x3xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_slice"(%x) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<4x6xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// The all_reduce has independent work after it (exp of z): it runs on the entry's
// communication stream while exp runs, and the entry's stream waits for it before add.
// (x is split over tp, so shard-fold-add leaves the add after the all_reduce.)
func.func @overlap(%x: tensor<4x6xf32> {braze.sharding = [[], ["tp"]]}, %z: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %e = "graph.exp"(%z) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = "graph.add"(%r, %x) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y, %e : tensor<4x6xf32>, tensor<4x6xf32>
}
