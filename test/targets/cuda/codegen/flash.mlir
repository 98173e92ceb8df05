// cuda-codegen of an attention chain in the online form: one flash kernel (TMA loads of
// q, k, v; S = Q K^T and O += P V on wgmma; the softmax on S's registers; P as the second
// product's A in registers), launched with its three tensor maps; ptxas keeps it out of
// local memory.
// A chain kernel that is not in the online form is an error at the graph op that started
// it. f32 chains: flash-simt.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},form-row-chains{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>&1 | FileCheck %s
// RUN: rm -rf %t && braze compile %s --target=cuda --no-header -o %t.so --dump-kernels=%t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/cuda_chain_fused_batch_matmul_batch_matmul_mul_softmax_0.ptx
// RUN: %cuda_path/bin/ptxas -arch=sm_90a -v %t/cuda_chain_fused_batch_matmul_batch_matmul_mul_softmax_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not braze-opt --cpu=x86-64-v4 %S/../../../passes/chains/form-row-chains/Inputs/attention-4x256x32.mlir --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains,cuda-codegen)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK: flash.mlir:[[@LINE+16]]:8: remark: cuda-codegen: kernel @cuda_chain_fused_batch_matmul_batch_matmul_mul_softmax_0: flash kernel (online chain), grid (2, 4, 1), block 256, 128 keys per step, 2 stages, 163856 bytes of shared memory
// CHECK-LABEL: func.func @attention(
// CHECK: "kernel.tensor_map"(%arg0) {box = array<i64: 64, 128>}
// CHECK: "kernel.tensor_map"(%arg1) {box = array<i64: 64, 128>}
// CHECK: "kernel.tensor_map"(%arg2) {box = array<i64: 64, 64>}
// CHECK: gpu.launch_func @braze_kernels::@cuda_chain_{{.*}} blocks in (%c2, %c4, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %c163856_i32
// CHECK-NOT: gpu.launch_func
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTX: ex2.approx
// PTX-NOT: fence.proxy.async
// PTX-COUNT-8: }, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// WHOLE: error: cuda-codegen: chain kernel @cpu_chain_{{.*}}: no flash kernel: not-in-the-online-form
func.func @attention(%q: tensor<4x256x128xbf16>, %k: tensor<4x256x128xbf16>, %v: tensor<4x256x128xbf16>) -> tensor<4x256x128xbf16> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x128xbf16>) -> tensor<4x128x256xbf16>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x128xbf16>, tensor<4x128x256xbf16>) -> tensor<4x256x256xbf16>
  %c = "graph.constant"() {value = dense<0.088388> : tensor<bf16>} : () -> tensor<bf16>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xbf16>, tensor<bf16>) -> tensor<4x256x256xbf16>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<4x256x256xbf16>) -> tensor<4x256x256xbf16>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xbf16>, tensor<4x256x128xbf16>) -> tensor<4x256x128xbf16>
  return %y : tensor<4x256x128xbf16>
}
