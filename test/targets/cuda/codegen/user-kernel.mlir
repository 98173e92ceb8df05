// cuda-codegen, ext kernels (docs/user-kernels.md): a user kernel that is one top-level
// scf.parallel maps to the grid, one thread per iteration (g = block_id * block +
// thread_id, threads past the trip count do nothing, the ivs delinearized row-major);
// the loop's body (with a fused epilogue) is cloned and the kernel launched like any
// other; a pre-initialized output is copied by the entry before the launch. test/gpu/cases/user-kernels.mlir runs such kernels on the GPU.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{block=64},canonicalize,cse)' | FileCheck %s --check-prefix=BLOCK
// RUN: not braze-opt --cpu=x86-64-v4 %S/Inputs/user-kernel-refusals.mlir --split-input-file --pipeline=cuda-default 2>&1 | FileCheck %s --check-prefix=REFUSE
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/user-kernel-initialized.mlir --pipeline=cuda-default | FileCheck %s --check-prefix=INIT

// CHECK-LABEL: func.func @model(
// CHECK:         gpu.launch_func  @braze_kernels::@cuda_ext_fused_rows_exp_0 blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)  args(%arg0 : memref<48x40xf32>, %arg1 : memref<48x40xf32>)
// CHECK-LABEL: gpu.func @cuda_ext_fused_rows_exp_0(%arg0: memref<48x40xf32>, %arg1: memref<48x40xf32>) kernel
// CHECK-SAME:    braze.grid = array<i64: 2, 1, 1>
// CHECK-SAME:    known_block_size = array<i32: 256, 1, 1>
// CHECK:         %[[T:.*]] = gpu.thread_id  x
// CHECK-NEXT:    %[[B:.*]] = gpu.block_id  x
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[B]], %c256 : index
// CHECK-NEXT:    %[[G:.*]] = arith.addi %[[M]], %[[T]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[G]], %c480 : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[J:.*]] = arith.remui %[[G]], %c10 : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[G]], %c10 : index
// CHECK-NEXT:      %[[J4:.*]] = arith.muli %[[J]], %c4 : index
// The column is a multiple of 4 (j * 4, rows of 40): the accesses are 16-byte aligned
// (targets/cuda/codegen/user-align.c), 128-bit in the PTX.
// CHECK-NEXT:      %[[V:.*]] = vector.load %arg0[%[[I]], %[[J4]]] {alignment = 16 : i64} : memref<48x40xf32>, vector<4xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[V]], %[[V]] : vector<4xf32>
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[S]] : vector<4xf32>
// CHECK-NEXT:      vector.store %[[E]], %arg1[%[[I]], %[[J4]]] {alignment = 16 : i64} : memref<48x40xf32>, vector<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.return
// The user kernels stay as written at module level (unused by the entry).
// CHECK-NOT:     func.func private @cuda_ext

// A pre-initialized output: the entry copies the initial value, then launches.
// INIT-LABEL: func.func @initialized(%arg0: memref<8xf32>, %arg1: memref<8xf32>, %arg2: memref<8xf32>)
// INIT:         memref.copy %arg1, %arg2 : memref<8xf32> to memref<8xf32>
// INIT-NEXT:    gpu.launch_func  @braze_kernels::@cuda_ext_fused_first_0 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)  args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
// INIT:         gpu.func @cuda_ext_fused_first_0(
// INIT-SAME:      braze.copies_before = array<i64: 1, 2>

// REMARK: remark: cuda-codegen: kernel @cuda_ext_fused_rows_exp_0: user kernel @rows_epilogue_0, its scf.parallel (480 iterations) over grid (2, 1, 1), block 256
// BLOCK: gpu.launch_func  @braze_kernels::@cuda_ext_fused_rows_exp_0 blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1)

// REFUSE: error: cuda-codegen: ext kernel @cuda_ext_fused_seq_0: top-level 'scf.for': the user kernel maps to the grid only as one top-level scf.parallel (constants before it)
// REFUSE: error: cuda-codegen: ext kernel @cuda_ext_fused_dyn_0: top-level 'memref.load': the user kernel maps to the grid only as one top-level scf.parallel (constants before it)
// REFUSE: error: cuda-codegen: ext kernel @cuda_ext_fused_outer_0: calls inside a user kernel are not supported on the GPU

// rows of 40 as 10 vectors of 4, a 2-D parallel loop (480 iterations)
func.func private @rows(%x: memref<48x40xf32>, %out: memref<48x40xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c40 = arith.constant 40 : index
  %c48 = arith.constant 48 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c48, %c40) step (%c1, %c4) {
    %v = vector.load %x[%i, %j] : memref<48x40xf32>, vector<4xf32>
    %s = arith.mulf %v, %v : vector<4xf32>
    vector.store %s, %out[%i, %j] : memref<48x40xf32>, vector<4xf32>
    scf.reduce
  }
  return
}

func.func @model(%x: tensor<48x40xf32>) -> tensor<48x40xf32> {
  %xb = bufferization.to_buffer %x : tensor<48x40xf32> to memref<48x40xf32>
  %o = memref.alloc() : memref<48x40xf32>
  func.call @rows(%xb, %o) : (memref<48x40xf32>, memref<48x40xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<48x40xf32> to tensor<48x40xf32>
  %e = "graph.exp"(%r) : (tensor<48x40xf32>) -> tensor<48x40xf32>
  return %e : tensor<48x40xf32>
}
