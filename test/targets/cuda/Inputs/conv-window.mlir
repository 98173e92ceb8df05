// A bf16 stride-2 3x3 conv for the tensor-core template's window boxes (decision 0021):
// 64 channels, padded 20x30 -> 22x32 input, 10x15 output pixels.
func.func @conv(%x: tensor<2x64x20x30xbf16>, %w: tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x20x30xbf16>, tensor<128x64x3x3xbf16>) -> tensor<2x128x10x15xbf16>
  return %y : tensor<2x128x10x15xbf16>
}
