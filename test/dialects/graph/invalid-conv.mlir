// Convolutions: conv and conv_transpose. Attributes (present, of the right kind and
// length, in range), ranks, channel and group rules, element types, the kernel not
// larger than the padded input, and the result shape each rule gives.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @no_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op attribute "groups" is expected but not provided}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op attribute 'pads' has 2 entries; expected 4 (one per spatial dim, begins then ends)}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op attribute 'strides' entry 1 is 0; expected 1 to 2^31}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 0>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op attribute 'pads' entry 2 is -1; expected 0 to 2^31}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, -1, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @rank2(%x: tensor<3x8xf32>, %w: tensor<4x3xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'graph.conv' op input has rank 2; expected [N, C, spatial...] of rank 3 to 8}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64>, pads = array<i64>, dilations = array<i64>, groups = 1 : i64}
      : (tensor<3x8xf32>, tensor<4x3xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op weight has rank 3; expected the input's rank 4}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @groups_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op input channels (3) are not a multiple of groups (2)}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op weight dim 1 is 4; expected input channels / groups = 2}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64}
      : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @kernel_too_large(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32> {
  // expected-error @+1 {{'graph.conv' op spatial dim 0: the kernel (5 with dilation) is larger than the padded input (4)}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 1>, groups = 1 : i64}
      : (tensor<1x3x4x4xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return %0 : tensor<1x4x1x1xf32>
}

// -----

func.func @result_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{'graph.conv' op result shape [1, 4, 8, 8] must be [1, 4, 3, 4] ([N, OC, (in + pads - dilation * (k - 1) - 1) / stride + 1...])}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 0, 1, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @integer(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32> {
  // expected-error @+1 {{'graph.conv' op operand #0 has element type i32; expected a float type (f32, f64, f16, bf16)}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  return %0 : tensor<1x4x6x6xi32>
}

// -----

func.func @mixed_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'graph.conv' op weight element type f16 must equal the input element type f32}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @transpose_no_output_padding(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x2x7xf32> {
  // expected-error @+1 {{'graph.conv_transpose' op attribute "output_padding" is expected but not provided}}
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, groups = 1 : i64}
      : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return %0 : tensor<1x2x7xf32>
}

// -----

func.func @transpose_weight_channels(%x: tensor<1x4x5xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x2x7xf32> {
  // expected-error @+1 {{'graph.conv_transpose' op weight dim 0 is 2; expected the input channels 4}}
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 1>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>}
      : (tensor<1x4x5xf32>, tensor<2x2x3xf32>) -> tensor<1x2x7xf32>
  return %0 : tensor<1x2x7xf32>
}

// -----

func.func @transpose_result(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x7xf32> {
  // expected-error @+1 {{'graph.conv_transpose' op result shape [1, 4, 7] must be [1, 4, 12] ([N, OC, (in - 1) * stride + dilation * (k - 1) + 1 - pads + output_padding...])}}
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 1>, groups = 2 : i64, output_padding = array<i64: 1>}
      : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x4x7xf32>
  return %0 : tensor<1x4x7xf32>
}
