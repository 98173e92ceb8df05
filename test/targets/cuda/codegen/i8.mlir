// cuda-codegen on i8: arithmetic stays in i8 (wrapping like the reference), and a row
// reduction's warp shuffles carry the i8 partial sums zero-extended to i32 (NVVM
// shuffles 32-bit values only) and truncate them back. The PTX lowering accepts it.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

func.func @rowsum_i8(%x: tensor<64x256xi8>) -> tensor<64xi8> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<64x256xi8>) -> tensor<64xi8>
  return %0 : tensor<64xi8>
}

// CHECK-LABEL: gpu.func @cuda_per_fused_reduce_sum_0(
// CHECK-SAME: memref<64x256xi8>, %{{[^:]*}}: memref<64xi8>) workgroup(%{{[^:]*}} : memref<2xi8, #gpu.address_space<workgroup>>)
// CHECK: vector.load %{{.*}} : memref<64x256xi8>, vector<4xi8>
// CHECK: arith.addi %{{.*}} : i8
// CHECK: %[[W:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[S:.*]], %{{.*}} = gpu.shuffle  xor %[[W]], %c16_i32, %c32_i32 : i32
// CHECK: arith.trunci %[[S]] : i32 to i8
// CHECK: memref.store %{{.*}} : memref<64xi8>

// PTX: .entry cuda_per_fused_reduce_sum_0
// PTX: shfl.sync.bfly.b32
// PTX: st.global.b8
