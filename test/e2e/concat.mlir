// concat of different sizes along dims 0 and 1, of a transposed input, chains of 3
// (graph.concat is binary; a chain of single-use concats lowers to one tensor.empty).
// RUN: braze check %s --seed 19 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @concat out0 7x40xf32
// CHECK: PASS @concat_equal out0 7x40xf32
// CHECK: PASS @concat_dim0 out0 12x5xf32
// CHECK: PASS @concat_transposed out0 9x4xf32
// CHECK: PASS @chain3 out0 6x13xf32
// CHECK: PASS @chain3_dim0_then_add out0 10x3xf32
// CHECK: PASS @mixed_dims out0 5x7xf32

func.func @concat(%a: tensor<7x37xf32>, %b: tensor<7x3xf32>) -> tensor<7x40xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 1 : i64} : (tensor<7x37xf32>, tensor<7x3xf32>) -> tensor<7x40xf32>
  return %0 : tensor<7x40xf32>
}

func.func @concat_equal(%a: tensor<7x20xf32>, %b: tensor<7x20xf32>) -> tensor<7x40xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 1 : i64} : (tensor<7x20xf32>, tensor<7x20xf32>) -> tensor<7x40xf32>
  return %0 : tensor<7x40xf32>
}

func.func @concat_dim0(%a: tensor<9x5xf32>, %b: tensor<3x5xf32>) -> tensor<12x5xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 0 : i64} : (tensor<9x5xf32>, tensor<3x5xf32>) -> tensor<12x5xf32>
  return %0 : tensor<12x5xf32>
}

func.func @concat_transposed(%a: tensor<3x9xf32>, %b: tensor<9x1xf32>) -> tensor<9x4xf32> {
  %t = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<3x9xf32>) -> tensor<9x3xf32>
  %0 = "graph.concat"(%t, %b) {dim = 1 : i64} : (tensor<9x3xf32>, tensor<9x1xf32>) -> tensor<9x4xf32>
  return %0 : tensor<9x4xf32>
}

func.func @chain3(%a: tensor<6x2xf32>, %b: tensor<6x5xf32>, %c: tensor<6x6xf32>) -> tensor<6x13xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 1 : i64} : (tensor<6x2xf32>, tensor<6x5xf32>) -> tensor<6x7xf32>
  %1 = "graph.concat"(%0, %c) {dim = 1 : i64} : (tensor<6x7xf32>, tensor<6x6xf32>) -> tensor<6x13xf32>
  return %1 : tensor<6x13xf32>
}

func.func @chain3_dim0_then_add(%a: tensor<4x3xf32>, %b: tensor<1x3xf32>, %c: tensor<5x3xf32>, %d: tensor<10x3xf32>) -> tensor<10x3xf32> {
  %n = "graph.neg"(%b) : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %0 = "graph.concat"(%a, %n) {dim = 0 : i64} : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<5x3xf32>
  %1 = "graph.concat"(%0, %c) {dim = 0 : i64} : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<10x3xf32>
  %2 = "graph.add"(%1, %d) : (tensor<10x3xf32>, tensor<10x3xf32>) -> tensor<10x3xf32>
  return %2 : tensor<10x3xf32>
}

// Inner concat along dim 0, outer along dim 1: not one chain (two tensor.empty).
func.func @mixed_dims(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<5x3xf32>) -> tensor<5x7xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 0 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
  %1 = "graph.concat"(%0, %c) {dim = 1 : i64} : (tensor<5x4xf32>, tensor<5x3xf32>) -> tensor<5x7xf32>
  return %1 : tensor<5x7xf32>
}
