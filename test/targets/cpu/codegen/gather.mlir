// Indexed reads: a gather's tensor.extract of a kernel argument becomes a memref.load
// at the computed index (the index loaded once per row, wrapped and clamped, cast to
// index), next to the ordinary loads of its fused producer's and consumers' inputs.
// A tensor.extract of a tensor computed in the same kernel is refused: gather-errors.mlir.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(func.func(graph-to-loops,inline-unrealized),form-kernels,cpu-codegen{align-peel=false})' | FileCheck %s

// CHECK-LABEL: func.func private @cpu_poi_fused_tanh_gather_mul_add_0(
// CHECK-SAME: %[[IDS:.*]]: memref<4x6xi64>, %[[SCALE:.*]]: memref<16xf32>, %[[POS:.*]]: memref<6x16xf32>, %[[TABLE:.*]]: memref<50x16xf32>, %[[OUT:.*]]: memref<4x6x16xf32>)
// CHECK: scf.parallel (%[[B:.*]], %[[T:.*]]) = (%c0, %c0) to (%c4, %c6) step (%c1, %c1) {
// CHECK-NEXT: %[[I:.*]] = memref.load %[[IDS]][%[[B]], %[[T]]] : memref<4x6xi64>
// CHECK-NEXT: scf.for %[[C:.*]] = %c0 to %c16 step %c1 {
// CHECK: arith.cmpi slt, %[[I]]
// CHECK: arith.minsi
// CHECK: %[[LO:.*]] = arith.maxsi
// CHECK-NEXT: %[[ROW:.*]] = arith.index_cast %[[LO]] : i64 to index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[TABLE]][%[[ROW]], %[[C]]] : memref<50x16xf32>
// CHECK-NEXT: math.tanh %[[V]]
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[B]], %[[T]], %[[C]]] : memref<4x6x16xf32>
func.func @embedding(%table: tensor<50x16xf32>, %ids: tensor<4x6xi64>, %scale: tensor<16xf32>, %pos: tensor<6x16xf32>) -> tensor<4x6x16xf32> {
  %t = "graph.tanh"(%table) : (tensor<50x16xf32>) -> tensor<50x16xf32>
  %e = "graph.gather"(%t, %ids) {axis = 0 : i64} : (tensor<50x16xf32>, tensor<4x6xi64>) -> tensor<4x6x16xf32>
  %s = "graph.mul"(%e, %scale) : (tensor<4x6x16xf32>, tensor<16xf32>) -> tensor<4x6x16xf32>
  %r = "graph.add"(%s, %pos) : (tensor<4x6x16xf32>, tensor<6x16xf32>) -> tensor<4x6x16xf32>
  return %r : tensor<4x6x16xf32>
}
