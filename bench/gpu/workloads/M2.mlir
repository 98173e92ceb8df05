// M2: G5's GEMM without its epilogue, bf16 8192x4096x4096, against cuBLAS (torch.matmul).
func.func @M2(%x: tensor<8192x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<8192x4096xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<8192x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<8192x4096xbf16>
  return %0 : tensor<8192x4096xbf16>
}
