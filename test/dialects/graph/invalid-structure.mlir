// Contractions (linear, matmul, batch_matmul), constant and user_kernel.
// RUN: braze-opt %s --split-input-file --verify-diagnostics

func.func @linear_weight_rank(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.linear' op weight must be 2-D [N, K], got shape [8]}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @linear_k(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.linear' op weight shape [8, 16] must be [N, K] with K = 8 (x's last dim)}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @linear_bias(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.linear' op bias shape [8] must be [N] = [16]}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @linear_result(%x: tensor<2x4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'graph.linear' op result shape [8, 16] must be [2, 4, 16] (x's shape with the last dim K replaced by N)}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<2x4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

func.func @linear_rank0(%x: tensor<f32>, %w: tensor<1x1xf32>, %b: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'graph.linear' op x must have rank >= 1 ([..., K]), got rank 0}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<f32>, tensor<1x1xf32>, tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @linear_elt(%x: tensor<4x8xf32>, %w: tensor<16x8xbf16>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.linear' op operand #1 element type bf16 must equal the operand #0 element type f32}}
  %0 = "graph.linear"(%x, %w, %b) : (tensor<4x8xf32>, tensor<16x8xbf16>, tensor<16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_rank(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.matmul' op operands must be 2-D ([M, K] and [K, N]), got shapes [2, 4, 8] and [8, 16]}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_inner(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.matmul' op inner dims differ: lhs [4, 8] has K = 8, rhs [7, 16] has K = 7}}
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<7x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @matmul_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<16x4xf32> {
  // expected-error @+1 {{'graph.matmul' op result shape [16, 4] must be [4, 16] ([M, N])}}
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

func.func @matmul_elt(%a: tensor<4x8xf32>, %b: tensor<8x16xf16>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.matmul' op operand #1 element type f16 must equal the operand #0 element type f32}}
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf16>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch_matmul_2d(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'graph.batch_matmul' op operands must have rank >= 2 and at least one rank >= 3, got shapes [4, 8] and [8, 16]}}
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  // expected-error @+1 {{'graph.batch_matmul' op batch dims [2] and [3] are not broadcast-compatible}}
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

func.func @batch_matmul_inner(%a: tensor<2x4x8xf32>, %b: tensor<2x9x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{'graph.batch_matmul' op inner dims differ: lhs [2, 4, 8] has K = 8, rhs [2, 9, 16] has K = 9}}
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x4x8xf32>, tensor<2x9x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @batch_matmul_result(%a: tensor<2x1x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{'graph.batch_matmul' op result shape [2, 4, 16] must be [2, 3, 4, 16] ([broadcast batch dims..., M, N])}}
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error @+1 {{'graph.constant' op value type tensor<2xf32> must equal the result type tensor<3xf32>}}
  %0 = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @constant_elt() -> tensor<2xf16> {
  // expected-error @+1 {{'graph.constant' op value type tensor<2xf32> must equal the result type tensor<2xf16>}}
  %0 = "graph.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

func.func @constant_not_dense() -> tensor<f32> {
  // expected-error @+1 {{'graph.constant' op value must be a dense elements attribute (dense<...> : tensor<...>)}}
  %0 = "graph.constant"() {value = 1.0 : f32} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @user_kernel_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.user_kernel' op callee @nowhere does not name a func.func in the enclosing module}}
  %0 = "graph.user_kernel"(%a) {callee = @nowhere} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

memref.global @not_a_func : memref<4xf32> = uninitialized
func.func @user_kernel_not_func(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.user_kernel' op callee @not_a_func does not name a func.func in the enclosing module}}
  %0 = "graph.user_kernel"(%a) {callee = @not_a_func} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @k2(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @user_kernel_arity(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.user_kernel' op callee @k2 takes 2 arguments, got 1 operands}}
  %0 = "graph.user_kernel"(%a) {callee = @k2} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @k(tensor<8xf32>) -> tensor<4xf32>
func.func @user_kernel_arg_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.user_kernel' op operand #0 type tensor<4xf32> does not match @k's argument type tensor<8xf32>}}
  %0 = "graph.user_kernel"(%a) {callee = @k} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @k(tensor<4xf32>) -> tensor<4xf16>
func.func @user_kernel_result_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.user_kernel' op result type tensor<4xf32> does not match @k's result type tensor<4xf16>}}
  %0 = "graph.user_kernel"(%a) {callee = @k} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @k(tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @user_kernel_results(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'graph.user_kernel' op callee @k must return exactly 1 result, it returns 2}}
  %0 = "graph.user_kernel"(%a) {callee = @k} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
