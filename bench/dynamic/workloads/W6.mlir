// W6 llama FFN with residual: h = rms_norm(x); y = x + (silu(h @ Wg) * (h @ Wu)) @ Wd. (tokens: dynamic, in [1, 4096]; generated from bench/workloads/W6.mlir)
func.func @W6(%x: tensor<?x1024xf32> {graph.dims = ["t"]}, %g: tensor<1024xf32>, %wg: tensor<1024x2816xf32>,
              %wu: tensor<1024x2816xf32>, %wd: tensor<2816x1024xf32>) -> tensor<?x1024xf32> attributes {graph.symbols = {t = array<i64: 1, 4096>}} {
  %h = "graph.rms_norm"(%x, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  %a = "graph.matmul"(%h, %wg) : (tensor<?x1024xf32>, tensor<1024x2816xf32>) -> tensor<?x2816xf32>
  %sa = "graph.silu"(%a) : (tensor<?x2816xf32>) -> tensor<?x2816xf32>
  %u = "graph.matmul"(%h, %wu) : (tensor<?x1024xf32>, tensor<1024x2816xf32>) -> tensor<?x2816xf32>
  %p = "graph.mul"(%sa, %u) : (tensor<?x2816xf32>, tensor<?x2816xf32>) -> tensor<?x2816xf32>
  %d = "graph.matmul"(%p, %wd) : (tensor<?x2816xf32>, tensor<2816x1024xf32>) -> tensor<?x1024xf32>
  %y = "graph.add"(%x, %d) : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}
