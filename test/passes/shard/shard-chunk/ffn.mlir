// shard-chunk on the partitioned llama FFN (rms_norm, gate and up split by columns,
// down by rows, one all_reduce before the residual add): the rows (tokens) of the
// computation feeding the all_reduce in chunks, each chunk its own all_reduce, the
// residual add carried through per chunk and one concat at the end, so that each
// all_reduce can run while the next chunk computes. x is sliced per chunk; the norm's
// weight and the three matrices are read whole by every chunk.
// (last-share=0: even chunks; by default the last chunk has a quarter of the rows, the
// DEFAULT run below.)
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{last-share=0 align=4 min-bytes=0 remarks}))' 2>&1 | FileCheck %s
// Chunks of different sizes: the add and the concat work on pieces of their greatest
// common divisor (4 rows), so that the concat's inserts have one shape; pieces=1
// keeps the chunks whole:
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{sizes=4,12 min-bytes=0 remarks}))' 2>&1 | FileCheck %s --check-prefix=PIECES
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{sizes=4,12 pieces=1 min-bytes=0}))' 2>&1 | FileCheck %s --check-prefix=WHOLE
// last-share= gives the last chunk that percentage of the rows (aligned), the others
// split the rest evenly:
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{chunks=3 last-share=25 align=2 min-bytes=0 remarks}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARE
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{align=4 min-bytes=0 remarks}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: shard-chunk: all_reduce of 512 bytes per rank in 2 chunks of rows [12, 4]: 6 op(s) each, then its own all_reduce; carried through 1 reader(s) in 4 piece(s) before the concat
// The output verifies; chunks=1 and a one-device mesh (no all_reduce) change nothing:
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{chunks=4 align=1 min-bytes=0}),graph-verify)' -o /dev/null
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition,func.func(shard-chunk{chunks=1 min-bytes=0}))' | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition{mesh=tp:1},func.func(shard-chunk{min-bytes=0}))' | FileCheck %s --check-prefix=OFF
// Every rank's chunked program, simulated, gives the unpartitioned function's result
// (each op computes the same rows: the error is the partition's own, that of the
// unchunked program):
// RUN: braze check %s --mesh=tp:2 --mesh-passes='shard-chunk{last-share=0 align=4 min-bytes=0}' | FileCheck %s --check-prefix=SIM
// RUN: braze check %s --mesh=tp:2 --mesh-passes='shard-chunk{sizes=4,12 min-bytes=0}' | FileCheck %s --check-prefix=SIM
// RUN: braze check %s --mesh=tp:4 --mesh-passes='shard-chunk{chunks=4 align=1 min-bytes=0}' | FileCheck %s --check-prefix=SIM4
// RUN: braze check %s --mesh=tp:2 --mesh-passes='shard-chunk{align=4 min-bytes=0}' | FileCheck %s --check-prefix=SIM
// RUN: braze check %s --mesh=tp:2 | FileCheck %s --check-prefix=SIM
// SIM: PASS  @ffn out0 16x8xf32           max rel err 9.12e-07 (bound 1e-04)
// SIM4: PASS  @ffn out0 16x8xf32

