// cuda-codegen on a hand-written per-device program (decision 0018): an all_gather along
// dim 1 (not the outermost: the ranks' blocks interleave in every row) and an all_to_all
// get staging space in the workspace, a third operand (the gathered blocks; the packed
// send and receive pieces, twice x); an all_gather along dim 0 and an all_reduce into
// a result need none, the latter out of place into the out argument. The two staging
// spaces share the workspace (one step at a time).
// RUN: braze-opt %s --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// CHECK-LABEL: func.func @kinds(
// CHECK-SAME: %[[X:.*]]: memref<8x6xf32>, %[[O0:.*]]: memref<8x12xf32>, %[[O1:.*]]: memref<16x6xf32>, %[[O2:.*]]: memref<4x12xf32>, %[[O3:.*]]: memref<8x6xf32>, %[[WS:.*]]: memref<{{[0-9]+}}xi8>)
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O0]], %[[WS]]) {{{.*}}dim = 1 : i64, kind = "all_gather"{{.*}}} : (memref<8x6xf32>, memref<8x12xf32>, memref<384xi8>) -> ()
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O1]]) {{{.*}}dim = 0 : i64, kind = "all_gather"{{.*}}} : (memref<8x6xf32>, memref<16x6xf32>) -> ()
// CHECK-NEXT: "kernel.collective"(%[[X]], %[[O2]], %[[WS]]) {{{.*}}concat_dim = 1 : i64, {{.*}}kind = "all_to_all"{{.*}}split_dim = 0 : i64{{.*}}} : (memref<8x6xf32>, memref<4x12xf32>, memref<384xi8>) -> ()
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
