// Symbolic dims that are reduced or contracted (decision 0032): a layer norm over a
// dynamic feature dim f (its mean divides by f at run time), a column sum over the
// rows, and a matmul whose K is f.
func.func @norm(%x: tensor<6x?xf32> {graph.dims = ["f"]}, %g: tensor<?xf32> {graph.dims = ["f"]},
                %b: tensor<?xf32> {graph.dims = ["f"]}) -> tensor<6x?xf32>
    attributes {graph.symbols = {f = array<i64: 1, 512>}} {
  %0 = "graph.layer_norm"(%x, %g, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<6x?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<6x?xf32>
  return %0 : tensor<6x?xf32>
}
func.func @colsum(%x: tensor<?x24xf32> {graph.dims = ["n"]}) -> tensor<24xf32> attributes {graph.symbols = {n = array<i64: 1, 512>}} {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<?x24xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}
func.func @mm(%x: tensor<8x?xf32> {graph.dims = ["k"]}, %w: tensor<?x20xf32> {graph.dims = ["k"]}, %bias: tensor<20xf32>) -> tensor<8x20xf32>
    attributes {graph.symbols = {k = array<i64: 1, 512>}} {
  %0 = "graph.matmul"(%x, %w) : (tensor<8x?xf32>, tensor<?x20xf32>) -> tensor<8x20xf32>
  %1 = "graph.add"(%0, %bias) : (tensor<8x20xf32>, tensor<20xf32>) -> tensor<8x20xf32>
  %2 = "graph.relu"(%1) : (tensor<8x20xf32>) -> tensor<8x20xf32>
  return %2 : tensor<8x20xf32>
}
