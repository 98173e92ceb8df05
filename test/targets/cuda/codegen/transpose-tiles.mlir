// cuda-codegen's tiled element kernels (targets/cuda/codegen/tiled.c): an element
// kernel whose one result reads its major input transposed (a step along the result's
// last dim moves the input a sector or more, 32 bytes, while a step along another dim
// moves it less) is evaluated in 32x32 tiles: 256 threads as 8 rows of 32 evaluate the
// tile with consecutive lanes along that other dim (the load dim) into a workgroup
// buffer [32][33] of the compute type (f32 for bf16), meet at a barrier, and store it
// with consecutive lanes along the last dim. One block per tile, the edges guarded.
// Kept per-thread: a result whose input walks with it, a last dim under 16, and
// everything with transpose-tiles=false.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{transpose-tiles=false})' | FileCheck %s --check-prefix=OFF
// RUN: not braze-opt --cpu=x86-64-v4 %s --cuda-codegen=transpose-tiles=maybe 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: braze check %s --rtol 1e-2

// A conv weight [oc][c][kh][kw] as the template's B [(kh kw c)][oc]: consecutive oc are
// 9 c elements apart in the weight, consecutive k (c) 9 elements (18 bytes): loads
// along dim 0 (k), stores along dim 1 (oc); 288 = 9 x 32 and 64 = 2 x 32: no guards.
// CHECK-LABEL: gpu.func @cuda_poi_fused_{{[a-z_]+}}_0(
// CHECK-SAME: %[[W:.*]]: memref<64x32x3x3xbf16>, %[[B:.*]]: memref<288x64xbf16>) workgroup(%[[T:.*]] : memref<1056xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: braze.grid = array<i64: 18, 1, 1>
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: scf.if
// CHECK: %[[V:.*]] = memref.load %[[W]]
// CHECK-NEXT: %[[F:.*]] = arith.extf %[[V]] : bf16 to f32
// CHECK-NEXT: memref.store %[[F]], %[[T]][%{{.*}}] : memref<1056xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: memref.store {{.*}} : memref<1056xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK: %[[S:.*]] = memref.load %[[T]]
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT: memref.store %[[N]], %[[B]]
// CHECK: gpu.return

// A 2-D transpose with an add of a second input read in the result's order, f32 (4
// bytes: consecutive columns of x^T are 70 elements apart), edges 100 = 3 x 32 + 4 and
// 70 = 2 x 32 + 6: both passes guarded.
// CHECK-LABEL: gpu.func @cuda_poi_fused_add_1(
// CHECK-SAME: workgroup(%{{.*}} : memref<1056xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: braze.grid = array<i64: 12, 1, 1>
// CHECK: arith.andi
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: scf.if

// Not tiled: a result whose input walks with it; a transpose whose last dim has 8
// elements.
// CHECK-LABEL: gpu.func @cuda_poi_fused_exp_2(
// CHECK-NOT: workgroup(
// CHECK-SAME: kernel
// CHECK-LABEL: gpu.func @cuda_poi_fused_transpose_3(
// CHECK-NOT: workgroup(
// CHECK-SAME: kernel

// REMARK: kernel @cuda_poi_fused_{{[a-z_]+}}_0: element kernel, grid (18, 1, 1), block 256, vector width 1, 32x32 tiles through shared memory: loads along dim 0, stores along dim 1
// REMARK: kernel @cuda_poi_fused_add_1: element kernel, grid (12, 1, 1), block 256, vector width 1, 32x32 tiles through shared memory: loads along dim 0, stores along dim 1
// REMARK: kernel @cuda_poi_fused_exp_2: element kernel, grid ({{[0-9]+}}, 1, 1), block {{[0-9]+}}, vector width 4
// REMARK-NOT: tiles through shared memory

// OFF-NOT: workgroup(

// BAD: option 'transpose-tiles' expects true or false

func.func @weight_layout(%w: tensor<64x32x3x3xbf16>) -> tensor<288x64xbf16> {
  %t = "graph.transpose"(%w) {perm = array<i64: 2, 3, 1, 0>} : (tensor<64x32x3x3xbf16>) -> tensor<3x3x32x64xbf16>
  %b = "graph.reshape"(%t) : (tensor<3x3x32x64xbf16>) -> tensor<288x64xbf16>
  return %b : tensor<288x64xbf16>
}

func.func @transpose_add(%x: tensor<100x70xf32>, %y: tensor<70x100xf32>) -> tensor<70x100xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<100x70xf32>) -> tensor<70x100xf32>
  %s = "graph.add"(%t, %y) : (tensor<70x100xf32>, tensor<70x100xf32>) -> tensor<70x100xf32>
  return %s : tensor<70x100xf32>
}

func.func @walks(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = "graph.exp"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %e : tensor<64x64xf32>
}

func.func @narrow(%x: tensor<8x200xf32>) -> tensor<200x8xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<8x200xf32>) -> tensor<200x8xf32>
  return %t : tensor<200x8xf32>
}
