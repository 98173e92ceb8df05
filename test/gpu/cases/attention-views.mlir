// Attention as PyTorch's TransformerEncoderLayer exports it, on the GPU: q, k and v
// sliced out of one in-projection of sequence-first activations, reshaped and transposed
// to heads, q scaled by a div, the heads read back by the out-projection through a
// transpose and a reshape, and the residual. graph-simplify moves q's scale to the
// scores (scale-out-of-batch-matmul: the flash kernel applies it in f32); q's heads are
// copied by its transpose's kernel, form-row-chains{target=cuda} gives k and v copies in
// [batch x heads, rows, head dim] layout (two poi kernels) and puts the attention in the
// online form: one flash kernel; the three kernels making its inputs are one kernel of
// three results (passes/chains/online-inputs.c).
// gpu-metric: norm (the flash kernel keeps scores and probabilities in f32, where the
// graph's types, and so the reference, round them to bf16). The inputs are unscaled
// random normals (test/gpu/prepare.sh), so q is divided by 2048, not 8: the scores stay
// O(1) and the softmax does not saturate to one key, where a bf16 rounding of a score
// would pick another. The out-projection reads the heads back through a view: it gets a
// plain copy for the tensor-core template.
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half remarks})' 2>&1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half},form-row-chains{target=cuda online=half},cuda-codegen{remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLASH
// CHECK: remark: form-row-chains: 2 copy kernel(s) put heads read through views in [batch..., rows, head dim] layout for the online form
// CHECK: remark: form-row-chains: 4 kernels as @cuda_chain_{{.*}} in the online form: blocks of 128 rows, 128 keys per step, scale 0.000488281
// CHECK: remark: form-row-chains: 3 kernels making @cuda_chain_{{.*}}'s inputs as one kernel @cuda_poi_fused_inputs_0 with 3 results: @cuda_poi_fused_transpose_1, @cuda_poi_fused_heads_0, @cuda_poi_fused_heads_1
// CHECK: remark: form-row-chains: @cuda_tem_fused_matmul_6 reads 1 operand(s) through a view: plain copies for the matmul template
// CHECK-DAG: #[[KV:.*]] = affine_map<(d0, d1, d2) -> (d0 floordiv 4, d1, (d0 mod 4) * 64 + d2 + 256)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1, d2) -> (d0 floordiv 4, d1, (d0 mod 4) * 64 + d2 + 512)>
// CHECK-LABEL: func.func private @cuda_poi_fused_inputs_0(%arg0: tensor<2x256x768xbf16>) -> (tensor<8x256x64xbf16>, tensor<8x256x64xbf16>, tensor<8x256x64xbf16>)
// CHECK: linalg.generic
// CHECK: linalg.generic {indexing_maps = [#[[KV]],
// CHECK: linalg.generic {indexing_maps = [#[[V]],
// CHECK-LABEL: func.func private @cuda_poi_fused_heads_0(%arg0: tensor<8x256x64xbf16>) -> tensor<512x256xbf16>
// CHECK-LABEL: func.func @encoder_attention(
// CHECK: %[[P:.*]] = call @cuda_tem_fused_batch_matmul_0(%arg0, %arg1)
// CHECK: %[[I:.*]]:3 = call @cuda_poi_fused_inputs_0(%[[P]])
// CHECK: %[[O:.*]] = call @cuda_chain_{{.*}}(%[[I]]#0, %[[I]]#1, %[[I]]#2)
// CHECK: %[[OC:.*]] = call @cuda_poi_fused_heads_0(%[[O]])
// CHECK: call @cuda_tem_fused_matmul_6(%[[OC]], %arg2)
// FLASH: remark: cuda-codegen: kernel @cuda_chain_{{.*}}: flash kernel (online chain)
// FLASH: remark: cuda-codegen: kernel @cuda_tem_fused_matmul_6: matmul kernel, {{.*}} tensor-core template
func.func @encoder_attention(%x: tensor<2x256x256xbf16>, %win: tensor<256x768xbf16>, %wo: tensor<256x256xbf16>) -> tensor<2x256x256xbf16> {
  %xt = "graph.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x256x256xbf16>) -> tensor<256x2x256xbf16>
  %p = "graph.batch_matmul"(%xt, %win) : (tensor<256x2x256xbf16>, tensor<256x768xbf16>) -> tensor<256x2x768xbf16>
  %q0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 0>, limits = array<i64: 256, 2, 256>, strides = array<i64: 1, 1, 1>} : (tensor<256x2x768xbf16>) -> tensor<256x2x256xbf16>
  %k0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 256>, limits = array<i64: 256, 2, 512>, strides = array<i64: 1, 1, 1>} : (tensor<256x2x768xbf16>) -> tensor<256x2x256xbf16>
  %v0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 512>, limits = array<i64: 256, 2, 768>, strides = array<i64: 1, 1, 1>} : (tensor<256x2x768xbf16>) -> tensor<256x2x256xbf16>
  %q1 = "graph.reshape"(%q0) : (tensor<256x2x256xbf16>) -> tensor<256x8x64xbf16>
  %q = "graph.transpose"(%q1) {perm = array<i64: 1, 0, 2>} : (tensor<256x8x64xbf16>) -> tensor<8x256x64xbf16>
  %k1 = "graph.reshape"(%k0) : (tensor<256x2x256xbf16>) -> tensor<256x8x64xbf16>
  %kt = "graph.transpose"(%k1) {perm = array<i64: 1, 2, 0>} : (tensor<256x8x64xbf16>) -> tensor<8x64x256xbf16>
  %v1 = "graph.reshape"(%v0) : (tensor<256x2x256xbf16>) -> tensor<256x8x64xbf16>
  %v = "graph.transpose"(%v1) {perm = array<i64: 1, 0, 2>} : (tensor<256x8x64xbf16>) -> tensor<8x256x64xbf16>
  %scale = "graph.constant"() {value = dense<2048.0> : tensor<bf16>} : () -> tensor<bf16>
  %qs = "graph.div"(%q, %scale) : (tensor<8x256x64xbf16>, tensor<bf16>) -> tensor<8x256x64xbf16>
  %s = "graph.batch_matmul"(%qs, %kt) : (tensor<8x256x64xbf16>, tensor<8x64x256xbf16>) -> tensor<8x256x256xbf16>
  %pr = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<8x256x256xbf16>) -> tensor<8x256x256xbf16>
  %o = "graph.batch_matmul"(%pr, %v) : (tensor<8x256x256xbf16>, tensor<8x256x64xbf16>) -> tensor<8x256x64xbf16>
  %ot = "graph.transpose"(%o) {perm = array<i64: 1, 0, 2>} : (tensor<8x256x64xbf16>) -> tensor<256x8x64xbf16>
  %o2 = "graph.reshape"(%ot) : (tensor<256x8x64xbf16>) -> tensor<512x256xbf16>
  %proj = "graph.matmul"(%o2, %wo) : (tensor<512x256xbf16>, tensor<256x256xbf16>) -> tensor<512x256xbf16>
  %proj3 = "graph.reshape"(%proj) : (tensor<512x256xbf16>) -> tensor<256x2x256xbf16>
  %projt = "graph.transpose"(%proj3) {perm = array<i64: 1, 0, 2>} : (tensor<256x2x256xbf16>) -> tensor<2x256x256xbf16>
  %r1 = "graph.add"(%x, %projt) : (tensor<2x256x256xbf16>, tensor<2x256x256xbf16>) -> tensor<2x256x256xbf16>
  return %r1 : tensor<2x256x256xbf16>
}
