// Indexed reads: gather and gather_elements. The axis (present, an integer, in
// range), the indices' element type (i32 or i64), the result's element type and
// shape, gather_elements' index rank and extents, and the result rank limit.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @no_axis(%t: tensor<32x8xf32>, %i: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.gather' op attribute "axis" is expected but not provided}}
  %0 = "graph.gather"(%t, %i) : (tensor<32x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @axis_range(%t: tensor<32x8xf32>, %i: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.gather' op axis 2 is out of range for rank 2}}
  %0 = "graph.gather"(%t, %i) {axis = 2 : i64} : (tensor<32x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @float_indices(%t: tensor<32x8xf32>, %i: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.gather' op indices have element type f32; expected i32 or i64}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @i8_indices(%t: tensor<32x8xf32>, %i: tensor<4xi8>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.gather' op indices have element type i8; expected i32 or i64}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<4xi8>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @result_dtype(%t: tensor<32x8xf32>, %i: tensor<4xi64>) -> tensor<4x8xf16> {
  // expected-error @+1 {{'graph.gather' op result element type f16 must equal the data element type f32}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<4xi64>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @result_shape(%t: tensor<32x8xf32>, %i: tensor<2x3xi64>) -> tensor<6x8xf32> {
  // expected-error @+1 {{'graph.gather' op result shape [6, 8] must be [2, 3, 8] (data.shape[:axis] + indices.shape + data.shape[axis+1:])}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<2x3xi64>) -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

func.func @scalar_data(%t: tensor<f32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.gather' op data must have rank >= 1 (the axis indexes one of its dims)}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<f32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @result_rank(%t: tensor<2x2x2x2x2xf32>, %i: tensor<2x2x2x2x2xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'graph.gather' op the result would have rank 9; braze supports rank <= 8}}
  %0 = "graph.gather"(%t, %i) {axis = 0 : i64} : (tensor<2x2x2x2x2xf32>, tensor<2x2x2x2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @axis_kind(%t: tensor<32x8xf32>, %i: tensor<4xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.gather' op expects an integer attribute 'axis' (e.g. axis = 1 : i64)}}
  %0 = "graph.gather"(%t, %i) {axis = true} : (tensor<32x8xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @elements_rank(%t: tensor<32x8xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.gather_elements' op indices have rank 1; expected the data's rank 2}}
  %0 = "graph.gather_elements"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @elements_extent(%t: tensor<32x8xf32>, %i: tensor<4x9xi64>) -> tensor<4x9xf32> {
  // expected-error @+1 {{'graph.gather_elements' op indices shape [4, 9] exceeds the data shape [32, 8] in dim 1 (only the axis may be larger)}}
  %0 = "graph.gather_elements"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<4x9xi64>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

func.func @elements_shape(%t: tensor<32x8xf32>, %i: tensor<4x8xi32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'graph.gather_elements' op result shape [4, 4] must be [4, 8] (the indices shape)}}
  %0 = "graph.gather_elements"(%t, %i) {axis = 0 : i64} : (tensor<32x8xf32>, tensor<4x8xi32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @operand_count(%t: tensor<32x8xf32>) -> tensor<32x8xf32> {
  // expected-error @+1 {{op expects exactly 2 operands, but got 1}}
  %0 = "graph.gather"(%t) {axis = 0 : i64} : (tensor<32x8xf32>) -> tensor<32x8xf32>
  return %0 : tensor<32x8xf32>
}
