// The matmul template's B read along k (x @ w^T with w [n, k]: attention's q @ k^T, a
// linear layer's weight argument): each panel is packed by squares of lanes x lanes
// values, lanes rows of w loaded as vectors along k, transposed in registers by
// log2(lanes) stages of two-source vector.shuffles, stored as rows of the panel; rows past
// N are zero. The element-by-element packing it replaces vectorized into scatters. K not
// a multiple of the vector keeps the element path. Numerics against the reference with
// 16 and 8 lanes (N = 20: the second panel half past N).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-verify --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="remarks lanes=8 nr=16" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze check %s --seed 2 | FileCheck %s --check-prefix=NUM
// RUN: braze check %s --seed 3 --pipeline=%S/Inputs/cpu-lanes8.pipeline | FileCheck %s --check-prefix=NUM
// REMARK: remark: cpu-codegen: kernel @cpu_tem_fused_batch_matmul_0: matmul template gemm {{.*}} vw=8 b=packed-per-panel-transposed-by-squares, 10x20x32
// REMARK: remark: cpu-codegen: kernel @cpu_tem_fused_batch_matmul_1: matmul template gemm {{.*}} vw=8 b=packed-per-panel-transposed, 10x20x12
// NUM: PASS  @squares
// NUM: PASS  @odd_k

// CHECK-LABEL: func.func private @cpu_tem_fused_batch_matmul_0(
// CHECK: %[[R0:.*]] = vector.load %arg1[%{{.*}}, %{{.*}}, %[[K0:.*]]] : memref<2x20x32xf32>, vector<8xf32>
// CHECK: %[[R1:.*]] = vector.load %arg1
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 2, 10, 4, 12, 6, 14] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT: vector.shuffle %{{.*}}, %{{.*}} [1, 9, 3, 11, 5, 13, 7, 15] : vector<8xf32>, vector<8xf32>
// CHECK-COUNT-22: vector.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[K0]], %c0] : memref<32x16xf32>, vector<8xf32>
// CHECK-LABEL: func.func private @cpu_tem_fused_batch_matmul_1(
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @squares(%x: tensor<2x10x32xf32>, %w: tensor<2x20x32xf32>) -> tensor<2x10x20xf32> {
  %wt = "graph.transpose"(%w) {perm = array<i64: 0, 2, 1>} : (tensor<2x20x32xf32>) -> tensor<2x32x20xf32>
  %y = "graph.batch_matmul"(%x, %wt) : (tensor<2x10x32xf32>, tensor<2x32x20xf32>) -> tensor<2x10x20xf32>
  return %y : tensor<2x10x20xf32>
}

func.func @odd_k(%x: tensor<2x10x12xf32>, %w: tensor<2x20x12xf32>) -> tensor<2x10x20xf32> {
  %wt = "graph.transpose"(%w) {perm = array<i64: 0, 2, 1>} : (tensor<2x20x12xf32>) -> tensor<2x12x20xf32>
  %y = "graph.batch_matmul"(%x, %wt) : (tensor<2x10x12xf32>, tensor<2x12x20xf32>) -> tensor<2x10x20xf32>
  return %y : tensor<2x10x20xf32>
}
