// The collectives report: each collective a partition inserts (kind, axes, the
// tensor, the op and location that needs it, bytes per rank) and the total; the same
// file with mesh=tp:4 needs the same collectives, each rank receiving whole tensors
// (the same bytes), and a mesh of one device needs none.
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-propagate=report -o /dev/null 2>&1 | FileCheck %s
// RUN: rm -f %t.txt && braze-opt --cpu=x86-64-v4 %s --shard-propagate=report=%t.txt -o /dev/null && FileCheck %s < %t.txt
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-propagate{report mesh=tp:4})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-propagate{report mesh=tp:1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// The annotations it writes, and that they are a fixed point:
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-propagate | FileCheck %s --check-prefix=IR
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-propagate | braze-opt --cpu=x86-64-v4 --shard-propagate=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: shard report: @ffn on mesh tp=2 (2 devices)
// FIX-NEXT: all_reduce(sum) over tp of tensor<8x64xf32> (operand #0 of graph.add at {{.*}}): 2048 bytes per rank
// FIX-NEXT: all_gather dim 1 over tp of tensor<8x256xf32> (operand #1 of func.return at {{.*}}): 8192 bytes per rank
// FIX-NEXT: total: 2 collectives, 10240 bytes per rank

// CHECK: shard report: @ffn on mesh tp=2 (2 devices)
// CHECK-NEXT: all_reduce(sum) over tp of tensor<8x64xf32> (operand #0 of graph.add at {{.*}}report.mlir:[[@LINE+21]]:8): 2048 bytes per rank
// CHECK-NEXT: all_gather dim 1 over tp of tensor<8x256xf32> (operand #1 of func.return at {{.*}}report.mlir:[[@LINE+21]]:3): 8192 bytes per rank
// CHECK-NEXT: total: 2 collectives, 10240 bytes per rank
// FOUR: shard report: @ffn on mesh tp=4 (4 devices)
// FOUR-NEXT: all_reduce(sum) over tp of tensor<8x64xf32> {{.*}}: 2048 bytes per rank
// FOUR-NEXT: all_gather dim 1 over tp of tensor<8x256xf32> {{.*}}: 8192 bytes per rank
// FOUR-NEXT: total: 2 collectives, 10240 bytes per rank
// ONE: shard report: @ffn on mesh tp=1 (1 device)
// ONE-NEXT: total: 0 collectives, 0 bytes per rank

// IR: func.func @ffn
// IR: "graph.matmul"{{.*}}braze.sharding = {{\[\[\], \["tp"\]\]}}
// IR: "graph.gelu"{{.*}}braze.sharding = {{\[\[\], \["tp"\]\]}}
// IR: "graph.matmul"{{.*}}braze.partial_sum = ["tp"], braze.sharding = {{\[\[\], \[\]\]}}
// IR: "graph.add"{{.*}}braze.sharding = {{\[\[\], \[\]\]}}
func.func @ffn(%x: tensor<8x64xf32>, %w1: tensor<64x256xf32> {braze.sharding = [[], ["tp"]]},
               %w2: tensor<256x64xf32> {braze.sharding = [["tp"], []]}) -> (tensor<8x64xf32>, tensor<8x256xf32>)
    attributes {braze.mesh = [["tp", 2]]} {
  %h = "graph.matmul"(%x, %w1) : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %g = "graph.gelu"(%h) {approximate = "none"} : (tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = "graph.matmul"(%g, %w2) : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  %r = "graph.add"(%y, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r, %g : tensor<8x64xf32>, tensor<8x256xf32>
}
