// A conv's product at loop level (decision 0021): neither operand binds the k loop by a
// bare dim (the columns are reshape(window(padded x)), the weight reshape(transpose(w))),
// so one is copied. graph-to-loops copies the one whose view repeats its base's elements
// the least: the weight (1x), not the columns (9x: the im2col buffer), which stay a
// window view of the zero-padded channels-last input [N, Hp Wp, C] read through
// floordiv/mod. With equal repetition the first operand is copied, as before (the
// heads of views-contraction.mlir).
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops)' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops)' | mlir-opt --verify-each -o /dev/null

// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2 + (d2 floordiv 8) * 2 + (d4 floordiv 96) * 10 + (d4 floordiv 32) mod 3, d4 mod 32)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-LABEL: func.func @conv(
// CHECK: %[[PAD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x100x32xf32>) attrs = {braze.ops = ["select"]
// CHECK: %[[WT:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<16x32x3x3xf32>) outs(%{{.*}} : tensor<1x288x16xf32>) attrs = {braze.ops = ["reshape"]
// CHECK-NOT: tensor<2x1x64x288xf32>
// CHECK: linalg.generic {indexing_maps = [#[[WIN]], #[[W]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[PAD]], %[[WT]] : tensor<2x100x32xf32>, tensor<1x288x16xf32>)
// CHECK-SAME: braze.ops = ["batch_matmul"]
func.func @conv(%x: tensor<2x32x8x8xf32>, %w: tensor<16x32x3x3xf32>) -> tensor<2x16x8x8xf32> {
  %y = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x8x8xf32>, tensor<16x32x3x3xf32>) -> tensor<2x16x8x8xf32>
  return %y : tensor<2x16x8x8xf32>
}
