// W4 rms_norm: y = x * rsqrt(mean(x^2, -1) + eps) * w, eps 1e-6. (batch rows: dynamic, in [1, 4096]; generated from bench/workloads/W4.mlir)
func.func @W4(%x: tensor<?x1024xf32> {graph.dims = ["b"]}, %w: tensor<1024xf32>) -> tensor<?x1024xf32> attributes {graph.symbols = {b = array<i64: 1, 4096>}} {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<?x1024xf32>, tensor<1024xf32>) -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}
