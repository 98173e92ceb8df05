// cuda-codegen matmul kernels: the contraction of a tem kernel in 64x64 output tiles
// (grid: n tiles, m tiles, batch), 256 threads with 4x4 accumulators each, A and B
// staged in shared memory 16 deep in k; odd extents clamp loads and zero the
// out-of-range elements; the fused epilogue (bias, gelu) runs on the accumulator
// before the one store.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

func.func @linear_gelu(%x: tensor<100x37xf32>, %w: tensor<37x70xf32>, %b: tensor<70xf32>) -> tensor<100x70xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<100x37xf32>, tensor<37x70xf32>) -> tensor<100x70xf32>
  %1 = "graph.add"(%0, %b) : (tensor<100x70xf32>, tensor<70xf32>) -> tensor<100x70xf32>
  %2 = "graph.gelu"(%1) {approximate = "none"} : (tensor<100x70xf32>) -> tensor<100x70xf32>
  return %2 : tensor<100x70xf32>
}

func.func @scores(%q: tensor<3x50x16xf32>, %k: tensor<3x40x16xf32>) -> tensor<3x50x40xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<3x40x16xf32>) -> tensor<3x16x40xf32>
  %0 = "graph.batch_matmul"(%q, %kt) : (tensor<3x50x16xf32>, tensor<3x16x40xf32>) -> tensor<3x50x40xf32>
  return %0 : tensor<3x50x40xf32>
}

// f32 inputs stay on the SIMT kernel (no TF32 unless asked for), named in the remark
// REMARK: kernel @cuda_tem_fused_matmul_add_gelu_0: matmul kernel, grid (2, 2, 1), block 256, vector width 1, SIMT: 64x64 tiles, 4x4 per thread, k step 16; template refused: inputs-not-bf16-or-f16
// REMARK: kernel @cuda_tem_fused_batch_matmul_1: matmul kernel, grid (1, 1, 3), block 256

// CHECK-LABEL: gpu.func @cuda_tem_fused_matmul_add_gelu_0(
// CHECK-SAME: %[[X:[^:]*]]: memref<100x37xf32>, %[[W:[^:]*]]: memref<37x70xf32>, %[[B:[^:]*]]: memref<70xf32>, %[[O:[^:]*]]: memref<100x70xf32>)
// CHECK-SAME: workgroup(%[[SA:[^ ]*]] : memref<1024xf32, #gpu.address_space<workgroup>>, %[[SB:[^ ]*]] : memref<1024xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// k steps: ceil(37 / 16) = 3, sixteen f32 accumulators
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK: memref.load %[[X]]
// CHECK: arith.select
// CHECK: memref.store %{{.*}}, %[[SA]]
// CHECK: memref.load %[[W]]
// CHECK: memref.store %{{.*}}, %[[SB]]
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args
// CHECK: memref.load %[[SA]]
// CHECK: memref.load %[[SB]]
// CHECK-COUNT-16: arith.mulf
// CHECK: gpu.barrier
// the epilogue of element (0, 0): bias, erf, one store
// CHECK: scf.if
// CHECK: memref.load %[[B]]
// CHECK: math.erf
// CHECK: memref.store %{{.*}}, %[[O]]

// CHECK-LABEL: gpu.func @cuda_tem_fused_batch_matmul_1(
// CHECK: gpu.block_id z

// The PTX holds the two 64x16 tiles in shared memory, barriers around each k step, FMAs.
// PTX: .shared .align 4 .b8 __wg_cuda_tem_fused_{{.*}}_0_0[4096];
// PTX: .shared .align 4 .b8 __wg_cuda_tem_fused_{{.*}}_0_1[4096];
// PTX: bar.sync
// PTX: fma.rn.f32
// PTX: bar.sync
