// Attention with its heads split (Megatron): Q/K/V projections column-split, so the
// heads dim of [S, H, dh] is split after the reshape and stays split through the
// transposes, scores, softmax (over keys) and context; the output projection is
// row-split: one all_reduce in all. The same file checked on 1, 2 and 4 devices
// against the unpartitioned reference.
// RUN: braze-opt --cpu=x86-64-v4 %s --shard-partition | FileCheck %s --check-prefix=IR
// RUN: braze check %s --mesh=tp:1 --seed 3 | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: braze check %s --mesh=tp:2 --seed 3 | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: braze check %s --mesh=tp:4 --seed 3 | FileCheck %s --check-prefixes=CHECK,FOUR
// IR-COUNT-1: "graph.all_reduce"
// IR-NOT: "graph.all_
// ONE: oracle: reference (unpartitioned); simulated on mesh tp=1 (1 device)
// TWO: oracle: reference (unpartitioned); simulated on mesh tp=2 (2 devices)
// FOUR: oracle: reference (unpartitioned); simulated on mesh tp=4 (4 devices)
// CHECK-NEXT: PASS @attention out0 16x32xf32
// CHECK-NEXT: check passed
func.func @attention(%x: tensor<16x32xf32>,
                     %wq: tensor<32x32xf32> {braze.sharding = [[], ["tp"]]},
                     %wk: tensor<32x32xf32> {braze.sharding = [[], ["tp"]]},
                     %wv: tensor<32x32xf32> {braze.sharding = [[], ["tp"]]},
                     %wo: tensor<32x32xf32> {braze.sharding = [["tp"], []]}) -> tensor<16x32xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  %q0 = "graph.matmul"(%x, %wq) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %k0 = "graph.matmul"(%x, %wk) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %v0 = "graph.matmul"(%x, %wv) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %q1 = "graph.reshape"(%q0) : (tensor<16x32xf32>) -> tensor<16x4x8xf32>
  %k1 = "graph.reshape"(%k0) : (tensor<16x32xf32>) -> tensor<16x4x8xf32>
  %v1 = "graph.reshape"(%v0) : (tensor<16x32xf32>) -> tensor<16x4x8xf32>
  %q = "graph.transpose"(%q1) {perm = array<i64: 1, 0, 2>} : (tensor<16x4x8xf32>) -> tensor<4x16x8xf32>
  %kt = "graph.transpose"(%k1) {perm = array<i64: 1, 2, 0>} : (tensor<16x4x8xf32>) -> tensor<4x8x16xf32>
  %v = "graph.transpose"(%v1) {perm = array<i64: 1, 0, 2>} : (tensor<16x4x8xf32>) -> tensor<4x16x8xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  %c = "graph.constant"() {value = dense<0.35355339> : tensor<f32>} : () -> tensor<f32>
  %ss = "graph.mul"(%s, %c) : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16x16xf32>
  %p = "graph.softmax"(%ss) {dim = 2 : i64} : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %o = "graph.batch_matmul"(%p, %v) : (tensor<4x16x16xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o1 = "graph.transpose"(%o) {perm = array<i64: 1, 0, 2>} : (tensor<4x16x8xf32>) -> tensor<16x4x8xf32>
  %o2 = "graph.reshape"(%o1) : (tensor<16x4x8xf32>) -> tensor<16x32xf32>
  %y = "graph.matmul"(%o2, %wo) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
