// cuda-codegen on softmax (max, exp, sum, div in one red kernel): a row kernel, one
// block per row; 1024-wide rows split into 128-bit vectors over 128 threads, two per
// thread, kept in registers (x is loaded once, exp computed once); each reduction is
// xor shuffles within warps, a partial per warp in shared memory, shuffles again.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// REMARK: remark: cuda-codegen: kernel @cuda_per_fused_softmax_0: row kernel, grid (64, 1, 1), block 128, vector width 4, 2 chunk(s) per thread kept in registers

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: memref<64x1024xf32>, %[[Y:.*]]: memref<64x1024xf32>)
// CHECK-SAME: braze.entry, braze.num_inputs = 1 : i64, braze.num_outputs = 1 : i64
// CHECK: gpu.launch_func @braze_kernels::@cuda_per_fused_softmax_0 blocks in (%c64, %c1, %c1) threads in (%c128, %c1, %c1) args(%[[X]] : memref<64x1024xf32>, %[[Y]] : memref<64x1024xf32>)
// CHECK-NEXT: return
// CHECK: gpu.module @braze_kernels {
// CHECK: gpu.func @cuda_per_fused_softmax_0(%[[A:[^:]*]]: memref<64x1024xf32>, %[[O:[^:]*]]: memref<64x1024xf32>) workgroup(%[[P0:[^ ]*]] : memref<4xf32, #gpu.address_space<workgroup>>, %[[P1:[^ ]*]] : memref<4xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-SAME: braze.grid = array<i64: 64, 1, 1>
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[B:.*]] = gpu.block_id x
// x: two vector loads per thread, the only loads of %A in the kernel
// CHECK: vector.load %[[A]][%[[B]], %{{.*}}] {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK: vector.load %[[A]][%[[B]], %{{.*}}] {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: memref.store %{{.*}}, %[[P0]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[P0]]
// CHECK: math.exp
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK-NOT: math.exp
// CHECK: vector.store %{{.*}}, %[[O]][%[[B]], %{{.*}}] {alignment = 16 : i64} : memref<64x1024xf32>, vector<4xf32>
// CHECK: vector.store
// CHECK: gpu.return

// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX: st.global.v4.b32
