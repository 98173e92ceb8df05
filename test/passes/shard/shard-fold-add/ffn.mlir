// shard-fold-add on the partitioned llama FFN (gate and up split by columns, down by
// rows): the residual add after the all_reduce moves into the partial sums. Each rank
// adds x / 2 to its partial product and the all_reduce's result is the FFN's output,
// so the add runs in the down projection's kernel and nothing follows the collective.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-fold-add{remarks}))' 2>&1 | FileCheck %s
// On four ranks each adds x / 4:
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition{mesh=tp:4},func.func(shard-fold-add))' | FileCheck %s --check-prefix=FOUR
// Then shard-chunk splits the new cone (the add and the scaling join it; x is sliced
// per chunk) and the chunks' sums are the result's rows, concatenated:
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-fold-add,shard-chunk{last-share=0 align=4 min-bytes=0 remarks}))' 2>&1 | FileCheck %s --check-prefix=CHUNK
// A one-device mesh has no all_reduce: nothing changes.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition{mesh=tp:1},func.func(shard-fold-add))' | FileCheck %s --check-prefix=ONE
// The folded program, simulated on 2 and 4 ranks, chunked or not, gives the
// unpartitioned function's result (in f32 the extra rounding of p + x/n is within
// the bound):
// RUN: braze check %s --mesh=tp:2 --mesh-passes='shard-fold-add' | FileCheck %s --check-prefix=SIM
// RUN: braze check %s --mesh=tp:4 --mesh-passes='shard-fold-add' | FileCheck %s --check-prefix=SIM
// RUN: braze check %s --mesh=tp:2 --mesh-passes='shard-fold-add,shard-chunk{sizes=4,12 min-bytes=0}' | FileCheck %s --check-prefix=SIM
// SIM: PASS  @ffn out0 16x8xf32
// SIM-NEXT: check passed

// CHECK: ffn.mlir:[[@LINE+31]]:8: remark: shard-fold-add: the add after the all_reduce folded into its partial sums (each of the 2 ranks adds the addend / 2)
// CHECK-LABEL: func.func @ffn(%arg0: tensor<16x8xf32>
// CHECK: %[[D:.*]] = "graph.matmul"({{.*}}) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %[[HALF:.*]] = "graph.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[XH:.*]] = "graph.mul"(%arg0, %[[HALF]]) : (tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
// CHECK-NEXT: %[[Q:.*]] = "graph.add"(%[[D]], %[[XH]]) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %[[Y:.*]] = "graph.all_reduce"(%[[Q]]) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %[[Y]] : tensor<16x8xf32>

// FOUR: "graph.constant"() {value = dense<2.500000e-01> : tensor<f32>}

// CHUNK: remark: shard-chunk: all_reduce of 512 bytes per rank in 2 chunks of rows [8, 8]: 8 op(s) each, then its own all_reduce; carried through 0 reader(s) in 2 piece(s) before the concat
// CHUNK: %[[R0:.*]] = "graph.all_reduce"({{.*}}) -> tensor<8x8xf32>
// CHUNK: %[[R1:.*]] = "graph.all_reduce"({{.*}}) -> tensor<8x8xf32>
// CHUNK-NEXT: %[[Y:.*]] = "graph.concat"(%[[R0]], %[[R1]]) {dim = 0 : i64} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
// CHUNK-NEXT: return %[[Y]]

// ONE-NOT: graph.all_reduce
// ONE-NOT: graph.constant
// ONE: return
func.func @ffn(%x: tensor<16x8xf32>, %g: tensor<8xf32>,
               %wg: tensor<8x32xf32> {braze.sharding = [[], ["tp"]]},
               %wu: tensor<8x32xf32> {braze.sharding = [[], ["tp"]]},
               %wd: tensor<32x8xf32> {braze.sharding = [["tp"], []]}) -> tensor<16x8xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  %h = "graph.rms_norm"(%x, %g) {axis = 1 : i64, eps = 1.0e-06 : f32} : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  %a = "graph.matmul"(%h, %wg) : (tensor<16x8xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
  %sa = "graph.silu"(%a) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %u = "graph.matmul"(%h, %wu) : (tensor<16x8xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
  %p = "graph.mul"(%sa, %u) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %d = "graph.matmul"(%p, %wd) : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %y = "graph.add"(%x, %d) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}
