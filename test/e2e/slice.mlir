// Strided and offset slices.
// A slice keeping a dim's start but not its end reads it as `d mod E` (linalg wants a
// bare `d` only over a dim of exactly the loop's extent); loop-level IR:
// test/passes/loops/graph-to-loops/slices.mlir.
// RUN: braze check %s --seed 17 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @strided out0 2x3xf32
// CHECK: PASS @offset out0 2x3xf32

func.func @strided(%x: tensor<6x4xf32>) -> tensor<2x3xf32> {
  %0 = "graph.slice"(%x) {starts = array<i64: 1, 0>, limits = array<i64: 5, 3>, strides = array<i64: 2, 1>} : (tensor<6x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @offset(%x: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.slice"(%x) {starts = array<i64: 2, 0>, limits = array<i64: 4, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<2x3xf32>
  %1 = "graph.exp"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
