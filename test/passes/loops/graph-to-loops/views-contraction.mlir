// Contractions reading views at loop level. The k loop must be a bare dim of some
// operand (linalg takes its extent there): q and k of an attention head split read k
// through `d0 * 8 + d3` only, so q is copied by a generic over its view shape and the
// contraction reads the copy plainly. A transposed operand keeps its transposed map
// (matmul(x, transpose(W)) reads W[n, k] as (d1, d2)). Numerics:
// test/e2e/views-contraction.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %braze_src/test/e2e/views-contraction.mlir --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %braze_src/test/e2e/views-contraction.mlir --graph-to-loops | mlir-opt --verify-each -o /dev/null
// RUN: braze-opt --cpu=x86-64-v4 %braze_src/test/e2e/views-contraction.mlir --graph-to-loops --inline-unrealized | mlir-opt --verify-each -o /dev/null

// CHECK-DAG: #[[QV:.*]] = affine_map<(d0, d1, d2) -> (d1, d0 * 8 + d2)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[A4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[K4:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d0 * 8 + d3 + 16)>
// CHECK-DAG: #[[O4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[AS:.*]] = affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>
// CHECK-DAG: #[[BS:.*]] = affine_map<(d0, d1, d2) -> (d2 * 2, d1 mod 4)>

// CHECK-LABEL: func.func @heads(
// CHECK: %[[Q:.*]] = linalg.generic {indexing_maps = [#[[QV]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x48xf32>) outs(%{{.*}} : tensor<2x8x8xf32>)
// CHECK-SAME: braze.ops = ["transpose"]
// CHECK: linalg.generic {indexing_maps = [#[[A4]], #[[K4]], #[[O4]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[Q]], %arg0 : tensor<2x8x8xf32>, tensor<8x48xf32>)
// CHECK-SAME: braze.ops = ["batch_matmul"]

// CHECK-LABEL: func.func @transposed_b(
// CHECK-NOT: braze.ops = ["transpose"]
// CHECK: linalg.generic {indexing_maps = [#[[MK]], #[[NK]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<5x7xf32>, tensor<6x7xf32>)

// CHECK-LABEL: func.func @transposed_a(
// CHECK-NOT: braze.ops = ["transpose"]
// CHECK: linalg.generic {indexing_maps = [#[[KM]], #[[KN]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<9x4xf32>, tensor<9x6xf32>)

// CHECK-LABEL: func.func @strided_k(
// CHECK: %[[A:.*]] = linalg.generic {indexing_maps = [#[[AS]], #{{.*}}]{{.*}} ins(%arg0 : tensor<3x10xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK-SAME: braze.ops = ["slice"]
// CHECK: linalg.generic {indexing_maps = [#[[MK]], #[[BS]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %arg1 : tensor<3x5xf32>, tensor<10x7xf32>)
// CHECK-SAME: braze.ops = ["matmul"]
