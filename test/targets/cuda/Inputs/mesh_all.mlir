// Hand-written per-device programs over a dp=2 x tp=2 mesh for one process driving all
// four GPUs (braze_cuda_mesh_init_all): test/targets/cuda/mesh-all.test. Collectives and
// copies compute on the stand-in driver and NCCL (mock_cuda.c, mock_nccl.c); kernels do
// not run there. @arc's group (tp) needs a split of the world communicator; @scatter's
// group (dp, tp) is the world; @arc returns a constant (uploaded once per device);
// @overlap has kernels (loaded once per device) and a collective on a second stream
// (x is split over tp, so shard-fold-add leaves the add after the all_reduce).
func.func @arc(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<2x2xf32>)
    attributes {braze.mesh = [["dp", 2], ["tp", 2]], braze.partitioned} {
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = "graph.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.5]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  return %r, %c : tensor<4x6xf32>, tensor<2x2xf32>
}
func.func @scatter(%x: tensor<4x8xf32>) -> tensor<4x2xf32>
    attributes {braze.mesh = [["dp", 2], ["tp", 2]], braze.partitioned} {
  %r = "graph.reduce_scatter"(%x) {dim = 1 : i64, mesh_axes = ["dp", "tp"], reduction = "sum"} : (tensor<4x8xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
func.func @overlap(%x: tensor<4x6xf32> {braze.sharding = [[], ["tp"]]}, %z: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
    attributes {braze.mesh = [["dp", 2], ["tp", 2]], braze.partitioned} {
  %r = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %e = "graph.exp"(%z) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = "graph.add"(%r, %x) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y, %e : tensor<4x6xf32>, tensor<4x6xf32>
}
