// form-row-chains: attention's three kernels (q @ k^T, softmax, @ v) become one `chain`
// kernel that runs blocks of `rows` rows of one head: an scf.forall over (head, row
// block) slicing q by rows (ROW) and k, v by head (BATCH), calling each kernel's block
// form (the kernel retyped to 1 x rows, kernel.serial) with the scratch intermediates
// passed from call to call.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{rows=32})' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains{disable})' | FileCheck %s --check-prefix=OFF
// Default options: 8 blocks (2 heads x 4 blocks of 16 rows) would pack k and v 3 more
// times per head, more than a quarter of the 2 x 32 KiB of scores saved: no chain
// (remarks.mlir shows the reasons).
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels,form-row-chains)' | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func private @cpu_tem_fused_batch_matmul_0_rows(
// CHECK-SAME: %arg0: tensor<1x32x16xf32>, %arg1: tensor<1x64x16xf32>) -> tensor<1x32x64xf32>
// CHECK-SAME: kernel.kind = "tem"
// CHECK-SAME: kernel.serial
// CHECK: linalg.fill {{.*}} -> tensor<1x32x64xf32>
// CHECK-LABEL: func.func private @cpu_per_fused_softmax_1_rows(%arg0: tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
// CHECK: tensor.empty() : tensor<1x32x1xf32>
// CHECK-LABEL: func.func private @cpu_tem_fused_batch_matmul_2_rows(%arg0: tensor<1x32x64xf32>, %arg1: tensor<1x64x16xf32>) -> tensor<1x32x16xf32>
// CHECK-LABEL: func.func private @cpu_chain_fused_batch_matmul_softmax_0(
// CHECK-SAME: kernel.kind = "chain"
// CHECK-SAME: kernel.ops = ["batch_matmul", "reduce_max", "sub", "exp", "reduce_sum", "div", "batch_matmul"]
// CHECK-SAME: kernel.rows = 32
// CHECK: %[[R:.*]] = scf.forall (%[[B:.*]], %[[M:.*]]) = (0, 0) to (2, 64) step (1, 32) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<2x64x16xf32>)
// CHECK: %[[Q:.*]] = tensor.extract_slice %arg0[%[[B]], %[[M]], 0] [1, 32, 16] [1, 1, 1]
// CHECK: %[[K:.*]] = tensor.extract_slice %arg1[%[[B]], 0, 0] [1, 64, 16] [1, 1, 1]
// CHECK: %[[V:.*]] = tensor.extract_slice %arg2[%[[B]], 0, 0] [1, 64, 16] [1, 1, 1]
// CHECK: %[[S:.*]] = func.call @cpu_tem_fused_batch_matmul_0_rows(%[[Q]], %[[K]])
// CHECK: %[[P:.*]] = func.call @cpu_per_fused_softmax_1_rows(%[[S]])
// CHECK: %[[Y:.*]] = func.call @cpu_tem_fused_batch_matmul_2_rows(%[[P]], %[[V]])
// CHECK: tensor.parallel_insert_slice %[[Y]] into %[[O]][%[[B]], %[[M]], 0] [1, 32, 16] [1, 1, 1]
// CHECK: return %[[R]]
// CHECK-LABEL: func.func @attention(
// CHECK-NEXT: %[[C:.*]] = call @cpu_chain_fused_batch_matmul_softmax_0(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[C]]

// OFF-NOT: chain
// OFF: call @cpu_tem_fused_batch_matmul_0(
// OFF: call @cpu_per_fused_softmax_1(
// OFF: call @cpu_tem_fused_batch_matmul_2(

func.func @attention(%q: tensor<2x64x16xf32>, %k: tensor<2x64x16xf32>, %v: tensor<2x64x16xf32>) -> tensor<2x64x16xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x64x16xf32>) -> tensor<2x16x64xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x64x16xf32>, tensor<2x16x64xf32>) -> tensor<2x64x64xf32>
  %p = "graph.softmax"(%s) {dim = 2 : i64} : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %y = "graph.batch_matmul"(%p, %v) : (tensor<2x64x64xf32>, tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  return %y : tensor<2x64x16xf32>
}
