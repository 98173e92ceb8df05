// cuda-codegen on a hand-written per-device program (decision 0018): an all_gather along
// dim 1 (not the outermost: the ranks' blocks interleave in every row) and an all_to_all
// get staging space in the workspace, a third operand (the gathered blocks; the packed
// send and receive pieces, twice x); an all_gather along dim 0 and an all_reduce into
// a result need none, the latter out of place into the out argument. The two staging
// spaces do not share the workspace: a collective may still run on a second stream
// until its result is read (here: the entry's end), its staging kept that long.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{matmul=simt remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// CHECK-LABEL: func.func @kinds(
// CHECK-SAME: %[[X:.*]]: memref<8x6xf32>, %[[O0:.*]]: memref<8x12xf32>, %[[O1:.*]]: memref<16x6xf32>, %[[O2:.*]]: memref<4x12xf32>, %[[O3:.*]]: memref<8x6xf32>, %[[WS:.*]]: memref<{{[0-9]+}}xi8>)
// CHECK: %[[S0:.*]] = memref.view %[[WS]]
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O0]], %[[S0]]) {{{.*}}dim = 1 : i64, kind = "all_gather"{{.*}}} : (memref<8x6xf32>, memref<8x12xf32>, memref<384xi8>) -> ()
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O1]]) {{{.*}}dim = 0 : i64, kind = "all_gather"{{.*}}} : (memref<8x6xf32>, memref<16x6xf32>) -> ()
// CHECK-NEXT: %[[S2:.*]] = memref.view %[[WS]]
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O2]], %[[S2]]) {{{.*}}concat_dim = 1 : i64, {{.*}}kind = "all_to_all"{{.*}}split_dim = 0 : i64{{.*}}} : (memref<8x6xf32>, memref<4x12xf32>, memref<384xi8>) -> ()
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O3]]) {{{.*}}kind = "all_reduce", mesh_shape = array<i64: 2>, reduction = "max"{{.*}}} : (memref<8x6xf32>, memref<8x6xf32>) -> ()
// CHECK-NEXT: return
func.func @kinds(%x: tensor<8x6xf32>) -> (tensor<8x12xf32>, tensor<16x6xf32>, tensor<4x12xf32>, tensor<8x6xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %0 = "graph.all_gather"(%x) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x6xf32>) -> tensor<8x12xf32>
  %1 = "graph.all_gather"(%x) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<8x6xf32>) -> tensor<16x6xf32>
  %2 = "graph.all_to_all"(%x) {concat_dim = 1 : i64, mesh_axes = ["tp"], split_dim = 0 : i64} : (tensor<8x6xf32>) -> tensor<4x12xf32>
  %3 = "graph.all_reduce"(%x) {mesh_axes = ["tp"], reduction = "max"} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0, %1, %2, %3 : tensor<8x12xf32>, tensor<16x6xf32>, tensor<4x12xf32>, tensor<8x6xf32>
}

// REMARK: remark: cuda-codegen: entry @kinds: {{.*}}, 0 kernel call(s), 4 collective(s)

// A collective may run on a second stream until the first step reading its result
// (decision 0018, overlap): its staging space is kept until then, so exp's output, made
// meanwhile, gets other workspace (offset 768) than the all_gather's staging (384).
// CHECK-LABEL: func.func @held(
// CHECK-DAG: %[[C384:.*]] = arith.constant 384 : index
// CHECK-DAG: %[[C768:.*]] = arith.constant 768 : index
// CHECK: %[[S:.*]] = memref.view %{{.*}}[%[[C384]]][] : memref<1280xi8> to memref<384xi8>
// CHECK-NEXT: "kernel.collective"(%{{.*}}, %[[G:.*]], %[[S]]) {{{.*}}kind = "all_gather"
// CHECK-NEXT: %[[E:.*]] = memref.view %{{.*}}[%[[C768]]][] : memref<1280xi8> to memref<8x16xf32>
// CHECK-NEXT: gpu.launch_func @braze_kernels::@cuda_poi_fused_exp_{{[0-9]+}} {{.*}}, %[[E]] : memref<8x16xf32>)
// CHECK: gpu.launch_func @braze_kernels::@cuda_poi_fused_neg_{{[0-9]+}} {{.*}} args(%[[G]] : memref<8x12xf32>
func.func @held(%x: tensor<8x6xf32>, %z: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> (tensor<8x12xf32>, tensor<8x8xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %g = "graph.all_gather"(%x) {dim = 1 : i64, mesh_axes = ["tp"]} : (tensor<8x6xf32>) -> tensor<8x12xf32>
  %e = "graph.exp"(%z) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = "graph.matmul"(%e, %w) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %n = "graph.neg"(%g) : (tensor<8x12xf32>) -> tensor<8x12xf32>
  return %n, %m : tensor<8x12xf32>, tensor<8x8xf32>
}
