// cuda-codegen reads and writes i1 tensors one element at a time: LLVM lays a
// vector<4xi1> out in memory as 4 bits, not the 4 bytes of a memref<4xi1> (a 4-lane
// store of a comparison wrote one byte for four results). The comparison's f32 inputs
// keep their 4-lane loads; the f32 kernel beside it keeps its 4-lane store.
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default | FileCheck %s

// CHECK-LABEL: gpu.func @cuda_poi_fused_cmp_0(
// CHECK: vector.load %{{.*}} : memref<8xf32>, vector<4xf32>
// CHECK-NOT: vector<4xi1>
// CHECK: memref.store %{{.*}} : memref<8xi1>
// CHECK-LABEL: gpu.func @cuda_poi_fused_add_1(
// CHECK: vector.store %{{.*}} : memref<8xf32>, vector<4xf32>
func.func @compare(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xi1> {
  %c = "graph.cmp"(%a, %b) {predicate = "gt"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %c : tensor<8xi1>
}
func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %c = "graph.add"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
