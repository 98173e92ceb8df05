// shard-partition inserts each kind of collective where a producer's sharding
// differs from what its consumer wants: all_slice (a replicated bias for a split
// add), all_gather (after an op overridden to replicated), reduce_scatter (a partial
// sum into a split result), all_to_all (a split moving to another dim), an
// all_reduce over one axis of a 2-D mesh then a gather over the other; a slice's
// limits on a split dim become local.
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition | braze-opt --cpu=x86-64-v4 --graph-verify -o /dev/null

// CHECK-LABEL: func.func @reshards(%arg0: tensor<8x32xf32> {braze.sharding = {{\[\[\],\ \["tp"\]\]}}}, %arg1: tensor<64xf32>, %arg2: tensor<32x16xf32> {braze.sharding = {{\[\["tp"\],\ \[\]\]}}}) -> (tensor<4x16xf32> {braze.sharding = {{\[\["tp"\],\ \[\]\]}}}, tensor<4x64xf32> {braze.sharding = {{\[\["tp"\],\ \[\]\]}}}, tensor<8x32xf32>) attributes {braze.mesh = {{\[\["tp",\ 2\]\]}}, braze.partitioned} {
// CHECK-NEXT: %0 = "graph.all_slice"(%arg1) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<64xf32>) -> tensor<32xf32>
// CHECK-NEXT: %1 = "graph.add"(%arg0, %0) : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %2 = "graph.matmul"(%1, %arg2) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %3 = "graph.exp"(%arg0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %4 = "graph.all_gather"(%3) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x32xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %5 = "graph.slice"(%4) {limits = array<i64: 8, 32>, starts = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<8x64xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %6 = "graph.slice"(%arg0) {limits = array<i64: 4, 32>, starts = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<8x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: %7 = "graph.reduce_sum"(%6) {dims = array<i64: 0>, keepdim = false} : (tensor<4x32xf32>) -> tensor<32xf32>
// CHECK-NEXT: %8 = "graph.add"(%5, %5) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %9 = "graph.reduce_scatter"(%2) {dim = 0 : i64, mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %10 = "graph.all_to_all"(%arg0) {concat_dim = 1 : i64, mesh_axes = ["tp"], split_dim = 0 : i64} : (tensor<8x32xf32>) -> tensor<4x64xf32>
// CHECK-NEXT: return %9, %10, %8 : tensor<4x16xf32>, tensor<4x64xf32>, tensor<8x32xf32>
// CHECK-LABEL: func.func @grid(%arg0: tensor<4x16xf32> {braze.sharding = {{\[\["dp"\],\ \[\]\]}}}, %arg1: tensor<16x16xf32> {braze.sharding = {{\[\[\],\ \["tp"\]\]}}}) -> (tensor<4x16xf32> {braze.sharding = {{\[\["dp"\],\ \["tp"\]\]}}}, tensor<32xf32>) attributes {braze.mesh = {{\[\["dp",\ 2\],\ \["tp",\ 2\]\]}}, braze.partitioned} {
// CHECK-NEXT: %0 = "graph.matmul"(%arg0, %arg1) : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %1 = "graph.reduce_sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<4x16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %2 = "graph.all_reduce"(%1) {mesh_axes = ["dp"], reduction = "sum"} : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %3 = "graph.all_gather"(%2) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<16xf32>) -> tensor<32xf32>
// CHECK-NEXT: return %0, %3 : tensor<4x16xf32>, tensor<32xf32>

func.func @reshards(%x: tensor<8x64xf32> {braze.sharding = [[], ["tp"]]}, %b: tensor<64xf32>,
                    %w: tensor<64x16xf32> {braze.sharding = [["tp"], []]})
    -> (tensor<8x16xf32> {braze.sharding = [["tp"], []]}, tensor<8x64xf32> {braze.sharding = [["tp"], []]}, tensor<8x32xf32>)
    attributes {braze.mesh = [["tp", 2]]} {
  %0 = "graph.add"(%x, %b) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %1 = "graph.matmul"(%0, %w) : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %2 = "graph.exp"(%x) {braze.sharding = [[], []]} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %3 = "graph.slice"(%2) {starts = array<i64: 0, 0>, limits = array<i64: 8, 32>, strides = array<i64: 1, 1>} : (tensor<8x64xf32>) -> tensor<8x32xf32>
  %4 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 4, 64>, strides = array<i64: 1, 1>} : (tensor<8x64xf32>) -> tensor<4x64xf32>
  %5 = "graph.reduce_sum"(%4) {dims = array<i64: 0>, keepdim = false} : (tensor<4x64xf32>) -> tensor<64xf32>
  %6 = "graph.add"(%3, %3) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return %1, %x, %6 : tensor<8x16xf32>, tensor<8x64xf32>, tensor<8x32xf32>
}
func.func @grid(%x: tensor<8x16xf32> {braze.sharding = [["dp"], []]}, %w: tensor<16x32xf32> {braze.sharding = [[], ["tp"]]})
    -> (tensor<8x32xf32> {braze.sharding = [["dp"], ["tp"]]}, tensor<32xf32>) attributes {braze.mesh = [["dp", 2], ["tp", 2]]} {
  %0 = "graph.matmul"(%x, %w) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %1 = "graph.reduce_sum"(%0) {dims = array<i64: 0>, keepdim = false} : (tensor<8x32xf32>) -> tensor<32xf32>
  return %0, %1 : tensor<8x32xf32>, tensor<32xf32>
}
