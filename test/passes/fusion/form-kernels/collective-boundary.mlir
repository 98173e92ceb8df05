// Collectives are fusion boundaries (decision 0015): graph-to-loops leaves them as
// graph ops (a view operand is materialized first), inline-unrealized realizes what
// they read, and form-kernels never puts one in a kernel: the row-split matmul and
// the residual add, one `tem` kernel (matmul + epilogue) without the all_reduce
// between them, are two kernels around it, the all_reduce in the graph function.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels)' | FileCheck %s
// Without the collective the add is the matmul's epilogue:
// RUN: sed -e 's/%r = "graph.all_reduce"(%y).*/%r = "graph.neg"(%y) : (tensor<8x64xf32>) -> tensor<8x64xf32>/' %s \
// RUN:   | braze-opt --cpu=x86-64-v4 --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels)' | FileCheck %s --check-prefix=FUSED
// The CPU target refuses to compile a partitioned program, naming the collective (the
// CUDA target compiles it: test/targets/cuda/collectives.test):
// RUN: not braze compile %s -o %t.so 2>&1 | FileCheck %s --check-prefix=COMPILE

// CHECK-LABEL: func.func private @cpu_tem_fused_matmul_0(
// CHECK-NOT: graph.all_reduce
// CHECK-LABEL: func.func private @cpu_poi_fused_add_1(
// CHECK-NOT: graph.all_reduce
// CHECK-LABEL: func.func private @cpu_poi_fused_transpose_2(
// CHECK-NOT: graph.all_reduce
// CHECK-LABEL: func.func @row_parallel(
// CHECK: %[[Y:.*]] = call @cpu_tem_fused_matmul_0(
// CHECK-NEXT: %[[R:.*]] = "graph.all_reduce"(%[[Y]]) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: %[[A:.*]] = call @cpu_poi_fused_add_1(%[[R]], %arg0)
// CHECK-NEXT: %[[T:.*]] = call @cpu_poi_fused_transpose_2(%[[A]])
// CHECK-NEXT: %[[G:.*]] = "graph.all_gather"(%[[T]]) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<64x8xf32>) -> tensor<128x8xf32>
// CHECK-NEXT: return %[[A]], %[[G]]

// FUSED-LABEL: func.func private @cpu_tem_fused_matmul_neg_add_0(
// FUSED-LABEL: func.func @row_parallel(
// FUSED-NEXT: call @cpu_tem_fused_matmul_neg_add_0(

// COMPILE: collective-boundary.mlir:[[@LINE+6]]:8: error: cpu-codegen: 'graph.all_reduce' is a collective: this target does not compile partitioned programs (the cuda target does, over NCCL)
func.func @row_parallel(%x: tensor<8x64xf32>, %g: tensor<8x128xf32> {braze.sharding = [[], ["tp"]]},
                        %w2: tensor<128x64xf32> {braze.sharding = [["tp"], []]})
    -> (tensor<8x64xf32>, tensor<128x8xf32>)
    attributes {braze.mesh = [["tp", 2]], braze.partitioned} {
  %y = "graph.matmul"(%g, %w2) : (tensor<8x128xf32>, tensor<128x64xf32>) -> tensor<8x64xf32>
  %r = "graph.all_reduce"(%y) {mesh_axes = ["tp"], reduction = "sum"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %o = "graph.add"(%r, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %t = "graph.transpose"(%o) {perm = array<i64: 1, 0>} : (tensor<8x64xf32>) -> tensor<64x8xf32>
  %a = "graph.all_gather"(%t) {dim = 0 : i64, mesh_axes = ["tp"]} : (tensor<64x8xf32>) -> tensor<128x8xf32>
  return %o, %a : tensor<8x64xf32>, tensor<128x8xf32>
}
