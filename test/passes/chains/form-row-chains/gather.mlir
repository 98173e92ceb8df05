// A gather computes the other coordinates of the positions it reads from linalg.index
// of its loops; in a chain's block form those would be the block's indices (every
// batch would read batch 0: ResNet-18 at batch 8 did, before this refusal). So a kernel
// whose body holds linalg.index is not row-local: no chain, and the compiled code
// matches the reference.
// RUN: braze-opt --cpu=x86-64-v4 %s --verify-diagnostics --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{remarks rows=64})' -o /dev/null
// RUN: braze check %s --seed 2 | FileCheck %s
// CHECK: PASS  @f out0 4x256x64xf32
func.func @f(%d: tensor<4x512x64xf32>, %i: tensor<256xi32>, %w: tensor<64x64xf32>) -> tensor<4x256x64xf32> {
  // expected-remark@+1 {{form-row-chains: no chain @cpu_poi_fused_gather_0 -> @cpu_tem_fused_batch_matmul_relu_1: loop-index}}
  %g = "graph.gather"(%d, %i) {axis = 1 : i64} : (tensor<4x512x64xf32>, tensor<256xi32>) -> tensor<4x256x64xf32>
  %m = "graph.batch_matmul"(%g, %w) : (tensor<4x256x64xf32>, tensor<64x64xf32>) -> tensor<4x256x64xf32>
  %r = "graph.relu"(%m) : (tensor<4x256x64xf32>) -> tensor<4x256x64xf32>
  return %r : tensor<4x256x64xf32>
}
