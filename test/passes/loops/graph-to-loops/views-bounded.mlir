// graph-to-loops composes a consumer's map through views; a reshape's split of a
// linearized index is floordiv/mod, which the loop extents often let split into plain
// terms (support/affine-bounds.h). k's heads out of a [S, B, 3E] projection (S = 5,
// B = 2, E = 32, 4 heads of 8): element (b * 4 + h, s, d) is at [s, b, h * 8 + d + 32];
// the composed map says (d0 * 8 + d2) floordiv 32 and mod 32, and with d2 < 8 these
// are d0 floordiv 4 and (d0 mod 4) * 8 + d2. Where the ranges do not allow it (an
// [8, 3] view of a [3, 8] tensor: d0 * 3 + d1 split by 8) the floordiv/mod stay.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops | FileCheck %s

// CHECK-DAG: #[[HEADS:.*]] = affine_map<(d0, d1, d2) -> (d1, d0 floordiv 4, (d0 mod 4) * 8 + d2 + 32)>
// CHECK-DAG: #[[MIXED:.*]] = affine_map<(d0, d1) -> ((d0 * 3 + d1) floordiv 8, (d0 * 3 + d1) mod 8)>
// CHECK-LABEL: func.func @heads
// CHECK: linalg.generic {indexing_maps = [#[[HEADS]],
func.func @heads(%p: tensor<5x2x96xf32>) -> tensor<8x5x8xf32> {
  %k0 = "graph.slice"(%p) {starts = array<i64: 0, 0, 32>, limits = array<i64: 5, 2, 64>, strides = array<i64: 1, 1, 1>} : (tensor<5x2x96xf32>) -> tensor<5x2x32xf32>
  %k1 = "graph.reshape"(%k0) : (tensor<5x2x32xf32>) -> tensor<5x8x8xf32>
  %k = "graph.transpose"(%k1) {perm = array<i64: 1, 0, 2>} : (tensor<5x8x8xf32>) -> tensor<8x5x8xf32>
  %e = "graph.exp"(%k) : (tensor<8x5x8xf32>) -> tensor<8x5x8xf32>
  return %e : tensor<8x5x8xf32>
}

// CHECK-LABEL: func.func @mixed
// CHECK: linalg.generic {indexing_maps = [#[[MIXED]],
func.func @mixed(%x: tensor<3x8xf32>) -> tensor<8x3xf32> {
  %r = "graph.reshape"(%x) : (tensor<3x8xf32>) -> tensor<8x3xf32>
  %e = "graph.exp"(%r) : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %e : tensor<8x3xf32>
}
