// cuda-codegen on ui8 (decision 0010): graph-to-loops already stored the tensors
// signless and chose the unsigned ops, so the kernel divides with divui and reduces
// with minui from the all-ones identity; the row reduction's warp shuffles carry the
// partial minimum zero-extended to i32. The PTX lowering gives div.u16 / min.u16 on
// the zero-extended bytes. The CUDA ABI header names the unsigned C types.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX
// RUN: rm -rf %t && mkdir -p %t && braze compile %s --target=cuda -o %t/libu8.so
// RUN: FileCheck %s --check-prefix=HDR < %t/u8.h

func.func @rowmin_u8(%x: tensor<64x256xui8>, %y: tensor<256xui8>) -> (tensor<64xui8>, tensor<64x256xui8>) {
  %d = "graph.div"(%x, %y) : (tensor<64x256xui8>, tensor<256xui8>) -> tensor<64x256xui8>
  %0 = "graph.reduce_min"(%x) {dims = array<i64: 1>, keepdim = false} : (tensor<64x256xui8>) -> tensor<64xui8>
  return %0, %d : tensor<64xui8>, tensor<64x256xui8>
}

// CHECK-LABEL: gpu.func @cuda_per_fused_div_reduce_min_0(
// CHECK-SAME: memref<64x256xi8>, %{{[^:]*}}: memref<256xi8>, %{{[^:]*}}: memref<64x256xi8>, %{{[^:]*}}: memref<64xi8>)
// CHECK: arith.divui %{{.*}} : i8
// CHECK: arith.minui %{{.*}} : i8
// CHECK: %[[W:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: gpu.shuffle  xor %[[W]]

// PTX: .entry cuda_per_fused_div_reduce_min_0
// PTX: div.u16
// PTX: min.u16
// PTX: shfl.sync.bfly.b32
// PTX: st.global.b8

// HDR: int rowmin_u8(const uint8_t *in0, const uint8_t *in1, uint8_t *out0, uint8_t *out1);
