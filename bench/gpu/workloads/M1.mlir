// M1: the tensor-core template alone, bf16 8192x8192x8192 (y = x @ W), against cuBLAS
// (torch.matmul) in bench/gpu/bench.py.
func.func @M1(%x: tensor<8192x8192xbf16>, %w: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %0 : tensor<8192x8192xbf16>
}
