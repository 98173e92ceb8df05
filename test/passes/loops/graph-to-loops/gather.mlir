// gather / gather_elements: one all-parallel generic over the result. The indices are
// an input (gather: loops [axis, axis + rank(indices)) index them; gather_elements:
// the identity); the body wraps a negative index (+ K), clamps it to [0, K - 1],
// casts it to index and reads the data with tensor.extract (the data is captured),
// its other coordinates linalg.index of the loops. A data view is copied first.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @embedding(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x6x16xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<4x6xi64>) outs(%[[E]] : tensor<4x6x16xf32>) attrs = {braze.ops = ["gather"]}
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %[[ZERO]] : i64
// CHECK-NEXT: %[[K:.*]] = arith.constant 50 : i64
// CHECK-NEXT: %[[W:.*]] = arith.addi %[[I]], %[[K]] : i64
// CHECK-NEXT: %[[S:.*]] = arith.select %[[NEG]], %[[W]], %[[I]] : i64
// CHECK-NEXT: %[[LAST:.*]] = arith.constant 49 : i64
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[S]], %[[LAST]] : i64
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[HI]], %[[ZERO]] : i64
// CHECK-NEXT: %[[AT:.*]] = arith.index_cast %[[LO]] : i64 to index
// CHECK-NEXT: %[[COL:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %arg0[%[[AT]], %[[COL]]] : tensor<50x16xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
func.func @embedding(%table: tensor<50x16xf32>, %ids: tensor<4x6xi64>) -> tensor<4x6x16xf32> {
  %e = "graph.gather"(%table, %ids) {axis = 0 : i64} : (tensor<50x16xf32>, tensor<4x6xi64>) -> tensor<4x6x16xf32>
  return %e : tensor<4x6x16xf32>
}

// -----

// Axis 1 of a rank-3 tensor with rank-2 i32 indices: loops (d0, d1, d2, d3), the
// indices at (d1, d2), the data at (d0, index, d3).
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @middle_axis(
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}]{{.*}} ins(%arg1 : tensor<2x5xi32>)
// CHECK: arith.constant 6 : i32
// CHECK: %[[AT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[D3:.*]] = linalg.index 3 : index
// CHECK-NEXT: tensor.extract %arg0[%[[D0]], %[[AT]], %[[D3]]] : tensor<3x6x4xf32>
func.func @middle_axis(%x: tensor<3x6x4xf32>, %i: tensor<2x5xi32>) -> tensor<3x2x5x4xf32> {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<3x6x4xf32>, tensor<2x5xi32>) -> tensor<3x2x5x4xf32>
  return %0 : tensor<3x2x5x4xf32>
}

// -----

// A rank-0 index reads through a map with no results; gather_elements reads its
// indices at the identity and keeps the other data coordinates.
// CHECK-DAG: #[[NONE:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @scalar_and_elements(
// CHECK: linalg.generic {indexing_maps = [#[[NONE]], #{{.*}}]{{.*}} ins(%arg1 : tensor<i64>)
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<4x10xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]]{{.*}} ins(%arg2 : tensor<4x3xi32>) outs(%{{.*}} : tensor<4x3xf32>) attrs = {braze.ops = ["gather_elements"]}
// CHECK: %[[AT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT: tensor.extract %arg0[%[[ROW]], %[[AT]]] : tensor<4x10xf32>
func.func @scalar_and_elements(%x: tensor<4x10xf32>, %i: tensor<i64>, %j: tensor<4x3xi32>) -> (tensor<4xf32>, tensor<4x3xf32>) {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<4x10xf32>, tensor<i64>) -> tensor<4xf32>
  %1 = "graph.gather_elements"(%x, %j) {axis = 1 : i64} : (tensor<4x10xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>
  return %0, %1 : tensor<4xf32>, tensor<4x3xf32>
}

// -----

// A view as data is copied (a copy generic, braze.ops = ["transpose"]) and read by
// tensor.extract; a view of the indices composes into their map.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @views(
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[T]], #{{.*}}]{{.*}} ins(%arg0 : tensor<16x30xf32>){{.*}}braze.ops = ["transpose"]
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<1x5xi32>){{.*}}braze.ops = ["gather"]
// CHECK: tensor.extract %[[COPY]][%{{.*}}, %{{.*}}] : tensor<30x16xf32>
func.func @views(%w: tensor<16x30xf32>, %i: tensor<1x5xi32>) -> tensor<5x16xf32> {
  %t = "graph.transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<16x30xf32>) -> tensor<30x16xf32>
  %r = "graph.reshape"(%i) : (tensor<1x5xi32>) -> tensor<5xi32>
  %g = "graph.gather"(%t, %r) {axis = 0 : i64} : (tensor<30x16xf32>, tensor<5xi32>) -> tensor<5x16xf32>
  return %g : tensor<5x16xf32>
}
