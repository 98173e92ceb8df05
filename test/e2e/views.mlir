// Shape ops (views at loop level: composed into their consumers' indexing maps) and
// constants (concat: xfail-concat.mlir), compiled for the CPU vs the reference.
// RUN: braze check %s --seed 13 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @transpose_add out0 37x1000xf32
// CHECK: PASS @bcast_reshape out1 37x7x1xf32
// CHECK: PASS @constant_mul out0 7x5x4xf32
// CHECK: PASS @view_result out0 37x7xf32
// CHECK: check passed

func.func @transpose_add(%x: tensor<1000x37xf32>, %b: tensor<1000xf32>) -> tensor<37x1000xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<1000x37xf32>) -> tensor<37x1000xf32>
  %0 = "graph.add"(%t, %b) : (tensor<37x1000xf32>, tensor<1000xf32>) -> tensor<37x1000xf32>
  return %0 : tensor<37x1000xf32>
}

func.func @bcast_reshape(%x: tensor<7x37xf32>, %r: tensor<37x1xf32>) -> (tensor<3x7x37xf32>, tensor<37x7x1xf32>) {
  %b = "graph.broadcast_to"(%x) : (tensor<7x37xf32>) -> tensor<3x7x37xf32>
  %0 = "graph.exp"(%b) : (tensor<3x7x37xf32>) -> tensor<3x7x37xf32>
  %s = "graph.reshape"(%x) : (tensor<7x37xf32>) -> tensor<37x7x1xf32>
  %1 = "graph.mul"(%s, %s) : (tensor<37x7x1xf32>, tensor<37x7x1xf32>) -> tensor<37x7x1xf32>
  return %0, %1 : tensor<3x7x37xf32>, tensor<37x7x1xf32>
}

func.func @constant_mul(%b: tensor<7x20xf32>) -> tensor<7x5x4xf32> {
  %c = "graph.constant"() {value = dense<[1.0, -2.0, 0.5, 3.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "graph.reshape"(%b) : (tensor<7x20xf32>) -> tensor<7x5x4xf32>
  %m = "graph.mul"(%r, %c) : (tensor<7x5x4xf32>, tensor<4xf32>) -> tensor<7x5x4xf32>
  return %m : tensor<7x5x4xf32>
}

// A view that is itself a result is materialized by a copy.
func.func @view_result(%x: tensor<7x37xf32>) -> tensor<37x7xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<7x37xf32>) -> tensor<37x7xf32>
  return %t : tensor<37x7xf32>
}
