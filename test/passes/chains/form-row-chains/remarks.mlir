// form-row-chains' decisions as remarks: the chain formed with its rows, and each
// named refusal. Chains are tried from every kernel call, so a refused chain of three
// is followed by the attempt from its second kernel.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks})' >/dev/null
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/attention-4x256x32.mlir --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks max-repack-bytes=1024})' >/dev/null
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/attention-4x256x32.mlir --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks rows=7})' >/dev/null
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(form-row-chains{rows=-1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(form-row-chains{block=4})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// OPTION: form-row-chains: rows, online-min-keys and window-channels must be >= 0, max-scratch-bytes, min-blocks and key-block >= 1
// UNKNOWN: form-row-chains{{.*}}block

// Formed: 4 heads of 256 rows; the largest block keeping 8 blocks is 128 rows (2 x 1 KiB
// of intermediates per row); packing k and v once more per head (256 KiB) is well under
// a quarter of the 2 x 2 MiB of scores and probabilities saved.
func.func @formed(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>) -> tensor<4x256x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  // expected-remark@+1 {{form-row-chains: 3 kernels as @cpu_chain_fused_batch_matmul_softmax_0: blocks of 128 rows}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}

// -----

// Small heads: 8 blocks would pack k and v three more times per head, more than the
// scores saved are worth.
func.func @small(%q: tensor<2x64x16xf32>, %k: tensor<2x64x16xf32>, %v: tensor<2x64x16xf32>) -> tensor<2x64x16xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x64x16xf32>) -> tensor<2x16x64xf32>
  // expected-remark@+1 {{form-row-chains: no chain @cpu_tem_fused_batch_matmul_0 -> @cpu_per_fused_softmax_1 -> @cpu_tem_fused_batch_matmul_2: repacking-exceeds-savings}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x64x16xf32>, tensor<2x16x64xf32>) -> tensor<2x64x64xf32>
  // expected-remark@+1 {{form-row-chains: no chain @cpu_per_fused_softmax_1 -> @cpu_tem_fused_batch_matmul_2: repacking-exceeds-savings}}
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x64x64xf32>, tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  return %y : tensor<2x64x16xf32>
}

// -----

// A softmax over the rows (dim 1) reads every row of the scores for each output row:
// its statistics (4 x 1 x 256) are not per row (not-row-shaped).
func.func @column_softmax(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>) -> tensor<4x256x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  // expected-remark@+1 {{form-row-chains: no chain @cpu_tem_fused_batch_matmul_0 -> @cpu_per_fused_softmax_1 -> @cpu_tem_fused_batch_matmul_2: not-row-shaped}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  // expected-remark@+1 {{form-row-chains: no chain @cpu_per_fused_softmax_1 -> @cpu_tem_fused_batch_matmul_2: not-row-shaped}}
  %p = "graph.softmax"(%s) {dim = 1 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}

// -----

// Scores that are also a result of the graph are used twice: the chain stops there
// (the softmax and the second product still chain, but without a contraction before
// them the pair is not worth a chain: no remark).
func.func @scores_returned(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>) -> (tensor<4x256x256xf32>, tensor<4x256x32xf32>) {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  // expected-remark@+1 {{form-row-chains: 2 kernels as @cpu_chain_fused_softmax_batch_matmul_0: blocks of 128 rows}}
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %s, %y : tensor<4x256x256xf32>, tensor<4x256x32xf32>
}

// -----

// The probabilities read transposed (p^T @ v) by the second product: each of its output
// rows needs a column of p, every row of the block before it. The chain stops before it:
// q @ k^T and the softmax form one (the longest prefix that fits), the remark says where
// and why it stopped.
func.func @transposed_p(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>) -> tensor<4x256x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  // expected-remark@+1 {{form-row-chains: 2 kernels as @cpu_chain_fused_batch_matmul_softmax_0: blocks of 128 rows; stops before @cpu_tem_fused_batch_matmul_2 (intermediate-not-read-by-rows)}}
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %pt = "graph.transpose"(%p) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%pt, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}
