// matmul/batch_matmul: contraction generics (parallel..., reduction) with a mulf+addf
// body into a fill of 0; batch dims broadcast through the maps.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>) attrs = {braze.ops = ["matmul"]}
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// Batch dims: a's batch dim 1 stretches to 3; a rank-2 b has no batch dims.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG: #[[B2:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[A1:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-LABEL: func.func @batch_matmul(
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: braze.ops = ["batch_matmul"]
// CHECK: linalg.generic {indexing_maps = [#[[A1]], #[[B2]], #[[C]]]
func.func @batch_matmul(%a: tensor<2x1x4x8xf32>, %b: tensor<2x3x8x16xf32>, %w: tensor<8x16xf32>) -> (tensor<2x3x4x16xf32>, tensor<2x1x4x16xf32>) {
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x1x4x8xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x4x16xf32>
  %1 = "graph.batch_matmul"(%a, %w) : (tensor<2x1x4x8xf32>, tensor<8x16xf32>) -> tensor<2x1x4x16xf32>
  return %0, %1 : tensor<2x3x4x16xf32>, tensor<2x1x4x16xf32>
}

// -----

// f16 contractions accumulate in f32, then one generic truncates the result.
// CHECK-LABEL: func.func @matmul_f16(
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>) attrs = {braze.ops = ["matmul"]}
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[A:.*]]: f32):
// CHECK-NEXT: %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[YE:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XE]], %[[YE]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[A]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[ACC]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<4x16xf16>) attrs = {braze.ops = ["matmul"]}
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @matmul_f16(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) -> tensor<4x16xf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}
