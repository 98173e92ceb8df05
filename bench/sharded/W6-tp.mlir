// W6 (bench/workloads/W6.mlir) annotated for tensor parallelism: the gate and up
// projections split by columns, the down projection by rows (Megatron), so the
// per-device program needs one all_reduce (before the residual add). The mesh is the
// only thing to change for another device count: `--mesh=tp:1`, `mesh=tp:4`.
func.func @W6(%x: tensor<256x1024xf32>, %g: tensor<1024xf32>,
              %wg: tensor<1024x2816xf32> {braze.sharding = [[], ["tp"]]},
              %wu: tensor<1024x2816xf32> {braze.sharding = [[], ["tp"]]},
              %wd: tensor<2816x1024xf32> {braze.sharding = [["tp"], []]}) -> tensor<256x1024xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  %h = "graph.rms_norm"(%x, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<256x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %a = "graph.matmul"(%h, %wg) : (tensor<256x1024xf32>, tensor<1024x2816xf32>) -> tensor<256x2816xf32>
  %sa = "graph.silu"(%a) : (tensor<256x2816xf32>) -> tensor<256x2816xf32>
  %u = "graph.matmul"(%h, %wu) : (tensor<256x1024xf32>, tensor<1024x2816xf32>) -> tensor<256x2816xf32>
  %p = "graph.mul"(%sa, %u) : (tensor<256x2816xf32>, tensor<256x2816xf32>) -> tensor<256x2816xf32>
  %d = "graph.matmul"(%p, %wd) : (tensor<256x2816xf32>, tensor<2816x1024xf32>) -> tensor<256x1024xf32>
  %y = "graph.add"(%x, %d) : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
