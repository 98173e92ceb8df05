// cuda-codegen{matmul=extern}: a matmul whose epilogue is alpha product + beta X, X a
// kernel argument read at the product's point (its rows possibly offset), is one
// cuBLASLt call, C = alpha A B + beta X (targets/cuda/matmul/extern-addend.c), instead
// of the f32 product and an element kernel: a residual add (alpha 1, beta 1),
// shard-fold-add's x / 2 share (beta 0.5), x - p (alpha -1), and a chunk of a longer
// addend (rows from 64). Refused, the epilogue kernel stays: a broadcast bias, a relu
// after the add (not linear), two outputs. matmul=auto keeps the template beside it.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{matmul=extern remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze compile %s --target=cuda --pipeline=%braze_src/bench/gpu/cuda-extern.pipeline --no-header -o %t.so
// REQUIRES: cuda

// REMARK-DAG: kernel @cuda_tem_fused_matmul_add_{{[0-9]+}}: extern GEMM (cuBLASLt) 130x72x64, batch 1; the epilogue as its C: 1 x product + 1 x argument 2 (rows from 0)
// CHECK-LABEL: func.func @residual(
// CHECK: kernel.gemm"(%arg0, %arg1, %arg2, %{{.*}}) {alpha = 1.000000e+00 : f64, batch = 1 : i64, beta = 1.000000e+00 : f64, c_offset = 0 : i64, k = 64 : i64, m = 130 : i64, n = 72 : i64
// CHECK-NOT: gpu.launch_func
// CHECK: return
func.func @residual(%x: tensor<130x64xbf16>, %w: tensor<64x72xbf16>, %r: tensor<130x72xbf16>) -> tensor<130x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %1 = "graph.add"(%0, %r) : (tensor<130x72xbf16>, tensor<130x72xbf16>) -> tensor<130x72xbf16>
  return %1 : tensor<130x72xbf16>
}

// REMARK-DAG: kernel @cuda_tem_fused_matmul_mul_add_{{[0-9]+}}: extern GEMM (cuBLASLt) 130x72x64, batch 1; the epilogue as its C: 1 x product + 0.5 x argument 2 (rows from 0)
// CHECK-LABEL: func.func @half_share(
// CHECK: kernel.gemm"(%arg0, %arg1, %arg2, %{{.*}}) {alpha = 1.000000e+00 : f64, batch = 1 : i64, beta = 5.000000e-01 : f64
func.func @half_share(%x: tensor<130x64xbf16>, %w: tensor<64x72xbf16>, %r: tensor<130x72xbf16>) -> tensor<130x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %h = "graph.constant"() {value = dense<5.000000e-01> : tensor<bf16>} : () -> tensor<bf16>
  %s = "graph.mul"(%r, %h) : (tensor<130x72xbf16>, tensor<bf16>) -> tensor<130x72xbf16>
  %1 = "graph.add"(%0, %s) : (tensor<130x72xbf16>, tensor<130x72xbf16>) -> tensor<130x72xbf16>
  return %1 : tensor<130x72xbf16>
}

// REMARK-DAG: kernel @cuda_tem_fused_matmul_sub_{{[0-9]+}}: extern GEMM (cuBLASLt) 130x72x64, batch 1; the epilogue as its C: -1 x product + 1 x argument 2 (rows from 0)
// CHECK-LABEL: func.func @minus(
// CHECK: kernel.gemm"(%arg0, %arg1, %arg2, %{{.*}}) {alpha = -1.000000e+00 : f64
func.func @minus(%x: tensor<130x64xf32>, %w: tensor<64x72xf32>, %r: tensor<130x72xf32>) -> tensor<130x72xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xf32>, tensor<64x72xf32>) -> tensor<130x72xf32>
  %1 = "graph.sub"(%r, %0) : (tensor<130x72xf32>, tensor<130x72xf32>) -> tensor<130x72xf32>
  return %1 : tensor<130x72xf32>
}

// REMARK-DAG: kernel @cuda_tem_fused_matmul_add_{{[0-9]+}}: extern GEMM (cuBLASLt) 64x72x64, batch 1; the epilogue as its C: 1 x product + 1 x argument 2 (rows from 64)
// CHECK-LABEL: func.func @chunk(
// CHECK: kernel.gemm"(%arg0, %arg1, %arg2, %{{.*}}) {{{.*}}c_offset = 4608 : i64
func.func @chunk(%x: tensor<64x64xbf16>, %w: tensor<64x72xbf16>, %r: tensor<160x72xbf16>) -> tensor<64x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<64x64xbf16>, tensor<64x72xbf16>) -> tensor<64x72xbf16>
  %s = "graph.slice"(%r) {starts = array<i64: 64, 0>, limits = array<i64: 128, 72>, strides = array<i64: 1, 1>} : (tensor<160x72xbf16>) -> tensor<64x72xbf16>
  %1 = "graph.add"(%0, %s) : (tensor<64x72xbf16>, tensor<64x72xbf16>) -> tensor<64x72xbf16>
  return %1 : tensor<64x72xbf16>
}

// Refused: the epilogue runs as an element kernel over the f32 product.
// REMARK-DAG: kernel @cuda_tem_fused_matmul_add_{{[0-9]+}}: extern GEMM (cuBLASLt) 130x72x64, batch 1; the epilogue as an element kernel over its f32 product
// REMARK-DAG: kernel @cuda_tem_fused_matmul_add_relu_{{[0-9]+}}: extern GEMM (cuBLASLt) 130x72x64, batch 1; the epilogue as an element kernel over its f32 product
// CHECK-LABEL: func.func @refused(
// CHECK: kernel.gemm"(%arg0, %arg1, %{{.*}}) {batch
// CHECK: gpu.launch_func
// CHECK: kernel.gemm"(%arg0, %arg1, %{{.*}}) {batch
// CHECK: gpu.launch_func
func.func @refused(%x: tensor<130x64xbf16>, %w: tensor<64x72xbf16>, %b: tensor<72xbf16>, %r: tensor<130x72xbf16>) -> (tensor<130x72xbf16>, tensor<130x72xbf16>) {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<130x72xbf16>, tensor<72xbf16>) -> tensor<130x72xbf16>
  %2 = "graph.matmul"(%x, %w) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %3 = "graph.add"(%2, %r) : (tensor<130x72xbf16>, tensor<130x72xbf16>) -> tensor<130x72xbf16>
  %4 = "graph.relu"(%3) : (tensor<130x72xbf16>) -> tensor<130x72xbf16>
  return %1, %4 : tensor<130x72xbf16>, tensor<130x72xbf16>
}
