// A bf16 matmul of 64 columns: the tensor-core template takes 128x64 tiles, 24 KiB of
// shared memory per pipeline stage (test/targets/cuda/smem-opt-in.test).
func.func @narrow(%a: tensor<256x128xbf16>, %b: tensor<128x64xbf16>) -> tensor<256x64xbf16> {
  %y = "graph.matmul"(%a, %b) : (tensor<256x128xbf16>, tensor<128x64xbf16>) -> tensor<256x64xbf16>
  return %y : tensor<256x64xbf16>
}
