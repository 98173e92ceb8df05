// Views (transpose, broadcast_to, slice, reshape, window) emit no op: consumers read the
// underlying tensor through composed maps. A view returned from the function (or
// passed to a non-graph op) is materialized by a copy generic.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose(
// CHECK-NOT: graph.
// CHECK: linalg.generic {indexing_maps = [#[[T]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK-SAME: braze.ops = ["exp"]
func.func @transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %0 = "graph.exp"(%t) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A 3-d permutation composed with broadcasting of the consumer.
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-LABEL: func.func @transpose3(
// CHECK: linalg.generic {indexing_maps = [#[[P]], #{{.*}}]
func.func @transpose3(%x: tensor<3x4x2xf32>) -> tensor<2x3x4xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %0 = "graph.neg"(%t) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// broadcast_to then a chain of views: broadcast, transpose, slice compose into one map.
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1) -> (d1 * 2 + 1, d0 + 2)>
// CHECK-LABEL: func.func @chain(
// CHECK: linalg.generic {indexing_maps = [#[[B]], #{{.*}}]{{.*}} ins(%arg0 : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[S]], #{{.*}}]{{.*}} ins(%arg1 : tensor<8x6xf32>) outs(%{{.*}} : tensor<3x3xf32>)
func.func @chain(%v: tensor<8xf32>, %m: tensor<8x6xf32>) -> (tensor<4x8xf32>, tensor<3x3xf32>) {
  %b = "graph.broadcast_to"(%v) : (tensor<8xf32>) -> tensor<4x8xf32>
  %0 = "graph.abs"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "graph.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %s = "graph.slice"(%t) {starts = array<i64: 2, 1>, limits = array<i64: 5, 7>, strides = array<i64: 1, 2>} : (tensor<6x8xf32>) -> tensor<3x3xf32>
  %1 = "graph.abs"(%s) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<3x3xf32>
}

// -----

// reshape: flattening gives floordiv/mod, unflattening a linear index, size-1 dims
// are dropped (read at 0) and 1:1 groups stay plain dims.
// CHECK-DAG: #[[FLAT:.*]] = affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>
// CHECK-DAG: #[[UNFLAT:.*]] = affine_map<(d0, d1) -> (d0 * 8 + d1)>
// CHECK-DAG: #[[UNIT:.*]] = affine_map<(d0, d1) -> (d0, 0, d1)>
// CHECK-DAG: #[[SPLIT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1 * 4 + d2)>
// CHECK-LABEL: func.func @reshape(
// CHECK: linalg.generic {indexing_maps = [#[[FLAT]], #{{.*}}]{{.*}} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<32xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[UNFLAT]], #{{.*}}]{{.*}} ins(%arg1 : tensor<32xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[UNIT]], #{{.*}}]{{.*}} ins(%arg2 : tensor<4x1x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[SPLIT]], #{{.*}}]{{.*}} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x2x4xf32>)
func.func @reshape(%x: tensor<4x8xf32>, %f: tensor<32xf32>, %u: tensor<4x1x8xf32>) -> (tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x2x4xf32>) {
  %r0 = "graph.reshape"(%x) : (tensor<4x8xf32>) -> tensor<32xf32>
  %0 = "graph.exp"(%r0) : (tensor<32xf32>) -> tensor<32xf32>
  %r1 = "graph.reshape"(%f) : (tensor<32xf32>) -> tensor<4x8xf32>
  %1 = "graph.exp"(%r1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r2 = "graph.reshape"(%u) : (tensor<4x1x8xf32>) -> tensor<4x8xf32>
  %2 = "graph.exp"(%r2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r3 = "graph.reshape"(%x) : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
  %3 = "graph.exp"(%r3) : (tensor<4x2x4xf32>) -> tensor<4x2x4xf32>
  return %0, %1, %2, %3 : tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x2x4xf32>
}

// -----

// A reshape whose groups do not line up (2x6 -> 3x4) splits a linear index.
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 6, (d0 * 4 + d1) mod 6)>
// CHECK-LABEL: func.func @reshape_mixed(
// CHECK: linalg.generic {indexing_maps = [#[[M]], #{{.*}}]
func.func @reshape_mixed(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %r = "graph.reshape"(%x) : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %0 = "graph.exp"(%r) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A view read by a reduction and a matmul: the maps compose there too.
// CHECK-DAG: #[[RT:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @views_into_reductions(
// CHECK: linalg.generic {indexing_maps = [#[[RT]], #{{.*}}], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[KT]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg0 :
func.func @views_into_reductions(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x4xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %0 = "graph.reduce_sum"(%t) {dims = array<i64: 1>, keepdim = false} : (tensor<8x4xf32>) -> tensor<8xf32>
  %1 = "graph.matmul"(%x, %t) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<8xf32>, tensor<4x4xf32>
}

// -----

// A view that is a function result is materialized once by a copy generic
// carrying the view's mnemonic; its graph consumers still read through maps.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @view_result(
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[T]], #{{.*}}]{{.*}} ins(%arg0 : tensor<4x8xf32>){{.*}}braze.ops = ["transpose"]
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[T]], #{{.*}}]{{.*}} ins(%arg0 : tensor<4x8xf32>){{.*}}braze.ops = ["exp"]
// CHECK: return %[[COPY]], %[[COPY]], %{{.*}} :
func.func @view_result(%x: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %0 = "graph.exp"(%t) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t, %t, %0 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// Two chained views both returned: each gets its own copy, reading the base tensor.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[ST:.*]] = affine_map<(d0, d1) -> (d1, d0 + 1)>
// CHECK-LABEL: func.func @returned_chain(
// CHECK-DAG: %[[CT:.*]] = linalg.generic {indexing_maps = [#[[T]], #{{.*}}]{{.*}} ins(%arg0 : tensor<4x8xf32>){{.*}}braze.ops = ["transpose"]
// CHECK-DAG: %[[CS:.*]] = linalg.generic {indexing_maps = [#[[ST]], #{{.*}}]{{.*}} ins(%arg0 : tensor<4x8xf32>){{.*}}braze.ops = ["slice"]
// CHECK: return %[[CT]], %[[CS]] :
func.func @returned_chain(%x: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<2x4xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %s = "graph.slice"(%t) {starts = array<i64: 1, 0>, limits = array<i64: 3, 4>, strides = array<i64: 1, 1>} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  return %t, %s : tensor<8x4xf32>, tensor<2x4xf32>
}

// -----

// window: (b, o, k, c) -> (b, o * stride + k * dilation, c), composed with a reshape
// into a contraction's operand (the implicit GEMM's A: floordiv/mod of the reshape).
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1 * 2 + d2 * 3, d3)>
// CHECK-LABEL: func.func @window(
// CHECK-NOT: graph.
// CHECK: linalg.generic {indexing_maps = [#[[W]], #{{.*}}]{{.*}} ins(%arg0 : tensor<2x9x4xf32>)
func.func @window(%x: tensor<2x9x4xf32>) -> tensor<2x3x2x4xf32> {
  %v = "graph.window"(%x) {kernel = array<i64: 2>, strides = array<i64: 2>, dilations = array<i64: 3>} : (tensor<2x9x4xf32>) -> tensor<2x3x2x4xf32>
  %0 = "graph.neg"(%v) : (tensor<2x3x2x4xf32>) -> tensor<2x3x2x4xf32>
  return %0 : tensor<2x3x2x4xf32>
}
