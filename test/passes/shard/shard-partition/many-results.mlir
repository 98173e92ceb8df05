// A func.return with more operands than a graph op has (10 here): each result is
// resharded on its own (found by test/tools/mesh/differential.test: the plan once
// kept operand shardings in fixed arrays of 8).
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition | FileCheck %s
// RUN: braze check %s --mesh=func | FileCheck %s --check-prefix=SIM
// CHECK-COUNT-10: "graph.all_gather"(%{{.*}}) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return
// SIM-COUNT-10: PASS
// SIM: check passed
func.func @ten(%x: tensor<4x3xf32> {braze.sharding = [["tp"], []]}) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>,
    tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
    attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.neg"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = "graph.exp"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = "graph.abs"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = "graph.tanh"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %4 = "graph.relu"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = "graph.sigmoid"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %6 = "graph.sin"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %7 = "graph.cos"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %8 = "graph.erf"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %9 = "graph.mul"(%x, %x) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>,
    tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}
