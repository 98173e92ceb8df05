// The collectives' reference semantics on a hand-written per-device program over
// tp=2 (`--mesh=func` runs an already partitioned function as it is): each rank's
// all_slice of a replicated x is its half; all_gather puts the halves back in rank
// order; all_to_all re-splits them by columns and all_gather of those is x again;
// all_reduce sums (or takes the max of) the ranks' halves; reduce_scatter sums the
// ranks' x and keeps one half each, gathered back into 2x. Each output is computed
// a second way from x with local ops, and both print the same values.
// RUN: braze run %s --mesh=func --print 16 | FileCheck %s
// CHECK: simulated on mesh tp=2 (2 devices)
// CHECK-NEXT: out0: tensor<4x4xf32>
// CHECK-NEXT: [[X:\[.*\]]]
// CHECK-NEXT: out1: tensor<4x4xf32>
// CHECK-NEXT: [[X]]
// CHECK-NEXT: out2: tensor<4x4xf32>
// CHECK-NEXT: [[X]]
// CHECK-NEXT: out3: tensor<2x4xf32>
// CHECK-NEXT: [[S:\[.*\]]]
// CHECK-NEXT: out4: tensor<2x4xf32>
// CHECK-NEXT: [[S]]
// CHECK-NEXT: out5: tensor<2x4xf32>
// CHECK-NEXT: [[M:\[.*\]]]
// CHECK-NEXT: out6: tensor<2x4xf32>
// CHECK-NEXT: [[M]]
// CHECK-NEXT: out7: tensor<4x4xf32>
// CHECK-NEXT: [[D:\[.*\]]]
// CHECK-NEXT: out8: tensor<4x4xf32>
// CHECK-NEXT: [[D]]
// A value that differs between ranks returned as replicated is reported:
// RUN: not braze run %s --mesh=func --func rank_dependent 2>&1 | FileCheck %s --check-prefix=REPLICA
// REPLICA: braze run: result 0: rank 1's replica differs from the others in 8 elements
// Outside the simulation, a collective over more than one rank is an error:
// RUN: not braze run %s 2>&1 | FileCheck %s --check-prefix=SINGLE
// SINGLE: semantics.mlir:[[@LINE+5]]:8: error: reference: graph.all_slice: a collective over 2 ranks: evaluate the partitioned function on its mesh

func.func @spmd(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
                                         tensor<2x4xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %h = "graph.all_slice"(%x) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %g = "graph.all_gather"(%h) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %a = "graph.all_to_all"(%h) {concat_dim = 0 : i64, mesh_axes = ["tp"], split_dim = 1 : i64} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %ag = "graph.all_gather"(%a) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<4x2xf32>) -> tensor<4x4xf32>
  %s = "graph.all_reduce"(%h) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %top = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 2, 4>, strides = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %bot = "graph.slice"(%x) {starts = array<i64: 2, 0>, limits = array<i64: 4, 4>, strides = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %s2 = "graph.add"(%top, %bot) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = "graph.all_reduce"(%h) {mesh_axes = ["tp"], reduction = "max"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %m2 = "graph.max"(%top, %bot) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %rs = "graph.reduce_scatter"(%x) {dim = 1 : i64, mesh_axes = ["tp"], reduction = "sum"} : (tensor<4x4xf32>) -> tensor<4x2xf32>
  %d = "graph.all_gather"(%rs) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<4x2xf32>) -> tensor<4x4xf32>
  %d2 = "graph.add"(%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %x, %g, %ag, %s, %s2, %m, %m2, %d, %d2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
                                                 tensor<2x4xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

func.func @rank_dependent(%x: tensor<4x4xf32>) -> tensor<2x4xf32> attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %h = "graph.all_slice"(%x) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<4x4xf32>) -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}
