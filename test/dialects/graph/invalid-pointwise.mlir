// Pointwise rules: unary result type, cast shape, gelu approximate, broadcasting,
// element types, cmp predicate and i1 result, select condition.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

func.func @unary_shape(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'graph.exp' op result type tensor<8x4xf32> must equal the operand type tensor<4x8xf32>}}
  %0 = "graph.exp"(%x) : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @unary_elt(%x: tensor<4xi32>) -> tensor<4xi64> {
  // expected-error @+1 {{'graph.neg' op result type tensor<4xi64> must equal the operand type tensor<4xi32>}}
  %0 = "graph.neg"(%x) : (tensor<4xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @cast_shape(%x: tensor<4x8xf32>) -> tensor<32xi32> {
  // expected-error @+1 {{'graph.cast' op result shape [32] must be [4, 8] (cast keeps the operand shape)}}
  %0 = "graph.cast"(%x) : (tensor<4x8xf32>) -> tensor<32xi32>
  return %0 : tensor<32xi32>
}

// -----

func.func @gelu_approximate(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.gelu' op approximate must be "none" or "tanh", got "fast"}}
  %0 = "graph.gelu"(%x) {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gelu_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'graph.gelu' op result type tensor<4xf16> must equal the operand type tensor<4xf32>}}
  %0 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<3xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.add' op operand shapes [4, 8] and [3] are not broadcast-compatible}}
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @wrong_result_shape(%a: tensor<4x1xf32>, %b: tensor<8xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'graph.mul' op result shape [4, 1] must be [4, 8] (the broadcast of the operand shapes)}}
  %0 = "graph.mul"(%a, %b) : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @result_rank(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'graph.sub' op result shape [1, 8] must be [8]}}
  %0 = "graph.sub"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @mixed_elts(%a: tensor<8xf32>, %b: tensor<8xf16>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.div' op rhs element type f16 must equal the lhs element type f32}}
  %0 = "graph.div"(%a, %b) : (tensor<8xf32>, tensor<8xf16>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @binary_result_elt(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi64> {
  // expected-error @+1 {{'graph.max' op result element type i64 must equal the operand element type i32}}
  %0 = "graph.max"(%a, %b) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

func.func @cmp_predicate(%a: tensor<8xf32>) -> tensor<8xi1> {
  // expected-error @+1 {{'graph.cmp' op predicate must be one of eq, ne, lt, le, gt, ge; got "olt"}}
  %0 = "graph.cmp"(%a, %a) {predicate = "olt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

func.func @cmp_result(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.cmp' op result element type must be i1, got f32}}
  %0 = "graph.cmp"(%a, %a) {predicate = "eq"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @cmp_elts(%a: tensor<8xf32>, %b: tensor<8xi32>) -> tensor<8xi1> {
  // expected-error @+1 {{'graph.cmp' op rhs element type i32 must equal the lhs element type f32}}
  %0 = "graph.cmp"(%a, %b) {predicate = "eq"} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}

// -----

func.func @cmp_shape(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<4x1xi1> {
  // expected-error @+1 {{'graph.cmp' op result shape [4, 1] must be [4, 8]}}
  %0 = "graph.cmp"(%a, %b) {predicate = "ge"} : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
  return %0 : tensor<4x1xi1>
}

// -----

func.func @select_cond(%c: tensor<8xf32>, %a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.select' op condition element type must be i1, got f32}}
  %0 = "graph.select"(%c, %a, %a) : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @select_branches(%c: tensor<8xi1>, %a: tensor<8xf32>, %b: tensor<8xf16>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.select' op on_false element type f16 must equal the on_true element type f32}}
  %0 = "graph.select"(%c, %a, %b) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf16>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @select_result_elt(%c: tensor<8xi1>, %a: tensor<8xi32>) -> tensor<8xi64> {
  // expected-error @+1 {{'graph.select' op result element type i64 must equal the on_true element type i32}}
  %0 = "graph.select"(%c, %a, %a) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

func.func @select_incompatible(%c: tensor<4x1xi1>, %a: tensor<8xf32>, %b: tensor<5x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.select' op operand shapes [4, 1], [8] and [5, 8] are not broadcast-compatible}}
  %0 = "graph.select"(%c, %a, %b) : (tensor<4x1xi1>, tensor<8xf32>, tensor<5x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @select_shape(%c: tensor<4x1xi1>, %a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'graph.select' op result shape [8] must be [4, 8] (the broadcast of the operand shapes)}}
  %0 = "graph.select"(%c, %a, %a) : (tensor<4x1xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// sin and cos are float-only, like exp.
func.func @sin_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.sin' op operand #0 has element type i32; expected a float type (f32, f64, f16, bf16)}}
  %0 = "graph.sin"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// bitwise ops take integers (i1 included), not floats.
func.func @bitwise_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.bitwise_and' op operand #0 has element type f32; expected an integer type (i1, i8..i64, ui8..ui64)}}
  %0 = "graph.bitwise_and"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitwise_mixed(%x: tensor<4xi32>, %y: tensor<4xui32>) -> tensor<4xi32> {
  // expected-error @+1 {{'graph.bitwise_xor' op}}
  %0 = "graph.bitwise_xor"(%x, %y) : (tensor<4xi32>, tensor<4xui32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// rem: one element type for both operands and the result, like the other binary ops.
func.func @rem_mixed(%x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.rem' op}}
  %0 = "graph.rem"(%x, %y) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
