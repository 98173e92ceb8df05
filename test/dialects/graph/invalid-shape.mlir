// Shape ops: transpose perm, broadcast_to compatibility, reshape element count,
// slice bounds/strides/result, concat ranks/dims, window rank/attributes/extent/result.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @perm_length(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'graph.transpose' op perm has 3 entries; expected one per dim (rank 2)}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @perm_repeat(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'graph.transpose' op perm [0, 0] is not a permutation of 0..1}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @perm_range(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'graph.transpose' op perm [2, 0] is not a permutation of 0..1}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 2, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @transpose_result(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.transpose' op result shape [4, 8] must be [8, 4] (result dim i = operand dim perm[i])}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @transpose_elt(%x: tensor<4x8xf32>) -> tensor<8x4xf16> {
  // expected-error @+1 {{'graph.transpose' op result element type f16 must equal the operand element type f32}}
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf16>
  return %0 : tensor<8x4xf16>
}

// -----

func.func @broadcast_to_incompatible(%x: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.broadcast_to' op operand shape [3] cannot be broadcast to the result shape [4, 8]}}
  %0 = "graph.broadcast_to"(%x) : (tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @broadcast_to_shrink(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.broadcast_to' op operand shape [4, 8] cannot be broadcast to the result shape [8]}}
  %0 = "graph.broadcast_to"(%x) : (tensor<4x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @broadcast_to_reverse(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'graph.broadcast_to' op operand shape [4, 8] cannot be broadcast to the result shape [4, 1]}}
  %0 = "graph.broadcast_to"(%x) : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @reshape_count(%x: tensor<4x8xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'graph.reshape' op result shape [3, 8] has 24 elements but the operand shape [4, 8] has 32}}
  %0 = "graph.reshape"(%x) : (tensor<4x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @reshape_elt(%x: tensor<4x8xf32>) -> tensor<32xi32> {
  // expected-error @+1 {{'graph.reshape' op result element type i32 must equal the operand element type f32}}
  %0 = "graph.reshape"(%x) : (tensor<4x8xf32>) -> tensor<32xi32>
  return %0 : tensor<32xi32>
}

// -----

func.func @slice_entries(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'graph.slice' op limits has 1 entries; expected one per dim (rank 2)}}
  %0 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 2>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @slice_limit(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.slice' op dim 1: expected 0 <= start (0) <= limit (9) <= size (8)}}
  %0 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 4, 9>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_start(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.slice' op dim 0: expected 0 <= start (3) <= limit (2) <= size (4)}}
  %0 = "graph.slice"(%x) {starts = array<i64: 3, 0>, limits = array<i64: 2, 8>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.slice' op dim 0: expected 0 <= start (-1) <= limit (3) <= size (4)}}
  %0 = "graph.slice"(%x) {starts = array<i64: -1, 0>, limits = array<i64: 3, 8>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_stride(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.slice' op dim 1: stride must be >= 1, got 0}}
  %0 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 4, 8>, strides = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_result(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'graph.slice' op result shape [4, 2] must be [4, 3] (ceil((limit - start) / stride) per dim)}}
  %0 = "graph.slice"(%x) {starts = array<i64: 0, 1>, limits = array<i64: 4, 8>, strides = array<i64: 1, 3>} : (tensor<4x8xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @concat_dim(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.concat' op dim 2 is out of range for rank 2}}
  %0 = "graph.concat"(%x, %x) {dim = 2 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @concat_result(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'graph.concat' op result shape [8, 8] must be [4, 16] (the inputs' sizes along dim added up)}}
  %0 = "graph.concat"(%x, %x) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @concat_elt(%x: tensor<4x8xf32>) -> tensor<8x8xf16> {
  // expected-error @+1 {{'graph.concat' op result element type f16 must equal the operand element type f32}}
  %0 = "graph.concat"(%x, %x) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

func.func @concat_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expects exactly 2 operands, but got 1}}
  %0 = "graph.concat"(%x) {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// concat is binary: three inputs are a chain of two concats.
func.func @concat_three(%x: tensor<4x8xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{expects exactly 2 operands, but got 3}}
  %0 = "graph.concat"(%x, %x, %x) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x24xf32>
  return %0 : tensor<4x24xf32>
}

// -----

func.func @concat_rank(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.concat' op input #1 has rank 1; expected rank 2 like input #0}}
  %0 = "graph.concat"(%x, %y) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @concat_other_dim(%x: tensor<4x8xf32>, %y: tensor<3x2xf32>) -> tensor<4x10xf32> {
  // expected-error @+1 {{'graph.concat' op input #1 has shape [3, 2]; expected every dim but dim 1 to equal input #0's [4, 8]}}
  %0 = "graph.concat"(%x, %y) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3x2xf32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @concat_input_elts(%x: tensor<4x8xf32>, %y: tensor<4x2xf16>) -> tensor<4x10xf32> {
  // expected-error @+1 {{'graph.concat' op input #1 has element type f16; expected f32 like input #0}}
  %0 = "graph.concat"(%x, %y) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf16>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

// Inputs of different sizes along dim are fine (lhs and rhs have their own
// constraint variables), but the result must add them up.
func.func @concat_mixed_result(%x: tensor<4x8xf32>, %y: tensor<4x2xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.concat' op result shape [4, 16] must be [4, 10] (the inputs' sizes along dim added up)}}
  %0 = "graph.concat"(%x, %y) {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @window_rank(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.window' op expects an operand [B, S1..Sn, C] with 1 <= n <= 3 spatial dims, got [4, 8]}}
  %0 = "graph.window"(%x) {kernel = array<i64>, strides = array<i64>, dilations = array<i64>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @window_entries(%x: tensor<1x8x8x2xf32>) -> tensor<1x6x6x3x3x2xf32> {
  // expected-error @+1 {{'graph.window' op strides has 1 entries; expected one per dim (rank 2)}}
  %0 = "graph.window"(%x) {kernel = array<i64: 3, 3>, strides = array<i64: 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x8x2xf32>) -> tensor<1x6x6x3x3x2xf32>
  return %0 : tensor<1x6x6x3x3x2xf32>
}

// -----

func.func @window_stride(%x: tensor<1x8x2xf32>) -> tensor<1x6x3x2xf32> {
  // expected-error @+1 {{'graph.window' op spatial dim 0: kernel (3), stride (0) and dilation (1) must be >= 1}}
  %0 = "graph.window"(%x) {kernel = array<i64: 3>, strides = array<i64: 0>, dilations = array<i64: 1>} : (tensor<1x8x2xf32>) -> tensor<1x6x3x2xf32>
  return %0 : tensor<1x6x3x2xf32>
}

// -----

func.func @window_extent(%x: tensor<1x4x2xf32>) -> tensor<1x1x3x2xf32> {
  // expected-error @+1 {{'graph.window' op spatial dim 0: the window spans 5 elements but the operand has 4}}
  %0 = "graph.window"(%x) {kernel = array<i64: 3>, strides = array<i64: 1>, dilations = array<i64: 2>} : (tensor<1x4x2xf32>) -> tensor<1x1x3x2xf32>
  return %0 : tensor<1x1x3x2xf32>
}

// -----

func.func @window_result(%x: tensor<1x9x2xf32>) -> tensor<1x7x3x2xf32> {
  // expected-error @+1 {{'graph.window' op result shape [1, 7, 3, 2] must be [1, 4, 3, 2]}}
  %0 = "graph.window"(%x) {kernel = array<i64: 3>, strides = array<i64: 2>, dilations = array<i64: 1>} : (tensor<1x9x2xf32>) -> tensor<1x7x3x2xf32>
  return %0 : tensor<1x7x3x2xf32>
}
