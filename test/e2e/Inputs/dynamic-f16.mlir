// An f16 matmul whose K is symbolic (decision 0032): runtime loops, k outside n.
func.func @mmh(%x: tensor<8x?xf16> {graph.dims = ["k"]}, %w: tensor<?x32xf16> {graph.dims = ["k"]}) -> tensor<8x32xf16> attributes {graph.symbols = {k = array<i64: 1, 256>}} {
  %0 = "graph.matmul"(%x, %w) : (tensor<8x?xf16>, tensor<?x32xf16>) -> tensor<8x32xf16>
  return %0 : tensor<8x32xf16>
}
