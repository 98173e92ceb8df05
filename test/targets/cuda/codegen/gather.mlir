// cuda-codegen and indexed reads (gather): the point evaluator loads the index at the
// thread's point, wraps and clamps it, and loads the data at the computed position
// (tensor.extract of a kernel argument: memref.load; linalg.index: the point's index),
// in element kernels (4 lanes: one index load, four data loads), row kernels (a
// gather_elements in a reduction's prologue, f16 widened to f32) and a matmul's
// epilogue (a gathered bias). The PTX compiles (LLVM's NVPTX backend); the kernels are
// not run here (no GPU).
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

// REMARK: kernel @cuda_poi_fused_tanh_gather_mul_add_0: element kernel
// REMARK: kernel @cuda_per_fused_gather_elements_reduce_sum_1: row kernel
// REMARK: kernel @cuda_tem_fused_matmul_gather_add_2: matmul kernel

// CHECK-LABEL: gpu.func @cuda_poi_fused_tanh_gather_mul_add_0(
// CHECK-SAME: %[[IDS:.*]]: memref<4x6xi64>, %{{.*}}: memref<64xf32>, %{{.*}}: memref<6x64xf32>, %[[TABLE:.*]]: memref<50x64xf32>, %[[OUT:.*]]: memref<4x6x64xf32>)
// CHECK: %[[COL:.*]] = arith.remui
// CHECK: %[[I:.*]] = memref.load %[[IDS]][%{{.*}}, %{{.*}}] : memref<4x6xi64>
// CHECK: arith.cmpi slt, %[[I]]
// CHECK: %[[LO:.*]] = arith.maxsi
// CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[LO]] : i64 to index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[TABLE]][%[[ROW]], %[[COL]]] : memref<50x64xf32>
// CHECK-NEXT: math.tanh %[[V]] : f32
// CHECK-COUNT-3: memref.load %[[TABLE]][%[[ROW]], %{{.*}}] : memref<50x64xf32>
// CHECK: vector.store %{{.*}}, %[[OUT]]
// CHECK-LABEL: gpu.func @cuda_per_fused_gather_elements_reduce_sum_1(
// CHECK: %[[J:.*]] = memref.load %{{.*}} : memref<16x40xi32>
// CHECK: arith.cmpi slt, %[[J]]
// CHECK: %[[AT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: %[[H:.*]] = memref.load %{{.*}}[%{{.*}}, %[[AT]]] : memref<16x300xf16>
// CHECK-NEXT: arith.extf %[[H]] : f16 to f32
// CHECK: gpu.shuffle
// CHECK-LABEL: gpu.func @cuda_tem_fused_matmul_gather_add_2(
// CHECK: memref.load %{{.*}} : memref<12xi64>
// CHECK: memref.load %{{.*}} : memref<50x24xf32>
// PTX: .visible .entry cuda_poi_fused_tanh_gather_mul_add_0
// PTX: .visible .entry cuda_per_fused_gather_elements_reduce_sum_1
// PTX: .visible .entry cuda_tem_fused_matmul_gather_add_2

func.func @embedding(%table: tensor<50x64xf32>, %ids: tensor<4x6xi64>, %scale: tensor<64xf32>, %pos: tensor<6x64xf32>) -> tensor<4x6x64xf32> {
  %t = "graph.tanh"(%table) : (tensor<50x64xf32>) -> tensor<50x64xf32>
  %e = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x64xf32>, tensor<4x6xi64>) -> tensor<4x6x64xf32>
  %s = "graph.mul"(%e, %scale) : (tensor<4x6x64xf32>, tensor<64xf32>) -> tensor<4x6x64xf32>
  %r = "graph.add"(%s, %pos) : (tensor<4x6x64xf32>, tensor<6x64xf32>) -> tensor<4x6x64xf32>
  return %r : tensor<4x6x64xf32>
}

func.func @gather_sum(%x: tensor<16x300xf16>, %j: tensor<16x40xi32>) -> tensor<16xf16> {
  %1 = "graph.gather_elements"(%x, %j) {axis = 1 : i64} : (tensor<16x300xf16>, tensor<16x40xi32>) -> tensor<16x40xf16>
  %2 = "graph.reduce_sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<16x40xf16>) -> tensor<16xf16>
  return %2 : tensor<16xf16>
}

func.func @mm_gather_epilogue(%x: tensor<12x16xf32>, %w: tensor<16x24xf32>, %t: tensor<50x24xf32>, %ids: tensor<12xi64>) -> tensor<12x24xf32> {
  %m = "graph.matmul"(%x, %w) : (tensor<12x16xf32>, tensor<16x24xf32>) -> tensor<12x24xf32>
  %g = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x24xf32>, tensor<12xi64>) -> tensor<12x24xf32>
  %a = "graph.add"(%m, %g) : (tensor<12x24xf32>, tensor<12x24xf32>) -> tensor<12x24xf32>
  return %a : tensor<12x24xf32>
}
