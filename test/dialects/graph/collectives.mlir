// Collectives on local shapes (docs/dialect-graph.md "Collectives"): every op and
// reduction kind verifies and prints back unchanged; a mesh of two axes groups
// ranks by the named axes (group size = the product of their sizes).
// RUN: braze-opt --cpu=x86-64-v4 %s | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s | braze-opt --cpu=x86-64-v4 | FileCheck %s

// CHECK-LABEL: func.func @tp
// CHECK-SAME: braze.mesh = {{\[\["tp", 2\]\]}}
func.func @tp(%x: tensor<8x32xf32>) -> tensor<8x32xf32> attributes {braze.mesh = [["tp", 2]]} {
  // CHECK: "graph.all_reduce"(%{{.*}}) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %0 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: "graph.all_reduce"{{.*}}reduction = "max"
  %1 = "graph.all_reduce"(%0) {mesh_axes = ["tp"], reduction = "max"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: "graph.all_gather"(%{{.*}}) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x32xf32>) -> tensor<8x64xf32>
  %2 = "graph.all_gather"(%1) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x32xf32>) -> tensor<8x64xf32>
  // CHECK: "graph.reduce_scatter"(%{{.*}}) {dim = 1 : i64, mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x64xf32>) -> tensor<8x32xf32>
  %3 = "graph.reduce_scatter"(%2) {dim = 1 : i64, mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x64xf32>) -> tensor<8x32xf32>
  // CHECK: "graph.all_to_all"(%{{.*}}) {concat_dim = 0 : i64, mesh_axes = ["tp"], split_dim = 1 : i64} : (tensor<8x32xf32>) -> tensor<16x16xf32>
  %4 = "graph.all_to_all"(%3) {concat_dim = 0 : i64, mesh_axes = ["tp"], split_dim = 1 : i64} : (tensor<8x32xf32>) -> tensor<16x16xf32>
  // CHECK: "graph.all_slice"(%{{.*}}) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<16x16xf32>) -> tensor<8x16xf32>
  %5 = "graph.all_slice"(%4) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<16x16xf32>) -> tensor<8x16xf32>
  %6 = "graph.all_gather"(%5) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x16xf32>) -> tensor<8x32xf32>
  return %6 : tensor<8x32xf32>
}

// Two axes: a group over both has 2 x 4 = 8 ranks; integers reduce with max/min/sum.
// CHECK-LABEL: func.func @grid
func.func @grid(%x: tensor<16x4xi32>, %m: tensor<4xi1>) -> (tensor<16x32xi32>, tensor<4xi1>)
    attributes {braze.mesh = [["dp", 2], ["tp", 4]]} {
  // CHECK: "graph.all_gather"{{.*}}mesh_axes = ["dp", "tp"]{{.*}} -> tensor<16x32xi32>
  %0 = "graph.all_gather"(%x) {dim = 1 : i64, mesh_axes = ["dp", "tp"]} : (tensor<16x4xi32>) -> tensor<16x32xi32>
  %1 = "graph.all_reduce"(%0) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<16x32xi32>) -> tensor<16x32xi32>
  // CHECK: "graph.all_reduce"{{.*}}reduction = "min"{{.*}}tensor<4xi1>
  %2 = "graph.all_reduce"(%m) {mesh_axes = ["dp"], reduction = "min"} : (tensor<4xi1>) -> tensor<4xi1>
  return %1, %2 : tensor<16x32xi32>, tensor<4xi1>
}

// Annotations of an unpartitioned function: a sharding per argument/result.
// CHECK-LABEL: func.func @annotated
// CHECK-SAME: braze.sharding = {{\[\[\], \["tp"\]\]}}
func.func @annotated(%x: tensor<8x64xf32>, %w: tensor<64x32xf32> {braze.sharding = [[], ["tp"]]})
    -> (tensor<8x32xf32> {braze.sharding = [[], []]}) attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.matmul"(%x, %w) : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
