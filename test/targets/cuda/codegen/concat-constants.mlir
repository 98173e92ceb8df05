// Concatenations are element kernels that write each piece at its offset; a non-splat
// constant read by a kernel becomes a kernel argument, passed from the entry as a host
// memref.global (the runtime uploads it once), because a gpu.func cannot read host
// globals. Splat constants stay scalars in the body.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s

func.func @concat(%a: tensor<7x37xf32>, %b: tensor<7x3xf32>) -> tensor<7x40xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 1 : i64} : (tensor<7x37xf32>, tensor<7x3xf32>) -> tensor<7x40xf32>
  return %0 : tensor<7x40xf32>
}

func.func @scale(%x: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %c = "graph.constant"() {value = dense<[1.0, -2.0, 0.5, 3.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %h = "graph.constant"() {value = dense<0.5> : tensor<5x4xf32>} : () -> tensor<5x4xf32>
  %0 = "graph.mul"(%x, %c) : (tensor<5x4xf32>, tensor<4xf32>) -> tensor<5x4xf32>
  %1 = "graph.add"(%0, %h) : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x4xf32>
  return %1 : tensor<5x4xf32>
}

// CHECK: memref.global "private" constant @__braze_const_0 : memref<4xf32> = dense<[1.000000e+00, -2.000000e+00, 5.000000e-01, 3.000000e+00]>
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[X:[^:]*]]: memref<5x4xf32>, %[[Y:[^:]*]]: memref<5x4xf32>)
// CHECK: %[[C:.*]] = memref.get_global @__braze_const_0 : memref<4xf32>
// CHECK: gpu.launch_func @braze_kernels::@cuda_poi_fused_mul_add_1 {{.*}} args(%[[X]] : memref<5x4xf32>, %[[C]] : memref<4xf32>, %[[Y]] : memref<5x4xf32>)

// CHECK-LABEL: gpu.func @cuda_poi_fused_concat_0(
// CHECK-SAME: %[[A:[^:]*]]: memref<7x37xf32>, %[[B:[^:]*]]: memref<7x3xf32>, %[[O:[^:]*]]: memref<7x40xf32>)
// the pieces, last first: b (21 elements) at column 37, then a (259 elements)
// CHECK: %[[F:.*]] = arith.addi
// CHECK: arith.cmpi ult, %[[F]], %c21 : index
// CHECK: scf.if
// CHECK: memref.load %[[B]]
// CHECK: %[[J:.*]] = arith.addi %{{.*}}, %c37 : index
// CHECK: memref.store %{{.*}}, %[[O]][%{{.*}}, %[[J]]]
// CHECK: arith.cmpi ult, %[[F]], %c259 : index
// CHECK: scf.if
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[O]]

// CHECK-LABEL: gpu.func @cuda_poi_fused_mul_add_1(
// CHECK-SAME: %{{[^:]*}}: memref<5x4xf32>, %[[CA:[^:]*]]: memref<4xf32>, %{{[^:]*}}: memref<5x4xf32>)
// CHECK: vector.load %[[CA]]
// CHECK: arith.mulf
// CHECK: arith.addf %{{.*}}, %cst
