// cpu-codegen on a chain kernel (form-row-chains): the scf.forall over (head, row
// block) becomes the one scf.parallel; slices become memref.subviews with the
// sources' strides and a dynamic offset, intermediates 64-byte aligned stack buffers
// of the block's shape, and the calls pass destinations (the last one its subview of
// the result). The block kernels come out serial (scf.for, bodies in
// memref.alloca_scope) with the subviews' strided types on their arguments; the
// template's M block is the whole block (mc = 35 >= 32 rows: B packed once per call; N = 64
// takes the wide 5 x 4-vector tile).
// RUN: braze-opt --cpu=x86-64-v4 %braze_src/test/passes/chains/form-row-chains/chains.mlir --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{rows=32},cpu-codegen)' | FileCheck %s

// CHECK-LABEL: func.func private @cpu_tem_fused_batch_matmul_0_rows(
// CHECK-SAME: %arg0: memref<1x32x16xf32, strided<[1024, 16, 1], offset: ?>>
// CHECK-SAME: %arg1: memref<1x64x16xf32, strided<[1024, 16, 1], offset: ?>>
// CHECK-SAME: %arg2: memref<1x32x64xf32>)
// CHECK-SAME: braze.template = "gemm mr=5 nr=64 mc=35
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: memref.alloca_scope
// CHECK-LABEL: func.func private @cpu_per_fused_softmax_1_rows(
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func private @cpu_tem_fused_batch_matmul_2_rows(
// CHECK-SAME: %arg2: memref<1x32x16xf32, strided<[1024, 16, 1], offset: ?>>)
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_softmax_0(
// CHECK-SAME: %arg0: memref<2x64x16xf32>, %arg1: memref<2x64x16xf32>, %arg2: memref<2x64x16xf32>, %arg3: memref<2x64x16xf32>)
// CHECK-SAME: braze.num_inputs = 3
// CHECK: scf.parallel (%[[B:.*]], %[[MB:.*]]) = (%{{.*}}, %{{.*}}) to (%c2, %c2) step
// CHECK: %[[M:.*]] = arith.muli %[[MB]], %c32
// CHECK: %[[Q:.*]] = memref.subview %arg0[%[[B]], %[[M]], 0] [1, 32, 16] [1, 1, 1] : memref<2x64x16xf32> to memref<1x32x16xf32, strided<[1024, 16, 1], offset: ?>>
// CHECK: %[[K:.*]] = memref.subview %arg1[%[[B]], 0, 0] [1, 64, 16] [1, 1, 1]
// CHECK: %[[S:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x32x64xf32>
// CHECK: call @cpu_tem_fused_batch_matmul_0_rows(%[[Q]], %[[K]], %[[S]])
// CHECK: %[[P:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x32x64xf32>
// CHECK: call @cpu_per_fused_softmax_1_rows(%[[S]], %[[P]])
// CHECK: %[[Y:.*]] = memref.subview %arg3[%[[B]], %[[M]], 0] [1, 32, 16] [1, 1, 1]
// CHECK: call @cpu_tem_fused_batch_matmul_2_rows(%[[P]], %{{.*}}, %[[Y]])
// CHECK-LABEL: func.func @attention(
// CHECK: call @cpu_chain_fused_batch_matmul_softmax_0(%arg0, %arg1, %arg2, %arg3)
