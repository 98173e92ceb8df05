// Contractions (linear, matmul, batch_matmul), constant, and user kernels (func.call).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics

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

// User kernels are func.call: upstream's verifier checks the callee and signature.
func.func @user_kernel_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  %0 = func.call @nowhere(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @k(tensor<8xf32>) -> tensor<4xf32>
func.func @user_kernel_arg_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'tensor<8xf32>', but provided 'tensor<4xf32>' for operand number 0}}
  %0 = func.call @k(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// graph.user_kernel is gone (docs/decisions/0004-irdl-variadic-operands.md).
func.func @user_kernel_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unregistered operation 'graph.user_kernel' found in dialect ('graph')}}
  %0 = "graph.user_kernel"(%a) {callee = @user_kernel_op} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
