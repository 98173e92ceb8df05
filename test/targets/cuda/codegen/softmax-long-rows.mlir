// Rows longer than the block can keep in registers (here 8192 elements, at most 4 per
// thread: 1024 threads, 2 chunks each): every generic of the row kernel loops over its
// chunks and loads x again (from L2), instead of unrolling and keeping values.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks max-regs=4},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

func.func @softmax(%x: tensor<16x8192xf32>) -> tensor<16x8192xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<16x8192xf32>) -> tensor<16x8192xf32>
  return %0 : tensor<16x8192xf32>
}

// REMARK: row kernel, grid (16, 1, 1), block 1024, vector width 4, 2 chunk(s) per thread looped (rows re-read)

// CHECK: gpu.func @cuda_red_fused_softmax_0(%[[A:[^:]*]]: memref<16x8192xf32>
// max over the chunks, an f32 accumulator
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK: vector.load %[[A]]
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor
// sum of exp over the chunks: x loaded again
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK: vector.load %[[A]]
// CHECK: math.exp
// the output pass: x loaded a third time, exp recomputed
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: vector.load %[[A]]
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: vector.store
