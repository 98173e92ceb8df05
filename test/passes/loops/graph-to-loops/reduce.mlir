// Reductions: a generic with reduction iterators for the reduced dims, writing into
// a linalg.fill of the identity over a tensor.empty; keepdim sends reduced dims to 0.
// reduce_mean is a sum generic plus a scale generic (multiply by 1/n).
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops | mlir-opt --split-input-file --verify-each -o /dev/null

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[DROP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[KEEP:.*]] = affine_map<(d0, d1, d2) -> (0, d1, 0)>
// CHECK-LABEL: func.func @sum_max(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>)
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[ID]], #[[DROP]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%arg0 : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2x4xf32>) attrs = {braze.ops = ["reduce_sum"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x3x1xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E2]] : tensor<1x3x1xf32>)
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[ID]], #[[KEEP]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK-SAME: braze.ops = ["reduce_max"]
// CHECK: arith.maximumf
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: braze.ops = ["reduce_min"]
// CHECK: arith.minimumf
func.func @sum_max(%x: tensor<2x3x4xf32>) -> (tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<3xf32>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 0, 2>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %2 = "graph.reduce_min"(%x) {dims = array<i64: 2, 0>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<3xf32>
}

// -----

// Reducing every dim without keepdim gives rank 0: the output map has no results.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[SC:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @mean_all(
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[ALL]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<f32>) attrs = {braze.ops = ["reduce_mean"]}
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[SC]], #[[SC]]], iterator_types = []} ins(%[[SUM]] : tensor<f32>)
// CHECK-SAME: braze.ops = ["reduce_mean"]
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-NEXT: arith.mulf %[[S]], %[[R]] : f32
func.func @mean_all(%x: tensor<2x4xf32>) -> tensor<f32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 0, 1>, keepdim = false} : (tensor<2x4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// keepdim mean: the scale generic runs over the kept shape.
// CHECK-LABEL: func.func @mean_keepdim(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}}outs(%{{.*}} : tensor<4x1xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]{{.*}}outs(%{{.*}} : tensor<4x1xf32>)
// CHECK: arith.constant 6.250000e-02 : f32
func.func @mean_keepdim(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %0 = "graph.reduce_mean"(%x) {dims = array<i64: 1>, keepdim = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// Integer reductions: addi, and the smallest/largest integer as identities.
// CHECK-LABEL: func.func @integer(
// CHECK: arith.constant 0 : i32
// CHECK: arith.addi
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
// CHECK: arith.constant 9223372036854775807 : i64
// CHECK: arith.minsi
func.func @integer(%x: tensor<4x8xi32>, %y: tensor<4x8xi64>) -> (tensor<4xi32>, tensor<4xi32>, tensor<8xi64>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xi32>) -> tensor<4xi32>
  %1 = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xi32>) -> tensor<4xi32>
  %2 = "graph.reduce_min"(%y) {dims = array<i64: 0>, keepdim = false} : (tensor<4x8xi64>) -> tensor<8xi64>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<8xi64>
}

// -----

// f16/bf16 sums accumulate in f32: the reduction extends each element and writes
// an f32 tensor; one all-parallel generic scales (mean) and truncates it.
// max/min are exact in the element type and need no accumulator.
// CHECK-LABEL: func.func @low_precision(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: %[[S:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf16>) outs(%[[F]] : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[X:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[A]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>) attrs = {braze.ops = ["reduce_sum"]}
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: outs(%{{.*}} : tensor<4xf32>) attrs = {braze.ops = ["reduce_mean"]}
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: outs(%{{.*}} : tensor<4xbf16>) attrs = {braze.ops = ["reduce_mean"]}
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[N:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[V]], %[[N]] : f32
// CHECK-NEXT: arith.truncf %[[M]] : f32 to bf16
// CHECK: outs(%{{.*}} : tensor<4xf16>) attrs = {braze.ops = ["reduce_max"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT: arith.maximumf %[[IN]], %[[ACC]] : f16
// CHECK: return
func.func @low_precision(%x: tensor<4x8xf16>, %y: tensor<4x8xbf16>) -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf16>) {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf16>) -> tensor<4xf16>
  %1 = "graph.reduce_mean"(%y) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xbf16>) -> tensor<4xbf16>
  %2 = "graph.reduce_max"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<4x8xf16>) -> tensor<4xf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xbf16>, tensor<4xf16>
}
