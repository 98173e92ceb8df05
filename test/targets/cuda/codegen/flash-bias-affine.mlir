// The flash kernels with a bias computed from a small input (passes/chains/online-bias.c):
// BERT's (1 - mask) * c from a [batch, keys] mask reaches the chain as the mask and
// kernel.online's bias_shift and bias_mul; each kernel loads the mask's value per score
// (per thread: a pair at a time in the tensor-core kernel) and computes
// ((x + shift) * mul) * log2(e), kept above -FLT_MAX (finfo.min's bias times log2(e)
// overflows f32), then adds it to the scaled score. The bf16 chain takes the
// tensor-core kernel, the f32 one the SIMT kernel; ptxas keeps both out of local memory.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda online=cuda},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=TC --input-file=%t/cuda_chain_fused_batch_matmul_sub_mul_batch_matmul_add_softmax_0.ptx
// RUN: FileCheck %s --check-prefix=SIMT --input-file=%t/cuda_chain_fused_batch_matmul_sub_mul_div_add_softmax_0.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_chain_fused_batch_matmul_sub_mul_batch_matmul_add_softmax_0.ptx -o %t/tc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_chain_fused_batch_matmul_sub_mul_div_add_softmax_0.ptx -o %t/simt.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK: remark: cuda-codegen: kernel @cuda_chain_fused_batch_matmul_sub_mul_batch_matmul_add_softmax_0: flash kernel (online chain), grid (2, 8, 1), block 256, 128 keys per step, 2 stages, 81936 bytes of shared memory, the bias read per thread, (x + shift) * mul of its input
// CHECK: remark: cuda-codegen: kernel @cuda_chain_fused_batch_matmul_sub_mul_div_add_softmax_0: flash kernel (online chain, f32 SIMT), grid (2, 8, 1), block 128, 32 keys per tile, 16384 bytes of shared memory, the bias (x + shift) * mul of its input
// CHECK: remark: cuda-codegen: entry @bert_mask: {{.*}} 1 kernel call(s)
// CHECK: remark: cuda-codegen: entry @bert_mask_f32: {{.*}} 1 kernel call(s)

// The mask's values as bf16 pairs (16 per key block: 32 keys per thread, the same for
// its two rows, whose bias is computed once), loaded while the score product runs; shift
// -1 (0fBF800000), then the clamp at -FLT_MAX (0fFF7FFFFF).
// TC: wgmma.commit_group
// TC-COUNT-16: ld.global.v2.b16
// TC: wgmma.wait_group
// TC: add.rn.f32 {{.*}}, 0fBF800000;
// TC: max.NaN.f32 {{.*}}, 0fFF7FFFFF;
// TC-COUNT-31: max.NaN.f32 {{.*}}, 0fFF7FFFFF;
// TC-NOT: max.NaN.f32 {{.*}}, 0fFF7FFFFF;
// 32 keys per tile, one row per thread; mul -finfo.min (FLT_MAX, 0f7F7FFFFF).
// SIMT: add.rn.f32 {{.*}}, 0fBF800000;
// SIMT: mul.rn.f32 {{.*}}, 0f7F7FFFFF;
// SIMT-COUNT-31: max.NaN.f32 {{.*}}, 0fFF7FFFFF;
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @bert_mask(%q: tensor<2x4x256x64xbf16>, %k: tensor<2x4x256x64xbf16>, %v: tensor<2x4x256x64xbf16>, %mask: tensor<2x1x1x256xbf16>) -> tensor<2x4x256x64xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x256x64xbf16>) -> tensor<2x4x64x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x256x64xbf16>, tensor<2x4x64x256xbf16>) -> tensor<2x4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.125> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<2x4x256x256xbf16>, tensor<bf16>) -> tensor<2x4x256x256xbf16>
  %one = "graph.constant"() {value = dense<1.0> : tensor<bf16>} : () -> tensor<bf16>
  %inv = "graph.sub"(%one, %mask) : (tensor<bf16>, tensor<2x1x1x256xbf16>) -> tensor<2x1x1x256xbf16>
  %min = "graph.constant"() {value = dense<-10000.0> : tensor<bf16>} : () -> tensor<bf16>
  %bias = "graph.mul"(%inv, %min) : (tensor<2x1x1x256xbf16>, tensor<bf16>) -> tensor<2x1x1x256xbf16>
  %sb = "graph.add"(%ss, %bias) : (tensor<2x4x256x256xbf16>, tensor<2x1x1x256xbf16>) -> tensor<2x4x256x256xbf16>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x4x256x256xbf16>) -> tensor<2x4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x256x256xbf16>, tensor<2x4x256x64xbf16>) -> tensor<2x4x256x64xbf16>
  return %y : tensor<2x4x256x64xbf16>
}
func.func @bert_mask_f32(%q: tensor<2x4x200x64xf32>, %k: tensor<2x4x200x64xf32>, %v: tensor<2x4x200x64xf32>, %mask: tensor<2x1x1x200xf32>) -> tensor<2x4x200x64xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x200x64xf32>) -> tensor<2x4x64x200xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x200x64xf32>, tensor<2x4x64x200xf32>) -> tensor<2x4x200x200xf32>
  %c = "graph.constant"() {value = dense<8.0> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.div"(%s, %c) : (tensor<2x4x200x200xf32>, tensor<f32>) -> tensor<2x4x200x200xf32>
  %one = "graph.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %inv = "graph.sub"(%one, %mask) : (tensor<f32>, tensor<2x1x1x200xf32>) -> tensor<2x1x1x200xf32>
  %min = "graph.constant"() {value = dense<-3.40282347e+38> : tensor<f32>} : () -> tensor<f32>
  %bias = "graph.mul"(%inv, %min) : (tensor<2x1x1x200xf32>, tensor<f32>) -> tensor<2x1x1x200xf32>
  %sb = "graph.add"(%ss, %bias) : (tensor<2x4x200x200xf32>, tensor<2x1x1x200xf32>) -> tensor<2x4x200x200xf32>
  %p = "graph.softmax"(%sb) {dim = 3 : i64} : (tensor<2x4x200x200xf32>) -> tensor<2x4x200x200xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x200x200xf32>, tensor<2x4x200x64xf32>) -> tensor<2x4x200x64xf32>
  return %y : tensor<2x4x200x64xf32>
}
