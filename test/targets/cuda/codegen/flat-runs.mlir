// cuda-codegen's flat runs (targets/cuda/codegen/flat-runs.c): a vectorized element
// kernel reads an argument through a map that does not walk its last dim, yet each
// aligned group of lanes reads consecutive elements (a conv's columns over a
// channels-last input: one window row of KW x C elements). Each group then computes one
// linear position and loads its lanes as one vector from the argument viewed flat
// (memref.collapse_shape), aligned to an element, instead of one position (with its
// floordivs and mods) per lane. The check evaluates the map: the address terms that
// read the innermost dim alone over its extent, or the whole domain when a term mixes
// it with other dims. Reads whose lanes are not consecutive keep the per-lane loads.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s
// RUN: braze check %s --rtol 1e-2

// A window of 1 x 8 taps over 3 channels: k = kw 3 + c, 24 consecutive elements per
// output position, eight lanes a group (bf16 only: twice the f32 lanes; address terms
// of k alone: checked over k).
// CHECK-LABEL: gpu.func @cuda_poi_fused_exp_0(
// CHECK-SAME: %[[X:.*]]: memref<2x10x10x3xbf16>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[X]] {{\[}}[0, 1, 2, 3]] : memref<2x10x10x3xbf16> into memref<600xbf16>
// CHECK: vector.load %[[FLAT]][%{{.*}}] {alignment = 2 : i64} : memref<600xbf16>, vector<8xbf16>
// CHECK-NOT: memref.load
// CHECK: gpu.return
func.func @window_columns(%x: tensor<2x10x10x3xbf16>) -> tensor<2x12x24xbf16> {
  %w = "graph.window"(%x) {kernel = array<i64: 1, 8>, strides = array<i64: 3, 1>, dilations = array<i64: 1, 1>} : (tensor<2x10x10x3xbf16>) -> tensor<2x4x3x1x8x3xbf16>
  %c = "graph.reshape"(%w) : (tensor<2x4x3x1x8x3xbf16>) -> tensor<2x12x24xbf16>
  %e = "graph.exp"(%c) : (tensor<2x12x24xbf16>) -> tensor<2x12x24xbf16>
  return %e : tensor<2x12x24xbf16>
}

// A reshape that merges the batch into the rows: the row index and the column mix in
// one floordiv, so every point of the domain is evaluated; consecutive all the same.
// CHECK-LABEL: gpu.func @cuda_poi_fused_exp_1(
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : memref<2x6x4xf32> into memref<48xf32>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<48xf32>, vector<4xf32>
// CHECK: gpu.return
func.func @merged_rows(%x: tensor<2x6x4xf32>) -> tensor<3x16xf32> {
  %r = "graph.reshape"(%x) : (tensor<2x6x4xf32>) -> tensor<3x16xf32>
  %e = "graph.exp"(%r) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  return %e : tensor<3x16xf32>
}

// Not consecutive: lanes along a transposed dim step by 6 elements; and a reshape of
// a transposed tensor, whose lanes step by 6 within a row (the whole domain refutes it).
// CHECK-LABEL: gpu.func @cuda_poi_fused_exp_2(
// CHECK-NOT: collapse_shape
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @cuda_poi_fused_exp_3(
// CHECK-NOT: collapse_shape
// CHECK: gpu.return
func.func @strided(%x: tensor<2x4x6xf32>) -> (tensor<2x6x4xf32>, tensor<3x16xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<2x4x6xf32>) -> tensor<2x6x4xf32>
  %e = "graph.exp"(%t) : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %r = "graph.reshape"(%t) : (tensor<2x6x4xf32>) -> tensor<3x16xf32>
  %f = "graph.exp"(%r) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  return %e, %f : tensor<2x6x4xf32>, tensor<3x16xf32>
}
