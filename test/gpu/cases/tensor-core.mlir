// The CUDA tensor-core template (targets/cuda/matmul/wgmma.c) on shapes and epilogues
// beyond the benchmarks: M not a multiple of the 128-row tile (1, 7, 129, 1000), N not
// a multiple of the tile's columns, K not a multiple of 64 (TMA's zero fill), every
// epilogue kind (bias, erf and tanh gelu, silu times another product, a residual with a
// second result, its relu), f16, a batch with one B for all batches; and the contractions the
// template refuses (B read as [N, K], a batched B, K*2 not a multiple of 16 bytes, f32),
// which fall back to the SIMT kernel. test/gpu/prepare.sh also compiles this module
// with cuda-codegen{matmul=simt} (tensor-core-simt): the same checks on the SIMT kernel.
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// REQUIRES: cuda

// CHECK-DAG: :15:8: remark: cuda-codegen: kernel @cuda_tem_fused_matmul_0: matmul kernel, grid (24, 1, 1), block 256, vector width 8, tensor-core template: 128x256 tiles, 2 warpgroups, 4 stages
func.func @odd_m(%x: tensor<1000x136xbf16>, %w: tensor<136x520xbf16>) -> tensor<1000x520xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<1000x136xbf16>, tensor<136x520xbf16>) -> tensor<1000x520xbf16>
  return %0 : tensor<1000x520xbf16>
}

func.func @one_row(%x: tensor<1x64xbf16>, %w: tensor<64x256xbf16>) -> tensor<1x256xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<1x64xbf16>, tensor<64x256xbf16>) -> tensor<1x256xbf16>
  return %0 : tensor<1x256xbf16>
}

func.func @seven_rows_long_k(%x: tensor<7x4104xbf16>, %w: tensor<4104x136xbf16>) -> tensor<7x136xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<7x4104xbf16>, tensor<4104x136xbf16>) -> tensor<7x136xbf16>
  return %0 : tensor<7x136xbf16>
}

// CHECK-DAG: kernel @cuda_tem_fused_matmul_add_gelu_{{[0-9]+}}: matmul kernel, grid (8, 1, 1), block 256, vector width 8, tensor-core template
func.func @bias_gelu(%x: tensor<129x512xbf16>, %w: tensor<512x1000xbf16>, %b: tensor<1000xbf16>) -> tensor<129x1000xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<129x512xbf16>, tensor<512x1000xbf16>) -> tensor<129x1000xbf16>
  %1 = "graph.add"(%0, %b) : (tensor<129x1000xbf16>, tensor<1000xbf16>) -> tensor<129x1000xbf16>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<129x1000xbf16>) -> tensor<129x1000xbf16>
  return %2 : tensor<129x1000xbf16>
}

func.func @gelu_tanh(%x: tensor<256x256xbf16>, %w: tensor<256x384xbf16>) -> tensor<256x384xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<256x256xbf16>, tensor<256x384xbf16>) -> tensor<256x384xbf16>
  %1 = "graph.gelu"(%0) {approximate = "tanh"} : (tensor<256x384xbf16>) -> tensor<256x384xbf16>
  return %1 : tensor<256x384xbf16>
}

func.func @gate_up(%h: tensor<200x256xbf16>, %wg: tensor<256x512xbf16>, %wu: tensor<256x512xbf16>) -> tensor<200x512xbf16> {
  %a = "graph.matmul"(%h, %wg) : (tensor<200x256xbf16>, tensor<256x512xbf16>) -> tensor<200x512xbf16>
  %sa = "graph.silu"(%a) : (tensor<200x512xbf16>) -> tensor<200x512xbf16>
  %u = "graph.matmul"(%h, %wu) : (tensor<200x256xbf16>, tensor<256x512xbf16>) -> tensor<200x512xbf16>
  %p = "graph.mul"(%sa, %u) : (tensor<200x512xbf16>, tensor<200x512xbf16>) -> tensor<200x512xbf16>
  return %p : tensor<200x512xbf16>
}

// Two results from one kernel: the bf16 residual sum and its relu.
// CHECK-DAG: kernel @cuda_tem_fused_matmul_add_relu_{{[0-9]+}}: matmul kernel, grid (3, 1, 1){{.*}}tensor-core template: 128x128 tiles
func.func @residual_two_outs(%x: tensor<300x128xbf16>, %w: tensor<128x128xbf16>, %r: tensor<300x128xbf16>) -> (tensor<300x128xbf16>, tensor<300x128xbf16>) {
  %0 = "graph.matmul"(%x, %w) : (tensor<300x128xbf16>, tensor<128x128xbf16>) -> tensor<300x128xbf16>
  %1 = "graph.add"(%0, %r) : (tensor<300x128xbf16>, tensor<300x128xbf16>) -> tensor<300x128xbf16>
  %2 = "graph.relu"(%1) : (tensor<300x128xbf16>) -> tensor<300x128xbf16>
  return %1, %2 : tensor<300x128xbf16>, tensor<300x128xbf16>
}

