// shard-partition on Megatron's FFN (W1 column split, W2 row split): the per-device
// program on local shapes with one all_reduce before the residual add. The same file
// partitions for 4 devices (mesh=tp:4) and for 1 (mesh=tp:1: the program unchanged,
// no collective). Run after shard-propagate the result is the same.
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition | FileCheck %s --check-prefixes=CHECK,TP2
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-propagate --shard-partition | FileCheck %s --check-prefixes=CHECK,TP2
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition=mesh=tp:4 | FileCheck %s --check-prefixes=CHECK,TP4
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition=mesh=tp:1 | FileCheck %s --check-prefix=TP1
// The output verifies and is final:
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition | braze-opt --cpu=x86-64-v4 --graph-verify | FileCheck %s --check-prefixes=CHECK,TP2

// TP2-LABEL: func.func @ffn(%arg0: tensor<8x64xf32>, %arg1: tensor<64x128xf32> {braze.sharding = {{\[\[\], \["tp"\]\]}}}, %arg2: tensor<128x64xf32> {braze.sharding = {{\[\["tp"\], \[\]\]}}}) -> tensor<8x64xf32> attributes {braze.mesh = {{\[\["tp", 2\]\]}}, braze.partitioned}
// TP4-LABEL: func.func @ffn(%arg0: tensor<8x64xf32>, %arg1: tensor<64x64xf32> {{.*}}, %arg2: tensor<64x64xf32> {{.*}}) -> tensor<8x64xf32> attributes {braze.mesh = {{\[\["tp", 4\]\]}}, braze.partitioned}
// TP2-NEXT: %[[H:.*]] = "graph.matmul"(%arg0, %arg1) : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
// TP4-NEXT: %[[H:.*]] = "graph.matmul"(%arg0, %arg1) : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %[[G:.*]] = "graph.gelu"(%[[H]])
// CHECK-NEXT: %[[Y:.*]] = "graph.matmul"(%[[G]], %arg2) {{.*}} -> tensor<8x64xf32>
// CHECK-NEXT: %[[R:.*]] = "graph.all_reduce"(%[[Y]]) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %[[O:.*]] = "graph.add"(%[[R]], %arg0) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: return %[[O]] : tensor<8x64xf32>
// CHECK-NOT: graph.all_

// TP1-LABEL: func.func @ffn(%arg0: tensor<8x64xf32>, %arg1: tensor<64x256xf32> {{.*}}, %arg2: tensor<256x64xf32> {{.*}}) -> tensor<8x64xf32> attributes {braze.mesh = {{\[\["tp", 1\]\]}}, braze.partitioned}
// TP1-NOT: graph.all_
// TP1: return
func.func @ffn(%x: tensor<8x64xf32>, %w1: tensor<64x256xf32> {braze.sharding = [[], ["tp"]]},
               %w2: tensor<256x64xf32> {braze.sharding = [["tp"], []]}) -> tensor<8x64xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  %h = "graph.matmul"(%x, %w1) : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %g = "graph.gelu"(%h) {approximate = "none"} : (tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = "graph.matmul"(%g, %w2) : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  %r = "graph.add"(%y, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
