// The flash kernel's bias (an added tensor, or an i1 mask selecting between two values):
// with a row per query, the keys innermost and no partial key block, it comes in tiles
// beside K and V (a 128-byte-wide TMA box of 128 rows per stage, 2 for bf16, swizzled as
// K is) and each thread reads its pairs from shared memory; otherwise (a partial last
// key block, a bias without a row dim, or without cuda-codegen{bias-tiles=1}: the default
// until the tiles have run on a GPU) each thread loads
// its pairs from global memory between the score product's commit and its wait.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda},cuda-codegen{remarks bias-tiles=1})' -o /dev/null 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: sed 's/matmul=auto/matmul=auto bias-tiles=1/' %S/../../../../pipelines/cuda-default.pipeline > %t.pipeline
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header --pipeline=%t.pipeline -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=TILES --input-file=%t/cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_0.ptx
// RUN: FileCheck %s --check-prefix=MASK --input-file=%t/cuda_chain_fused_batch_matmul_select_batch_matmul_mul_add_softmax_0.ptx
// RUN: FileCheck %s --check-prefix=DIRECT --input-file=%t/cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_1.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_chain_fused_batch_matmul_select_batch_matmul_mul_add_softmax_0.ptx -o %t/m.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK: remark: cuda-codegen: kernel @cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_0: flash kernel (online chain), grid (2, 4, 1), block 256, 128 keys per step, 2 stages, 147472 bytes of shared memory, the bias in tiles by TMA
// CHECK: remark: cuda-codegen: kernel @cuda_chain_fused_batch_matmul_select_batch_matmul_mul_add_softmax_0: {{.*}}, the bias in tiles by TMA
// CHECK: remark: cuda-codegen: kernel @cuda_chain_fused_batch_matmul_batch_matmul_mul_add_softmax_1: {{.*}} bytes of shared memory, the bias read per thread
// OFF-COUNT-3: the bias read per thread

// Four boxes per stage (q, two of k, two of v: 5 with the bias's two, and 11 in all with
// the prologue's); pairs from shared memory, none from global memory.
// TILES-COUNT-11: cp.async.bulk.tensor.2d.shared::cluster.global.tile
// TILES-NOT: cp.async.bulk.tensor
// TILES-NOT: ld.global
// TILES: wgmma.commit_group
// TILES-COUNT-32: ld.shared.v2.b16
// TILES: wgmma.wait_group
func.func @bias_add(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>, %bias: tensor<256x256xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %sb = "graph.add"(%ss, %bias) : (tensor<4x256x256xbf16>, tensor<256x256xbf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

// An i1 mask: one box of 128 keys (bytes) per stage, read as byte pairs.
// MASK-COUNT-9: cp.async.bulk.tensor.2d.shared::cluster.global.tile
// MASK-NOT: ld.global
// MASK-COUNT-32: ld.shared.v2.b8
func.func @mask(%q: tensor<4x256x64xbf16>, %k: tensor<4x256x64xbf16>, %v: tensor<4x256x64xbf16>, %m: tensor<256x256xi1>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x64xbf16>) -> tensor<4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %ninf = "graph.constant"() {value = dense<0xFF80> : tensor<bf16>} : () -> tensor<bf16>
  %sm = "graph.select"(%m, %ss, %ninf) : (tensor<256x256xi1>, tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%sm) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}

// 200 keys: a partial last block; the bias is read per thread (clamped into the tensor),
// its loads issued before the score product's wait.
// DIRECT-NOT: ld.shared.v2.b16
// DIRECT: wgmma.commit_group
// DIRECT: ld.global.b16
// DIRECT: wgmma.wait_group
func.func @bias_partial_block(%q: tensor<4x256x64xbf16>, %k: tensor<4x200x64xbf16>, %v: tensor<4x200x64xbf16>, %bias: tensor<256x200xbf16>) -> tensor<4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x200x64xbf16>) -> tensor<4x64x200xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x64xbf16>, tensor<4x64x200xbf16>) -> tensor<4x256x200xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x200xbf16>, tensor<bf16>) -> tensor<4x256x200xbf16>
  %sb = "graph.add"(%ss, %bias) : (tensor<4x256x200xbf16>, tensor<256x200xbf16>) -> tensor<4x256x200xbf16>
  %p = "graph.softmax"(%sb) {dim = 2 : i64} : (tensor<4x256x200xbf16>) -> tensor<4x256x200xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x200xbf16>, tensor<4x200x64xbf16>) -> tensor<4x256x64xbf16>
  return %y : tensor<4x256x64xbf16>
}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
