// rms_norm (decomposed by hand): x * rsqrt(mean(x*x) + eps) * w. The square is
// inlined into the reduction as a prologue; the reduction is realized; the mean's
// scale, the add, rsqrt and both muls become ONE generic reading the reduction.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized | mlir-opt --verify-each -o /dev/null
// With realize-broadcast, the per-row part of the tail (scale, add, rsqrt) is
// realized instead of being recomputed for every element of the row.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized='remarks realize-broadcast' 2>&1 | FileCheck %s --check-prefix=BCAST

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[KEEP:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME: %[[X:.*]]: tensor<16x32xf32>, %[[W:.*]]: tensor<32xf32>)
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEEP]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<16x32xf32>) outs(%[[F]] : tensor<16x1xf32>)
// CHECK-SAME: braze.ops = ["mul", "reduce_mean"]
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[IN]], %[[IN]] : f32
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[SQ]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[ADD]] : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x32xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEEP]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[SUM]], %[[W]] : tensor<16x32xf32>, tensor<16x1xf32>, tensor<32xf32>) outs(%[[E]] : tensor<16x32xf32>)
// CHECK-SAME: braze.ops = ["reduce_mean", "add", "rsqrt", "mul", "mul"]
// CHECK-NEXT: ^bb0(%[[VX:.*]]: f32, %[[VS:.*]]: f32, %[[VW:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[N:.*]] = arith.constant 3.125000e-02 : f32
// CHECK-NEXT: %[[MEAN:.*]] = arith.mulf %[[VS]], %[[N]] : f32
// CHECK-NEXT: %[[EPS:.*]] = arith.constant
// CHECK-NEXT: %[[V:.*]] = arith.addf %[[MEAN]], %[[EPS]] : f32
// CHECK-NEXT: %[[RS:.*]] = math.rsqrt %[[V]] : f32
// CHECK-NEXT: %[[XN:.*]] = arith.mulf %[[VX]], %[[RS]] : f32
// CHECK-NEXT: %[[OUT:.*]] = arith.mulf %[[XN]], %[[VW]] : f32
// CHECK-NEXT: linalg.yield %[[OUT]] : f32
// CHECK: return %[[Y]]
// CHECK-NOT: linalg.generic
func.func @rms_norm(%x: tensor<16x32xf32>, %w: tensor<32xf32>) -> tensor<16x32xf32> {
  // expected-remark@+1 {{inlined into 1 consumer}}
  %0 = "graph.mul"(%x, %x) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  // expected-remark@+2 {{realized: reduction}}
  // expected-remark@+1 {{inlined into 1 consumer}}
  %1 = "graph.reduce_mean"(%0) {dims = array<i64: 1>, keepdim = true} : (tensor<16x32xf32>) -> tensor<16x1xf32>
  %eps = "graph.constant"() {value = dense<1.0e-06> : tensor<f32>} : () -> tensor<f32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %2 = "graph.add"(%1, %eps) : (tensor<16x1xf32>, tensor<f32>) -> tensor<16x1xf32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %3 = "graph.rsqrt"(%2) : (tensor<16x1xf32>) -> tensor<16x1xf32>
  // expected-remark@+1 {{inlined into 1 consumer}}
  %4 = "graph.mul"(%x, %3) : (tensor<16x32xf32>, tensor<16x1xf32>) -> tensor<16x32xf32>
  // expected-remark@+1 {{realized: function result}}
  %5 = "graph.mul"(%4, %w) : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  return %5 : tensor<16x32xf32>
}

// BCAST: rms-norm.mlir:49:8: remark: realized: broadcast into a larger consumer (realize-broadcast)
// BCAST: %[[SUM:.*]] = linalg.generic {{.*}}braze.ops = ["mul", "reduce_mean"]
// BCAST: %[[ROW:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<16x1xf32>) outs(%{{.*}} : tensor<16x1xf32>) attrs = {braze.ops = ["reduce_mean", "add", "rsqrt"]}
// BCAST: linalg.generic {{.*}} ins(%arg0, %[[ROW]], %arg1 : {{.*}}braze.ops = ["mul", "mul"]
