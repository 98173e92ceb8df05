// layer_norm, rms_norm and batch_norm expand to primitive sequences with eps as a
// rank-0 constant of the element type. layer_norm's mean is corrected: m + mean(x - m)
// (test/fuzz/layer-norm-constant-row.test shows why).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose | FileCheck %s

// CHECK-LABEL: func.func @layer_norm
// CHECK-NEXT: %[[ROUGH:.*]] = "graph.reduce_mean"(%arg0) {dims = array<i64: 1, 2>, keepdim = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[D1:.*]] = "graph.sub"(%arg0, %[[ROUGH]]) : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[ERR:.*]] = "graph.reduce_mean"(%[[D1]]) {dims = array<i64: 1, 2>, keepdim = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[MEAN:.*]] = "graph.add"(%[[ROUGH]], %[[ERR]]) : (tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[D:.*]] = "graph.sub"(%arg0, %[[MEAN]]) : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[SQ:.*]] = "graph.mul"(%[[D]], %[[D]]) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[VAR:.*]] = "graph.reduce_mean"(%[[SQ]]) {dims = array<i64: 1, 2>, keepdim = true} : (tensor<2x4x8xf32>) -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[EPS:.*]] = "graph.constant"() {value = dense<9.99999974E-6> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[VE:.*]] = "graph.add"(%[[VAR]], %[[EPS]]) : (tensor<2x1x1xf32>, tensor<f32>) -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[RS:.*]] = "graph.rsqrt"(%[[VE]]) : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK-NEXT: %[[N:.*]] = "graph.mul"(%[[D]], %[[RS]]) : (tensor<2x4x8xf32>, tensor<2x1x1xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[NW:.*]] = "graph.mul"(%[[N]], %arg1) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.add"(%[[NW]], %arg2) : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @layer_norm(%x: tensor<2x4x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 1.0e-05 : f32} : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// The eps constant takes the input's element type (0.1 rounds to 0.100098 in bf16).
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK: "graph.constant"() {value = dense<1.000980e-01> : tensor<bf16>} : () -> tensor<bf16>
func.func @layer_norm_bf16(%x: tensor<3x8xbf16>, %w: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<3x8xbf16> {
  %0 = "graph.layer_norm"(%x, %w, %b) {axis = 1 : i64, eps = 0.1 : f32} : (tensor<3x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<3x8xbf16>
  return %0 : tensor<3x8xbf16>
}

// CHECK-LABEL: func.func @rms_norm
// CHECK-NEXT: %[[SQ:.*]] = "graph.mul"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[MS:.*]] = "graph.reduce_mean"(%[[SQ]]) {dims = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[EPS:.*]] = "graph.constant"() {value = dense<9.99999997E-7> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[MS]], %[[EPS]]) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[RS:.*]] = "graph.rsqrt"(%[[A]]) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[N:.*]] = "graph.mul"(%arg0, %[[RS]]) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.mul"(%[[N]], %arg1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @rms_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.rms_norm"(%x, %w) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// batch_norm: each [C] parameter is reshaped to [1, C, 1, ...] first.
// CHECK-LABEL: func.func @batch_norm
// CHECK-NEXT: %[[S:.*]] = "graph.reshape"(%arg1) : (tensor<3xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[B:.*]] = "graph.reshape"(%arg2) : (tensor<3xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[M:.*]] = "graph.reshape"(%arg3) : (tensor<3xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[V:.*]] = "graph.reshape"(%arg4) : (tensor<3xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[D:.*]] = "graph.sub"(%arg0, %[[M]]) : (tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT: %[[EPS:.*]] = "graph.constant"() {value = dense<1.000000e-03> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[VE:.*]] = "graph.add"(%[[V]], %[[EPS]]) : (tensor<1x3x1x1xf32>, tensor<f32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[RS:.*]] = "graph.rsqrt"(%[[VE]]) : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[N:.*]] = "graph.mul"(%[[D]], %[[RS]]) : (tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT: %[[NS:.*]] = "graph.mul"(%[[N]], %[[S]]) : (tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.add"(%[[NS]], %[[B]]) : (tensor<2x3x4x5xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @batch_norm(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {eps = 1.0e-03 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// Rank-2 input: the parameters become [1, C].
// CHECK-LABEL: func.func @batch_norm_rank2
// CHECK-NEXT: "graph.reshape"(%arg1) : (tensor<6xf32>) -> tensor<1x6xf32>
// CHECK: "graph.sub"(%arg0, %{{.*}}) : (tensor<5x6xf32>, tensor<1x6xf32>) -> tensor<5x6xf32>
func.func @batch_norm_rank2(%x: tensor<5x6xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>, %m: tensor<6xf32>, %v: tensor<6xf32>) -> tensor<5x6xf32> {
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {eps = 1.0e-05 : f32} : (tensor<5x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
