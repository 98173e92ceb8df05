// A bf16 linear layer (x @ W + b) for the tensor-core template: 600 rows (5 row tiles),
// 264 columns (2 column tiles, the last partial), K = 136 (three 64-deep steps, the last
// zero-filled by TMA).
func.func @linear(%x: tensor<3x200x136xbf16>, %w: tensor<136x264xbf16>, %b: tensor<264xbf16>) -> tensor<3x200x264xbf16> {
  %0 = "graph.batch_matmul"(%x, %w) : (tensor<3x200x136xbf16>, tensor<136x264xbf16>) -> tensor<3x200x264xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<3x200x264xbf16>, tensor<264xbf16>) -> tensor<3x200x264xbf16>
  return %1 : tensor<3x200x264xbf16>
}
