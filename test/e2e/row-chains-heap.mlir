// A row chain whose per-block intermediates are too large for a thread's stack: blocks of
// 128 rows of 2048 keys are 1 MiB of scores and 1 MiB of probabilities per block, so
// cpu-codegen puts them on the heap (memref.alloc, freed after the block; below 256 KiB
// they stay on the stack). Before, W7 at S = 4096 without inline-unrealized overflowed
// the stack and crashed. Against the reference. (no-online: at 2048 keys the cpu target
// takes the online form, whose blocks are small.)
// RUN: braze check %s --seed 3 --pipeline=%S/Inputs/cpu-row-chains-rows128.pipeline | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{rows=128 no-online},cpu-codegen)' | FileCheck %s --check-prefix=IR
// A block kernel's row buffers (the softmax's exp and quotient rows, 8 KiB each) are
// allocated once, before its serial row loop: scf.for is an automatic allocation scope,
// so canonicalize drops the per-iteration alloca_scope, and the lowering frees nothing
// per iteration (256-row blocks: 128 x 16 KiB of stack; W7 at S = 4096 in 512-row
// blocks overflowed it and crashed).
// RUN: braze check %s --seed 4 --pipeline=%S/Inputs/cpu-row-chains-rows256.pipeline | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{rows=256 no-online},cpu-codegen,canonicalize)' | FileCheck %s --check-prefix=HOIST
// UNSUPPORTED: asan
// HOIST-LABEL: func.func private @cpu_red_fused_softmax_1_rows(
// HOIST: memref.alloca() {alignment = 64 : i64} : memref<2048xf32>
// HOIST-NEXT: memref.alloca() {alignment = 64 : i64} : memref<2048xf32>
// HOIST-NEXT: scf.for
// CHECK: PASS  @long_rows
// IR: scf.parallel
// IR: memref.alloc() {alignment = 64 : i64} : memref<1x128x2048xf32>
// IR: memref.dealloc
func.func @long_rows(%q: tensor<2x256x16xf32>, %k: tensor<2x2048x16xf32>, %v: tensor<2x2048x16xf32>) -> tensor<2x256x16xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x2048x16xf32>) -> tensor<2x16x2048xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x256x16xf32>, tensor<2x16x2048xf32>) -> tensor<2x256x2048xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<2x256x2048xf32>) -> tensor<2x256x2048xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x256x2048xf32>, tensor<2x2048x16xf32>) -> tensor<2x256x16xf32>
  return %y : tensor<2x256x16xf32>
}
