// Row chains (form-row-chains, cpu-codegen's chain kernels) against the reference:
// attention by heads (k, v sliced per head), attention with a mask shared by the heads
// (sliced by rows only) and a scale, a 2-D chain with whole weights and a bias
// epilogue, odd sizes (100 rows, head dim 24: no multiple of the tile or the vector).
// The default pipeline forms the chains its cost model accepts; rows=4 forces every
// chain (many blocks, every one a partial matmul tile).
// RUN: braze check %s --seed 5 | FileCheck %s
// RUN: braze check %s --seed 6 --pipeline=%S/Inputs/cpu-row-chains-rows4.pipeline | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains)' | FileCheck %s --check-prefix=DEFAULT
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{rows=4})' | FileCheck %s --check-prefix=FORCED
// UNSUPPORTED: asan
// CHECK: PASS  @attention
// CHECK: PASS  @masked
// CHECK: PASS  @mlp_softmax
// CHECK: PASS  @odd
// CHECK: PASS  @heads4d
// CHECK: PASS  @kv_shared
// CHECK: check passed

// DEFAULT-COUNT-4: kernel.kind = "chain"
// DEFAULT-NOT: kernel.kind = "chain"
// FORCED-COUNT-6: kernel.kind = "chain"

func.func @attention(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>) -> tensor<4x256x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}

func.func @masked(%q: tensor<4x256x32xf32>, %k: tensor<4x256x32xf32>, %v: tensor<4x256x32xf32>, %mask: tensor<256x256xf32>) -> tensor<4x256x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<4x256x32xf32>) -> tensor<4x32x256xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x256x32xf32>, tensor<4x32x256xf32>) -> tensor<4x256x256xf32>
  %c = "graph.constant"() {value = dense<0.176776695> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<4x256x256xf32>, tensor<f32>) -> tensor<4x256x256xf32>
  %sm = "graph.add"(%ss, %mask) : (tensor<4x256x256xf32>, tensor<256x256xf32>) -> tensor<4x256x256xf32>
  %p = "graph.softmax"(%sm) {dim = 2 : i64} : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x256x256xf32>, tensor<4x256x32xf32>) -> tensor<4x256x32xf32>
  return %y : tensor<4x256x32xf32>
}

func.func @mlp_softmax(%x: tensor<96x40xf32>, %w: tensor<40x200xf32>, %w2: tensor<200x24xf32>, %b: tensor<24xf32>) -> tensor<96x24xf32> {
  %h = "graph.matmul"(%x, %w) : (tensor<96x40xf32>, tensor<40x200xf32>) -> tensor<96x200xf32>
  %p = "graph.softmax"(%h) {dim = 1 : i64} : (tensor<96x200xf32>) -> tensor<96x200xf32>
  %y = "graph.matmul"(%p, %w2) : (tensor<96x200xf32>, tensor<200x24xf32>) -> tensor<96x24xf32>
  %z = "graph.add"(%y, %b) : (tensor<96x24xf32>, tensor<24xf32>) -> tensor<96x24xf32>
  return %z : tensor<96x24xf32>
}

func.func @odd(%q: tensor<3x100x24xf32>, %k: tensor<3x100x24xf32>, %v: tensor<3x100x24xf32>) -> tensor<3x100x24xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<3x100x24xf32>) -> tensor<3x24x100xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<3x100x24xf32>, tensor<3x24x100xf32>) -> tensor<3x100x100xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<3x100x100xf32>) -> tensor<3x100x100xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<3x100x100xf32>, tensor<3x100x24xf32>) -> tensor<3x100x24xf32>
  return %y : tensor<3x100x24xf32>
}

func.func @heads4d(%q: tensor<2x4x128x32xf32>, %k: tensor<2x4x128x32xf32>, %v: tensor<2x4x128x32xf32>) -> tensor<2x4x128x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x128x32xf32>) -> tensor<2x4x32x128xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x4x128x32xf32>, tensor<2x4x32x128xf32>) -> tensor<2x4x128x128xf32>
  %p = "graph.softmax"(%s) {dim = 3 : i64} : (tensor<2x4x128x128xf32>) -> tensor<2x4x128x128xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x4x128x128xf32>, tensor<2x4x128x32xf32>) -> tensor<2x4x128x32xf32>
  return %y : tensor<2x4x128x32xf32>
}

func.func @kv_shared(%q: tensor<4x128x32xf32>, %k: tensor<1x128x32xf32>, %v: tensor<1x128x32xf32>) -> tensor<4x128x32xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<1x128x32xf32>) -> tensor<1x32x128xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x128x32xf32>, tensor<1x32x128xf32>) -> tensor<4x128x128xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<4x128x128xf32>, tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
  return %y : tensor<4x128x32xf32>
}
