// G5 = W5 at GPU size in bf16: y = gelu(x @ W + b), x[8192, 4096], W[4096, 4096].
func.func @G5(%x: tensor<8192x4096xbf16>, %w: tensor<4096x4096xbf16>, %b: tensor<4096xbf16>) -> tensor<8192x4096xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<8192x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<8192x4096xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<8192x4096xbf16>, tensor<4096xbf16>) -> tensor<8192x4096xbf16>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<8192x4096xbf16>) -> tensor<8192x4096xbf16>
  return %2 : tensor<8192x4096xbf16>
}