func.func @half(%x: tensor<384x320xf16>, %w: tensor<320x264xf16>, %b: tensor<264xf16>) -> tensor<384x264xf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<384x320xf16>, tensor<320x264xf16>) -> tensor<384x264xf16>
  %1 = "graph.add"(%0, %b) : (tensor<384x264xf16>, tensor<264xf16>) -> tensor<384x264xf16>
  return %1 : tensor<384x264xf16>
}

// CHECK-DAG: kernel @cuda_tem_fused_batch_matmul_{{[0-9]+}}: matmul kernel, grid (2, 3, 1){{.*}}tensor-core template
func.func @batch_one_b(%x: tensor<3x129x256xbf16>, %w: tensor<256x136xbf16>) -> tensor<3x129x136xbf16> {
  %0 = "graph.batch_matmul"(%x, %w) : (tensor<3x129x256xbf16>, tensor<256x136xbf16>) -> tensor<3x129x136xbf16>
  return %0 : tensor<3x129x136xbf16>
}

// CHECK-DAG: template refused: b-not-k-by-n-row-major
func.func @b_transposed(%x: tensor<130x64xbf16>, %w: tensor<72x64xbf16>) -> tensor<130x72xbf16> {
  %wt = "graph.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<72x64xbf16>) -> tensor<64x72xbf16>
  %0 = "graph.matmul"(%x, %wt) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  return %0 : tensor<130x72xbf16>
}

// CHECK-DAG: template refused: batched-b
func.func @batched_b(%x: tensor<2x65x64xbf16>, %w: tensor<2x64x80xbf16>) -> tensor<2x65x80xbf16> {
  %0 = "graph.batch_matmul"(%x, %w) : (tensor<2x65x64xbf16>, tensor<2x64x80xbf16>) -> tensor<2x65x80xbf16>
  return %0 : tensor<2x65x80xbf16>
}

// CHECK-DAG: template refused: row-not-16-byte-aligned
func.func @k_seven(%x: tensor<100x7xbf16>, %w: tensor<7x64xbf16>) -> tensor<100x64xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<100x7xbf16>, tensor<7x64xbf16>) -> tensor<100x64xbf16>
  return %0 : tensor<100x64xbf16>
}

// CHECK-DAG: template refused: inputs-not-bf16-or-f16
func.func @single(%x: tensor<100x96xf32>, %w: tensor<96x64xf32>) -> tensor<100x64xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<100x96xf32>, tensor<96x64xf32>) -> tensor<100x64xf32>
  return %0 : tensor<100x64xf32>
}

// A product plus another argument at its point (extern-addend.c: one cuBLASLt call,
// C = alpha A B + beta X, under tensor-core-extern): a residual, a half share, x - p in
// f32, and a chunk of a longer addend (rows from 64).
func.func @addend_residual(%x: tensor<130x64xbf16>, %w: tensor<64x72xbf16>, %r: tensor<130x72xbf16>) -> tensor<130x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %1 = "graph.add"(%0, %r) : (tensor<130x72xbf16>, tensor<130x72xbf16>) -> tensor<130x72xbf16>
  return %1 : tensor<130x72xbf16>
}

func.func @addend_half(%x: tensor<130x64xbf16>, %w: tensor<64x72xbf16>, %r: tensor<130x72xbf16>) -> tensor<130x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xbf16>, tensor<64x72xbf16>) -> tensor<130x72xbf16>
  %h = "graph.constant"() {value = dense<5.000000e-01> : tensor<bf16>} : () -> tensor<bf16>
  %s = "graph.mul"(%r, %h) : (tensor<130x72xbf16>, tensor<bf16>) -> tensor<130x72xbf16>
  %1 = "graph.add"(%0, %s) : (tensor<130x72xbf16>, tensor<130x72xbf16>) -> tensor<130x72xbf16>
  return %1 : tensor<130x72xbf16>
}

func.func @addend_minus(%x: tensor<130x64xf32>, %w: tensor<64x72xf32>, %r: tensor<130x72xf32>) -> tensor<130x72xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<130x64xf32>, tensor<64x72xf32>) -> tensor<130x72xf32>
  %1 = "graph.sub"(%r, %0) : (tensor<130x72xf32>, tensor<130x72xf32>) -> tensor<130x72xf32>
  return %1 : tensor<130x72xf32>
}

func.func @addend_chunk(%x: tensor<64x64xbf16>, %w: tensor<64x72xbf16>, %r: tensor<160x72xbf16>) -> tensor<64x72xbf16> {
  %0 = "graph.matmul"(%x, %w) : (tensor<64x64xbf16>, tensor<64x72xbf16>) -> tensor<64x72xbf16>
  %s = "graph.slice"(%r) {starts = array<i64: 64, 0>, limits = array<i64: 128, 72>, strides = array<i64: 1, 1>} : (tensor<160x72xbf16>) -> tensor<64x72xbf16>
  %1 = "graph.add"(%0, %s) : (tensor<64x72xbf16>, tensor<64x72xbf16>) -> tensor<64x72xbf16>
  return %1 : tensor<64x72xbf16>
}
