// A concatenation keeps the element kernel's vector lanes when every piece's last
// extent and its offset along the last dim are multiples of them: a concat along dim 0
// (shard-chunk's token chunks, with the residual adds fused in) loads and stores 4
// lanes at once; pieces meeting at column 6 fall back to one element per thread.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// REMARK: kernel @cuda_poi_fused_add_concat_0: element kernel, grid (1, 1, 1), block 32, vector width 4
// REMARK: kernel @cuda_poi_fused_concat_1: element kernel, grid (1, 1, 1), block 64, vector width 1

// the pieces, last first: rows 8.. of x plus q, stored at row + 8; then rows 0..7
// CHECK-LABEL: gpu.func @cuda_poi_fused_add_concat_0(
// CHECK-SAME: %[[X:[^:]*]]: memref<16x8xf32>, %[[P:[^:]*]]: memref<8x8xf32>, %[[Q:[^:]*]]: memref<8x8xf32>, %[[O:[^:]*]]: memref<16x8xf32>)
// CHECK: %[[R:.*]] = arith.divui
// CHECK: %[[R8:.*]] = arith.addi %[[R]], %c8 : index
// CHECK: vector.load %[[X]][%[[R8]], %{{.*}}] {{.*}} vector<4xf32>
// CHECK: vector.load %[[Q]][%[[R]], %{{.*}}] {{.*}} vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[O]][%[[R8]], %{{.*}}] {{.*}} vector<4xf32>
// CHECK: vector.load %[[P]][%[[R]], %{{.*}}] {{.*}} vector<4xf32>
// CHECK: vector.store %{{.*}}, %[[O]][%[[R]], %{{.*}}] {{.*}} vector<4xf32>
// CHECK-LABEL: gpu.func @cuda_poi_fused_concat_1(
// CHECK-NOT: vector<4xf32>
// CHECK: gpu.return
func.func @rows(%x: tensor<16x8xf32>, %p: tensor<8x8xf32>, %q: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %x0 = "graph.slice"(%x) {starts = array<i64: 0, 0>, limits = array<i64: 8, 8>, strides = array<i64: 1, 1>} : (tensor<16x8xf32>) -> tensor<8x8xf32>
  %x1 = "graph.slice"(%x) {starts = array<i64: 8, 0>, limits = array<i64: 16, 8>, strides = array<i64: 1, 1>} : (tensor<16x8xf32>) -> tensor<8x8xf32>
  %y0 = "graph.add"(%x0, %p) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %y1 = "graph.add"(%x1, %q) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = "graph.concat"(%y0, %y1) {dim = 0 : i64} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

func.func @cols(%a: tensor<8x6xf32>, %b: tensor<8x2xf32>) -> tensor<8x8xf32> {
  %0 = "graph.concat"(%a, %b) {dim = 1 : i64} : (tensor<8x6xf32>, tensor<8x2xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
