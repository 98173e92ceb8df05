// A generic whose body reads its outs operand (a real tensor, not a fill): the
// element is loaded at the output index; a reduction accumulates onto it.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen | FileCheck %s

// CHECK-LABEL: func.func private @k
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[INIT:.*]]: memref<4xf32>, %[[BIAS:.*]]: memref<4x8xf32>, %[[S:.*]]: memref<4xf32>, %[[Y:.*]]: memref<4x8xf32>)
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c4) step (%c1) {
// CHECK-NEXT: %[[I0:.*]] = memref.load %[[INIT]][%[[I]]] : memref<4xf32>
// CHECK-NEXT: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[I0]]) -> (f32)
// CHECK: memref.store %[[R]], %[[S]][%[[I]]] : memref<4xf32>
// CHECK: scf.for %[[J:.*]] = %c0 to %c8 step %c1 {
// CHECK-NEXT: %[[XV:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[BV:.*]] = memref.load %[[BIAS]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[XV]], %[[BV]] : f32
// CHECK-NEXT: memref.store %[[SUM]], %[[Y]][%[[I]], %[[J]]]
func.func private @k(%x: tensor<4x8xf32>, %init: tensor<4xf32>, %bias: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) attributes {kernel.kind = "red"} {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%bias : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s, %y : tensor<4xf32>, tensor<4x8xf32>
}