// CHECK: ffn.mlir:[[@LINE+56]]:8: remark: shard-chunk: all_reduce of 512 bytes per rank in 2 chunks of rows [8, 8]: 6 op(s) each, then its own all_reduce; carried through 1 reader(s) in 2 piece(s) before the concat
// CHECK-LABEL: func.func @ffn(%arg0: tensor<16x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8x16xf32>
// CHECK-NEXT: %[[X0:.*]] = "graph.slice"(%arg0) {limits = array<i64: 8, 8>, starts = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[H0:.*]] = "graph.rms_norm"(%[[X0]], %arg1) {{.*}} -> tensor<8x8xf32>
// CHECK-NEXT: %[[A0:.*]] = "graph.matmul"(%[[H0]], %arg2) : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %[[S0:.*]] = "graph.silu"(%[[A0]])
// CHECK-NEXT: %[[U0:.*]] = "graph.matmul"(%[[H0]], %arg3)
// CHECK-NEXT: %[[P0:.*]] = "graph.mul"(%[[S0]], %[[U0]])
// CHECK-NEXT: %[[D0:.*]] = "graph.matmul"(%[[P0]], %arg4) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[R0:.*]] = "graph.all_reduce"(%[[D0]]) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[X1:.*]] = "graph.slice"(%arg0) {limits = array<i64: 16, 8>, starts = array<i64: 8, 0>, {{.*}}} : (tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[H1:.*]] = "graph.rms_norm"(%[[X1]], %arg1)
// CHECK-NEXT: %[[A1:.*]] = "graph.matmul"(%[[H1]], %arg2)
// CHECK-NEXT: %[[S1:.*]] = "graph.silu"(%[[A1]])
// CHECK-NEXT: %[[U1:.*]] = "graph.matmul"(%[[H1]], %arg3)
// CHECK-NEXT: %[[P1:.*]] = "graph.mul"(%[[S1]], %[[U1]])
// CHECK-NEXT: %[[D1:.*]] = "graph.matmul"(%[[P1]], %arg4)
// CHECK-NEXT: %[[R1:.*]] = "graph.all_reduce"(%[[D1]])
// CHECK-NEXT: %[[XA:.*]] = "graph.slice"(%arg0) {limits = array<i64: 8, 8>, starts = array<i64: 0, 0>,
// CHECK-NEXT: %[[Y0:.*]] = "graph.add"(%[[XA]], %[[R0]]) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[XB:.*]] = "graph.slice"(%arg0) {limits = array<i64: 16, 8>, starts = array<i64: 8, 0>,
// CHECK-NEXT: %[[Y1:.*]] = "graph.add"(%[[XB]], %[[R1]])
// CHECK-NEXT: %[[Y:.*]] = "graph.concat"(%[[Y0]], %[[Y1]]) {dim = 0 : i64} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: return %[[Y]] : tensor<16x8xf32>

// PIECES: remark: shard-chunk: all_reduce of 512 bytes per rank in 2 chunks of rows [4, 12]: 6 op(s) each, then its own all_reduce; carried through 1 reader(s) in 4 piece(s) before the concat
// PIECES: %[[R0:.*]] = "graph.all_reduce"({{.*}}) -> tensor<4x8xf32>
// PIECES: %[[R1:.*]] = "graph.all_reduce"({{.*}}) -> tensor<12x8xf32>
// PIECES-NEXT: %[[Q1:.*]] = "graph.slice"(%[[R1]]) {limits = array<i64: 4, 8>, starts = array<i64: 0, 0>, {{.*}}} : (tensor<12x8xf32>) -> tensor<4x8xf32>
// PIECES-NEXT: %[[Q2:.*]] = "graph.slice"(%[[R1]]) {limits = array<i64: 8, 8>, starts = array<i64: 4, 0>,
// PIECES-NEXT: %[[Q3:.*]] = "graph.slice"(%[[R1]]) {limits = array<i64: 12, 8>, starts = array<i64: 8, 0>,
// PIECES-COUNT-4: "graph.add"{{.*}} -> tensor<4x8xf32>
// PIECES-COUNT-3: "graph.concat"
// PIECES-NEXT: return

// WHOLE: "graph.add"{{.*}} -> tensor<4x8xf32>
// WHOLE: "graph.add"{{.*}} -> tensor<12x8xf32>
// WHOLE-NEXT: "graph.concat"{{.*}} : (tensor<4x8xf32>, tensor<12x8xf32>) -> tensor<16x8xf32>

// SHARE: remark: shard-chunk: all_reduce of 512 bytes per rank in 3 chunks of rows [6, 6, 4]

// OFF-LABEL: func.func @ffn(
// OFF-NOT: graph.slice
// OFF-NOT: graph.concat
// OFF: return
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
