// A producer read through a window whose taps overlap: inlined, its body would run
// once per read. Read more than reads-threshold (4) times over on average (the
// consumer's largest operand over the producer's elements), it is realized: a relu
// read by a 4x4 stride-1 window (7.84 times over). A 2x2 stride-2 window reads each
// element once (inlined), a 3x3 stride-2 window 1.78 times (inlined). Unit loops (the
// reshape's group dim of size 1) are no broadcast.
// RUN: braze-opt --cpu=x86-64-v4 %s --split-input-file --graph-to-loops --inline-unrealized=remarks --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @overlapping(
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x10x10x4xf32>) {{.*}}braze.ops = ["relu"]
// CHECK: linalg.generic {{.*}} ins(%[[R]] : tensor<1x10x10x4xf32>) {{.*}}braze.ops = ["exp"]
func.func @overlapping(%x: tensor<1x10x10x4xf32>) -> tensor<1x1x49x64xf32> {
  // expected-remark @+1 {{realized: each element read 7.84 times over (a window) > reads-threshold=4}}
  %r = "graph.relu"(%x) : (tensor<1x10x10x4xf32>) -> tensor<1x10x10x4xf32>
  %w = "graph.window"(%r) {kernel = array<i64: 4, 4>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x10x10x4xf32>) -> tensor<1x7x7x4x4x4xf32>
  %c = "graph.reshape"(%w) : (tensor<1x7x7x4x4x4xf32>) -> tensor<1x1x49x64xf32>
  // expected-remark @+1 {{realized: function result}}
  %e = "graph.exp"(%c) : (tensor<1x1x49x64xf32>) -> tensor<1x1x49x64xf32>
  return %e : tensor<1x1x49x64xf32>
}

// -----

// CHECK-LABEL: func.func @disjoint(
// CHECK-NOT: braze.ops = ["relu"]
// CHECK: braze.ops = ["relu", "exp"]
func.func @disjoint(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x2x2x4xf32> {
  // expected-remark @+1 {{inlined into 1 consumer}}
  %r = "graph.relu"(%x) : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %w = "graph.window"(%r) {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x2x2x4xf32>
  // expected-remark @+1 {{realized: function result}}
  %e = "graph.exp"(%w) : (tensor<1x4x4x2x2x4xf32>) -> tensor<1x4x4x2x2x4xf32>
  return %e : tensor<1x4x4x2x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @pool_like(
// CHECK: braze.ops = ["relu", "exp"]
func.func @pool_like(%x: tensor<1x9x9x4xf32>) -> tensor<1x4x4x3x3x4xf32> {
  // expected-remark @+1 {{inlined into 1 consumer}}
  %r = "graph.relu"(%x) : (tensor<1x9x9x4xf32>) -> tensor<1x9x9x4xf32>
  %w = "graph.window"(%r) {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>} : (tensor<1x9x9x4xf32>) -> tensor<1x4x4x3x3x4xf32>
  // expected-remark @+1 {{realized: function result}}
  %e = "graph.exp"(%w) : (tensor<1x4x4x3x3x4xf32>) -> tensor<1x4x4x3x3x4xf32>
  return %e : tensor<1x4x4x3x3x4xf32>
}
