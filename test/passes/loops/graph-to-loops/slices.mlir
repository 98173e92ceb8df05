// Slices at loop level. linalg takes each loop's extent from an operand dim indexed
// by a bare `d` and requires that dim to have exactly that size, so a slice that
// keeps a dim's start but not its end (start 0, stride 1) reads it as `d mod E`;
// starts and strides give `d * stride + start`. A loop indexed only through compound
// expressions (a reduced dim of a strided slice) gets the view materialized by a
// copy generic, which the reduction then reads with a plain map.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// Starts and strides in every dim; the last dim keeps its start but not its end.
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1, d2) -> (d0 * 2 + 1, d1 + 2, d2 mod 3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @multi(
// CHECK: linalg.generic {indexing_maps = [#[[S]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<6x5x4xf32>) outs(%{{.*}} : tensor<3x2x3xf32>)
// CHECK-SAME: braze.ops = ["exp"]
func.func @multi(%x: tensor<6x5x4xf32>) -> tensor<3x2x3xf32> {
  %s = "graph.slice"(%x) {starts = array<i64: 1, 2, 0>, limits = array<i64: 6, 4, 3>, strides = array<i64: 2, 1, 1>} : (tensor<6x5x4xf32>) -> tensor<3x2x3xf32>
  %0 = "graph.exp"(%s) : (tensor<3x2x3xf32>) -> tensor<3x2x3xf32>
  return %0 : tensor<3x2x3xf32>
}

// -----

// A slice of a transpose: the permutation and the partial dim compose.
// CHECK-DAG: #[[ST:.*]] = affine_map<(d0, d1) -> (d1 * 3, d0 mod 2)>
// CHECK-LABEL: func.func @of_transpose(
// CHECK: linalg.generic {indexing_maps = [#[[ST]], #{{.*}}]{{.*}} ins(%arg0 : tensor<7x4xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK-SAME: braze.ops = ["neg"]
func.func @of_transpose(%x: tensor<7x4xf32>) -> tensor<2x3xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<7x4xf32>) -> tensor<4x7xf32>
  %s = "graph.slice"(%t) {starts = array<i64: 0, 0>, limits = array<i64: 2, 7>, strides = array<i64: 1, 3>} : (tensor<4x7xf32>) -> tensor<2x3xf32>
  %0 = "graph.neg"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A slice feeding a reduction: the reduced loop must be a bare dim of some operand,
// and a partial dim (`d mod E`) or a strided one (`d * 2 + 1`) is not, so the slice
// is copied first and the reduction reads the copy with a plain map.
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1) -> (d0 + 1, d1 mod 5)>
// CHECK-DAG: #[[STR:.*]] = affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @into_reduction(
// CHECK: %[[C1:.*]] = linalg.generic {indexing_maps = [#[[P]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK-SAME: braze.ops = ["slice"]
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[C1]] : tensor<3x5xf32>)
// CHECK-SAME: braze.ops = ["reduce_sum"]
// CHECK: %[[C2:.*]] = linalg.generic {indexing_maps = [#[[STR]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK-SAME: braze.ops = ["slice"]
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[C2]] : tensor<4x3xf32>)
// CHECK-SAME: braze.ops = ["reduce_max"]
func.func @into_reduction(%x: tensor<4x8xf32>) -> (tensor<3xf32>, tensor<4xf32>) {
  %a = "graph.slice"(%x) {starts = array<i64: 1, 0>, limits = array<i64: 4, 5>, strides = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<3x5xf32>
  %0 = "graph.reduce_sum"(%a) {dims = array<i64: 1>, keepdim = false} : (tensor<3x5xf32>) -> tensor<3xf32>
  %b = "graph.slice"(%x) {starts = array<i64: 0, 1>, limits = array<i64: 4, 7>, strides = array<i64: 1, 2>} : (tensor<4x8xf32>) -> tensor<4x3xf32>
  %1 = "graph.reduce_max"(%b) {dims = array<i64: 1>, keepdim = false} : (tensor<4x3xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<3xf32>, tensor<4xf32>
}

// -----

// A slice that is a function result: one copy generic over the slice's shape.
// CHECK-DAG: #[[R:.*]] = affine_map<(d0, d1) -> (d0 * 2 + 1, d1 mod 3)>
// CHECK-LABEL: func.func @result(
// CHECK: %[[C:.*]] = linalg.generic {indexing_maps = [#[[R]], #{{.*}}]{{.*}} ins(%arg0 : tensor<6x4xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK-SAME: braze.ops = ["slice"]
// CHECK: return %[[C]] :
func.func @result(%x: tensor<6x4xf32>) -> tensor<2x3xf32> {
  %0 = "graph.slice"(%x) {starts = array<i64: 1, 0>, limits = array<i64: 5, 3>, strides = array<i64: 2, 1>} : (tensor<6x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
